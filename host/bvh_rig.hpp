// A sphere-mesh built on a BVH capture's hierarchy, and the capture's frames as poses of it (DESIGN §2a
// conventions: rest frames are the world axes, a bone's local rotation is in its parent bone's frame).
//
// The rig is host/hierarchy_rig.hpp's on the capture's joints and end sites at their rest positions (the
// summed offsets), named after them (an end site after its joint, with "_end"). Joints at zero distance
// from their parent (offset 0, like CMU's LHipJoint, LowerBack or LeftShoulder) merge into the parent's
// sphere; a bone through one turns with it, so CMU's hip joints still turn the thighs.
//
// Radii (human proportions): a fraction of the rest body's height (its largest extent) chosen by the
// joint's name — head 0.06, neck 0.035, thumb/finger/index 0.012, hand/wrist 0.025, forearm/lowerarm/elbow 0.027,
// shoulder/clavicle/collar 0.04, arm 0.034, toe 0.02, foot/ankle 0.028, upleg/thigh 0.055, leg/knee/shin
// 0.04, hips/pelvis/chest 0.085, spine/back/torso 0.08 — the first keyword of that list the name contains
// (case-insensitive), so "LeftForeArm" is a forearm, not an arm;
// end sites 0.8 × their joint's; any other name 0.25 × the mean length of its bones. Then, from the root
// outwards, each child radius is clamped to its parent's ± 0.8 × the bone's length, so every bone admits
// a tangent cone.
//
// Poses: the root transform is the root joint's rotation and position; each bone's local rotation is its
// parent bone's driving rotation⁻¹ × its own, split into swing and twist about its rest axis; Motion
// unwraps the twists along the frames. Position channels on joints other than the root cannot stretch a
// rigid bone: they are read and checked, and ignored for the pose (documented in docs/ALGORITHM.md).
#pragma once

#include <string>
#include <vector>

#include "host/bvh.hpp"
#include "host/hierarchy_rig.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs {

using BvhRig = HierarchyRig;

// InputError (naming the file) when the hierarchy gives no bone or a skeleton the tree rules refuse.
BvhRig rig_bvh(const BvhFile& file);

// Frame `f` (< frame_count) as a pose of rig.skeleton.
Pose bvh_frame_pose(const BvhRig& rig, const BvhFile& file, std::size_t f);

// Frames [first, last) (clamped to the capture) at the capture's frame rate; InputError when empty, or when
// they are more frames or joint rotations than a motion may hold (motion_size_problem, host/input_limits.hpp).
Motion bvh_motion(const BvhRig& rig, const BvhFile& file, std::size_t first = 0, std::size_t last = kBvhRest);

// The farthest position channels move a joint other than the root from its offset (in the file's units),
// which joint and at which frame: what the rig's poses leave out. 0 (joint -1) where no such channel moves one.
struct BvhSlide {
    double distance = 0;
    int joint = -1;
    std::size_t frame = 0;
};
BvhSlide largest_joint_slide(const BvhFile& file);

// What a motion made of the capture leaves out of it, as notes for its user: lines past the declared frames,
// and position channels that move a joint other than the root by over kSlideNoted of the capture's rest
// extent (smaller ones are rounding in exporters that write every joint's offset as position channels).
constexpr double kSlideNoted = 1e-3;
std::vector<std::string> capture_notes(const BvhFile& file);

// A capture as a motion of `skeleton`, which must be the capture's rig (the skeleton `baseskin rig` writes
// for it: the same bones, and sphere centres within 1e-6 of the body's size; radii may differ). InputError
// naming the file otherwise.
Motion capture_motion(const BvhFile& file, const Skeleton& skeleton);
Motion load_bvh_motion(const std::string& path, const Skeleton& skeleton);

}  // namespace bs
