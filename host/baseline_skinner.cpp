#include "host/baseline_skinner.hpp"

#include <algorithm>
#include <cmath>

#include "host/errors.hpp"

namespace bs {

std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const Pose& pose) {
    std::vector<Rigid<double>> posed = posed_bones(skeleton, pose);
    std::vector<BaselineBonePose<double>> table(skeleton.bone_count());
    for (std::size_t k = 0; k < table.size(); ++k) {
        double twist = pose.joints[k].twist_radians;
        Rigid<double> untwist = rotation_about(axis_angle(skeleton.rest_axis(int(k)), -twist),
                                               skeleton.spheres[skeleton.bones[k][0]].centre);
        table[k] = {compose(posed[k], untwist), twist, pose.joints[k].swing};
    }
    return table;
}

double max_joint_angle_degrees(const Skeleton& skeleton, const Pose& pose) {
    double worst = 0;
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        int parent = skeleton.parent_bone[k];
        if (parent < 0) continue;
        // In the parent's frame the parent's axis is at rest and the child's is turned by its swing.
        Vec3<double> a = skeleton.rest_axis(parent), b = rotate(pose.joints[k].swing, skeleton.rest_axis(int(k)));
        worst = std::max(worst, std::atan2(norm(cross(a, b)), dot(a, b)) * 180 / 3.14159265358979323846);
    }
    return worst;
}

template <class T>
BaselineSkinner<T>::BaselineSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, const std::string& source,
                                    const EncodeOptions& options)
    : skeleton_(std::move(skeleton)) {
    bones_ = make_baseline_bones(skeleton_);
    codes_ = encode_points(bones_, rest, source, options);
    rest_.reserve(rest.size());
    for (const Vec3<double>& p : rest) rest_.push_back(Vec3<T>(p));
}

template <class T>
std::vector<BaselineBonePose<double>> BaselineSkinner<T>::frame(const Pose& pose) const {
    if (pose.joints.size() != skeleton_.bone_count())
        throw InputError("pose has " + std::to_string(pose.joints.size()) + " bones, skeleton has " +
                         std::to_string(skeleton_.bone_count()));
    double angle = max_joint_angle_degrees(skeleton_, pose);
    if (angle > kMaxJointAngleDegrees)
        throw UnsupportedError("this pose folds a joint to " + std::to_string(angle) +
                               " degrees between consecutive bone axes; the baseline method accepts up to " +
                               std::to_string(kMaxJointAngleDegrees) + " (use --method dqs or lbs beyond)");
    for (std::size_t k = 0; k < bones_.size(); ++k) {
        int parent = bones_[k].previous;
        if (parent >= 0 && !pose_joint(bones_[parent].cone, bones_[k].cone, pose.joints[k].swing).pivot.cuts_sphere)
            throw UnsupportedError("this pose folds the joint between bones " + std::to_string(parent) + " and " +
                                   std::to_string(k) + " so far that the plane where their cones meet misses the joint "
                                   "sphere; the baseline construction needs it (use --method dqs or lbs)");
    }
    return baseline_pose_table(skeleton_, pose);
}

template <class T>
void BaselineSkinner<T>::deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec) const {
    std::vector<BaselineBonePose<double>> table = frame(pose);
    out.resize(rest_.size());
    cpu::deform_baseline(BaselineJob<T>{{&rest_.data()->x, 3}, codes_.data(), rest_.size(), bones_.data(), table.data(),
                                        table.size(), {&out.data()->x, 3}},
                         exec);
}

template class BaselineSkinner<float>;
template class BaselineSkinner<double>;

}  // namespace bs
