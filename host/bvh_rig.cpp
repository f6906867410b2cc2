#include "host/bvh_rig.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "host/errors.hpp"
#include "host/input_limits.hpp"

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

// The rule of the header for one sphere of the rig, before the cone clamp.
double proportional_radius(const BvhFile& file, const HierarchyRig& rig, int sphere, double height) {
    const BvhJoint& joint = file.joints[std::size_t(rig.joint_of_sphere[std::size_t(sphere)])];
    const BvhJoint& named = joint.end_site ? file.joints[std::size_t(joint.parent)] : joint;
    const double fraction = radius_fraction(named.name);
    double r = fraction * height;
    if (!(fraction > 0)) {
        double length = 0;
        int count = 0;
        for (const auto& b : rig.skeleton.bones)
            if (b[0] == sphere || b[1] == sphere) {
                length += norm(rig.skeleton.spheres[std::size_t(b[1])].centre - rig.skeleton.spheres[std::size_t(b[0])].centre);
                ++count;
            }
        r = 0.25 * length / std::max(count, 1);
    }
    return joint.end_site ? 0.8 * r : r;
}

}  // namespace

BvhRig rig_bvh(const BvhFile& file) {
    const std::vector<BvhJointPose> rest = bvh_pose(file, kBvhRest);
    std::vector<RigJoint> joints;
    for (std::size_t j = 0; j < file.joints.size(); ++j) {
        const BvhJoint& joint = file.joints[j];
        joints.push_back({joint.end_site ? file.joints[std::size_t(joint.parent)].name + "_end" : joint.name, joint.parent, rest[j].position});
    }
    std::vector<Vec3<double>> positions;
    for (const BvhJointPose& p : rest) positions.push_back(p.position);
    const double height = largest_extent(positions);
    return rig_hierarchy(joints, file.source,
                         [&](const HierarchyRig& rig, int sphere) { return proportional_radius(file, rig, sphere, height); });
}

Pose bvh_frame_pose(const BvhRig& rig, const BvhFile& file, std::size_t f) {
    const std::vector<BvhJointPose> joints = bvh_pose(file, f);
    std::vector<Quat<double>> rotations;
    for (const BvhJointPose& j : joints) rotations.push_back(j.rotation);
    const BvhJointPose& root = joints[0];
    return hierarchy_pose(rig, rotations, {root.rotation, root.position - rotate(root.rotation, file.joints[0].offset)});
}

BvhSlide largest_joint_slide(const BvhFile& file) {
    BvhSlide largest;
    for (std::size_t f = 0; f < file.frame_count; ++f)
        for (std::size_t j = 1; j < file.joints.size(); ++j) {
            const BvhJoint& joint = file.joints[j];
            Vec3<double> local = joint.offset;
            for (std::size_t c = 0; c < joint.channels.size(); ++c) {
                const double value = file.frame(f)[joint.first_channel + c];
                switch (joint.channels[c]) {
                    case BvhChannel::x_position: local.x = value; break;
                    case BvhChannel::y_position: local.y = value; break;
                    case BvhChannel::z_position: local.z = value; break;
                    default: break;
                }
            }
            const double distance = norm(local - joint.offset);
            if (distance > largest.distance) largest = {distance, int(j), f};
        }
    return largest;
}

Motion bvh_motion(const BvhRig& rig, const BvhFile& file, std::size_t first, std::size_t last) {
    last = std::min(last, file.frame_count);
    if (first >= last)
        throw InputError(file.source + ": frames [" + std::to_string(first) + ", " + std::to_string(last) + ") are empty (the capture has " +
                         std::to_string(file.frame_count) + " frames)");
    // Checked before any pose is made: joints without channels (End Sites, or joints declaring 0) make
    // bones without values, so a small file could ask for a motion of billions of joint rotations.
    if (const std::string problem = motion_size_problem(last - first, rig.skeleton.bone_count()); !problem.empty())
        throw InputError(file.source + ": " + problem);
    std::vector<Pose> frames;
    frames.reserve(last - first);
    for (std::size_t f = first; f < last; ++f) frames.push_back(bvh_frame_pose(rig, file, f));
    return Motion(1.0 / file.frame_time, std::move(frames));
}

std::vector<std::string> capture_notes(const BvhFile& file) {
    std::vector<std::string> notes;
    if (file.ignored_lines > 0)
        notes.push_back("ignored " + std::to_string(file.ignored_lines) + " line" + (file.ignored_lines == 1 ? "" : "s") + " after the " +
                        std::to_string(file.frame_count) + " frames the file declares");
    // Position channels on joints other than the root would stretch rigid bones: the poses leave them out.
    std::vector<Vec3<double>> joints_at_rest;
    for (const BvhJointPose& p : bvh_pose(file, kBvhRest)) joints_at_rest.push_back(p.position);
    const BvhSlide slide = largest_joint_slide(file);
    if (slide.distance > kSlideNoted * largest_extent(joints_at_rest))
        notes.push_back("note: position channels move joint " + quoted_text(file.joints[std::size_t(slide.joint)].name) + " up to " +
                        number_text(slide.distance, 4) + " from its offset (frame " + std::to_string(slide.frame) +
                        "); the sphere-mesh's rigid bones leave that out of the motion (its rotations are kept)");
    return notes;
}

Motion load_bvh_motion(const std::string& path, const Skeleton& skeleton) { return capture_motion(load_bvh(path, BvhReadAs::motion), skeleton); }

Motion capture_motion(const BvhFile& file, const Skeleton& skeleton) {
    const std::string& path = file.source;
    BvhRig rig = rig_bvh(file);
    const Skeleton& own = rig.skeleton;
    const std::string use_its_own = ": use the skeleton `baseskin rig --model " + path + "` writes";
    if (own.bones != skeleton.bones || own.spheres.size() != skeleton.spheres.size())
        throw InputError(path + ": the capture's hierarchy gives " + std::to_string(own.spheres.size()) + " spheres and " +
                         std::to_string(own.bone_count()) + " bones that do not match the skeleton's (" +
                         std::to_string(skeleton.spheres.size()) + " spheres, " + std::to_string(skeleton.bone_count()) +
                         " bones" + (own.spheres.size() == skeleton.spheres.size() ? ", joined otherwise" : "") + ")" + use_its_own);
    // The same hierarchy elsewhere: the first sphere out of place is named (the counts alone, equal, had
    // been given as the mismatch).
    const double tolerance = 1e-6 * norm(bounds(own)[1] - bounds(own)[0]);
    for (std::size_t s = 0; s < own.spheres.size(); ++s)
        if (const double off = norm(own.spheres[s].centre - skeleton.spheres[s].centre); !(off <= tolerance))
            throw InputError(path + ": the capture's hierarchy matches the skeleton's bones, but its sphere " + std::to_string(s) + " lies " +
                             number_text(off, 4) + " from the skeleton's (more than 1e-6 of the capture's size)" + use_its_own);
    rig.skeleton = skeleton;  // its radii are the caller's
    return bvh_motion(rig, file);
}

}  // namespace bs
