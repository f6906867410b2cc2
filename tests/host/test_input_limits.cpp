// Input limits (host/input_limits.hpp): every loader refuses a file over its kind's size limit before
// reading it, and names the file, its size and the limit; a file that is not a regular one (a directory,
// a FIFO that nothing writes to) is an I/O error, not a hang; the point and bone limits are exact.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "host/bvh.hpp"
#include "host/code_file.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/json_io.hpp"
#include "host/mesh_io.hpp"
#include "host/model_io.hpp"
#include "host/ply.hpp"
#include "host/skeleton.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

// A sparse file of `bytes` zero bytes: it takes no disk space, so limits of gigabytes can be tested.
std::string sparse_file(const std::string& suffix, std::uintmax_t bytes) {
    const std::string path = testing::temp_path(suffix);
    std::ofstream(path, std::ios::binary).close();
    std::filesystem::resize_file(path, bytes);
    return path;
}

using testing::message_of;

// One byte over the limit is refused, naming the file, its size and the limit (the message comes from the
// size check, before a byte is read).
void expect_over_limit(const std::string& suffix, std::uintmax_t limit, const std::string& kind,
                       const std::function<void(const std::string&)>& load) {
    const std::string path = sparse_file(suffix, limit + 1);
    const std::string message = message_of<InputError>([&] { load(path); });
    EXPECT_EQ(message.rfind(path + ": " + std::to_string(limit + 1) + " bytes, more than the " + std::to_string(limit) +
                                " bytes a " + kind + " file may have",
                            0),
              0u)
        << message;
    std::filesystem::remove(path);
}

TEST(InputLimits, EveryLoaderRefusesAFileOverItsKindsLimitBeforeReadingIt) {
    expect_over_limit("skeleton.json", kMaxJsonFileBytes, "JSON", [](const std::string& p) { load_skeleton(p); });
    expect_over_limit("capture.bvh", kMaxBvhFileBytes, "BVH", [](const std::string& p) { load_bvh(p); });
    expect_over_limit("points.ply", kMaxPlyFileBytes, "PLY", [](const std::string& p) { read_point_set(p); });
    const Skeleton skeleton = testing::bent_chain();
    expect_over_limit("codes.bsk", kMaxCodeFileBytes, "code", [&](const std::string& p) { load_codes(p, skeleton); });
    expect_over_limit("mesh.obj", kMaxModelFileBytes, "mesh", [](const std::string& p) { load_triangle_mesh(p); });
    expect_over_limit("model.fbx", kMaxModelFileBytes, "model", [](const std::string& p) { load_rigged_model(p); });
}

// A point count past the limit is refused from the header, before the data is read (a sparse file of
// 100,000,001 vertices was read whole first: 3.5 GB and 15 s); here the data is missing altogether, which
// the reader would otherwise have said first.
TEST(InputLimits, APointCountPastTheLimitIsRefusedFromTheHeader) {
    const std::string header = "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(kMaxPoints + 1) +
                               "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
    const std::string message = message_of<InputError>([&] { parse_point_set(header, "big.ply"); });
    EXPECT_NE(message.find(std::to_string(kMaxPoints + 1) + " points, more than the"), std::string::npos) << message;
}

// What reading a PLY takes in memory is counted from its header before its data is read (and refused
// where it exceeds what the process may use, memory_shortfall): a uchar property takes 8 times its bytes
// (1e6 rows of 200 of them, a 200 MB file, took 3.3 GB), and only as many rows count as fit in the data.
TEST(InputLimits, WhatAPlyTakesAsReadIsCountedFromItsHeader) {
    PlyProperty uchar, face_list;
    uchar.type = PlyType::UInt8;
    face_list.type = PlyType::Int32;
    face_list.is_list = true;
    PlyFile header;
    header.format = PlyFormat::BinaryLittleEndian;
    header.elements.push_back({"junk", 1000000, std::vector<PlyProperty>(200, uchar)});
    header.elements.push_back({"face", 10, {face_list}});
    const std::size_t data = 200000000 + 10, file = data + 4000;  // the header's 4,000 bytes besides
    EXPECT_DOUBLE_EQ(ply_bytes_as_read(header, file, data), double(file) + 1.6e9 + 40);
    // Data for half the rows: half of them count (the reader refuses the file without allocating the rest).
    EXPECT_DOUBLE_EQ(ply_bytes_as_read(header, 100000000, 100000000), 1e8 + 8e8 + 40);
    header.format = PlyFormat::Ascii;  // at least a character and a separator a value
    EXPECT_DOUBLE_EQ(ply_bytes_as_read(header, 100000000, 100000000), 1e8 + 250000 * 1600.0 + 40);
}

TEST(InputLimits, AFileAtTheLimitIsReadAsUsual) {
    // 256 MiB of zero bytes: not JSON, which the parser says at its first byte.
    const std::string path = sparse_file("skeleton.json", kMaxJsonFileBytes);
    const std::string message = message_of<InputError>([&] { json_io::load(path); });
    EXPECT_NE(message.find("not valid JSON"), std::string::npos) << message;
    std::filesystem::remove(path);
}

TEST(InputLimits, ADirectoryOrAFifoIsAnIoErrorNotAHang) {
    const std::string directory = testing::temp_path("folder.json");
    std::filesystem::create_directories(directory);
    EXPECT_NE(message_of<IoError>([&] { json_io::load(directory); }).find("not a regular file"), std::string::npos);
    const std::string fifo = testing::temp_path("fifo.ply");
    std::filesystem::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(message_of<IoError>([&] { read_point_set(fifo); }).find("not a regular file"), std::string::npos);
    std::filesystem::remove(fifo);
    std::filesystem::remove(directory);
}

TEST(InputLimits, AMissingFileIsAnIoErrorWithTheSystemsReason) {
    const std::string path = testing::temp_path("missing.json");
    EXPECT_NE(message_of<IoError>([&] { load_skeleton(path); }).find("No such file or directory"), std::string::npos);
}

TEST(InputLimits, ThePointLimitIsExact) {
    EXPECT_NO_THROW(check_point_count(kMaxPoints, "API"));
    const std::string message = message_of<InputError>([] { check_point_count(kMaxPoints + 1, "API"); });
    EXPECT_EQ(message, "API: 100000001 points, more than the 100000000 a point set may have (README, \"Input limits\")");
}

// A motion exactly at either limit is a motion; one frame more is not.
TEST(InputLimits, TheMotionLimitsAreExact) {
    for (const auto& [frames, bones] : {std::pair<std::size_t, std::size_t>{kMaxMotionFrames, 1}, {kMaxMotionJointRotations / 200, 200},
                                        {kMaxMotionJointRotations / 11, 11}, {kMaxMotionFrames, kMaxMotionJointRotations / kMaxMotionFrames}}) {
        EXPECT_EQ(motion_size_problem(frames, bones), "") << frames << " frames of " << bones << " bones";
        EXPECT_NE(motion_size_problem(frames + 1, bones), "") << frames + 1 << " frames of " << bones << " bones";
    }
    EXPECT_EQ(motion_size_problem(50000, 201), "50000 frames of 201 bones exceed the limit of 10000000 joint rotations (frames × bones) a motion may hold");
}

TEST(InputLimits, RestPointsBeyondTheInputMagnitudeAreRefused) {
    EXPECT_NO_THROW(check_rest_points({{0, 0, 0}, {0, -kMaxInputMagnitude, 0}}, "API"));
    const std::string message = message_of<InputError>([] { check_rest_points({{0, 0, 0}, {0, 0, 1.5e15}}, "API"); });
    EXPECT_EQ(message, "API: vertex 1: a position beyond ±1e15 or not finite: (0, 0, 1.5e+15)");
}

// A chain of `bones` bones along x.
void make_chain(std::size_t bones, std::size_t extra_spheres = 0) {
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> pairs;
    for (std::size_t i = 0; i <= bones + extra_spheres; ++i) spheres.push_back({{double(i), 0, 0}, 0.3});
    for (std::size_t k = 0; k < bones; ++k) pairs.push_back({int(k), int(k + 1)});
    make_skeleton(spheres, pairs, {}, "API", SkeletonRules::Tree);
}

TEST(InputLimits, TheBoneLimitIsExactAndRefusedBeforeTheQuadraticChecks) {
    EXPECT_NO_THROW(make_chain(kMaxBones));
    EXPECT_EQ(message_of<InputError>([] { make_chain(kMaxBones + 1); }).find("API: bones: 4097 bones, more than the 4096"), 0u);
    EXPECT_EQ(message_of<InputError>([] { make_chain(10, kMaxBones); }).find("API: spheres: 4107 spheres, more than the 4097"),
              0u);
    // A million bones: refused by the limit (the pairwise duplicate check would take hours).
    EXPECT_EQ(message_of<InputError>([] { make_chain(1'000'000); }).find("API: bones: 1000000 bones"), 0u);
}

}  // namespace
}  // namespace bs
