// Crease pieces (engine/baseline/posed_section.hpp, make_crease; docs/ALGORITHM.md Deformation step 3 (b)):
// a piece whose ends are less than a quarter turn apart about the axis (after the turn it is given) runs on
// the cone, its ends pinned; and the piece is continuous in its far end as that end passes half a turn
// round the cone, where the wrapped remaining angle changes sign (a crease flipped 3.92 ↔ 0.48 long there
// before 2026-12-04).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/baseline/posed_section.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

const Cone<double> kCone = make_cone<double>({{0, 0, 0}, 1.0}, {{3, 0, 0}, 0.8});

// The point of kCone at angle `angle` about its axis from reference radial (0, 1, 0), σ along its generator.
Vec3<double> on_cone(double angle, double sigma) {
    return cone_point(kCone, rotate(axis_angle(kCone.axis, angle), Vec3<double>{0, 1, 0}), sigma);
}

TEST(BaselineCrease, APieceWithinAQuarterTurnRunsOnTheConeWithItsEndsPinned) {
    for (double turn : {0.0, 2.5, -7.0}) {
        for (double remaining : {-1.5, -0.4, 0.0, 0.9, 1.5}) {
            const Vec3<double> from = on_cone(0.3, 0.4), to = on_cone(0.3 + turn + remaining, 2.1);
            const Crease<double> c = make_crease(kCone, from, to, turn);
            EXPECT_NEAR(c.sweep, turn + remaining, 1e-12);
            EXPECT_LE(norm(c.at(0) - from), 1e-12);
            EXPECT_LE(norm(c.at(1) - to), 1e-12);
            for (double u : {0.25, 0.5, 0.75}) {
                const Vec3<double> x = c.at(u);
                const ConePlace<double> place = cone_place(kCone, x);
                EXPECT_LE(norm(cone_point(kCone, place.radial, place.sigma) - x), 1e-12) << "turn " << turn << ", remaining " << remaining;
            }
        }
    }
}

TEST(BaselineCrease, IsContinuousAsItsFarEndPassesHalfATurn) {
    for (double turn : {0.0, 3.0}) {
        const Vec3<double> from = on_cone(0, 0.5);
        const double step = 1e-4;
        Crease<double> before = make_crease(kCone, from, on_cone(turn + kPi - 50 * step, 2.5), turn);
        double largest_move = 0, largest_length_change = 0;
        for (int i = -49; i <= 50; ++i) {
            const Crease<double> c = make_crease(kCone, from, on_cone(turn + kPi + i * step, 2.5), turn);
            for (double u : {0.25, 0.5, 0.75}) largest_move = std::max(largest_move, norm(c.at(u) - before.at(u)));
            largest_length_change = std::max(largest_length_change, std::fabs(c.length - before.length));
            before = c;
        }
        // The far end moves by 1e-4 × its radius (0.84) a step; the piece's points by no more than that.
        EXPECT_LE(largest_move, 2e-4) << "turn " << turn;
        EXPECT_LE(largest_length_change, 2e-4) << "turn " << turn;
    }
}

}  // namespace
}  // namespace bs
