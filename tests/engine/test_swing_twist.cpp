#include "engine/swing_twist.hpp"

#include <gtest/gtest.h>

#include "tests/support/random.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

double rotation_distance(Quat<double> a, Quat<double> b) { return rotation_angle(normalized(conjugate(a) * b)); }

TEST(SwingTwist, PureTwistIsAllTwist) {
    Vec3<double> axis = normalized(Vec3<double>{1, 2, -0.5});
    for (double deg : {-179.0, -90.0, 0.0, 30.0, 179.0}) {
        SwingTwist<double> st = split_swing_twist(axis_angle(axis, deg * kPi / 180), axis);
        EXPECT_NEAR(st.twist_radians, deg * kPi / 180, 1e-12) << deg;
        EXPECT_NEAR(rotation_angle(st.swing), 0.0, 1e-12);
    }
}

TEST(SwingTwist, PureSwingHasNoTwist) {
    Vec3<double> axis{0, 0, 1};
    SwingTwist<double> st = split_swing_twist(axis_angle(Vec3<double>{1, 0, 0}, 1.2), axis);
    EXPECT_NEAR(st.twist_radians, 0.0, 1e-12);
    EXPECT_NEAR(rotation_angle(st.swing), 1.2, 1e-12);
}

TEST(SwingTwist, RandomRotationsRecompose) {
    testing::Random rng(7);
    for (int i = 0; i < 1000; ++i) {
        Vec3<double> axis = rng.unit_vector();
        Quat<double> q = rng.rotation();
        SwingTwist<double> st = split_swing_twist(q, axis);
        // The swing leaves no turn about the axis: its vector part is orthogonal to the axis.
        EXPECT_NEAR(dot(st.swing.vec(), axis), 0.0, 1e-12);
        EXPECT_GT(st.twist_radians, -kPi);
        EXPECT_LE(st.twist_radians, kPi);
        EXPECT_LT(rotation_distance(compose_swing_twist(st.swing, axis, st.twist_radians), q), 1e-9);
        // A whole extra turn of twist is the same rotation.
        EXPECT_LT(rotation_distance(compose_swing_twist(st.swing, axis, st.twist_radians + 2 * kPi), q), 1e-9);
    }
}

TEST(SwingTwist, SignOfQuaternionDoesNotChangeTwist) {
    Vec3<double> axis{0, 1, 0};
    Quat<double> q = axis_angle(Vec3<double>{0, 1, 0}, 2.0) * axis_angle(Vec3<double>{1, 0, 0}, 0.3);
    SwingTwist<double> a = split_swing_twist(q, axis);
    SwingTwist<double> b = split_swing_twist(-1.0 * q, axis);
    EXPECT_NEAR(a.twist_radians, b.twist_radians, 1e-12);
}

TEST(SwingTwist, HalfTurnSwingCountsAsNoTwist) {
    Vec3<double> axis{1, 0, 0};
    Quat<double> half_turn = axis_angle(Vec3<double>{0, 0, 1}, kPi);  // turns the axis onto its opposite
    SwingTwist<double> st = split_swing_twist(half_turn, axis);
    EXPECT_EQ(st.twist_radians, 0.0);
    EXPECT_LT(rotation_distance(st.swing, half_turn), 1e-12);
}

TEST(SwingTwist, FloatMatchesDouble) {
    Vec3<float> axis{0.6f, 0.8f, 0.0f};
    Quat<float> q = axis_angle(Vec3<float>{0, 0, 1}, 0.7f) * axis_angle(axis, 1.1f);
    SwingTwist<float> st = split_swing_twist(q, axis);
    EXPECT_NEAR(st.twist_radians, 1.1f, 1e-5f);
}

}  // namespace
}  // namespace bs
