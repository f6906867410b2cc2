// Poses and motions of a skeleton (DESIGN §2a), and their JSON files (README "Pose file").
//
// Pose file:   {"root": {"rotation": [w,x,y,z], "translation": [x,y,z]},
//               "bones": [{"bone": k, "rotation": [w,x,y,z] | "axis": [x,y,z], "degrees": a,
//                          "twist_degrees": tau}, ...]}
// Motion file: {"fps": f, "bone_count": n, "frames": [pose, ...]}; bone_count optional (save_motion writes
//              it; another skeleton's count is refused)
// Required: a motion's fps and frames, each bones entry's bone, and degrees beside an axis; every other
// member is optional, a missing entry the identity. Bone k's rotation is local (in its parent's
// posed frame, about its parent sphere's centre); it is split into swing and twist about the bone's rest
// axis, and twist_degrees (unwrapped) is added to that twist.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/kinematics.hpp"
#include "host/json_io.hpp"
#include "host/output_file.hpp"
#include "host/skeleton.hpp"

namespace bs {

struct Pose {
    Rigid<double> root = Rigid<double>::identity();
    std::vector<JointRotation<double>> joints;  // one per bone, total twist unwrapped

    static Pose rest(const Skeleton& skeleton);
};

// What every skinner checks of a pose first: InputError unless it has one joint per bone of the skeleton,
// its twists are finite, its root translation is within host/input_limits.hpp's bound (as in pose files), and its root rotation and swings are unit quaternions (norm within
// kUnitQuaternionTolerance of 1). The skinners take those quaternions as rotations: scaled ones would scale
// LBS's matrices and bend baseline's construction, with no error. The pose files' loader normalises what it
// reads (parse_pose); a pose built in code must be normalised by its maker.
constexpr double kUnitQuaternionTolerance = 1e-6;
void require_usable_pose(const Skeleton& skeleton, const Pose& pose);
// Its first check alone: InputError unless the pose has one joint per bone of the skeleton. Every public
// helper that reads a pose's joint per bone makes it (a pose one bone short had them read past its joints).
void require_joint_per_bone(const Skeleton& skeleton, const Pose& pose);

// The same rotations with each swing's turn about its bone's rest axis moved into the twist
// (split_swing_twist): swing × turn(rest axis, twist) is unchanged, and the swing turns the bone's axis
// the shortest way. Baseline skinning reads the two apart (the swing bends the joint, the twist turns the
// sections), so it takes its poses through this; a pose file's joints are split so already (parse_pose),
// a pose built in code may carry twist in its swing. A swing turning about the axis by no more than
// kSplitTwistTolerance (radians: rounding, as in a pose file's) is kept as it is, bit for bit.
constexpr double kSplitTwistTolerance = 1e-12;
Pose with_twists_split(const Skeleton& skeleton, const Pose& pose);

// Posed rigid transform of every bone (engine forward kinematics on the skeleton's rest frames), for a
// skeleton check_skeleton accepts and a pose require_usable_pose accepts (the skinners check both before:
// this runs every frame; a Skeleton filled in by hand with a sphere index out of range reads past its spheres).
std::vector<Rigid<double>> posed_bones(const Skeleton& skeleton, const Pose& pose);

Pose parse_pose(const json_io::json& doc, const Skeleton& skeleton, const json_io::Where& where);
Pose load_pose(const std::string& path, const Skeleton& skeleton);

// Largest bend over the joints of a pose (radians): how far a bone's local swing turns its axis away
// from its rest direction in the parent's frame, over all bones but the first (whose swing moves the
// whole chain rigidly). A pure twist bends nothing. InputError unless the pose has a joint per bone
// (require_joint_per_bone); its swings are taken as they are.
double max_joint_bend(const Skeleton& skeleton, const Pose& pose);

class Motion {
public:
    // Frames as parsed; each bone's total twist is unwrapped along the frames: whole turns are added to
    // the quaternion's share so that consecutive frames differ by at most 180° (a larger jump between
    // two frames is read as the shorter way round; a step of exactly 180° is kept as it is written, and
    // one of 180° and whole turns keeps its direction). InputError unless fps is finite and > 0, there is a
    // frame, every frame has as many joints as the first, and every twist is finite and within the ±1e9
    // degrees a pose file holds (the message names the frame and bone; checked before unwrapping, which
    // carries a frame's twist into the next); the rest of each frame is checked against a skeleton when a
    // skinner deforms it (require_usable_pose). The frames' swings are taken as holding no turn
    // about their bones' axes, as the pose files', captures' and models' loaders give them: a turn inside a
    // swing is read the shorter way round in each frame (with_twists_split), not unwrapped.
    Motion(double fps, std::vector<Pose> frames);
    // Frames of whole rotations (a swing may turn its bone about its axis): each frame's twists are split
    // from its swings against `skeleton` first (with_twists_split), then unwrapped as above, so a bone
    // turning past half a turn about its axis keeps turning.
    Motion(double fps, std::vector<Pose> frames, const Skeleton& skeleton);

    double fps() const { return fps_; }
    std::size_t frame_count() const { return frames_.size(); }
    double duration_seconds() const { return frames_.size() < 2 ? 0.0 : double(frames_.size() - 1) / fps_; }
    // Frame i (InputError unless i < frame_count()).
    const Pose& frame(std::size_t i) const;

    // Pose at any finite time (clamped to the motion; InputError for NaN or an infinity): slerps the
    // swings and the root rotation, interpolates the unwrapped twists and the translation linearly.
    Pose sample(double seconds) const;

private:
    double fps_;
    std::vector<Pose> frames_;
};

// A motion file's document (json_io::parse), `where` naming it in messages.
Motion parse_motion(const json_io::json& doc, const Skeleton& skeleton, const json_io::Where& where);

// A motion file (JSON, above), or a BVH capture (".bvh": the skeleton must be the capture's rig,
// host/bvh_rig.hpp).
Motion load_motion(const std::string& path, const Skeleton& skeleton);

// A pose as the pose file above gives it (swing quaternion, unwrapped twist_degrees, root), and a motion
// file of such frames: loading it gives the same poses back (to rounding). InputError, and nothing
// written, for a pose the loader would refuse: a twist beyond ±1e9 degrees, a root translation beyond
// the input magnitude (the skinners take any finite twist; such a file was written and then refused).
json_io::json pose_json(const Pose& pose);
void save_motion(const std::string& path, const Motion& motion);
// The same into `out`, not committed: the caller commits it with the files that belong with it.
void write_motion(OutputFile& out, const Motion& motion);
// The bytes write_motion writes, counted without writing: a motion whose file would pass kMaxJsonFileBytes
// is one that load_motion refuses (a rig of a ten-minute capture wrote one).
std::uintmax_t motion_file_bytes(const Motion& motion);

}  // namespace bs
