// Rigid transforms as dual quaternions (engine/rigid.hpp): applying one, composing two, and a transform
// followed by a turn about a line, read as cos(θ/2) fixed + sin(θ/2) turning.
#include <gtest/gtest.h>

#include "engine/rigid.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

using testing::Random;

Rigid<double> random_rigid(Random& rng) { return {rng.rotation(), rng.in_box(5.0)}; }

void expect_same_point(Vec3<double> got, Vec3<double> want, double tolerance, int trial) {
    EXPECT_NEAR(got.x, want.x, tolerance) << trial;
    EXPECT_NEAR(got.y, want.y, tolerance) << trial;
    EXPECT_NEAR(got.z, want.z, tolerance) << trial;
}

TEST(DualQuat, AppliesTheTransformItWasMadeFrom) {
    Random rng(31);
    for (int trial = 0; trial < 500; ++trial) {
        const Rigid<double> g = random_rigid(rng);
        const Vec3<double> p = rng.in_box(3.0);
        expect_same_point(DualQuat<double>::from_rigid(g).apply(p), g.apply(p), 1e-12, trial);
    }
}

// a ⊗ b applies b first, then a.
TEST(DualQuat, ProductIsComposition) {
    Random rng(32);
    for (int trial = 0; trial < 500; ++trial) {
        const Rigid<double> a = random_rigid(rng), b = random_rigid(rng);
        const Vec3<double> p = rng.in_box(3.0);
        const DualQuat<double> ab = DualQuat<double>::from_rigid(a) * DualQuat<double>::from_rigid(b);
        expect_same_point(ab.apply(p), a.apply(b.apply(p)), 1e-11, trial);
    }
}

// g ∘ (turn by θ about the line through c along a), from the line's Plücker coordinates, against the
// composition of the rigid transforms, for turns beyond a whole turn either way (where cos(θ/2) < 0 the
// dual quaternion is the other sign of the same transform). The result stays a unit dual quaternion: its
// real part has norm 1 and is orthogonal to its dual part.
TEST(TurnedRigid, IsTheTransformAfterATurnAboutTheLine) {
    Random rng(33);
    for (int trial = 0; trial < 1000; ++trial) {
        const Rigid<double> g = random_rigid(rng);
        const Vec3<double> a = rng.unit_vector(), c = rng.in_box(4.0);
        const double theta = rng.uniform(-8.0, 8.0);
        const DualQuat<double> d = TurnedRigid<double>::of(g, a, c).at(theta);
        const Rigid<double> want = compose(g, rotation_about(axis_angle(a, theta), c));
        EXPECT_NEAR(norm(d.real), 1.0, 1e-14) << trial;
        EXPECT_NEAR(dot(d.real, d.dual), 0.0, 1e-13) << trial;
        for (int i = 0; i < 4; ++i) {
            const Vec3<double> p = rng.in_box(3.0);
            expect_same_point(d.apply(p), want.apply(p), 1e-11, trial);
        }
    }
}

// Small turns, whose half-angles take cos and sin from the series (cos_sin_by_series_near_zero; the rigid
// field's are mostly such), are the transform after the turn as well, on both sides of the series' bound.
TEST(TurnedRigid, SmallTurnsAreTheTransformAfterTheTurn) {
    Random rng(35);
    for (int trial = 0; trial < 1000; ++trial) {
        const Rigid<double> g = random_rigid(rng);
        const Vec3<double> a = rng.unit_vector(), c = rng.in_box(4.0);
        const double theta = rng.uniform(-4 * kSeriesAngle, 4 * kSeriesAngle);
        const DualQuat<double> d = TurnedRigid<double>::of(g, a, c).at(theta);
        const Rigid<double> want = compose(g, rotation_about(axis_angle(a, theta), c));
        EXPECT_NEAR(norm(d.real), 1.0, 1e-14) << trial;
        for (int i = 0; i < 4; ++i) {
            const Vec3<double> p = rng.in_box(3.0);
            expect_same_point(d.apply(p), want.apply(p), 1e-11, trial);
        }
    }
}

// No turn leaves g; a point on the line is moved by g alone whatever the turn.
TEST(TurnedRigid, NoTurnIsTheTransformAndTheLineStaysWhereTheTransformPutsIt) {
    Random rng(34);
    for (int trial = 0; trial < 200; ++trial) {
        const Rigid<double> g = random_rigid(rng);
        const Vec3<double> a = rng.unit_vector(), c = rng.in_box(4.0);
        const TurnedRigid<double> turned = TurnedRigid<double>::of(g, a, c);
        const Vec3<double> p = rng.in_box(3.0), on_line = c + rng.uniform(-2.0, 2.0) * a;
        expect_same_point(turned.at(0.0).apply(p), g.apply(p), 1e-12, trial);
        expect_same_point(turned.at(rng.uniform(-8.0, 8.0)).apply(on_line), g.apply(on_line), 1e-11, trial);
    }
}

}  // namespace
}  // namespace bs
