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
// Limits (InputError beyond them, before anything that size is allocated): kMaxBvhJoints joints nested
// at most kMaxBvhDepth deep, kMaxBvhFrames frames, kMaxBvhValues values in all; a frame time in
// [1e-6, 3600] s; every number finite; at least as many frame lines as declared, each with exactly the
// declared number of values. Lines past the declared frames are ignored and counted (a CMU file in
// Debian's collection has one). Every error names the file and the line. Position channels replace only the coordinates they give.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "engine/vec.hpp"

namespace bs {

constexpr std::size_t kMaxBvhJoints = 4096;
// Levels of JOINT nesting (a human capture has about 10). The reader recurses once per level: 4096 levels
// overflowed the stack of a sanitized build.
constexpr std::size_t kMaxBvhDepth = 256;
constexpr std::size_t kMaxBvhFrames = 1'000'000;
constexpr std::size_t kMaxBvhValues = 20'000'000;  // frames × channels: 160 MB of values

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
    std::size_t ignored_lines = 0;            // non-blank lines after the declared frames

    const double* frame(std::size_t f) const { return values.data() + f * channel_count; }
};

// True for a path ending in ".bvh", in any case, or a file whose first word, past a UTF-8 byte-order mark,
// is BVH's "HIERARCHY" (so a
// capture is read as one whatever its name: `rig` used to hand such a file to assimp's BVH reader, and
// `animate --motion` to the JSON parser). A file that cannot be read is judged by its name alone.
bool is_bvh_path(const std::string& path);

// What a file is read as, for the hint where it holds JSON: a motion (`animate --motion`, load_motion),
// read as a capture by its name (is_bvh_path) and as a JSON motion otherwise, or a capture (--capture,
// rig's --model), read as one whatever its name: a hint about JSON motions' names misled there, under
// a .bvh name as under any other (--capture walk.BVH).
enum class BvhReadAs { motion, capture };

BvhFile parse_bvh(std::istream& in, const std::string& source, BvhReadAs read_as = BvhReadAs::capture);
BvhFile load_bvh(const std::string& path, BvhReadAs read_as = BvhReadAs::capture);  // IoError when it cannot be read

// World position and rotation of every joint (end sites included) at frame `f`; with `f` = npos, at rest
// (all channels 0 and offsets as written: rotations identity, positions the summed offsets).
struct BvhJointPose {
    Vec3<double> position;
    Quat<double> rotation;
};
constexpr std::size_t kBvhRest = static_cast<std::size_t>(-1);
std::vector<BvhJointPose> bvh_pose(const BvhFile& file, std::size_t f);

}  // namespace bs
