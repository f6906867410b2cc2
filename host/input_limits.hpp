// The stated maxima of every input (README "Input limits") and the checks that enforce them. Each is
// checked before anything of that size is allocated, and exceeding one is an InputError naming the file
// (or API argument), what it holds and the limit. They bound what a file's header or an API call can
// make the engine allocate; they are not the engine's hard limits (32-bit bone indices, 64-bit point
// indices), which lie far above.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "engine/vec.hpp"

namespace bs {

// Points of one point set: a PLY vertex element, a code file, a skinner's rest points, a CLI count.
// 1e8 is the largest size the GPU benchmark runs; a baseline skinner then holds ~3.6 GB of rest points and codes.
constexpr std::size_t kMaxPoints = 100'000'000;
// Bones of one skeleton (spheres: at most one more). The BVH and model importers take as many joints.
constexpr std::size_t kMaxBones = 4096;
// Frames of a JSON motion, and its frames × bones (a joint rotation each, 40 bytes): a motion file of 3 MB
// (a million empty frames of a 27-bone skeleton) took 1.25 GB of poses. The BVH reader's own are in
// host/bvh.hpp; these hold its motions too (kMaxBvhValues is the tighter).
constexpr std::size_t kMaxMotionFrames = 1'000'000;
constexpr std::size_t kMaxMotionJointRotations = 10'000'000;

// File sizes, by kind. JSON is parsed into a document of ~10× its text; a PLY file is read whole.
constexpr std::uintmax_t kMiB = std::uintmax_t(1) << 20;
constexpr std::uintmax_t kMaxJsonFileBytes = 256 * kMiB;       // skeleton, pose, motion, binding
constexpr std::uintmax_t kMaxBvhFileBytes = 1024 * kMiB;       // also bounded by kMaxBvhValues
constexpr std::uintmax_t kMaxPlyFileBytes = 16 * 1024 * kMiB;  // 1e8 points with influences, in ASCII
constexpr std::uintmax_t kMaxModelFileBytes = 2048 * kMiB;     // meshes and rigged models, through assimp
// A code file of kMaxPoints points (rest float32 xyz and a 24-byte code each) and its 40 bytes of framing.
constexpr std::uintmax_t kMaxCodeFileBytes = kMaxPoints * 36 + 40;

// Coordinates, radii and translations an input gives (skeleton, pose and motion root, a skinner's rest
// points, code files, BVH values, meshes and models), in magnitude: the points are deformed and written as
// float, whose squares must stay finite (1e15² = 1e30 < 3.4e38 in float). A larger one, finite, would pass
// the parse and fail later, part way through the outputs. (A PLY point set is read as it is; a skinner
// checks its rest points.)
constexpr double kMaxInputMagnitude = 1e15;
inline bool within_input_magnitude(double x) { return std::fabs(x) <= kMaxInputMagnitude; }  // false for NaN
inline bool within_input_magnitude(Vec3<double> p) {
    return within_input_magnitude(p.x) && within_input_magnitude(p.y) && within_input_magnitude(p.z);
}
// The least radius a skeleton's sphere may have, for the same reason from below: a body's squared lengths
// stay normal in float (1e-30 > 1.2e-38). Measured on bodies scaled down (2026-12-05): exact to 1e-38,
// errors of 1e-5 of the body at 1e-40, 9% at 1e-44, every point written as 0 at 1e-46.
constexpr double kMinRadius = 1e-15;
// What a refusal says of the limit.
inline const char* input_magnitude_text() { return "finite and within ±1e15"; }
// The same bound said of a value that breaks it ("a position beyond ±1e15 or not finite").
inline const char* outside_input_magnitude_text() { return "beyond ±1e15 or not finite"; }

// Opens `path` for binary reading: IoError if it cannot be opened or is not a regular file (a pipe has
// no size to check); InputError if it is larger than `max_bytes` (`kind` names the format in messages).
std::ifstream open_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& kind);

// Empty where a motion of `frames` frames of `bones` bones is within kMaxMotionFrames and
// kMaxMotionJointRotations; else what it exceeds, for a message that names its source ("N frames exceed ...").
std::string motion_size_problem(std::size_t frames, std::size_t bones);

// InputError naming `source` when `count` points exceed kMaxPoints.
void check_point_count(std::size_t count, const std::string& source);

// InputError naming `source` (and the vertex) unless there are at most kMaxPoints points, all finite.
void check_rest_points(const std::vector<Vec3<double>>& rest, const std::string& source);

// Rest points as a skinner stores them, after check_rest_points.
template <class T>
std::vector<Vec3<T>> checked_rest_points(const std::vector<Vec3<double>>& rest, const std::string& source);

}  // namespace bs
