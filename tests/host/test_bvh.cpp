// BVH captures (host/bvh.hpp): a hand-written file with known offsets, channel orders and rotations gives
// the expected joint positions; every kind of damage is refused with the file and line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "host/bvh.hpp"
#include "host/errors.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

// Hips (6 channels) → Chest (Z X Y order) → Arm (X Y Z) → End Site. Frame 0: the root moved to (1, 2, 3);
// frame 1: Hips turned 90° about z, Chest 90° about z then 90° about x.
const char* kTiny = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation
  JOINT Chest
  {
    OFFSET 0 2 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Arm
    {
      OFFSET 1 0 0
      CHANNELS 3 Xrotation Yrotation Zrotation
      End Site
      {
        OFFSET 2 0 0
      }
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.04
1 2 3 0 0 0 0 0 0 0 0 0
0 0 0 90 0 0 90 90 0 0 0 0
)";

BvhFile tiny() {
    std::istringstream in(kTiny);
    return parse_bvh(in, "tiny.bvh");
}

void expect_near(Vec3<double> got, Vec3<double> want, const char* what) {
    EXPECT_NEAR(norm(got - want), 0, 1e-12) << what << ": got (" << got.x << ", " << got.y << ", " << got.z << ")";
}

TEST(Bvh, ReadsTheHierarchyChannelsAndFrames) {
    BvhFile f = tiny();
    ASSERT_EQ(f.joints.size(), 4u);
    EXPECT_EQ(f.joints[1].name, "Chest");
    EXPECT_EQ(f.joints[1].parent, 0);
    EXPECT_TRUE(f.joints[3].end_site);
    EXPECT_EQ(f.joints[3].parent, 2);
    EXPECT_EQ(f.channel_count, 12u);
    EXPECT_EQ(f.joints[2].first_channel, 9u);
    EXPECT_EQ(f.frame_count, 2u);
    EXPECT_DOUBLE_EQ(f.frame_time, 0.04);
    EXPECT_EQ(f.frame(1)[6], 90.0);
}

TEST(Bvh, RestPositionsAreTheSummedOffsets) {
    std::vector<BvhJointPose> rest = bvh_pose(tiny(), kBvhRest);
    expect_near(rest[1].position, {0, 2, 0}, "chest");
    expect_near(rest[2].position, {1, 2, 0}, "arm");
    expect_near(rest[3].position, {3, 2, 0}, "end");
}

TEST(Bvh, RootPositionChannelsMoveTheBody) {
    std::vector<BvhJointPose> p = bvh_pose(tiny(), 0);
    expect_near(p[0].position, {1, 2, 3}, "hips");
    expect_near(p[3].position, {4, 4, 3}, "end");
}

TEST(Bvh, RotationsComposeInTheListedChannelOrder) {
    // Hips Rz(90); Chest Rz(90)·Rx(90) (Z X Y order). Chest at Rz90·(0,2,0) = (−2,0,0); the arm's offset
    // (1,0,0) turns by Rz180·Rx90 to (−1,0,0); the end site's (2,0,0) likewise. The other order (Rx·Rz)
    // would put the arm at (−2,0,1).
    std::vector<BvhJointPose> p = bvh_pose(tiny(), 1);
    expect_near(p[1].position, {-2, 0, 0}, "chest");
    expect_near(p[2].position, {-3, 0, 0}, "arm");
    expect_near(p[3].position, {-5, 0, 0}, "end");
}

TEST(Bvh, PositionChannelsOnAJointReplaceItsOffset) {
    std::string text = kTiny;
    text.replace(text.find("CHANNELS 3 Xrotation Yrotation Zrotation"), 40, "CHANNELS 6 Xrotation Yrotation Zrotation Xposition Yposition Zposition");
    text.replace(text.find("1 2 3 0 0 0 0 0 0 0 0 0"), 23, "1 2 3 0 0 0 0 0 0 0 0 0 0 5 0");
    text.replace(text.find("0 0 0 90 0 0 90 90 0 0 0 0"), 26, "0 0 0 90 0 0 90 90 0 0 0 0 1 0 0");
    std::istringstream in(text);
    BvhFile f = parse_bvh(in, "positions.bvh");
    expect_near(bvh_pose(f, 0)[2].position, {1, 9, 3}, "arm: chest (1,4,3) + (0,5,0)");
}

// One damaged copy of the tiny file per kind of damage: the message names the file and the line.
void expect_refused(const std::string& text, const std::string& fragment) {
    std::istringstream in(text);
    try {
        parse_bvh(in, "damaged.bvh");
        ADD_FAILURE() << "accepted; expected an error containing \"" << fragment << "\"";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
}

TEST(Bvh, RefusesAFileWithoutAHierarchy) { expect_refused("MOTION\nFrames: 1\n", "damaged.bvh:1: expected \"HIERARCHY\", got \"MOTION\""); }
// A JSON motion saved under a .bvh name (read as a capture by its name) is told apart: it had been refused
// as 'expected "HIERARCHY", got "{"' alone.
TEST(Bvh, RefusesAJsonFileSayingItLooksLikeJson) {
    for (const char* text : {"{\"fps\": 30, \"frames\": [{}]}", "[1, 2]", "{}"}) {
        std::istringstream in(text);
        const std::string motion = testing::message_of<InputError>([&] { parse_bvh(in, "damaged.bvh", BvhReadAs::motion); });
        EXPECT_NE(motion.find("(the file looks like JSON: a JSON motion is read from a name that does not end in .bvh)"), std::string::npos) << motion;
    }
    std::istringstream plain("MOTION\n");
    const std::string damaged = testing::message_of<InputError>([&] { parse_bvh(plain, "damaged.bvh", BvhReadAs::motion); });
    EXPECT_EQ(damaged.find("JSON"), std::string::npos) << damaged;
}

// Read as a capture (--capture, rig's --model: any name is read as one), JSON is no capture, under any
// name: no word of JSON motions, which a capture option never reads (under a .bvh or .BVH name the hint had
// said "a JSON motion is read from a name that does not end in .bvh").
TEST(Bvh, AJsonCaptureSaysItIsNoCaptureUnderAnyName) {
    for (const char* name : {"walk.json", "walk.bvh", "walk.BVH"}) {
        const std::string path = testing::write_temp(name, "{\"fps\": 30}");
        const std::string json = testing::message_of<InputError>([&] { load_bvh(path); });
        EXPECT_NE(json.find(path + ":1: expected \"HIERARCHY\", got \"{\" (the file looks like JSON, not a BVH capture)"), std::string::npos) << json;
        EXPECT_EQ(json.find("JSON motion"), std::string::npos) << json;
    }
}

TEST(Bvh, RefusesAnUnknownChannel) {
    expect_refused(replaced(kTiny, "Zrotation Xrotation Yrotation", "Zrotation Xrotation Wrotation"), "damaged.bvh:9: unknown channel \"Wrotation\"");
}

TEST(Bvh, RefusesAFrameWithTheWrongNumberOfValues) {
    expect_refused(replaced(kTiny, "1 2 3 0 0 0 0 0 0 0 0 0", "1 2 3 0 0 0 0 0 0 0 0"), "damaged.bvh:24: frame 0: expected 12 values");
}

TEST(Bvh, RefusesATruncatedFile) {
    std::string text = kTiny;
    expect_refused(text.substr(0, text.find("0 0 0 90")), "truncated: 2 frames declared, 1 found");
    expect_refused(text.substr(0, text.find("MOTION")), "expected \"MOTION\", got the end of the file");
    expect_refused(text.substr(0, text.find("End Site")), "got the end of the file");
}

TEST(Bvh, RefusesANaNValue) {
    expect_refused(replaced(kTiny, "0 0 0 90 0 0", "0 0 0 nan 0 0"), "damaged.bvh:25: expected a number finite and within ±1e15, got \"nan\"");
}

// Finite but beyond host/input_limits.hpp's bound: a root position of 1e300 used to be read, and the frames
// it moved to overflow float only when they were written; an offset of 1e300 failed writing the points
// after the skeleton was written.
TEST(Bvh, RefusesAValueBeyondTheInputMagnitude) {
    expect_refused(replaced(kTiny, "1 2 3 0 0 0", "1 2e300 3 0 0 0"), "damaged.bvh:24: expected a number finite and within ±1e15, got \"2e300\"");
    expect_refused(replaced(kTiny, "OFFSET 0 2 0", "OFFSET 0 1e16 0"), "damaged.bvh:8: expected a number finite and within ±1e15, got \"1e16\"");
}

TEST(Bvh, RefusesABadFrameCount) {
    expect_refused(replaced(kTiny, "Frames: 2", "Frames: 0"), "Frames: expected a whole number");
    expect_refused(replaced(kTiny, "Frames: 2", "Frames: 2.5"), "Frames: expected a whole number");
    expect_refused(replaced(kTiny, "Frames: 2", "Frames: 99999999999"), "Frames: expected a whole number");
}

TEST(Bvh, RefusesAFrameTimeOutOfRange) {
    expect_refused(replaced(kTiny, "Frame Time: 0.04", "Frame Time: 0"), "Frame Time: expected seconds in [1e-6, 3600]");
    expect_refused(replaced(kTiny, "Frame Time: 0.04", "Frame Time: 1e-320"), "Frame Time: expected seconds in [1e-6, 3600]");
    expect_refused(replaced(kTiny, "Frame Time: 0.04", "Frame Time: 3601"), "Frame Time: expected seconds in [1e-6, 3600]");
}

// kTiny with every line end written as `end`.
std::string with_line_ends(const std::string& end) {
    std::string text;
    for (char c : std::string(kTiny)) text += c == '\n' ? end : std::string(1, c);
    return text;
}

// Lines may end in LF, CR LF or CR alone (a capture saved with CR line ends read as one line and was refused
// as "unexpected words after the frame time"), or CR CR LF (CR LF converted again) and LF CR, whose CRs are
// whitespace; a UTF-8 byte-order mark before HIERARCHY is skipped (refused as 'expected "HIERARCHY", got
// "\xEF\xBB\xBFHIERARCHY"', two words that look the same), a part of one is not.
TEST(Bvh, ReadsAnyLineEndAndAByteOrderMark) {
    const BvhFile lf = tiny();
    for (const char* end : {"\r", "\r\n", "\r\r\n", "\n\r", "\n"}) {
        for (const std::string& bom : {std::string(), std::string("\xEF\xBB\xBF")}) {
            std::istringstream in(bom + with_line_ends(end));
            const BvhFile f = parse_bvh(in, "ends.bvh");
            EXPECT_EQ(f.joints.size(), lf.joints.size());
            EXPECT_EQ(f.values, lf.values);
        }
        expect_refused(replaced(with_line_ends(end), "0 0 0 90 0 0", "0 0 0 nan 0 0"), "damaged.bvh:25: expected a number");
    }
    expect_refused("\xEF\xBB" + std::string(kTiny), "damaged.bvh:1: expected \"HIERARCHY\"");
    // Blank lines in a file of CR line ends count.
    expect_refused(replaced(with_line_ends("\r"), "MOTION", "\r\rMOTION\r1 2"), "damaged.bvh:24: expected \"Frames:\"");
}

// A frame line's words are split out only up to one more than the channels: a line of 50 million values took
// 2.2 GB before it was refused. A header line holds at most kMaxBvhJoints × 32 words.
TEST(Bvh, RefusesALineOfTooManyWordsBeforeSplittingItAll) {
    std::string many;
    for (int i = 0; i < 2'000'000; ++i) many += "0 ";
    expect_refused(replaced(kTiny, "1 2 3 0 0 0 0 0 0 0 0 0", many), "damaged.bvh:24: frame 0: expected 12 values (the channels declared), got more");
    expect_refused(replaced(kTiny, "1 2 3 0 0 0 0 0 0 0 0 0", "1 2 3 0 0 0 0 0 0 0 0 0 0"), "got more");
    expect_refused(replaced(kTiny, "ROOT Hips", "ROOT Hips " + many), "damaged.bvh:2: more than 131072 words on one line");
    expect_refused(replaced(kTiny, "1 2 3 0 0 0", "1" + std::string(5000, '0') + " 2 3 0 0 0"), "damaged.bvh:24: a word longer than 4096 characters");
}

TEST(Bvh, IgnoresAndCountsLinesPastTheDeclaredFrames) {
    std::istringstream in(std::string(kTiny) + "0 0 0 0 0 0 0 0 0 0 0 0\n\n");
    BvhFile f = parse_bvh(in, "long.bvh");
    EXPECT_EQ(f.frame_count, 2u);
    EXPECT_EQ(f.ignored_lines, 1u);
}

// `depth` joints, each the child of the previous one, with one channel each and one frame.
std::string nested_joints(std::size_t depth) {
    std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\n";
    for (std::size_t j = 1; j < depth; ++j) text += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 1 Zrotation\n";
    for (std::size_t j = 0; j < depth; ++j) text += "}\n";
    text += "MOTION\nFrames: 1\nFrame Time: 0.1\n";
    for (std::size_t j = 0; j < depth; ++j) text += "5 ";
    return text + "\n";
}

TEST(Bvh, RefusesJointsNestedBeyondTheDepthLimit) {
    // 4095 nested joints (within kMaxBvhJoints) overflowed the stack of the recursive reader under
    // AddressSanitizer (found while fuzzing, tests/fuzz/fuzz_bvh.cpp): nesting is limited to kMaxBvhDepth.
    expect_refused(nested_joints(4095), "damaged.bvh:1026: joints nested more than 256 levels deep");
    expect_refused(nested_joints(kMaxBvhDepth + 1), "joints nested more than 256 levels deep");
    std::istringstream in(nested_joints(kMaxBvhDepth));
    EXPECT_EQ(parse_bvh(in, "deep.bvh").joints.size(), kMaxBvhDepth);
}

TEST(Bvh, RefusesMoreValuesThanTheLimitBeforeReadingThem) {
    // 36 channels × 1,000,000 declared frames (and none given): refused at the header, before any frame.
    std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n";
    for (int j = 1; j <= 10; ++j) text += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n";
    text += "End Site\n{\nOFFSET 0 1 0\n}\n";
    for (int j = 0; j <= 10; ++j) text += "}\n";
    expect_refused(text + "MOTION\nFrames: 1000000\nFrame Time: 0.01\n", "1000000 frames of 36 channels exceed the limit of");
}

TEST(Bvh, PartialPositionChannelsKeepTheOtherOffsetCoordinates) {
    std::string text = replaced(kTiny, "OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition", "OFFSET 4 5 6\n  CHANNELS 4 Yposition");
    text = replaced(text, "1 2 3 0 0 0 0 0 0 0 0 0", "7 0 0 0 0 0 0 0 0 0");
    text = replaced(text, "0 0 0 90 0 0 90 90 0 0 0 0", "7 0 0 0 0 0 0 0 0 0");
    std::istringstream in(text);
    expect_near(bvh_pose(parse_bvh(in, "partial.bvh"), 0)[0].position, {4, 7, 6}, "root: y from the channel, x and z from the offset");
}

TEST(Bvh, RecognisesItsExtensionInAnyCase) {
    EXPECT_TRUE(is_bvh_path("walk.bvh"));
    EXPECT_TRUE(is_bvh_path("/a/Walk.Bvh"));
    EXPECT_FALSE(is_bvh_path("walk.bvh.json"));
    EXPECT_FALSE(is_bvh_path("bvh"));
}

TEST(Bvh, RecognisesACaptureByItsFirstWordWhateverItsName) {
    EXPECT_TRUE(is_bvh_path(testing::write_temp("capture", "  HIERARCHY\nROOT Hips\n")));
    EXPECT_TRUE(is_bvh_path(testing::write_temp("marked", "\xEF\xBB\xBFHIERARCHY\nROOT Hips\n")));  // as the reader, past a byte-order mark
    EXPECT_TRUE(is_bvh_path(testing::write_temp("marked_apart", "\xEF\xBB\xBF HIERARCHY\nROOT Hips\n")));
    EXPECT_FALSE(is_bvh_path(testing::write_temp("half_marked", "\xEF\xBBHIERARCHY\nROOT Hips\n")));
    EXPECT_FALSE(is_bvh_path(testing::write_temp("motion", "{\"fps\": 30, \"frames\": []}")));
    EXPECT_FALSE(is_bvh_path(testing::write_temp("empty", "")));
    EXPECT_FALSE(is_bvh_path(testing::temp_path("missing")));
}

TEST(Bvh, RefusesAFileWithoutChannels) {
    expect_refused("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 0\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n\n",
                   "no channels: the file has no animation");
}

// The count as written ("got 7.000000" had read as a fraction).
TEST(Bvh, RefusesTooManyChannelsOnAJoint) {
    for (const char* count : {"7", "2.5", "-1"}) {
        std::istringstream in(replaced(kTiny, "CHANNELS 3 Zrotation", std::string("CHANNELS ") + count + " Zrotation"));
        const std::string message = testing::message_of<InputError>([&] { parse_bvh(in, "damaged.bvh"); });
        const std::string ending = std::string("a joint has 0 to 6 channels, got ") + count;
        EXPECT_TRUE(message.size() >= ending.size() && message.compare(message.size() - ending.size(), ending.size(), ending) == 0)
            << message;
    }
}

TEST(Bvh, RefusesAStrayWordInAJoint) { expect_refused(replaced(kTiny, "End Site", "Ending Site"), "expected JOINT, End Site or \"}\" in joint \"Arm\""); }

TEST(Bvh, AMissingFileIsAnIoError) { EXPECT_THROW(load_bvh("/nonexistent/capture.bvh"), IoError); }

TEST(Bvh, RefusesAFrameOutOfRange) { EXPECT_THROW(bvh_pose(tiny(), 2), InputError); }

TEST(Bvh, ReadsTheCmuCapture) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " missing (Debian's assimp-testmodels; ./run installs it)";
    BvhFile f = load_bvh(path);
    EXPECT_EQ(f.frame_count, 2752u);
    EXPECT_EQ(f.joints[0].name, "Hips");
    EXPECT_EQ(f.channel_count, f.values.size() / f.frame_count);
    EXPECT_NEAR(f.frame_time, 1.0 / 120, 1e-6);
}

}  // namespace
}  // namespace bs
