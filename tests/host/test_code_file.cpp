// Saved baseline codes (host/code_file.hpp): a round trip deforms exactly as the encoder's own codes, and
// every damaged file is refused with a message that says what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>

#include "host/baseline_skinner.hpp"
#include "host/skinner.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/points.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

struct CodeFileTest : ::testing::Test {
    Skeleton skeleton = testing::bent_chain();
    BaselineSkinner<float> skinner{skeleton, testing::points_around(skeleton, 3000, 17), "test"};
    std::string path;

    void SetUp() override {
        path = testing::temp_path("codes.bsk");
        save_codes(path, skeleton, skinner.saved_codes());
    }

    // The file save_codes would write for `saved` (the fixture's point count), written here without its
    // checks: save_codes refuses codes that load_codes would, so a file of bad codes with a valid checksum
    // is made by hand. FNV-1a 64 over everything before the checksum (host/code_file.hpp).
    std::string unchecked_file(const SavedCodes& saved) {
        std::string bytes = read_bytes(path).substr(0, 32);  // magic, version, bones, count, fingerprint
        bytes.append(reinterpret_cast<const char*>(saved.rest.data()), saved.rest.size() * sizeof(Vec3<float>));
        bytes.append(reinterpret_cast<const char*>(saved.codes.data()), saved.codes.size() * sizeof(BaselineCode));
        std::uint64_t hash = 14695981039346656037ull;
        for (const char c : bytes) hash = (hash ^ std::uint8_t(c)) * 1099511628211ull;
        bytes.append(reinterpret_cast<const char*>(&hash), sizeof hash);
        return bytes;
    }

    void expect_refused(const std::string& bytes, const std::string& message) {
        write_bytes(path, bytes);
        try {
            load_codes(path, skeleton);
            ADD_FAILURE() << "a damaged file was accepted; expected: " << message;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
};

TEST_F(CodeFileTest, RoundTripDeformsExactlyAsTheEncodersCodes) {
    BaselineSkinner<float> loaded(skeleton, load_codes(path, skeleton));
    Pose pose = Pose::rest(skeleton);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 0.9);
    pose.joints[1].twist_radians = 2.5;
    std::vector<Vec3<float>> want, got;
    skinner.deform(pose, want);
    loaded.deform(pose, got);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(norm(got[i] - want[i]), 0.0f) << i;
}

TEST_F(CodeFileTest, TheSkinnerFrontBuildsFromSavedCodes) {
    Skinner front(skeleton, load_codes(path, skeleton));
    EXPECT_EQ(front.method(), Method::baseline);
    std::vector<Vec3<float>> want, got;
    Pose pose = Pose::rest(skeleton);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 1, 0}, 0.7);
    skinner.deform(pose, want);
    front.deform(pose, got);
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(norm(got[i] - want[i]), 0.0f) << i;
}

TEST_F(CodeFileTest, AFileOfNoPointsRoundTrips) {
    // Found by fuzzing (tests/fuzz/fuzz_saved_codes.cpp): loading a file of zero points passed the empty
    // vectors' null data() to memcpy, undefined behaviour that UBSan (./run sanitize) reports here.
    save_codes(path, skeleton, SavedCodes{{}, {}, skeleton_fingerprint(skeleton)});
    EXPECT_EQ(read_bytes(path).size(), 40u);  // the header and the checksum
    const SavedCodes loaded = load_codes(path, skeleton);
    EXPECT_TRUE(loaded.rest.empty());
    EXPECT_TRUE(loaded.codes.empty());
}

TEST_F(CodeFileTest, RefusesATruncatedFile) {
    std::string bytes = read_bytes(path);
    expect_refused(bytes.substr(0, bytes.size() - 21), "truncated or padded");
}

TEST_F(CodeFileTest, RefusesAFileCutInsideItsHeader) { expect_refused(read_bytes(path).substr(0, 20), "truncated inside its header: 20 bytes"); }

TEST_F(CodeFileTest, RefusesAFileCutInsideItsMagic) { expect_refused(read_bytes(path).substr(0, 5), "BSKCODES"); }

TEST_F(CodeFileTest, ADamagedSkeletonFingerprintIsCorruptionNotAnotherSkeleton) {
    std::string bytes = read_bytes(path);
    bytes[24] ^= 0x01;  // the fingerprint: magic 8, version 4, bones 4, count 8 bytes before it
    expect_refused(bytes, "checksum");
}

TEST_F(CodeFileTest, RefusesACorruptedByte) {
    std::string bytes = read_bytes(path);
    bytes[bytes.size() / 2] ^= 0x10;
    expect_refused(bytes, "checksum");
}

TEST_F(CodeFileTest, RefusesAnotherVersion) {
    std::string bytes = read_bytes(path);
    bytes[8] = 1;
    expect_refused(bytes, "version 1");
}

TEST_F(CodeFileTest, RefusesAnotherFormat) {
    std::string bytes = read_bytes(path);
    bytes[0] = 'X';
    expect_refused(bytes, "BSKCODES");
}

TEST_F(CodeFileTest, RefusesAHeaderThatAnnouncesMorePointsThanTheFileHolds) {
    std::string bytes = read_bytes(path);
    const std::uint64_t huge = kMaxPoints;  // 3.6 GB of points and codes: must not be allocated
    bytes.replace(16, 8, reinterpret_cast<const char*>(&huge), 8);
    expect_refused(bytes, "truncated or padded");
}

TEST_F(CodeFileTest, RefusesAHeaderThatAnnouncesMorePointsThanThePointLimit) {
    std::string bytes = read_bytes(path);
    for (const std::uint64_t count : {std::uint64_t(kMaxPoints) + 1, std::uint64_t(1) << 60, ~std::uint64_t(0)}) {
        bytes.replace(16, 8, reinterpret_cast<const char*>(&count), 8);
        expect_refused(bytes, "more than the 100000000 a point set may have");
    }
}

// The header is checked before anything more is read, and no more is read than it announces and one byte:
// the whole stream had been read first, so 512 MiB of garbage took 964 MB to be refused for its first 8
// bytes. How far the parser read shows where the stream stands when it refuses.
TEST_F(CodeFileTest, ReadsNoFurtherThanTheHeaderAnnouncesAndOneByte) {
    auto read_so_far = [](std::istringstream& in) { return std::size_t(in.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in)); };
    auto expect_refused_after = [&](const std::string& bytes, std::size_t most, const std::string& fragment) {
        std::istringstream in(bytes);
        const std::string message = testing::message_of<InputError>([&] { parse_codes(in, skeleton, "stream"); });
        EXPECT_NE(message.find(fragment), std::string::npos) << message;
        EXPECT_LE(read_so_far(in), most) << message;
    };
    const std::string garbage(1 << 20, 'x'), file = read_bytes(path);
    expect_refused_after(garbage, 40, "stream: not a usable baseskin code file: it does not start with the \"BSKCODES\" header");
    expect_refused_after(file + garbage, file.size() + 1, "but more follow it: truncated or padded");
    std::string future = file;
    future[8] = 9;  // another version, followed by its points and codes
    expect_refused_after(future + garbage, 40, "version 9, this build reads version");
}

TEST_F(CodeFileTest, RefusesCodesOfAnotherSkeleton) {
    Skeleton other = testing::straight_chain();
    EXPECT_THROW(load_codes(path, other), InputError);
    try {
        load_codes(path, other);
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("another skeleton"), std::string::npos) << e.what();
    }
}

TEST(CodeFile, RefusesCodesOfTheSameSkeletonWithOtherBridges) {
    // Bridges decide which bone codes a point: codes made without them are another skeleton's.
    const Skeleton unmarked = testing::two_chain_tube(false), bridged = testing::two_chain_tube();
    const std::string path = testing::temp_path("tube_codes.bsk");
    save_codes(path, unmarked, BaselineSkinner<float>(unmarked, testing::points_around(unmarked, 500, 18), "test").saved_codes());
    EXPECT_NO_THROW(load_codes(path, unmarked));
    try {
        load_codes(path, bridged);
        ADD_FAILURE() << "codes of the unmarked tube were accepted for the bridged one";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("another skeleton"), std::string::npos) << e.what();
    }
}

TEST(CodeFile, SkinnersRefuseSavedCodesOnABridge) {
    const Skeleton unmarked = testing::two_chain_tube(false), bridged = testing::two_chain_tube();
    SavedCodes saved = BaselineSkinner<float>(unmarked, testing::points_around(unmarked, 500, 19), "test").saved_codes();
    ASSERT_TRUE(std::any_of(saved.codes.begin(), saved.codes.end(), [](const BaselineCode& c) { return c.bone == testing::kTubeBridge; }));
    EXPECT_THROW(BaselineSkinner<float>(bridged, saved), InputError);  // another skeleton's fingerprint
    // The bridged skeleton's fingerprint, as codes assembled by hand would carry: the code itself is refused.
    saved.skeleton = skeleton_fingerprint(bridged);
    const std::string message = testing::message_of<InputError>([&] { BaselineSkinner<float>(bridged, saved); });
    EXPECT_NE(message.find("is a bridge, which codes no point"), std::string::npos) << message;
}

TEST_F(CodeFileTest, RefusesAnInvalidCodeEvenWithAValidChecksum) {
    SavedCodes saved = skinner.saved_codes();
    saved.codes[7].bone = 99;
    expect_refused(unchecked_file(saved), "point 7: bone 99 is not one of the skeleton's");
}

// Each field of a code is checked on its own (a rigid blend of 2 extrapolated past the rigid field).
TEST_F(CodeFileTest, RefusesEachFieldOutOfItsRange) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::pair<void (*)(BaselineCode&, float), std::string> cases[] = {
        {[](BaselineCode& c, float) { c.flags = std::uint16_t(c.flags | 0x8000u); }, "point 5: unknown flag bits in "},
        {[](BaselineCode& c, float x) { c.phi = x; }, "point 5: phi is not finite"},
        {[](BaselineCode& c, float x) { c.h = x; }, "point 5: h or axis_foot is not finite"},
        {[](BaselineCode& c, float x) { c.axis_foot = x; }, "point 5: h or axis_foot is not finite"},
        {[](BaselineCode& c, float) { c.rigid_blend = 2; }, "point 5: rigid_blend 2 is not in [0, 1]"},
        {[](BaselineCode& c, float) { c.rigid_blend = -0.25f; }, "point 5: rigid_blend -0.25 is not in [0, 1]"},
        {[](BaselineCode& c, float x) { c.rigid_blend = x; }, "point 5: rigid_blend nan is not in [0, 1]"},
        // Finite but beyond what an encoder gives (a probe's forged file, its checksum recomputed).
        {[](BaselineCode& c, float) { c.phi = 3.2f; }, "point 5: phi 3.2 is not an angle in [-pi, pi]"},
        {[](BaselineCode& c, float) { c.h = 3.4e38f; }, "point 5: h 3.4e+38 or axis_foot"},
        {[](BaselineCode& c, float) { c.axis_foot = -5e15f; }, "or axis_foot -5e+15 is beyond ±4e15"}};
    for (const auto& [damage, message] : cases) {
        SavedCodes saved = skinner.saved_codes();
        damage(saved.codes[5], nan);
        expect_refused(unchecked_file(saved), message);
    }
}

TEST_F(CodeFileTest, RefusesARatioOutsideItsRange) {
    SavedCodes saved = skinner.saved_codes();
    std::size_t i = 0;
    while (saved.codes[i].flags & (kCodeParentCap | kCodeChildCap)) ++i;
    saved.codes[i].t = 1.5f;  // a section ratio beyond its end
    expect_refused(unchecked_file(saved), "point " + std::to_string(i) + ": t 1.5 is not a ratio in [0, 1]");
}

TEST_F(CodeFileTest, RefusesADeepCodeAboveItsSurfaceOrAFootSideWithoutDepth) {
    SavedCodes saved = skinner.saved_codes();
    std::size_t i = 0;
    while (i < saved.codes.size() && !(saved.codes[i].flags & kCodeDeep)) ++i;
    ASSERT_LT(i, saved.codes.size()) << "the test's points hold a deep code";
    saved.codes[i].h = 0.1f;  // a deep code over its surface: λ < 0
    expect_refused(unchecked_file(saved), "point " + std::to_string(i) + ": a deep code with h 0.1");
    saved = skinner.saved_codes();
    std::size_t j = 0;
    while (saved.codes[j].flags & kCodeDeep) ++j;
    saved.codes[j].flags |= kCodePastAxisFoot;
    expect_refused(unchecked_file(saved), "point " + std::to_string(j) + ": the past-the-axis-foot flag without the deep flag");
}

TEST_F(CodeFileTest, SkinnersCheckCodesTheyAreGivenDirectly) {
    SavedCodes saved = skinner.saved_codes();
    saved.rest.pop_back();
    EXPECT_THROW(BaselineSkinner<float>(skeleton, saved), InputError);
    saved = skinner.saved_codes();
    saved.codes[3].bone = 5;
    EXPECT_THROW(BaselineSkinner<float>(skeleton, saved), InputError);
}

// Codes handed over in memory carry their skeleton's fingerprint: built against another skeleton (even
// one radius apart), or assembled without it, they are refused as a file of them would be. Until
// 2026-12-05 they were taken, and another skeleton's rest pose moved points by up to 68 units.
TEST_F(CodeFileTest, SkinnersRefuseCodesOfAnotherSkeletonGivenDirectly) {
    Skeleton nudged = skeleton;
    nudged.spheres[2].radius *= 1.01;
    for (const Skeleton& other : {nudged, testing::straight_chain()}) {
        try {
            BaselineSkinner<float> refused(other, skinner.saved_codes());
            ADD_FAILURE() << "codes of the bent chain were taken for " << other.spheres.size() << " other spheres";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("made for another skeleton"), std::string::npos) << e.what();
        }
    }
    SavedCodes by_hand{skinner.saved_codes().rest, skinner.saved_codes().codes};
    EXPECT_THROW(BaselineSkinner<float>(skeleton, by_hand), InputError);
    by_hand.skeleton = skeleton_fingerprint(skeleton);
    EXPECT_NO_THROW(BaselineSkinner<float>(skeleton, by_hand));
}

// save_codes writes no file that load_codes would refuse.
TEST_F(CodeFileTest, SavingRefusesCodesThatLoadingWould) {
    const std::string fresh = testing::temp_path("refused_codes.bsk");
    std::remove(fresh.c_str());
    SavedCodes saved = skinner.saved_codes();
    saved.codes[4].bone = 42;
    EXPECT_THROW(save_codes(fresh, skeleton, saved), InputError);
    EXPECT_THROW(save_codes(fresh, testing::straight_chain(), skinner.saved_codes()), InputError);
    EXPECT_FALSE(std::ifstream(fresh).good()) << "a refused save left a file";
}

TEST_F(CodeFileTest, UnwritablePathIsAnIoError) {
    EXPECT_THROW(save_codes("/nonexistent-folder/codes.bsk", skeleton, skinner.saved_codes()), IoError);
}

TEST_F(CodeFileTest, MissingFileIsAnIoError) { EXPECT_THROW(load_codes(path + ".missing", skeleton), IoError); }

}  // namespace
}  // namespace bs
