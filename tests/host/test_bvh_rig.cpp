// The sphere-mesh on a BVH hierarchy and the capture's poses of it (host/bvh_rig.hpp): the skeleton's
// forward kinematics puts every sphere where BVH's puts its joint, on every frame; zero-length joints
// merge; radii follow the rule; the motion round-trips through a motion file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/bvh_rig.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/metaball_skinner.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/random.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A small body with a zero-length hip joint (as CMU's LHipJoint) and a junction at the root:
// Hips → LHip (offset 0) → LeftUpLeg → End; Hips → Spine → Head → End.
const char* kHierarchy = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LHip
  {
    OFFSET 0 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT LeftUpLeg
    {
      OFFSET 1 -4 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 -4 0.5
      }
    }
  }
  JOINT Spine
  {
    OFFSET 0 3 0
    CHANNELS 3 Xrotation Yrotation Zrotation
    JOINT Head
    {
      OFFSET 0 3 0.2
      CHANNELS 3 Yrotation Xrotation Zrotation
      End Site
      {
        OFFSET 0 1.5 0
      }
    }
  }
}
MOTION
)";

// The hierarchy with `frames` random frames (root moves up to 5, joints turn up to 170° per channel).
BvhFile random_capture(int frames, unsigned seed) {
    testing::Random random(seed);
    std::ostringstream text;
    text << kHierarchy << "Frames: " << frames << "\nFrame Time: 0.01\n";
    for (int f = 0; f < frames; ++f) {
        for (int c = 0; c < 3; ++c) text << random.uniform(-5, 5) << ' ';
        for (int c = 0; c < 15; ++c) text << random.uniform(-170, 170) << ' ';
        text << '\n';
    }
    std::istringstream in(text.str());
    return parse_bvh(in, "small.bvh");
}

TEST(BvhRig, MergesZeroLengthJointsAndKeepsTheRest) {
    BvhFile capture = random_capture(1, 1);
    BvhRig rig = rig_bvh(capture);
    ASSERT_EQ(rig.merged, std::vector<std::string>{"LHip"});
    EXPECT_EQ(rig.skeleton.spheres.size(), 6u);  // Hips, LeftUpLeg, its end, Spine, Head, its end
    EXPECT_EQ(rig.skeleton.bone_count(), 5u);
    EXPECT_EQ(rig.sphere_of_joint[1], rig.sphere_of_joint[0]) << "LHip shares the hips' sphere";
    EXPECT_EQ(rig.skeleton.names[2], "LeftUpLeg_end");
    // The thigh (hips → LeftUpLeg) turns with LHip, the merged joint.
    EXPECT_EQ(rig.driver_of_bone[0], 1);
    EXPECT_EQ(rig.skeleton.bones[0], (std::array<int, 2>{0, 1}));
}

TEST(BvhRig, EverySphereIsWhereTheCapturePutsItsJointOnEveryFrame) {
    BvhFile capture = random_capture(200, 7);
    BvhRig rig = rig_bvh(capture);
    double worst = 0;
    for (std::size_t f = 0; f < capture.frame_count; ++f) {
        std::vector<Vec3<double>> centres = posed_centres(rig.skeleton, bvh_frame_pose(rig, capture, f));
        std::vector<BvhJointPose> joints = bvh_pose(capture, f);
        for (std::size_t j = 0; j < capture.joints.size(); ++j)
            worst = std::max(worst, norm(centres[std::size_t(rig.sphere_of_joint[j])] - joints[j].position));
    }
    EXPECT_LT(worst, 1e-9);
}

TEST(BvhRig, RadiiFollowTheNamesAndEveryBoneHasACone) {
    BvhRig rig = rig_bvh(random_capture(1, 2));
    const Skeleton& s = rig.skeleton;
    const double height = 15.5;  // the centres' largest extent: y from −8 (the leg's end) to 7.5 (the head's)
    EXPECT_NEAR(s.spheres[4].radius, 0.06 * height, 1e-12) << "Head";
    EXPECT_NEAR(s.spheres[5].radius, 0.8 * 0.06 * height, 1e-12) << "Head's end site";
    for (const auto& b : s.bones) {
        const double length = norm(s.spheres[b[1]].centre - s.spheres[b[0]].centre);
        EXPECT_LT(std::fabs(s.spheres[b[0]].radius - s.spheres[b[1]].radius), length);
    }
}

// A joint whose name says nothing of the body (no keyword) takes a quarter of its bones' mean length, an
// end site 0.8 of its joint's: J1 and J2 sit between two bones of 4, the end site on one.
TEST(BvhRig, AnUnnamedJointTakesAQuarterOfItsBonesMeanLength) {
    std::istringstream in("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                          "  JOINT J1\n  {\n    OFFSET 0 4 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                          "    JOINT J2\n    {\n      OFFSET 0 4 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
                          "      End Site\n      {\n        OFFSET 0 4 0\n      }\n    }\n  }\n}\n"
                          "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n");
    const Skeleton s = rig_bvh(parse_bvh(in, "unnamed.bvh")).skeleton;
    ASSERT_EQ(s.spheres.size(), 4u);
    EXPECT_NEAR(s.spheres[1].radius, 1.0, 1e-12) << "J1";
    EXPECT_NEAR(s.spheres[2].radius, 1.0, 1e-12) << "J2";
    EXPECT_NEAR(s.spheres[3].radius, 0.8, 1e-12) << "J2's end site";
}

TEST(BvhRig, EveryBoneTurnsAsTheJointDrivingIt) {
    // Centres alone would miss a leaf bone's twist: compare whole rotations (up to the quaternion's sign).
    BvhFile capture = random_capture(50, 3);
    BvhRig rig = rig_bvh(capture);
    Motion motion = bvh_motion(rig, capture, 10, 40);
    EXPECT_EQ(motion.frame_count(), 30u);
    EXPECT_DOUBLE_EQ(motion.fps(), 100);
    for (std::size_t f = 0; f < motion.frame_count(); ++f) {
        std::vector<Rigid<double>> bones = posed_bones(rig.skeleton, motion.frame(f));
        std::vector<BvhJointPose> joints = bvh_pose(capture, 10 + f);
        for (std::size_t k = 0; k < bones.size(); ++k)
            ASSERT_NEAR(std::fabs(dot(bones[k].rotation, joints[std::size_t(rig.driver_of_bone[k])].rotation)), 1, 1e-12)
                << "frame " << f << ", bone " << k;
    }
    EXPECT_THROW(bvh_motion(rig, capture, 40, 40), InputError);
}

TEST(BvhRig, AMotionFileOfTheCaptureGivesTheSamePoses) {
    BvhFile capture = random_capture(20, 4);
    BvhRig rig = rig_bvh(capture);
    Motion motion = bvh_motion(rig, capture);
    const std::string path = testing::temp_path("motion.json");
    save_motion(path, motion);
    Motion loaded = load_motion(path, rig.skeleton);
    ASSERT_EQ(loaded.frame_count(), motion.frame_count());
    for (std::size_t f = 0; f < motion.frame_count(); ++f) {
        std::vector<Vec3<double>> a = posed_centres(rig.skeleton, motion.frame(f)), b = posed_centres(rig.skeleton, loaded.frame(f));
        for (std::size_t j = 0; j < a.size(); ++j) ASSERT_LT(norm(a[j] - b[j]), 1e-9) << "frame " << f;
        for (std::size_t k = 0; k < rig.skeleton.bone_count(); ++k)
            ASSERT_NEAR(loaded.frame(f).joints[k].twist_radians, motion.frame(f).joints[k].twist_radians, 1e-9);
    }
}

TEST(BvhRig, ACaptureLoadsAsAMotionOfItsOwnRigOnly) {
    BvhFile capture = random_capture(5, 5);
    const std::string path = testing::temp_path("capture.bvh");
    {
        std::ofstream out(path);
        out << kHierarchy << "Frames: 2\nFrame Time: 0.01\n";
        for (int f = 0; f < 2; ++f) out << "0 0 0 10 20 30 0 0 0 0 0 0 0 0 0 0 0 0\n";
    }
    BvhRig rig = rig_bvh(capture);
    EXPECT_EQ(load_motion(path, rig.skeleton).frame_count(), 2u) << "by extension, through load_motion";
    Skeleton other = rig.skeleton;
    other.spheres[3].centre.x += 0.5;
    // The same bones elsewhere: the sphere out of place is named (the equal counts had been given as the
    // mismatch); other bones: the counts.
    EXPECT_NE(testing::message_of<InputError>([&] { load_bvh_motion(path, other); })
                  .find("matches the skeleton's bones, but its sphere 3 lies 0.5 from the skeleton's"),
              std::string::npos);
    Skeleton fewer = rig.skeleton;
    fewer.bones.pop_back();
    fewer.spheres.pop_back();
    EXPECT_NE(testing::message_of<InputError>([&] { load_bvh_motion(path, fewer); }).find("bones that do not match the skeleton's"),
              std::string::npos);
}

// A JSON file under a .bvh name, in any case, read as a motion (load_motion reads it as a capture by its
// name) says a JSON motion is read from another name; read as a capture, that it is no capture (BVH's own test).
TEST(BvhRig, AJsonMotionUnderABvhNameSaysSo) {
    const Skeleton skeleton = rig_bvh(random_capture(5, 5)).skeleton;
    for (const char* name : {"walk.bvh", "walk.BVH"}) {
        const std::string path = testing::write_temp(name, "{\"fps\": 30, \"frames\": []}");
        const std::string message = testing::message_of<InputError>([&] { load_motion(path, skeleton); });
        EXPECT_NE(message.find(path + ":1: expected \"HIERARCHY\", got \"{\" (the file looks like JSON: a JSON motion is read "
                               "from a name that does not end in .bvh)"),
                  std::string::npos)
            << message;
    }
}

// Joints without channels make bones without values: a 293 kB file of 4,000 such joints and 20,000 frames
// of one value took 3.1 GB and wrote a motion file of 5 GB. The motion's joint rotations are bounded before
// any pose is made, as a JSON motion's are.
TEST(BvhRig, AMotionOfTooManyJointRotationsIsRefusedBeforeItIsMade) {
    const std::size_t depth = 200;
    std::string hierarchy = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\n";
    for (std::size_t j = 1; j < depth; ++j) hierarchy += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 0\n";
    hierarchy += "End Site\n{\nOFFSET 0 1 0\n}\n";
    for (std::size_t j = 0; j < depth; ++j) hierarchy += "}\n";
    const auto capture_of = [&](std::size_t frames) {
        std::string text = hierarchy + "MOTION\nFrames: " + std::to_string(frames) + "\nFrame Time: 0.01\n";
        for (std::size_t f = 0; f < frames; ++f) text += "0\n";
        std::istringstream in(text);
        return parse_bvh(in, "channel-less.bvh");
    };
    const BvhRig rig = rig_bvh(capture_of(1));
    const std::size_t bones = rig.skeleton.bone_count();
    ASSERT_EQ(bones, depth);
    const std::size_t most = kMaxMotionJointRotations / bones;
    const std::string message = testing::message_of<InputError>([&] { bvh_motion(rig, capture_of(most + 1)); });
    EXPECT_NE(message.find("channel-less.bvh: " + std::to_string(most + 1) + " frames of 200 bones exceed the limit of 10000000 joint rotations"),
              std::string::npos)
        << message;
    EXPECT_EQ(bvh_motion(rig, capture_of(most), 0, 2).frame_count(), 2u) << "a range within the limit is made";
}

TEST(BvhRig, RefusesAHierarchyWithoutABone) {
    std::istringstream in("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\nEnd Site\n{\nOFFSET 0 0 0\n}\n}\n"
                          "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n");
    BvhFile capture = parse_bvh(in, "flat.bvh");
    EXPECT_THROW(rig_bvh(capture), InputError);
}

TEST(BvhRig, TheCmuCaptureRigsIntoAHumanoidThatFollowsEveryFrame) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " missing (Debian's assimp-testmodels; ./run installs it)";
    BvhFile capture = load_bvh(path);
    BvhRig rig = rig_bvh(capture);
    EXPECT_GE(rig.merged.size(), 5u) << "CMU's offset-0 joints (hip joints, lower back, shoulders, neck...)";
    auto box = bounds(rig.skeleton);
    const double size = norm(box[1] - box[0]);
    double worst = 0;
    for (std::size_t f = 0; f < capture.frame_count; f += 7) {
        std::vector<Vec3<double>> centres = posed_centres(rig.skeleton, bvh_frame_pose(rig, capture, f));
        std::vector<BvhJointPose> joints = bvh_pose(capture, f);
        for (std::size_t j = 0; j < capture.joints.size(); ++j)
            worst = std::max(worst, norm(centres[std::size_t(rig.sphere_of_joint[j])] - joints[j].position));
    }
    EXPECT_LT(worst, 1e-9 * size);
}

}  // namespace
}  // namespace bs
