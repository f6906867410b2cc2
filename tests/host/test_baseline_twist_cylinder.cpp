// Baseline skinning, part 1 (twist): twisting the straight chain's first bone, a cylinder of radius 1
// along x from x = 0 to x = 4, by 180° (and by 540°, given as twist_radians = 3π) keeps every point's
// distance to the axis and its position along it (no candy-wrapper, no sliding; DESIGN "Curvilinear
// ratio t"), to 1e-5 × the radius in double, for points coded on that bone outside the fallback bands;
// and it does turn them: a point at abscissa x turns about the axis by τ (3d² − 2d³), d = x / 4 clamped
// to [0, 1] (the root-end cap does not turn, the joint arc turns by τ), so mid-bone by τ / 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

constexpr double kPi = testing::kBaselinePi;
constexpr double kRadius = 1.0;    // bone 0 of straight_chain
constexpr double kLength = 4.0;

double angle_about_x(Vec3<double> p) { return std::atan2(p.z, p.y); }
double axis_distance(Vec3<double> p) { return std::hypot(p.y, p.z); }

std::vector<Vec3<double>> cylinder_points() {
    Skeleton s = testing::straight_chain();
    // Heights below the far band (from 0.5 r the fallback blends toward the rigid field).
    std::vector<Vec3<double>> points = testing::points_around(s, 8000, 41, -0.6, 0.45);
    // Rings mid-bone (x = 2) at the surface and above it.
    for (double rho : {0.5, 1.0, 1.3, 2.0})
        for (int i = 0; i < 36; ++i) {
            double a = 2 * kPi * i / 36;
            points.push_back({2.0, rho * std::cos(a), rho * std::sin(a)});
        }
    return points;
}

void check_twist(double tau) {
    Skeleton s = testing::straight_chain();
    ASSERT_NEAR(s.spheres[0].radius, kRadius, 0);
    ASSERT_NEAR(s.spheres[1].centre.x, kLength, 0);
    std::vector<Vec3<double>> points = cylinder_points();
    BaselineSkinner<double> skinner(s, points, "cylinder twist");
    Pose pose = Pose::rest(s);
    pose.joints[0].twist_radians = tau;
    std::vector<Vec3<double>> out;
    skinner.deform(pose, out);

    double worst_radial = 0, worst_along = 0, worst_turn = 0;
    std::string radial_case, along_case, turn_case;
    auto describe = [&](std::size_t i, double extra) {
        const Vec3<double> p = points[i], q = out[i];
        const BaselineCode& c = skinner.codes()[i];
        char text[300];
        std::snprintf(text, sizeof text, "tau %.6g: point %zu (%.9g, %.9g, %.9g) -> (%.9g, %.9g, %.9g), flags %d t %.6g, %.6g",
                      tau, i, p.x, p.y, p.z, q.x, q.y, q.z, c.flags, c.t, extra);
        return std::string(text);
    };
    int checked = 0, mid_checked = 0, mid_surface_checked = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const BaselineCode& c = skinner.codes()[i];
        if (c.bone != 0 || c.rigid_blend != 0.0f || (c.flags & (kCodeNearAxis | kCodeNearFanCentre))) continue;
        const Vec3<double> p = points[i], q = out[i];
        ++checked;
        double radial = std::fabs(axis_distance(q) - axis_distance(p));
        double along = std::fabs(q.x - p.x);
        if (radial > worst_radial) worst_radial = radial, radial_case = describe(i, radial);
        if (along > worst_along) worst_along = along, along_case = describe(i, along);
        // The turn about the axis follows the cubic profile of its abscissa.
        double rho = axis_distance(p);
        if (rho < 0.05 * kRadius) continue;
        double d = std::clamp(p.x / kLength, 0.0, 1.0);
        double expected = tau * d * d * (3 - 2 * d);
        double turn_error = rho * std::fabs(wrap_angle(angle_about_x(q) - angle_about_x(p) - expected));
        if (turn_error > worst_turn) worst_turn = turn_error, turn_case = describe(i, expected);
        if (std::fabs(p.x - 2.0) < 1e-12) {
            ++mid_checked;
            if (std::fabs(rho - 1.0) < 1e-12) ++mid_surface_checked;
            // Mid-bone: turned by τ/2 (90° for a 180° twist), so the point really moved.
            EXPECT_NEAR(norm(q - p), 2 * rho * std::fabs(std::sin(tau / 4)), 1e-6) << describe(i, 0);
        }
    }
    EXPECT_LT(worst_radial, 1e-5 * kRadius) << "distance to the axis changed (candy-wrapper): " << radial_case;
    EXPECT_LT(worst_along, 1e-5 * kRadius) << "point slid along the axis: " << along_case;
    EXPECT_LT(worst_turn, 1e-5 * kRadius) << "turn differs from τ(3d² − 2d³) (last: expected turn): " << turn_case;
    EXPECT_GT(checked, 2000) << "too few points coded on the cylinder bone";
    // The ring on the surface is outside every fallback band; the others may fall in a band's edge.
    EXPECT_EQ(mid_surface_checked, 36) << "every mid-bone surface point is coded on bone 0 outside the bands";
    EXPECT_GE(mid_checked, 2 * 36);
    std::printf("[ cylinder ] tau %.4f: %d points, worst |Δρ| %.3g, worst |Δx| %.3g, worst turn error × ρ %.3g\n", tau,
                checked, worst_radial, worst_along, worst_turn);
}

TEST(BaselineTwistCylinder, HalfTurnKeepsRadiusAndAbscissaAndTurnsMidBoneByQuarter) { check_twist(kPi); }

TEST(BaselineTwistCylinder, ThreeHalfTurnsGivenAsUnwrappedTwistRadians) { check_twist(3 * kPi); }

TEST(BaselineTwistCylinder, NegativeHalfTurn) { check_twist(-kPi); }

}  // namespace
}  // namespace bs
