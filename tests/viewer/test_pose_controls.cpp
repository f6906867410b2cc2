// The panel's pose controls (viewer/pose_controls.hpp) on top of a base pose.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/swing_twist.hpp"
#include "tests/support/chains.hpp"
#include "viewer/pose_controls.hpp"

namespace bs::view {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(ViewerPoseControls, NoControlKeepsTheBasePose) {
    Skeleton s = testing::straight_chain();
    PoseControls controls(s);
    Pose base = Pose::rest(s);
    base.joints[1].swing = axis_angle(Vec3<double>{0, 1, 0}, 0.4);
    base.joints[2].twist_radians = 7.0;
    EXPECT_TRUE(controls.at_rest());
    Pose pose = controls.apply(base);
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        EXPECT_NEAR(std::fabs(dot(pose.joints[k].swing, base.joints[k].swing)), 1, 1e-12) << k;
        EXPECT_EQ(pose.joints[k].twist_radians, base.joints[k].twist_radians) << k;
    }
}

TEST(ViewerPoseControls, BendTurnsTheBoneByItsAngleInAnyDirection) {
    Skeleton s = testing::straight_chain();
    PoseControls controls(s);
    for (float direction : {0.0f, 90.0f, -135.0f}) {
        controls.reset();
        controls.bones()[1] = {60, direction, 0};
        EXPECT_FALSE(controls.at_rest());
        Pose pose = controls.apply(Pose::rest(s));
        EXPECT_NEAR(max_joint_bend(s, pose), 60 * kPi / 180, 1e-9) << direction;
        // The bone's axis turns in the plane ⟂ the bend axis: directions 90° apart give axes 90° apart.
        std::vector<Rigid<double>> posed = posed_bones(s, pose);
        Vec3<double> axis = posed[1].apply_vector(s.rest_axis(1));
        EXPECT_NEAR(dot(axis, s.rest_axis(1)), 0.5, 1e-9) << direction;
    }
    controls.reset();
    controls.bones()[1] = {60, 0, 0};
    Vec3<double> a = posed_bones(s, controls.apply(Pose::rest(s)))[1].apply_vector(s.rest_axis(1));
    controls.bones()[1] = {60, 90, 0};
    Vec3<double> b = posed_bones(s, controls.apply(Pose::rest(s)))[1].apply_vector(s.rest_axis(1));
    Vec3<double> rest = s.rest_axis(1);
    EXPECT_NEAR(dot(a - 0.5 * rest, b - 0.5 * rest), 0, 1e-9) << "bend directions 90 degrees apart";
}

TEST(ViewerPoseControls, TwistAddsToTheBaseTwistUnwrapped) {
    Skeleton s = testing::straight_chain();
    PoseControls controls(s);
    Pose base = Pose::rest(s);
    base.joints[2].twist_radians = 1.0;
    controls.bones()[2].twist_degrees = 540;
    Pose pose = controls.apply(base);
    EXPECT_NEAR(pose.joints[2].twist_radians, 1.0 + 3 * kPi, 1e-12);
    EXPECT_NEAR(max_joint_bend(s, pose), 0, 1e-12) << "a twist bends nothing";
}

TEST(ViewerPoseControls, ABendOnABentBaseStaysAPureSwingWithItsTwistCounted) {
    // The baseline method reads a bone's twist from twist_radians only: a bend composed onto a bent base
    // swing carries a twist about the rest axis, which must move there.
    Skeleton s = testing::straight_chain();
    PoseControls controls(s);
    Pose base = Pose::rest(s);
    base.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 0.8);
    for (float direction : {45.0f, 90.0f, -120.0f}) {
        controls.bones()[1] = {60, direction, 0};
        Pose pose = controls.apply(base);
        const Vec3<double> axis = s.rest_axis(1);
        EXPECT_NEAR(split_swing_twist(pose.joints[1].swing, axis).twist_radians, 0, 1e-9) << direction;
        // The bone's whole rotation is the bend after the base, whatever the split.
        Vec3<double> first = any_orthogonal(axis), second = cross(axis, first);
        double d = direction * kPi / 180;
        Quat<double> want = axis_angle(std::cos(d) * first + std::sin(d) * second, 60 * kPi / 180) * base.joints[1].swing;
        EXPECT_NEAR(std::fabs(dot(local_rotation(pose.joints[1], axis), want)), 1, 1e-9) << direction;
    }
}

}  // namespace
}  // namespace bs::view
