// Detail directions over a segment and the base-point of a point (engine/geometry/fan.hpp). Points are
// built from the test's own fan (I from a line-line crossing, b chosen on the segment, p = b + h·unit(b − I))
// and the projection must give b, t and h back.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/geometry/fan.hpp"
#include "tests/support/geometry_expect.hpp"

namespace bs {
namespace {

using V3 = Vec3<double>;
using testing::expect_vec_near;
using testing::random_unit;

// A segment P0 → P1 in a random plane, with sphere centres Q0, Q1 on the inner side of it (depths
// d0, d1 below the segment, shifted along it by s0, s1); ends' directions from the centres.
struct FanSetup {
    SegmentEnd<double> first, second;
    V3 centre0, centre1;
    V3 outward;  // in-plane normal of the segment, toward the outer side
};

FanSetup make_setup(std::mt19937& rng, double d0, double d1, double s0, double s1) {
    V3 e_x = random_unit(rng);
    V3 e_y = normalized(cross(e_x, random_unit(rng)));
    V3 p0 = random_unit(rng), p1 = p0 + 3.0 * e_x;
    V3 q0 = p0 - d0 * e_y + s0 * e_x, q1 = p1 - d1 * e_y + s1 * e_x;
    return {{p0, direction_from_centre(q0, p0)}, {p1, direction_from_centre(q1, p1)}, q0, q1, e_y};
}

// Crossing of the lines p + s u and q + t v (coplanar, not parallel).
V3 cross_lines(V3 p, V3 u, V3 q, V3 v) {
    V3 w = p - q;
    double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
    double s = (uv * vw - vv * uw) / (uu * vv - uv * uv);
    return p + s * u;
}

TEST(GeometryFan, RecoversBasePointAndHeightOfPointsBuiltOnTheFan) {
    std::mt19937 rng(99);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int trial = 0; trial < 300; ++trial) {
        FanSetup f = make_setup(rng, 0.5 + uniform(rng), 0.5 + uniform(rng), 0.8 * (uniform(rng) - 0.5),
                                0.8 * (uniform(rng) - 0.5));
        V3 I = cross_lines(f.centre0, f.first.direction, f.centre1, f.second.direction);
        double t0 = uniform(rng);
        V3 b0 = f.first.point + t0 * (f.second.point - f.first.point);
        V3 n0 = normalized(b0 - I);
        if (dot(n0, f.outward) < 0) n0 = -n0;
        // Heights inside and outside, short of I when I lies on the outer side.
        double reach = dot(I - b0, n0) > 0 ? 0.9 * dot(I - b0, n0) : 2.0;
        double h0 = -0.4 + std::min(reach, 2.0) * uniform(rng);
        V3 p = b0 + h0 * n0;

        FanProjection<double> fan = fan_projection(f.first, f.second, p);
        ASSERT_TRUE(fan.valid) << trial;
        EXPECT_NEAR(fan.segment_parameter, t0, 1e-9) << trial;
        expect_vec_near(fan.base_point, b0, 1e-9);
        EXPECT_NEAR(fan.height, h0, 1e-9) << trial;
        expect_vec_near(fan.direction, n0, 1e-9);
        expect_vec_near(fan.base_point + fan.height * fan.direction, p, 1e-9);
        ASSERT_NE(fan.centre.w, 0.0);
        expect_vec_near(fan.centre.xyz / fan.centre.w, I, 1e-9 * (1 + norm(I - b0)));
    }
}

TEST(GeometryFan, EndsGiveTheEndDirections) {
    std::mt19937 rng(1);
    FanSetup f = make_setup(rng, 1.0, 0.6, 0.2, -0.3);
    FanProjection<double> at_first = fan_projection(f.first, f.second, f.first.point + 0.7 * f.first.direction);
    FanProjection<double> at_second = fan_projection(f.first, f.second, f.second.point - 0.2 * f.second.direction);
    EXPECT_NEAR(at_first.segment_parameter, 0.0, 1e-12);
    expect_vec_near(at_first.direction, f.first.direction, 1e-12);
    EXPECT_NEAR(at_first.height, 0.7, 1e-12);
    EXPECT_NEAR(at_second.segment_parameter, 1.0, 1e-12);
    expect_vec_near(at_second.direction, f.second.direction, 1e-12);
    EXPECT_NEAR(at_second.height, -0.2, 1e-12);
}

// A cylinder's segment between two arcs: parallel end directions, I at infinity, orthogonal projection.
TEST(GeometryFan, ParallelEndsProjectOrthogonally) {
    SegmentEnd<double> first{{0, 1, 0}, {0, 1, 0}}, second{{4, 1, 0}, {0, 1, 0}};
    FanProjection<double> fan = fan_projection(first, second, V3{1.5, 1.8, 0});
    EXPECT_TRUE(fan.valid);
    EXPECT_EQ(fan.centre.w, 0.0);
    expect_vec_near(fan.base_point, {1.5, 1, 0}, 1e-15);
    EXPECT_NEAR(fan.height, 0.8, 1e-15);
    EXPECT_NEAR(fan.segment_parameter, 0.375, 1e-15);
    FanProjection<double> inside = fan_projection(first, second, V3{3, 0.25, 0});
    EXPECT_NEAR(inside.height, -0.75, 1e-15);
    expect_vec_near(inside.base_point, {3, 1, 0}, 1e-15);
}

// End directions converging outward (I above the segment): points beyond I are not covered.
TEST(GeometryFan, PointBeyondTheCentreIsFlaggedAndFinite) {
    SegmentEnd<double> first{{0, 0, 0}, normalized(V3{1, 1, 0})}, second{{2, 0, 0}, normalized(V3{-1, 1, 0})};
    FanProjection<double> below = fan_projection(first, second, V3{0.5, 0.5, 0});  // I = (1, 1, 0)
    EXPECT_TRUE(below.valid);
    expect_vec_near(below.centre.xyz / below.centre.w, {1, 1, 0}, 1e-15);
    FanProjection<double> beyond = fan_projection(first, second, V3{0.5, 3, 0});
    EXPECT_FALSE(beyond.valid);
    FanProjection<double> level = fan_projection(first, second, V3{0.5, 1, 0});
    EXPECT_FALSE(level.valid);
    for (const FanProjection<double>& f : {beyond, level}) {
        EXPECT_TRUE(all_finite(f.base_point) && all_finite(f.direction));
        EXPECT_TRUE(std::isfinite(f.height) && std::isfinite(f.segment_parameter));
    }
}

TEST(GeometryFan, InwardEndDirectionOrEmptySegmentIsFlagged) {
    SegmentEnd<double> first{{0, 0, 0}, {0, 1, 0}}, inward{{2, 0, 0}, {0, -1, 0}}, same{{0, 0, 0}, {0, 1, 0}};
    FanProjection<double> bad_end = fan_projection(first, inward, V3{1, 1, 0});
    FanProjection<double> empty = fan_projection(first, same, V3{1, 1, 0});
    for (const FanProjection<double>& f : {bad_end, empty}) {
        EXPECT_FALSE(f.valid);
        EXPECT_TRUE(all_finite(f.base_point) && all_finite(f.direction) && std::isfinite(f.height));
    }
}

TEST(GeometryFan, FloatMatchesDoubleOfRoundedInputs) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
        FanSetup f = make_setup(rng, 0.5 + uniform(rng), 0.5 + uniform(rng), 0.3, -0.2);
        V3 p = f.first.point + uniform(rng) * (f.second.point - f.first.point) + (uniform(rng) - 0.2) * f.outward;
        SegmentEnd<float> a{Vec3<float>(f.first.point), Vec3<float>(f.first.direction)};
        SegmentEnd<float> b{Vec3<float>(f.second.point), Vec3<float>(f.second.direction)};
        Vec3<float> pf(p);
        FanProjection<float> in_float = fan_projection(a, b, pf);
        FanProjection<double> in_double = fan_projection(SegmentEnd<double>{V3(a.point), V3(a.direction)},
                                                         SegmentEnd<double>{V3(b.point), V3(b.direction)}, V3(pf));
        ASSERT_TRUE(in_float.valid && in_double.valid);
        expect_vec_near(V3(in_float.base_point), in_double.base_point, 1e-5);
        EXPECT_NEAR(in_float.height, in_double.height, 1e-5);
        expect_vec_near(V3(in_float.direction), in_double.direction, 1e-5);
    }
}

}  // namespace
}  // namespace bs
