// BVH motion capture files (Biovision hierarchy): the joint hierarchy with offsets and channels, and the
// frames of channel values; forward kinematics in BVH's own convention.
//
// Format: `HIERARCHY`, one `ROOT name { OFFSET x y z  CHANNELS n c1 … cn  (JOINT … | End Site { OFFSET x y z })* }`,
// then `MOTION`, `Frames: N`, `Frame Time: t`, and N lines of the channels' values in hierarchy order.
// Channels are Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation, in any order and on any
// joint. A joint's rotation is the product of its rotation channels in the order listed (Z Y X gives
// Rz·Ry·Rx), angles in degrees; its position is its parent's plus the parent's rotation applied to its
// OFFSET, or to its position channels where it has them (they replace the offset). Units are the file's.
//
// Limits (InputError beyond them, before anything that size is allocated): kMaxBvhJoints joints,
// kMaxBvhFrames frames; every number finite; the frame lines exactly as many as declared, each with
// exactly the declared number of values. Every error names the file and the line.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "engine/vec.hpp"

namespace bs {

constexpr std::size_t kMaxBvhJoints = 4096;
constexpr std::size_t kMaxBvhFrames = 10'000'000;

enum class BvhChannel { x_position, y_position, z_position, x_rotation, y_rotation, z_rotation };

struct BvhJoint {
    std::string name;  // "End Site" for end sites
    int parent = -1;   // index in BvhFile::joints, -1 for the root
    Vec3<double> offset;
    std::vector<BvhChannel> channels;  // none for end sites
    std::size_t first_channel = 0;     // index of its first value in a frame
    bool end_site = false;
    int line = 0;  // where it is declared, for messages
};

struct BvhFile {
    std::string source;
    std::vector<BvhJoint> joints;  // parents before children (file order)
    std::size_t channel_count = 0;
    double frame_time = 0;                    // seconds, > 0
    std::size_t frame_count = 0;
    std::vector<double> values;               // frame_count × channel_count

    const double* frame(std::size_t f) const { return values.data() + f * channel_count; }
};

BvhFile parse_bvh(std::istream& in, const std::string& source);
BvhFile load_bvh(const std::string& path);  // IoError when it cannot be read

// World position and rotation of every joint (end sites included) at frame `f`; with `f` = npos, at rest
// (all channels 0 and offsets as written: rotations identity, positions the summed offsets).
struct BvhJointPose {
    Vec3<double> position;
    Quat<double> rotation;
};
constexpr std::size_t kBvhRest = static_cast<std::size_t>(-1);
std::vector<BvhJointPose> bvh_pose(const BvhFile& file, std::size_t f);

}  // namespace bs
