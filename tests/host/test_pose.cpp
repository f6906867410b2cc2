#include "host/pose.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/json_io.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/pose_sizes.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

Pose pose_from(const std::string& text) {
    return load_pose(testing::write_temp("pose_under_test.json", text), testing::straight_chain());
}

void expect_pose_error(const std::string& text, const std::string& fragment) {
    try {
        pose_from(text);
        ADD_FAILURE() << "expected InputError containing \"" << fragment << "\"";
    } catch (const InputError& e) {
        std::string message = e.what();
        EXPECT_NE(message.find("pose_under_test.json: "), std::string::npos) << message;
        EXPECT_NE(message.find(fragment), std::string::npos) << "got: \"" << message << "\", expected \"" << fragment << "\"";
    }
}

TEST(Pose, EmptyFileIsRest) {
    Pose p = pose_from("{}");
    ASSERT_EQ(p.joints.size(), 3u);
    for (const auto& j : p.joints) {
        EXPECT_EQ(j.twist_radians, 0.0);
        EXPECT_NEAR(rotation_angle(j.swing), 0.0, 1e-15);
    }
}

TEST(Pose, AxisDegreesAndQuaternionAgree) {
    Pose a = pose_from(R"({"bones": [{"bone": 1, "axis": [0, 0, 2], "degrees": 90}]})");
    Pose b = pose_from(R"({"bones": [{"bone": 1, "rotation": [0.7071067811865476, 0, 0, 0.7071067811865476]}]})");
    Vec3<double> tip{9, 0, 0};
    auto ga = posed_bones(testing::straight_chain(), a), gb = posed_bones(testing::straight_chain(), b);
    EXPECT_NEAR(norm(ga[2].apply(tip) - gb[2].apply(tip)), 0.0, 1e-12);
    EXPECT_NEAR(ga[2].apply(tip).y, 5.0, 1e-12);  // bone 1 pivots at x = 4: the tip at distance 5 turns to +y
}

TEST(Pose, TwistDegreesAddToTheQuaternionsTwist) {
    // Bone 0's rest axis is +x: a 90° rotation about x is all twist; 450 more degrees unwrapped.
    Pose p = pose_from(R"({"bones": [{"bone": 0, "axis": [1, 0, 0], "degrees": 90, "twist_degrees": 450}]})");
    EXPECT_NEAR(p.joints[0].twist_radians, kPi / 2 + 2.5 * kPi, 1e-12);
    EXPECT_NEAR(rotation_angle(p.joints[0].swing), 0.0, 1e-12);
}

// A pose built in code may turn a bone about its own rest axis inside its swing; split, the same rotation
// has that turn in the twist (unwrapped twists kept) and a swing with no part about the axis.
TEST(Pose, TwistsSplitFromTheSwingsKeepEveryRotation) {
    const Skeleton s = testing::bent_chain();
    Pose pose = Pose::rest(s);
    for (std::size_t k = 0; k < pose.joints.size(); ++k) {
        const Vec3<double> axis = s.rest_axis(int(k));
        const Quat<double> bend = axis_angle(normalized(cross(axis, Vec3<double>{0.3 * double(k), 0.5, 1})), 0.7 + 0.2 * double(k));
        pose.joints[k] = {normalized(bend * axis_angle(axis, 1.1 - 0.4 * double(k))), 3 * kPi};
    }
    // A pose split already (a pose file's) comes back bit for bit.
    const Pose again = with_twists_split(s, with_twists_split(s, pose));
    const Pose split = with_twists_split(s, pose);
    for (std::size_t k = 0; k < pose.joints.size(); ++k) {
        EXPECT_EQ(std::memcmp(&again.joints[k], &split.joints[k], sizeof(JointRotation<double>)), 0) << "bone " << k;
    }
    for (std::size_t k = 0; k < pose.joints.size(); ++k) {
        const Vec3<double> axis = s.rest_axis(int(k));
        EXPECT_NEAR(split.joints[k].twist_radians, 3 * kPi + 1.1 - 0.4 * double(k), 1e-12) << "bone " << k;
        EXPECT_NEAR(dot(split.joints[k].swing.vec(), axis), 0.0, 1e-12) << "bone " << k;
        const Quat<double> before = local_rotation(pose.joints[k], axis), after = local_rotation(split.joints[k], axis);
        EXPECT_NEAR(std::fabs(dot(before, after)), 1.0, 1e-12) << "bone " << k;
    }
}

TEST(Pose, RootTransform) {
    Pose p = pose_from(R"({"root": {"rotation": [0, 0, 0, 1], "translation": [1, 2, 3]}})");
    auto g = posed_bones(testing::straight_chain(), p);
    Vec3<double> q = g[0].apply({1, 0, 0});  // 180° about z, then shifted
    EXPECT_NEAR(q.x, 0.0, 1e-12);
    EXPECT_NEAR(q.y, 2.0, 1e-12);
    EXPECT_NEAR(q.z, 3.0, 1e-12);
}

TEST(Pose, HugeComponentsKeepTheirRotation) {
    // Found by the fuzz target's checks (tests/fuzz): squaring components of 1e200 overflowed the norm, so a
    // quaternion became zero instead of unit, and an axis zero (its rotation silently dropped).
    auto expect_same = [](const Pose& got, const Pose& want) {
        const Quat<double> a = got.joints[1].swing, b = want.joints[1].swing;
        EXPECT_NEAR(std::fabs(a.w - b.w) + std::fabs(a.x - b.x) + std::fabs(a.y - b.y) + std::fabs(a.z - b.z), 0.0, 1e-15);
        EXPECT_NEAR(got.joints[1].twist_radians, want.joints[1].twist_radians, 1e-15);
    };
    expect_same(pose_from(R"({"bones": [{"bone": 1, "rotation": [1e200, 0, 1e200, 0]}]})"),
                pose_from(R"({"bones": [{"bone": 1, "rotation": [1, 0, 1, 0]}]})"));
    expect_same(pose_from(R"({"bones": [{"bone": 1, "axis": [0, 1e200, 0], "degrees": 40}]})"),
                pose_from(R"({"bones": [{"bone": 1, "axis": [0, 1, 0], "degrees": 40}]})"));
    expect_pose_error(R"({"bones": [{"bone": 1, "rotation": [1e-200, 0, 0, 1e-200]}]})",
                      "rotation quaternion [w,x,y,z]: norm 1.414213562373095e-200 is too near zero to give a direction (it must be above 1e-12");
    // The same direction scaled to just above the least norm is read (and normalised).
    expect_same(pose_from(R"({"bones": [{"bone": 1, "rotation": [1e-12, 0, 1e-12, 0]}]})"),
                pose_from(R"({"bones": [{"bone": 1, "rotation": [1, 0, 1, 0]}]})"));
}

TEST(Pose, MaxJointBendIgnoresTwistAndTheFirstBone) {
    Skeleton s = testing::straight_chain();
    Pose p = Pose::rest(s);
    p.joints[0].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.0);  // whole chain, rigid
    p.joints[1].twist_radians = 3.0;
    EXPECT_NEAR(max_joint_bend(s, p), 0.0, 1e-12);
    p.joints[2].swing = axis_angle(Vec3<double>{0, 1, 0}, 0.4);
    EXPECT_NEAR(max_joint_bend(s, p), 0.4, 1e-12);
}

// A pose of another skeleton's size is refused as the skinners refuse it (one bone short, it was read past
// its joints; an empty one crashed).
TEST(PoseInvalid, MaxJointBendOfAPoseOfAnotherSize) {
    const Skeleton s = testing::straight_chain();
    testing::expect_poses_of_another_size_refused(s, [&](const Pose& pose) { max_joint_bend(s, pose); });
}

TEST(PoseInvalid, RootTranslationBeyondTheInputMagnitude) {
    expect_pose_error(R"({"root": {"translation": [0, 1e308, 0]}, "bones": []})", "translation: expected coordinates finite and within ±1e15");
}
TEST(PoseInvalid, AnAngleBeyondABillionDegrees) {
    expect_pose_error(R"({"bones": [{"bone": 1, "axis": [0, 0, 1], "degrees": 1e30}]})", "bones[0].degrees: an angle within ±1e9 degrees expected, got 1e+30");
    expect_pose_error(R"({"bones": [{"bone": 1, "twist_degrees": -2e9}]})", "bones[0].twist_degrees: an angle within ±1e9 degrees expected");
    // The whole twist too (the rotation's own added): a pose read is one its file can hold (save_motion
    // refused what load_pose had taken).
    expect_pose_error(R"({"bones": [{"bone": 1, "axis": [1, 0, 0], "degrees": 90, "twist_degrees": 1e9}]})",
                      "bones[0].twist_degrees: with the rotation's own twist of 90 degrees, 1000000090 degrees in all, beyond ±1e9");
}
// The bound is on the degrees as written: exactly ±1e9 is read (through radians and back it had come to
// 1000000000.0000001 and been refused as "the rotation's own twist", of a pose with no rotation), and a
// pose read at the bound is written back; the next double past it is refused, naming the value as given.
TEST(Pose, ATwistOfExactlyTheBoundIsReadAndWrittenBack) {
    for (const double degrees : {1e9, -1e9}) {
        const Pose p = pose_from(R"({"bones": [{"bone": 1, "twist_degrees": )" + number_text(degrees) + "}]}");
        EXPECT_EQ(p.joints[1].twist_radians, degrees * (kPi / 180));
        const std::string path = testing::temp_path("twist_at_bound.json");
        save_motion(path, Motion(24, {p}));  // one frame: nothing unwrapped
        EXPECT_EQ(load_motion(path, testing::straight_chain()).frame(0).joints[1].twist_radians, p.joints[1].twist_radians);
    }
    const Motion jump = load_motion(testing::write_temp("twist_jump.json", R"({"fps": 10, "frames": [{}, )"
                                                        R"({"bones": [{"bone": 1, "twist_degrees": 1e9}]}, )"
                                                        R"({"bones": [{"bone": 1, "twist_degrees": -1e9}]}]})"),
                                    testing::straight_chain());
    EXPECT_EQ(jump.frame_count(), 3u);
}
TEST(PoseInvalid, ATwistJustPastTheBoundIsRefusedAsGiven) {
    const std::string past = number_text(std::nextafter(1e9, 2e9));
    ASSERT_EQ(past, "1000000000.0000001");
    expect_pose_error(R"({"bones": [{"bone": 1, "twist_degrees": )" + past + "}]}",
                      "bones[0].twist_degrees: an angle within ±1e9 degrees expected, got 1000000000.0000001");
    try {
        pose_from(R"({"bones": [{"bone": 1, "twist_degrees": )" + past + "}]}");
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).find("own twist"), std::string::npos) << e.what();  // no rotation, no own twist
    }
}
TEST(PoseInvalid, NotAnObject) { expect_pose_error("[]", "expected an object"); }
TEST(PoseInvalid, UnknownTopMember) { expect_pose_error(R"({"bone": []})", "unknown member \"bone\""); }
TEST(PoseInvalid, BonesNotArray) { expect_pose_error(R"({"bones": {}})", "bones: expected an array"); }
TEST(PoseInvalid, EntryNotObject) { expect_pose_error(R"({"bones": [3]})", "bones[0]: expected an object"); }
TEST(PoseInvalid, MissingBoneIndex) { expect_pose_error(R"({"bones": [{"degrees": 3}]})", "bones[0]: missing required member \"bone\""); }
TEST(PoseInvalid, BoneIndexOutOfRange) { expect_pose_error(R"({"bones": [{"bone": 3}]})", "bones[0].bone: index 3 out of range [0, 3)"); }
TEST(PoseInvalid, NegativeBoneIndex) { expect_pose_error(R"({"bones": [{"bone": -1}]})", "index -1 out of range"); }
TEST(PoseInvalid, BonePosedTwice) {
    expect_pose_error(R"({"bones": [{"bone": 1}, {"bone": 1}]})", "bones[1].bone: bone 1 already posed by bones[0]");
}
TEST(PoseInvalid, AMemberNamedTwiceIsPlaced) {
    // The message had named no place: a long motion's duplicate could be anywhere in it.
    expect_pose_error(R"({"bones": [{"bone": 0}, {"bone": 1, "degrees": 3, "axis": [1,0,0], "degrees": 4}]})",
                      "pose_under_test.json: bones[1]: member \"degrees\" appears twice in one object");
    expect_pose_error(R"({"root": {"translation": [0,0,0]}, "bones": [], "root": {}})",
                      "pose_under_test.json: top level: member \"root\" appears twice in one object");
    expect_pose_error(R"({"bones": [{"bone": 1, "axis": [[1], {"a": 1, "b": [2, {"a": 3, "a": 4}]}], "degrees": 3}]})",
                      "pose_under_test.json: bones[0].axis[1].b[1]: member \"a\" appears twice in one object");
}
TEST(PoseInvalid, QuaternionAndAxisBoth) {
    expect_pose_error(R"({"bones": [{"bone": 1, "rotation": [1,0,0,0], "axis": [1,0,0], "degrees": 3}]})", "not both");
}
TEST(PoseInvalid, AxisWithoutDegrees) { expect_pose_error(R"({"bones": [{"bone": 1, "axis": [1,0,0]}]})", "missing required member \"degrees\""); }
TEST(PoseInvalid, DegreesWithoutAxis) { expect_pose_error(R"({"bones": [{"bone": 1, "degrees": 30}]})", "missing required member \"axis\""); }
TEST(PoseInvalid, ZeroAxis) { expect_pose_error(R"({"bones": [{"bone": 1, "axis": [0,0,0], "degrees": 30}]})", "bones[0].axis: rotation axis: length 0 is too near zero to give a direction"); }
TEST(PoseInvalid, ZeroQuaternion) { expect_pose_error(R"({"bones": [{"bone": 1, "rotation": [0,0,0,0]}]})", "bones[0].rotation: rotation quaternion [w,x,y,z]: norm 0 is too near zero to give a direction"); }
TEST(PoseInvalid, ShortQuaternion) { expect_pose_error(R"({"bones": [{"bone": 1, "rotation": [1,0,0]}]})", "expected an array of 4 numbers"); }
TEST(PoseInvalid, OverflowingDegrees) { expect_pose_error(R"({"bones": [{"bone": 1, "axis": [1,0,0], "degrees": 1e999}]})", "number overflow"); }
TEST(PoseInvalid, TwistNotNumber) { expect_pose_error(R"({"bones": [{"bone": 1, "twist_degrees": "90"}]})", "bones[0].twist_degrees: expected a number"); }
TEST(PoseInvalid, UnknownBoneMember) { expect_pose_error(R"({"bones": [{"bone": 1, "twsit_degrees": 9}]})", "unknown member \"twsit_degrees\""); }
TEST(PoseInvalid, RootUnknownMember) { expect_pose_error(R"({"root": {"translate": [0,0,0]}})", "root: unknown member \"translate\""); }
TEST(PoseInvalid, RootTranslationShort) { expect_pose_error(R"({"root": {"translation": [0,0]}})", "root.translation: expected an array of 3 numbers"); }

// --- motions ---

Motion motion_from(const std::string& text) {
    return load_motion(testing::write_temp("motion_under_test.json", text), testing::straight_chain());
}

TEST(Motion, UnwrapsQuaternionTwistAlongFrames) {
    // Bone 0 (axis +x) twisted by quaternions 0°, 120°, 240° (= -120°), 360° (= 0°): unwrapped to 0..360°.
    Motion m = motion_from(R"({"fps": 10, "frames": [
        {"bones": [{"bone": 0, "axis": [1,0,0], "degrees": 0}]},
        {"bones": [{"bone": 0, "axis": [1,0,0], "degrees": 120}]},
        {"bones": [{"bone": 0, "axis": [1,0,0], "degrees": 240}]},
        {"bones": [{"bone": 0, "axis": [1,0,0], "degrees": 360}]}]})");
    ASSERT_EQ(m.frame_count(), 4u);
    for (int f = 0; f < 4; ++f) EXPECT_NEAR(m.frame(f).joints[0].twist_radians, f * 2 * kPi / 3, 1e-12) << f;
    // Between frames the twist interpolates linearly, beyond 180°.
    EXPECT_NEAR(m.sample(0.25).joints[0].twist_radians, 2.5 * 2 * kPi / 3, 1e-12);
}

TEST(Motion, ExplicitTwistDegreesBeyondATurnAreKept) {
    Motion m = motion_from(R"({"fps": 1, "frames": [
        {"bones": [{"bone": 1, "twist_degrees": 500}]}, {"bones": [{"bone": 1, "twist_degrees": 600}]}]})");
    EXPECT_NEAR(m.frame(0).joints[1].twist_radians, 500 * kPi / 180, 1e-12);
    EXPECT_NEAR(m.sample(0.5).joints[1].twist_radians, 550 * kPi / 180, 1e-12);
}

// A step of exactly half a turn is kept as written (std::round took +180° to -180°: keys 0, 180°, 360° were
// stored 0, -180°, -360° and the in-betweens turned the other way); 540° keeps its direction too.
TEST(Motion, AHalfTurnStepKeepsItsDirection) {
    std::vector<Pose> frames(4, Pose::rest(testing::straight_chain()));
    const double twists[] = {0, kPi, 2 * kPi, 2 * kPi + 3 * kPi};
    for (int f = 0; f < 4; ++f) frames[f].joints[1].twist_radians = twists[f];
    const Motion m(1, frames);
    EXPECT_EQ(m.frame(1).joints[1].twist_radians, kPi);
    EXPECT_EQ(m.frame(2).joints[1].twist_radians, 2 * kPi);
    EXPECT_NEAR(m.frame(3).joints[1].twist_radians, 3 * kPi, 1e-12);
    EXPECT_NEAR(m.sample(0.5).joints[1].twist_radians, kPi / 2, 1e-12);
    frames[1].joints[1].twist_radians = -kPi;
    EXPECT_EQ(Motion(1, frames).frame(1).joints[1].twist_radians, -kPi);
}

// A time that is not finite, or a frame past the last, is refused (std::size_t of NaN is undefined; frame()
// read past the vector).
TEST(MotionInvalid, ATimeThatIsNotFiniteOrAFramePastTheLast) {
    const Motion m(1, std::vector<Pose>(2, Pose::rest(testing::straight_chain())));
    EXPECT_THROW(m.sample(std::nan("")), InputError);
    EXPECT_THROW(m.sample(INFINITY), InputError);
    EXPECT_THROW(m.frame(2), InputError);
    // A duration past a double (a tiny fps over frames) is refused with the motion: sample(duration) threw.
    EXPECT_THROW(Motion(1e-310, std::vector<Pose>(2, Pose::rest(testing::straight_chain()))), InputError);
}

TEST(Motion, SamplingSlerpsSwingAndLerpsTranslation) {
    // The root turns a quarter about z as well ([w, x, y, z] of 90°): a sample between frames had kept the
    // first frame's rotation, unseen, while its translation moved on.
    Motion m = motion_from(R"({"fps": 2, "frames": [
        {"root": {"translation": [0,0,0]}, "bones": [{"bone": 1, "axis": [0,0,1], "degrees": 0}]},
        {"root": {"rotation": [0.70710678118654752, 0, 0, 0.70710678118654752], "translation": [4,0,0]},
         "bones": [{"bone": 1, "axis": [0,0,1], "degrees": 90}]}]})");
    Pose mid = m.sample(0.25);
    EXPECT_NEAR(mid.root.translation.x, 2.0, 1e-12);
    EXPECT_NEAR(rotation_angle(mid.root.rotation), kPi / 4, 1e-12);
    EXPECT_NEAR(mid.root.rotation.z / std::sqrt(1 - mid.root.rotation.w * mid.root.rotation.w), 1.0, 1e-12) << "about z";
    EXPECT_NEAR(rotation_angle(mid.joints[1].swing), kPi / 4, 1e-12);
    // Clamped outside the motion.
    EXPECT_NEAR(m.sample(-3).root.translation.x, 0.0, 1e-12);
    EXPECT_NEAR(m.sample(99).root.translation.x, 4.0, 1e-12);
    EXPECT_NEAR(m.duration_seconds(), 0.5, 1e-15);
}

void expect_motion_error(const std::string& text, const std::string& fragment) {
    try {
        motion_from(text);
        ADD_FAILURE() << "expected InputError containing \"" << fragment << "\"";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

// A motion read as a pose, or a pose as a motion, is named as what it is (they said "unknown member").
TEST(MotionInvalid, APoseIsNotAMotionNorAMotionAPose) {
    expect_motion_error(R"({"bones": [{"bone": 0, "axis": [0, 0, 1], "degrees": 10}]})", "this is a pose (it has \"bones\" or \"root\" and no \"frames\"), not a motion");
    try {
        pose_from(R"({"fps": 30, "frames": [{}]})");
        ADD_FAILURE() << "a motion was read as a pose";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("this is a motion (it has \"frames\"), not a pose"), std::string::npos) << e.what();
    }
}
TEST(MotionInvalid, MissingFps) { expect_motion_error(R"({"frames": [{}]})", "missing required member \"fps\""); }
TEST(MotionInvalid, ZeroFps) { expect_motion_error(R"({"fps": 0, "frames": [{}]})", "fps: frames per second must be > 0"); }
// What Motion itself refuses is named by the file (it had said "motion: 2 frames at 5e-324 …").
TEST(MotionInvalid, AFileWhoseFramesLastLongerThanADoubleHoldsIsNamed) {
    expect_motion_error(R"({"fps": 5e-324, "frames": [{}, {}]})", "motion_under_test.json: 2 frames at 5e-324 frames per second last longer than a double holds");
}
TEST(MotionInvalid, NoFrames) { expect_motion_error(R"({"fps": 30, "frames": []})", "frames: a motion needs at least one frame"); }
TEST(MotionInvalid, FramesNotArray) { expect_motion_error(R"({"fps": 30, "frames": 3})", "frames: expected an array"); }
TEST(MotionInvalid, AMotionForAnotherBoneCount) {
    // straight_chain() has 3 bones. Its indices alone would have let a 2-bone motion through.
    expect_motion_error(R"({"fps": 30, "bone_count": 2, "frames": [{}]})",
                        "motion_under_test.json: bone_count: the motion is for a skeleton of 2 bones; this one has 3");
    expect_motion_error(R"({"fps": 30, "bone_count": -3, "frames": [{}]})", "bone_count: expected a whole number >= 0");
    EXPECT_EQ(motion_from(R"({"fps": 30, "bone_count": 3, "frames": [{}]})").frame_count(), 1u);
}
// A motion's frames, and its frames × bones, are bounded before any pose is made (a million empty frames of
// a 27-bone skeleton, a file of 3 MB, took 1.25 GB of poses).
TEST(MotionInvalid, TooManyFramesOrJointRotations) {
    const auto motion_of = [](std::size_t count) {
        json_io::json doc{{"fps", 30}, {"frames", json_io::json::array()}};
        doc["frames"].get_ref<json_io::json::array_t&>().resize(count);  // nulls: the limit comes before any frame is read
        return doc;
    };
    const Skeleton three = testing::straight_chain();
    const json_io::json over_frames = motion_of(kMaxMotionFrames + 1);
    EXPECT_NE(testing::message_of<InputError>([&] { parse_motion(over_frames, three, json_io::Where{"m.json", ""}); }).find("1000001 frames exceed the limit of 1000000"),
              std::string::npos);
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> bones;
    for (int i = 0; i <= 11; ++i) spheres.push_back({{4.0 * i, 0, 0}, 1.0});
    for (int i = 0; i < 11; ++i) bones.push_back({i, i + 1});
    const Skeleton eleven = make_skeleton(spheres, bones, {}, "eleven bones");
    const std::size_t most = kMaxMotionJointRotations / 11;  // below kMaxMotionFrames
    EXPECT_NE(testing::message_of<InputError>([&] { parse_motion(motion_of(most + 1), eleven, json_io::Where{"m.json", ""}); }).find("909091 frames of 11 bones exceed the limit of 10000000 joint rotations"),
              std::string::npos);
}
TEST(Motion, ASavedMotionCarriesItsBoneCount) {
    const Skeleton s = testing::straight_chain();
    const std::string path = testing::write_temp("saved_motion.json", "");
    save_motion(path, Motion(24, {Pose::rest(s), Pose::rest(s)}));
    EXPECT_EQ(load_motion(path, s).frame_count(), 2u);
    // A longer skeleton takes the indices 0..2 as they are: only the count tells the motion is another's.
    const Skeleton longer = make_skeleton({{{0, 0, 0}, 1}, {{4, 0, 0}, 1}, {{7, 0, 0}, 1}, {{9, 0, 0}, 1}, {{11, 0, 0}, 1}},
                                          {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, {}, "four bones");
    EXPECT_THROW(load_motion(path, longer), InputError);
}
// What rig checks before it writes a motion file (a ten-minute capture's, 276 MB, was written, then refused
// by the reader): the bytes save_motion writes, counted without writing them.
TEST(Motion, ItsFileBytesAreCountedWithoutWritingThem) {
    const Skeleton s = testing::bent_chain();
    Pose turned = Pose::rest(s);
    turned.joints[1].twist_radians = 1.234567890123;
    const Motion motion(24, {Pose::rest(s), turned, turned});
    const std::string path = testing::write_temp("counted_motion.json", "");
    save_motion(path, motion);
    EXPECT_EQ(motion_file_bytes(motion), std::filesystem::file_size(path));
}
// A pose its file cannot hold is refused by the writer, nothing written: a twist beyond ±1e9 degrees (the
// skinners take any finite twist; the file was written, then refused by load_motion), a root beyond the
// input magnitude. Within the bound it is written and read back.
TEST(MotionInvalid, APoseItsFileCannotHoldIsNotWritten) {
    const Skeleton s = testing::straight_chain();
    Pose at_limit = Pose::rest(s), quarter = Pose::rest(s), far_moved = Pose::rest(s), at_bound = Pose::rest(s);
    // Motion refuses a twist given beyond the bound; unwrapping carries one past it from twists within:
    // 1e9 degrees (280° and whole turns), then 90°, 170° further round.
    at_limit.joints[1].twist_radians = 1e9 * kPi / 180;
    quarter.joints[1].twist_radians = kPi / 2;
    const Motion far_turned(24, {at_limit, quarter});
    ASSERT_NEAR(far_turned.frame(1).joints[1].twist_radians * 180 / kPi, 1e9 + 170, 1e-3);
    far_moved.root.translation.x = 2e15;
    at_bound.joints[1].twist_radians = 0.999e9 * kPi / 180;
    for (const Motion& beyond : {far_turned, Motion(24, {far_moved})}) {
        const std::string path = testing::temp_path("beyond.json");
        EXPECT_THROW(save_motion(path, beyond), InputError);
        EXPECT_FALSE(std::filesystem::exists(path));
    }
    const std::string path = testing::temp_path("at_bound.json");
    save_motion(path, Motion(24, {at_bound}));
    EXPECT_NEAR(load_motion(path, s).frame(0).joints[1].twist_radians, at_bound.joints[1].twist_radians, 1e-6);
}
TEST(MotionInvalid, BadFrameNamesItsIndex) {
    expect_motion_error(R"({"fps": 30, "frames": [{}, {"bones": [{"bone": 9}]}]})", "frames[1].bones[0].bone: index 9 out of range");
}

// A motion built from whole rotations turns a bone about its own axis past half a turn: split against the
// skeleton frame by frame and then unwrapped, its twist keeps growing (30° a frame up to 300°); read the
// shorter way round in each frame it had jumped from +180° to −150°.
TEST(Motion, WholeRotationsAreSplitThenUnwrapped) {
    const Skeleton s = testing::bent_chain();
    const Vec3<double> axis = s.rest_axis(1);
    std::vector<Pose> frames;
    for (int f = 0; f <= 10; ++f) {
        Pose pose = Pose::rest(s);
        pose.joints[1].swing = axis_angle(axis, f * 30 * kPi / 180);
        frames.push_back(pose);
    }
    const Motion motion(30, frames, s);
    for (std::size_t f = 0; f < frames.size(); ++f) {
        EXPECT_NEAR(motion.frame(f).joints[1].twist_radians, double(f) * 30 * kPi / 180, 1e-9) << "frame " << f;
        EXPECT_NEAR(rotation_angle(motion.frame(f).joints[1].swing), 0.0, 1e-9) << "frame " << f;
    }
}

// A motion built in code is checked as a motion file is: frames, a usable rate, one skeleton's joints in
// every frame (sampling read past a shorter frame's joints, and an empty motion crashed).
TEST(MotionInvalid, BuiltInCodeIsChecked) {
    const Skeleton chain = testing::straight_chain(), tree = testing::bent_chain();
    auto expect_refused = [](double fps, std::vector<Pose> frames, const std::string& fragment) {
        try {
            Motion motion(fps, std::move(frames));
            ADD_FAILURE() << "expected InputError containing \"" << fragment << "\"";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        }
    };
    expect_refused(30, {}, "a motion needs at least one frame");
    expect_refused(std::nan(""), {Pose::rest(chain)}, "frames per second must be finite and > 0, got nan");
    expect_refused(-30, {Pose::rest(chain)}, "frames per second must be finite and > 0, got -30");
    Pose longer = Pose::rest(chain);
    longer.joints.push_back(longer.joints.back());
    expect_refused(30, {Pose::rest(chain), longer}, "frame 1 has " + std::to_string(longer.joints.size()) + " joints, frame 0 has");
    EXPECT_NO_THROW(Motion(30, {Pose::rest(tree), Pose::rest(tree)}));
}

// Unwrapping carries each frame's twist into the next: a NaN or infinite twist in frame 0 made frame 1's
// valid one NaN or infinite (the skinner then blamed frame 1), and a finite 1e300 silently made it 1e300.
// Such twists are refused, naming their frame and bone, as is one past the pose files' ±1e9 degrees; one at
// that bound is taken.
TEST(MotionInvalid, ATwistThatIsNotFiniteOrBeyondAPoseFilesBoundIsRefusedBeforeUnwrapping) {
    const Skeleton s = testing::straight_chain();
    auto frames_with_twist = [&](double radians) {
        Pose odd = Pose::rest(s), valid = Pose::rest(s);
        odd.joints[2].twist_radians = radians;
        valid.joints[2].twist_radians = 0.5;
        return std::vector<Pose>{valid, odd, valid};
    };
    const std::pair<double, std::string> refused[] = {
        {std::nan(""), "motion: frame 1, bone 2: the twist is not finite"},
        {-INFINITY, "motion: frame 1, bone 2: the twist is not finite"},
        {1e300, "motion: frame 1, bone 2: a twist of 5.72957795"},
        {-1.01e9 * kPi / 180, "motion: frame 1, bone 2: a twist of -10"}};
    for (const auto& [radians, fragment] : refused) {
        const std::string message = testing::message_of<InputError>([&] { Motion(30, frames_with_twist(radians)); });
        EXPECT_NE(message.find(fragment), std::string::npos) << message;
        if (std::isfinite(radians)) {
            EXPECT_NE(message.find(" degrees is beyond the ±1e9 degrees a pose file holds"), std::string::npos) << message;
        }
    }
    for (const double degrees : {1e9, -1e9}) EXPECT_NO_THROW(Motion(30, frames_with_twist(degrees * kPi / 180)));
}

}  // namespace
}  // namespace bs
