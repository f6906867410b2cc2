// The panel's pose controls (viewer/pose_controls.hpp) on top of a base pose.
#include <gtest/gtest.h>

#include <cmath>

#include "../support/chains.hpp"
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

}  // namespace
}  // namespace bs::view
