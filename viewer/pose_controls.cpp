#include "viewer/pose_controls.hpp"

#include <cmath>

#include "engine/swing_twist.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs::view {

namespace {
constexpr double kRadiansPerDegree = bs::pi_value<double>() / 180.0;
}

bool PoseControls::at_rest() const {
    for (const BoneControl& c : bones_)
        if (c.bend_degrees != 0 || c.twist_degrees != 0) return false;
    return true;
}

Pose PoseControls::apply(const Pose& base) const {
    Pose pose = base;
    for (std::size_t k = 0; k < bones_.size(); ++k) {
        const BoneControl& c = bones_[k];
        Vec3<double> axis = skeleton_->rest_axis(int(k));
        Vec3<double> first = any_orthogonal(axis), second = cross(axis, first);
        double direction = c.direction_degrees * kRadiansPerDegree;
        Vec3<double> bend_axis = std::cos(direction) * first + std::sin(direction) * second;
        JointRotation<double>& joint = pose.joints[k];
        // The bend after a bent base swing is no longer a pure swing: split it again (as pose files are),
        // so the twist it carries about the rest axis is counted in the unwrapped twist.
        SwingTwist<double> turned = split_swing_twist(axis_angle(bend_axis, c.bend_degrees * kRadiansPerDegree) * joint.swing, axis);
        joint.swing = turned.swing;
        joint.twist_radians += turned.twist_radians + c.twist_degrees * kRadiansPerDegree;
    }
    return pose;
}

}  // namespace bs::view
