#include "host/pose.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>

#include "host/bvh_rig.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

using json_io::json;
using json_io::Where;

namespace {

constexpr double kPi = pi_value<double>();
constexpr double kDegree = kPi / 180.0;

// The least norm a quaternion or axis may have: below it the direction is taken for rounding noise on a
// zero (a pose written as "no rotation" by a program that lost its last digits), not for a choice.
constexpr double kLeastDirectionNorm = 1e-12;

// Scales v to unit length where its norm is above kLeastDirectionNorm; returns that norm (v is left as it
// was where it is not above). Divides by the largest component first: squaring components beyond 1e154
// would overflow the norm to inf, leaving a zero "unit" vector (found by fuzzing), and squaring ones
// below 1e-154 would underflow it to 0.
template <std::size_t N>
double to_unit(double (&v)[N]) {
    double largest = 0;
    for (double x : v) largest = std::max(largest, std::fabs(x));
    if (largest == 0) return 0;
    double sum = 0;
    for (double x : v) sum += (x / largest) * (x / largest);
    const double n = std::sqrt(sum);  // in [1, 2]
    if (!(largest * n > kLeastDirectionNorm)) return largest * n;
    for (double& x : v) x = x / largest / n;
    return largest * n;
}

// The failure of a direction whose norm is not above kLeastDirectionNorm.
std::string too_near_zero(const std::string& what, const std::string& measure, double norm) {
    return what + ": " + measure + " " + number_text(norm) + " is too near zero to give a direction (it must be above " +
           number_text(kLeastDirectionNorm) + "; any larger one is normalised)";
}

Quat<double> unit_quaternion(const json& value, const Where& where) {
    double q[4];
    json_io::number_array(value, 4, q, where);
    const double norm = to_unit(q);
    if (!(norm > kLeastDirectionNorm)) where.fail(too_near_zero("rotation quaternion [w,x,y,z]", "norm", norm));
    return {q[0], q[1], q[2], q[3]};
}

// An angle in degrees, finite and within ±kMaxPoseDegrees: beyond, a double keeps no usable fraction of a
// degree (1e30 degrees were read as some angle or other).
constexpr double kMaxPoseDegrees = 1e9;
double bounded_degrees(const json& value, const Where& where) {
    const double degrees = json_io::finite_number(value, where);
    if (!(std::fabs(degrees) <= kMaxPoseDegrees)) where.fail("an angle within ±1e9 degrees expected, got " + number_text(degrees));
    return degrees;
}

// A bone's whole twist as a pose file gives it, in degrees within ±kMaxPoseDegrees; nullopt beyond. A
// twist read at the bound comes back from radians a rounding past it (1e9 degrees as 1000000000.0000001):
// written as the bound, which reads back within that rounding, so that every pose read can be written.
std::optional<double> file_twist_degrees(double radians) {
    const double degrees = radians / kDegree;
    if (std::fabs(degrees) <= kMaxPoseDegrees) return degrees;
    constexpr double kRoundings = 8 * std::numeric_limits<double>::epsilon();
    if (std::fabs(radians) <= kMaxPoseDegrees * kDegree * (1 + kRoundings)) return std::copysign(kMaxPoseDegrees, degrees);
    return std::nullopt;
}

// Why a bone's whole twist (radians) is one no pose file holds, or "" where it is held: not finite, or
// beyond file_twist_degrees' bound.
std::string unheld_twist(double radians) {
    if (!std::isfinite(radians)) return "the twist is not finite";
    if (!file_twist_degrees(radians))
        return "a twist of " + number_text(radians / kDegree) + " degrees is beyond the ±1e9 degrees a pose file holds";
    return "";
}

Quat<double> axis_degrees(const json& entry, const Where& where) {
    double axis[3];
    json_io::number_array(json_io::member(entry, "axis", where), 3, axis, where["axis"]);
    const double length = to_unit(axis);
    if (!(length > kLeastDirectionNorm)) where["axis"].fail(too_near_zero("rotation axis", "length", length));
    double degrees = bounded_degrees(json_io::member(entry, "degrees", where), where["degrees"]);
    return axis_angle(Vec3<double>{axis[0], axis[1], axis[2]}, degrees * kDegree);
}

Rigid<double> parse_root(const json& root, const Where& where) {
    json_io::require_object(root, where);
    json_io::only_members(root, {"rotation", "translation"}, where);
    Rigid<double> g = Rigid<double>::identity();
    if (root.contains("rotation")) g.rotation = unit_quaternion(root["rotation"], where["rotation"]);
    if (root.contains("translation")) g.translation = json_io::vec3(root["translation"], where["translation"]);
    // Bounded (host/input_limits.hpp): a translation of 1e308 was read, and the frames it moved were not
    // finite in float, found only when they were written.
    if (!within_input_magnitude(g.translation)) where["translation"].fail(std::string("expected coordinates ") + input_magnitude_text());
    return g;
}

JointRotation<double> parse_joint(const json& entry, Vec3<double> rest_axis, const Where& where) {
    json_io::only_members(entry, {"bone", "rotation", "axis", "degrees", "twist_degrees"}, where);
    bool has_quaternion = entry.contains("rotation");
    bool has_axis_angle = entry.contains("axis") || entry.contains("degrees");
    if (has_quaternion && has_axis_angle) where.fail("give either \"rotation\" or \"axis\" + \"degrees\", not both");
    Quat<double> q = Quat<double>::identity();
    if (has_quaternion) q = unit_quaternion(entry["rotation"], where["rotation"]);
    if (has_axis_angle) q = axis_degrees(entry, where);
    SwingTwist<double> st = split_swing_twist(q, rest_axis);
    const double extra_degrees = entry.contains("twist_degrees") ? bounded_degrees(entry["twist_degrees"], where["twist_degrees"]) : 0.0;
    // The total within the same bound, so that a pose read is one a pose file can hold (pose_json). Checked
    // in degrees, as written: through radians and back, a twist_degrees of exactly 1e9 came to
    // 1000000000.0000001 and was refused. Only a rotation with a turn about the bone's axis adds to it.
    if (st.twist_radians != 0) {
        const double own_degrees = st.twist_radians / kDegree, total_degrees = own_degrees + extra_degrees;
        if (!(std::fabs(total_degrees) <= kMaxPoseDegrees))
            where["twist_degrees"].fail("with the rotation's own twist of " + number_text(own_degrees) + " degrees, " +
                                        number_text(total_degrees) + " degrees in all, beyond ±1e9");
    }
    return {st.swing, st.twist_radians + extra_degrees * kDegree};
}

}  // namespace

Pose Pose::rest(const Skeleton& skeleton) {
    Pose p;
    p.joints.assign(skeleton.bone_count(), {Quat<double>::identity(), 0.0});
    return p;
}

void require_joint_per_bone(const Skeleton& skeleton, const Pose& pose) {
    if (pose.joints.size() != skeleton.bone_count())
        throw InputError("pose: Pose::joints has size " + std::to_string(pose.joints.size()) + ", expected " + std::to_string(skeleton.bone_count()) +
                         " (one per bone of the skeleton: a pose is made for one skeleton, by Pose::rest or parse_pose)");
}

void require_usable_pose(const Skeleton& skeleton, const Pose& pose) {
    require_joint_per_bone(skeleton, pose);
    auto require_rotation = [](const Quat<double>& q, const std::string& what) {
        if (!std::isfinite(q.w) || !std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
            throw InputError("pose: " + what + " is not finite");
        const double n = norm(q);
        if (!(std::fabs(n - 1) <= kUnitQuaternionTolerance))
            throw InputError("pose: " + what + " has norm " + number_text(n) + "; a rotation quaternion has norm 1 within " +
                             number_text(kUnitQuaternionTolerance) + " (normalise it)");
    };
    require_rotation(pose.root.rotation, "the root rotation");
    const Vec3<double> t = pose.root.translation;
    if (!within_input_magnitude(t))  // as the pose files' loader bounds it: beyond, float output overflows
        throw InputError(std::string("pose: the root translation must be ") + input_magnitude_text() + ", got (" + number_text(t.x) + ", " +
                         number_text(t.y) + ", " + number_text(t.z) + ")");
    for (std::size_t k = 0; k < pose.joints.size(); ++k) {
        require_rotation(pose.joints[k].swing, "bone " + std::to_string(k) + ": the swing");
        if (!std::isfinite(pose.joints[k].twist_radians)) throw InputError("pose: bone " + std::to_string(k) + ": the twist is not finite");
    }
}

Pose with_twists_split(const Skeleton& skeleton, const Pose& pose) {
    Pose split = pose;
    for (std::size_t k = 0; k < std::min(split.joints.size(), skeleton.bone_count()); ++k) {  // a pose of another size is refused later
        const SwingTwist<double> st = split_swing_twist(pose.joints[k].swing, skeleton.rest_axis(int(k)));
        if (!(std::fabs(st.twist_radians) > kSplitTwistTolerance)) continue;  // split already: kept bit for bit
        split.joints[k].swing = st.swing;
        split.joints[k].twist_radians += st.twist_radians;
    }
    return split;
}

std::vector<Rigid<double>> posed_bones(const Skeleton& skeleton, const Pose& pose) {
    std::vector<BoneRestFrame<double>> frames = skeleton.rest_frames();
    std::vector<Rigid<double>> posed(skeleton.bone_count());
    forward_kinematics(frames.data(), skeleton.bone_order.data(), skeleton.bone_count(), pose.root,
                       pose.joints.data(), posed.data());
    return posed;
}

Pose parse_pose(const json& doc, const Skeleton& skeleton, const Where& where) {
    json_io::require_object(doc, where);
    // A motion given where a pose is read said only "unknown member fps".
    if (doc.contains("frames")) where.fail("this is a motion (it has \"frames\"), not a pose");
    json_io::only_members(doc, {"root", "bones"}, where);
    Pose pose = Pose::rest(skeleton);
    if (doc.contains("root")) pose.root = parse_root(doc["root"], where["root"]);
    if (!doc.contains("bones")) return pose;
    const json& bones = doc["bones"];
    json_io::require_array(bones, where["bones"]);
    std::vector<int> seen(skeleton.bone_count(), -1);
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const Where wi = where["bones"][i];
        json_io::require_object(bones[i], wi);
        int k = json_io::index_in_range(json_io::member(bones[i], "bone", wi), skeleton.bone_count(), wi["bone"]);
        if (seen[k] >= 0) wi["bone"].fail("bone " + std::to_string(k) + " already posed by bones[" + std::to_string(seen[k]) + "]");
        seen[k] = int(i);
        pose.joints[k] = parse_joint(bones[i], skeleton.rest_axis(k), wi);
    }
    return pose;
}

Pose load_pose(const std::string& path, const Skeleton& skeleton) {
    return parse_pose(json_io::load(path), skeleton, Where{path, ""});
}

double max_joint_bend(const Skeleton& skeleton, const Pose& pose) {
    require_joint_per_bone(skeleton, pose);
    double worst = 0;
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        if (skeleton.parent_bone[k] < 0) continue;  // the first bone's swing moves the whole chain rigidly
        Vec3<double> axis = skeleton.rest_axis(int(k));
        Vec3<double> turned = rotate(pose.joints[k].swing, axis);
        worst = std::max(worst, std::atan2(norm(cross(axis, turned)), dot(axis, turned)));
    }
    return worst;
}

namespace {
// InputError, naming the frame and bone, unless every twist is one a pose file holds (unheld_twist). Checked
// before unwrapping, which carries each frame's twist into the next: a NaN in frame 0 made frame 1's valid
// twist NaN (the skinner then blamed frame 1), and a finite 1e300 silently turned it into 1e300.
void require_held_twists(const std::vector<Pose>& frames) {
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < frames[f].joints.size(); ++k)
            if (const std::string problem = unheld_twist(frames[f].joints[k].twist_radians); !problem.empty())
                throw InputError("motion: frame " + std::to_string(f) + ", bone " + std::to_string(k) + ": " + problem);
}
}  // namespace

Motion::Motion(double fps, std::vector<Pose> frames) : fps_(fps), frames_(std::move(frames)) {
    if (!(std::isfinite(fps_) && fps_ > 0)) throw InputError("motion: frames per second must be finite and > 0, got " + number_text(fps_));
    if (frames_.empty()) throw InputError("motion: a motion needs at least one frame");
    // A tiny fps over many frames overflowed the duration to infinity, which sample() refuses.
    if (!std::isfinite(duration_seconds()))
        throw InputError("motion: " + std::to_string(frames_.size()) + " frames at " + number_text(fps_) + " frames per second last longer than a double holds");
    for (std::size_t f = 1; f < frames_.size(); ++f)
        if (frames_[f].joints.size() != frames_[0].joints.size())
            throw InputError("motion: frame " + std::to_string(f) + " has " + std::to_string(frames_[f].joints.size()) +
                             " joints, frame 0 has " + std::to_string(frames_[0].joints.size()) + " (every frame poses one skeleton)");
    require_held_twists(frames_);
    for (std::size_t f = 1; f < frames_.size(); ++f)
        for (std::size_t k = 0; k < frames_[f].joints.size(); ++k) {
            double previous = frames_[f - 1].joints[k].twist_radians;
            double& twist = frames_[f].joints[k].twist_radians;
            // Whole turns beyond half a turn, rounding a half toward zero: std::round took a step of
            // exactly +180° away from zero, to -180°, and a keyed half turn turned the other way.
            const double turns = (twist - previous) / (2 * kPi);
            twist -= 2 * kPi * std::copysign(std::ceil(std::fabs(turns) - 0.5), turns);
        }
}

const Pose& Motion::frame(std::size_t i) const {
    if (i >= frames_.size())
        throw InputError("motion: frame " + std::to_string(i) + " out of range (" + std::to_string(frames_.size()) + " frames)");
    return frames_[i];
}

namespace {
std::vector<Pose> split_frames(std::vector<Pose> frames, const Skeleton& skeleton) {
    for (Pose& frame : frames) frame = with_twists_split(skeleton, frame);
    return frames;
}
}  // namespace

Motion::Motion(double fps, std::vector<Pose> frames, const Skeleton& skeleton) : Motion(fps, split_frames(std::move(frames), skeleton)) {}

Pose Motion::sample(double seconds) const {
    if (!std::isfinite(seconds)) throw InputError("motion: sampled at " + number_text(seconds) + " seconds (expected a finite time)");
    double position = std::clamp(seconds * fps_, 0.0, double(frames_.size() - 1));
    std::size_t i = std::min(std::size_t(position), frames_.size() - 1);
    if (i + 1 >= frames_.size()) return frames_[i];
    double s = position - double(i);
    const Pose &a = frames_[i], &b = frames_[i + 1];
    Pose out = a;
    out.root.rotation = slerp(a.root.rotation, b.root.rotation, s);
    out.root.translation = (1 - s) * a.root.translation + s * b.root.translation;
    for (std::size_t k = 0; k < out.joints.size(); ++k) {
        out.joints[k].swing = slerp(a.joints[k].swing, b.joints[k].swing, s);
        out.joints[k].twist_radians = (1 - s) * a.joints[k].twist_radians + s * b.joints[k].twist_radians;
    }
    return out;
}

Motion parse_motion(const json& doc, const Skeleton& skeleton, const Where& where) {
    json_io::require_object(doc, where);
    if (!doc.contains("frames") && (doc.contains("bones") || doc.contains("root")))
        where.fail("this is a pose (it has \"bones\" or \"root\" and no \"frames\"), not a motion");
    json_io::only_members(doc, {"fps", "bone_count", "frames"}, where);
    // Written by save_motion: a motion posing another skeleton's bones by index, which the indices alone
    // do not always show (a motion of 9 bones read against 45 poses 9 of them), is refused.
    if (doc.contains("bone_count")) {
        const json& count = doc["bone_count"];
        if (!count.is_number_unsigned()) where["bone_count"].fail("expected a whole number >= 0");
        if (count.get<std::uint64_t>() != skeleton.bone_count())
            where["bone_count"].fail("the motion is for a skeleton of " + count.dump() + " bones; this one has " +
                                     std::to_string(skeleton.bone_count()));
    }
    double fps = json_io::finite_number(json_io::member(doc, "fps", where), where["fps"]);
    if (!(fps > 0)) where["fps"].fail("frames per second must be > 0");
    const json& frames = json_io::member(doc, "frames", where);
    json_io::require_array(frames, where["frames"]);
    if (frames.empty()) where["frames"].fail("a motion needs at least one frame");
    if (const std::string problem = motion_size_problem(frames.size(), skeleton.bone_count()); !problem.empty())
        where["frames"].fail(problem);
    std::vector<Pose> poses;
    poses.reserve(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) poses.push_back(parse_pose(frames[f], skeleton, where["frames"][f]));
    try {
        return Motion(fps, std::move(poses));
    } catch (const InputError& e) {  // named by the file, as the checks above are (it had said "motion: …")
        std::string problem = e.what();
        if (problem.rfind("motion: ", 0) == 0) problem.erase(0, std::string("motion: ").size());
        throw InputError(where.file + ": " + problem);
    }
}

Motion load_motion(const std::string& path, const Skeleton& skeleton) {
    if (is_bvh_path(path)) return load_bvh_motion(path, skeleton);
    return parse_motion(json_io::load(path), skeleton, Where{path, ""});
}

json pose_json(const Pose& pose) {
    if (!within_input_magnitude(pose.root.translation))
        throw InputError(std::string("pose: its root translation is not ") + input_magnitude_text() + ", as a pose file's must be");
    json bones = json::array();
    for (std::size_t k = 0; k < pose.joints.size(); ++k) {
        const JointRotation<double>& j = pose.joints[k];
        // The loader's bound on a bone's whole twist (a pose it read is written back; a motion's unwrapping
        // can carry a twist past it from frames within it, refused here).
        if (const std::string problem = unheld_twist(j.twist_radians); !problem.empty())
            throw InputError("pose: bone " + std::to_string(k) + ": " + problem);
        const std::optional<double> twist_degrees = file_twist_degrees(j.twist_radians);
        // The swing as the quaternion and the whole unwrapped twist apart: read back, the swing splits
        // into itself and a zero twist, and twist_degrees restores the turns a quaternion cannot carry.
        bones.push_back({{"bone", k},
                         {"rotation", {j.swing.w, j.swing.x, j.swing.y, j.swing.z}},
                         {"twist_degrees", *twist_degrees}});
    }
    const Rigid<double>& r = pose.root;
    return {{"root", {{"rotation", {r.rotation.w, r.rotation.x, r.rotation.y, r.rotation.z}},
                      {"translation", {r.translation.x, r.translation.y, r.translation.z}}}},
            {"bones", bones}};
}

void save_motion(const std::string& path, const Motion& motion) {
    OutputFile out(path);
    write_motion(out, motion);
    out.commit();
}

namespace {

// A motion file's text, piece by piece, to `emit`: frame by frame, so that a long capture never builds its
// whole document in memory.
template <class Emit>
void motion_file_pieces(const Motion& motion, Emit&& emit) {
    emit("{\"fps\": " + json(motion.fps()).dump() + ", \"bone_count\": " + std::to_string(motion.frame(0).joints.size()) +
         ",\n \"frames\": [");
    for (std::size_t f = 0; f < motion.frame_count(); ++f) emit((f ? ",\n  " : "\n  ") + pose_json(motion.frame(f)).dump());
    emit(std::string("\n ]}\n"));
}

}  // namespace

void write_motion(OutputFile& out, const Motion& motion) {
    motion_file_pieces(motion, [&](const std::string& piece) { out.write(piece); });
}

std::uintmax_t motion_file_bytes(const Motion& motion) {
    std::uintmax_t bytes = 0;
    motion_file_pieces(motion, [&](const std::string& piece) { bytes += piece.size(); });
    return bytes;
}

}  // namespace bs
