#include "host/bvh_rig.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "engine/swing_twist.hpp"
#include "host/errors.hpp"

namespace bs {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Fraction of the body's height for a joint's name (module comment), or 0 when no keyword matches.
double radius_fraction(const std::string& name) {
    static const std::pair<const char*, double> kRules[] = {
        {"head", 0.06},     {"neck", 0.035},  {"thumb", 0.012},    {"finger", 0.012}, {"index", 0.012},
        {"hand", 0.025},    {"wrist", 0.025}, {"forearm", 0.027},  {"lowerarm", 0.027}, {"elbow", 0.027},
        {"shoulder", 0.04}, {"clavicle", 0.04}, {"collar", 0.04},  {"arm", 0.034},    {"toe", 0.02},
        {"foot", 0.028},    {"ankle", 0.028}, {"upleg", 0.055},    {"thigh", 0.055},  {"leg", 0.04},
        {"knee", 0.04},     {"shin", 0.04},   {"hips", 0.085},     {"pelvis", 0.085}, {"chest", 0.085},
        {"spine", 0.08},    {"back", 0.08},   {"torso", 0.08}};
    const std::string n = lower(name);
    for (const auto& [keyword, fraction] : kRules)
        if (n.find(keyword) != std::string::npos) return fraction;
    return 0;
}

double largest_extent(const std::vector<Vec3<double>>& points) {
    Vec3<double> lo = points[0], hi = points[0];
    for (const Vec3<double>& p : points) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    return std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
}

// Radii per sphere by the rule of the header, before the cone clamp.
std::vector<double> proportional_radii(const BvhFile& file, const std::vector<int>& joint_of_sphere,
                                       const std::vector<std::array<int, 2>>& bones, const std::vector<Vec3<double>>& centres) {
    const double height = largest_extent(centres);
    std::vector<double> mean_length(centres.size(), 0.0);
    std::vector<int> bone_count(centres.size(), 0);
    for (const auto& b : bones)
        for (int end : b) {
            mean_length[std::size_t(end)] += norm(centres[std::size_t(b[1])] - centres[std::size_t(b[0])]);
            ++bone_count[std::size_t(end)];
        }
    std::vector<double> radii(centres.size());
    for (std::size_t s = 0; s < centres.size(); ++s) {
        const BvhJoint& joint = file.joints[std::size_t(joint_of_sphere[s])];
        const BvhJoint& named = joint.end_site ? file.joints[std::size_t(joint.parent)] : joint;
        double fraction = radius_fraction(named.name);
        double r = fraction > 0 ? fraction * height : 0.25 * mean_length[s] / std::max(bone_count[s], 1);
        radii[s] = joint.end_site ? 0.8 * r : r;
    }
    return radii;
}

// From the root outwards: every bone must admit a tangent cone, |r1 − r2| < |C1 − C2|.
void clamp_radii_to_cones(std::vector<double>& radii, const std::vector<std::array<int, 2>>& bones,
                          const std::vector<Vec3<double>>& centres) {
    for (const auto& b : bones) {  // bones are listed parents first (file order)
        const double length = norm(centres[std::size_t(b[1])] - centres[std::size_t(b[0])]);
        const double parent = radii[std::size_t(b[0])];
        double& child = radii[std::size_t(b[1])];
        child = std::clamp(child, std::max(parent - 0.8 * length, 0.05 * parent), parent + 0.8 * length);
    }
}

}  // namespace

BvhRig rig_bvh(const BvhFile& file) {
    const std::vector<BvhJointPose> rest = bvh_pose(file, kBvhRest);
    double scale = 0;
    for (const BvhJoint& j : file.joints) scale = std::max(scale, norm(j.offset));
    BvhRig rig;
    rig.sphere_of_joint.assign(file.joints.size(), -1);
    std::vector<int> joint_of_sphere;
    std::vector<Vec3<double>> centres;
    std::vector<std::string> names;
    std::vector<std::array<int, 2>> bones;
    for (std::size_t j = 0; j < file.joints.size(); ++j) {
        const BvhJoint& joint = file.joints[j];
        if (joint.parent >= 0 && !(norm(joint.offset) > 1e-6 * scale)) {  // zero length: merge into the parent
            rig.sphere_of_joint[j] = rig.sphere_of_joint[std::size_t(joint.parent)];
            if (!joint.end_site) rig.merged.push_back(joint.name);
            continue;
        }
        const int sphere = int(centres.size());
        rig.sphere_of_joint[j] = sphere;
        joint_of_sphere.push_back(int(j));
        centres.push_back(rest[j].position);
        names.push_back(joint.end_site ? file.joints[std::size_t(joint.parent)].name + "_end" : joint.name);
        if (joint.parent >= 0) {
            bones.push_back({rig.sphere_of_joint[std::size_t(joint.parent)], sphere});
            rig.driver_of_bone.push_back(joint.parent);
        }
    }
    if (bones.empty()) throw InputError(file.source + ": the hierarchy has no bone (every joint is at its parent's place)");
    std::vector<double> radii = proportional_radii(file, joint_of_sphere, bones, centres);
    clamp_radii_to_cones(radii, bones, centres);
    std::vector<Sphere<double>> spheres;
    for (std::size_t s = 0; s < centres.size(); ++s) spheres.push_back({centres[s], radii[s]});
    rig.skeleton = make_skeleton(std::move(spheres), std::move(bones), std::move(names), file.source, SkeletonRules::Tree);
    return rig;
}

Pose bvh_frame_pose(const BvhRig& rig, const BvhFile& file, std::size_t f) {
    const std::vector<BvhJointPose> joints = bvh_pose(file, f);
    const Skeleton& s = rig.skeleton;
    Pose pose = Pose::rest(s);
    const BvhJointPose& root = joints[0];
    const Vec3<double> root_rest = file.joints[0].offset;
    pose.root = {root.rotation, root.position - rotate(root.rotation, root_rest)};
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        const int parent = s.parent_bone[k];
        const Quat<double> parent_rotation = parent < 0 ? root.rotation : joints[std::size_t(rig.driver_of_bone[std::size_t(parent)])].rotation;
        const Quat<double> own = joints[std::size_t(rig.driver_of_bone[k])].rotation;
        SwingTwist<double> st = split_swing_twist(normalized(conjugate(parent_rotation) * own), s.rest_axis(int(k)));
        pose.joints[k] = {st.swing, st.twist_radians};
    }
    return pose;
}

Motion bvh_motion(const BvhRig& rig, const BvhFile& file, std::size_t first, std::size_t last) {
    last = std::min(last, file.frame_count);
    if (first >= last)
        throw InputError(file.source + ": frames [" + std::to_string(first) + ", " + std::to_string(last) + ") are empty (the capture has " +
                         std::to_string(file.frame_count) + " frames)");
    std::vector<Pose> frames;
    frames.reserve(last - first);
    for (std::size_t f = first; f < last; ++f) frames.push_back(bvh_frame_pose(rig, file, f));
    return Motion(1.0 / file.frame_time, std::move(frames));
}

Motion load_bvh_motion(const std::string& path, const Skeleton& skeleton) {
    BvhFile file = load_bvh(path);
    BvhRig rig = rig_bvh(file);
    const Skeleton& own = rig.skeleton;
    bool same = own.bones == skeleton.bones && own.spheres.size() == skeleton.spheres.size();
    const double tolerance = 1e-6 * norm(bounds(own)[1] - bounds(own)[0]);
    for (std::size_t s = 0; same && s < own.spheres.size(); ++s)
        same = norm(own.spheres[s].centre - skeleton.spheres[s].centre) <= tolerance;
    if (!same)
        throw InputError(path + ": the capture's hierarchy gives " + std::to_string(own.spheres.size()) + " spheres and " +
                         std::to_string(own.bone_count()) + " bones that do not match the skeleton's (" +
                         std::to_string(skeleton.spheres.size()) + " spheres, " + std::to_string(skeleton.bone_count()) +
                         " bones): use the skeleton `baseskin rig --model " + path + "` writes");
    rig.skeleton = skeleton;  // its radii are the caller's
    return bvh_motion(rig, file);
}

}  // namespace bs
