#include "host/hierarchy_rig.hpp"

#include <algorithm>

#include "engine/swing_twist.hpp"
#include "host/box.hpp"
#include "host/errors.hpp"

namespace bs {

double largest_extent(const std::vector<Vec3<double>>& points) { return points.empty() ? 0 : box_of(points).largest_side(); }

HierarchyRig rig_topology(const std::vector<RigJoint>& joints, const std::string& source) {
    if (joints.empty() || joints[0].parent != -1) throw InputError(source + ": a hierarchy needs its root first");
    double scale = 0;
    for (std::size_t j = 1; j < joints.size(); ++j) {
        if (joints[j].parent < 0 || std::size_t(joints[j].parent) >= j)
            throw InputError(source + ": joint " + quoted_text(joints[j].name) + " is listed before its parent");
        scale = std::max(scale, norm(joints[j].position - joints[std::size_t(joints[j].parent)].position));
    }
    HierarchyRig rig;
    rig.sphere_of_joint.assign(joints.size(), -1);
    auto same_place = [&](std::size_t a, std::size_t b) {
        return !(norm(joints[a].position - joints[b].position) > kSamePlace * scale);
    };
    for (std::size_t j = 0; j < joints.size(); ++j) {
        const RigJoint& joint = joints[j];
        int into = -1;  // the sphere it merges into
        if (joint.parent >= 0 && same_place(j, std::size_t(joint.parent))) into = rig.sphere_of_joint[std::size_t(joint.parent)];
        for (std::size_t sibling = 0; into < 0 && joint.parent >= 0 && sibling < j; ++sibling)
            if (joints[sibling].parent == joint.parent && same_place(j, sibling)) into = rig.sphere_of_joint[sibling];
        if (into >= 0) {
            rig.sphere_of_joint[j] = into;
            rig.merged.push_back(joint.name);
            continue;
        }
        const int sphere = int(rig.skeleton.spheres.size());
        rig.sphere_of_joint[j] = sphere;
        rig.joint_of_sphere.push_back(int(j));
        rig.skeleton.spheres.push_back({joint.position, 0.0});
        rig.skeleton.names.push_back(joint.name);
        if (joint.parent >= 0) {
            rig.skeleton.bones.push_back({rig.sphere_of_joint[std::size_t(joint.parent)], sphere});
            rig.driver_of_bone.push_back(joint.parent);
        }
    }
    if (rig.skeleton.bones.empty()) throw InputError(source + ": the hierarchy has no bone (every joint is at its parent's place)");
    return rig;
}

void finish_rig(HierarchyRig& rig, std::vector<double> radii, const std::string& source) {
    Skeleton& s = rig.skeleton;
    for (const auto& b : s.bones) {  // parents first: a child's parent radius is final when it is reached
        const double length = norm(s.spheres[std::size_t(b[1])].centre - s.spheres[std::size_t(b[0])].centre);
        const double parent = radii[std::size_t(b[0])];
        double& child = radii[std::size_t(b[1])];
        child = std::clamp(child, std::max(parent - 0.8 * length, 0.05 * parent), parent + 0.8 * length);
    }
    std::vector<Sphere<double>> spheres;
    for (std::size_t i = 0; i < s.spheres.size(); ++i) spheres.push_back({s.spheres[i].centre, radii[i]});
    s = make_skeleton(std::move(spheres), s.bones, s.names, source, SkeletonRules::Tree);
}

Pose hierarchy_pose(const HierarchyRig& rig, const std::vector<Quat<double>>& rotations, const Rigid<double>& root) {
    const Skeleton& s = rig.skeleton;
    Pose pose = Pose::rest(s);
    pose.root = root;
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        const int parent = s.parent_bone[k];
        const Quat<double> parent_rotation = parent < 0 ? root.rotation : rotations[std::size_t(rig.driver_of_bone[std::size_t(parent)])];
        const Quat<double> own = rotations[std::size_t(rig.driver_of_bone[k])];
        SwingTwist<double> st = split_swing_twist(normalized(conjugate(parent_rotation) * own), s.rest_axis(int(k)));
        pose.joints[k] = {st.swing, st.twist_radians};
    }
    return pose;
}

}  // namespace bs
