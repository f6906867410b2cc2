// Separator plane and pivot circle of two bones at a joint (engine/geometry/joint.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/geometry/joint.hpp"
#include "tests/support/geometry_expect.hpp"

namespace bs {
namespace {

using V3 = Vec3<double>;
using testing::expect_vec_near;
using testing::random_unit;

// Implicit form of the infinite double cone of the bone from `far` to the joint, written from scratch:
// |x − C|² − r² − ((x − C)·u − r sin θ)² / cos² θ with u the unit axis into the joint and
// sin θ = (r_far − r) / d.
double cone_implicit(Sphere<double> far, Sphere<double> joint, V3 x) {
    V3 u = joint.centre - far.centre;
    double d = norm(u);
    u = u / d;
    double s = (far.radius - joint.radius) / d;
    double c2 = 1.0 - s * s;
    double tangency_plane = dot(x - joint.centre, u) - joint.radius * s;
    return norm2(x - joint.centre) - joint.radius * joint.radius - tangency_plane * tangency_plane / c2;
}

// Random chain: spheres 0 → 1 → 2 with a bend between 5° and 170°.
struct Chain {
    Sphere<double> s[3];
};

Chain random_chain(std::mt19937& rng) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Chain chain;
    V3 a0 = random_unit(rng);
    V3 side = normalized(cross(a0, random_unit(rng)));
    double bend = (5.0 + 165.0 * uniform(rng)) * M_PI / 180.0;
    V3 a1 = std::cos(bend) * a0 + std::sin(bend) * side;
    chain.s[1] = {{uniform(rng), uniform(rng), uniform(rng)}, 0.5 + uniform(rng)};
    chain.s[0] = {chain.s[1].centre - (2.0 + 3.0 * uniform(rng)) * a0, 0.5 + uniform(rng)};
    chain.s[2] = {chain.s[1].centre + (2.0 + 3.0 * uniform(rng)) * a1, 0.5 + uniform(rng)};
    return chain;
}

// On the separator plane the two cones' implicit values agree (P_k/cos θ_k = P_l/cos θ_l there): sample
// points of the plane around the joint sphere.
TEST(GeometrySeparator, ConeImplicitValuesAgreeOnThePlane) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
        Chain ch = random_chain(rng);
        Cone<double> in = make_cone(ch.s[0], ch.s[1]), out = make_cone(ch.s[1], ch.s[2]);
        ASSERT_TRUE(in.valid && out.valid);
        SeparatorPlane<double> plane = separator_plane(in, out);
        ASSERT_TRUE(plane.valid);
        V3 e1 = any_orthogonal(plane.normal), e2 = cross(plane.normal, e1);
        V3 origin = ch.s[1].centre + plane.offset_from_centre * plane.normal;
        double r = ch.s[1].radius;
        for (int i = 0; i < 20; ++i) {
            V3 x = origin + (1.5 * r * uniform(rng)) * e1 + (1.5 * r * uniform(rng)) * e2;
            ASSERT_NEAR(signed_distance(plane, x), 0.0, 1e-12);
            EXPECT_NEAR(cone_implicit(ch.s[0], ch.s[1], x), cone_implicit(ch.s[2], ch.s[1], x), 1e-10 * r * r);
        }
        // Off the plane they differ (the test can fail): one radius away along the normal.
        V3 off = origin + r * plane.normal;
        EXPECT_GT(std::fabs(cone_implicit(ch.s[0], ch.s[1], off) - cone_implicit(ch.s[2], ch.s[1], off)), 1e-6);
    }
}

TEST(GeometrySeparator, EqualCylindersGiveTheMitrePlaneThroughTheCentre) {
    V3 c{1, 2, 3};
    V3 a0 = normalized(V3{1, 0.2, 0}), a1 = normalized(V3{0.3, 1, 0.4});
    Cone<double> in = make_cone<double>({c - 4.0 * a0, 0.7}, {c, 0.7});
    Cone<double> out = make_cone<double>({c, 0.7}, {c + 3.0 * a1, 0.7});
    SeparatorPlane<double> plane = separator_plane(in, out);
    ASSERT_TRUE(plane.valid);
    EXPECT_NEAR(plane.offset_from_centre, 0.0, 1e-15);
    expect_vec_near(plane.normal, normalized(a0 + a1), 1e-15);
}

// Closest points of the lines p + s·u and q + t·v; returns their midpoint and the gap between them.
struct LineCrossing {
    V3 point;
    double gap;
};

LineCrossing cross_lines(V3 p, V3 u, V3 q, V3 v) {
    V3 w = p - q;
    double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
    double den = uu * vv - uv * uv;
    double s = (uv * vw - vv * uw) / den, t = (uu * vw - uv * uw) / den;
    V3 on_first = p + s * u, on_second = q + t * v;
    return {0.5 * (on_first + on_second), norm(on_first - on_second)};
}

// The cones' real intersection lies on the plane (not on the spurious conic): in the plane of both axes,
// each cone's generator on a given side is the common tangent of its two circles; the incoming and
// outgoing generators on one side cross at a point of both cones, on either side of the bend.
TEST(GeometrySeparator, GeneratorsInTheBendPlaneCrossOnIt) {
    std::mt19937 rng(13);
    for (int trial = 0; trial < 200; ++trial) {
        Chain ch = random_chain(rng);
        Cone<double> in = make_cone(ch.s[0], ch.s[1]), out = make_cone(ch.s[1], ch.s[2]);
        SeparatorPlane<double> plane = separator_plane(in, out);
        V3 bend_normal = normalized(cross(ch.s[1].centre - ch.s[0].centre, ch.s[2].centre - ch.s[1].centre));
        for (double side : {-1.0, 1.0}) {
            V3 generator_end[2][2];  // [bone][far or joint]
            for (int k = 0; k < 2; ++k) {
                Sphere<double> from = ch.s[k], to = ch.s[k + 1];
                V3 a = normalized(to.centre - from.centre);
                V3 w = side * normalized(cross(bend_normal, a));
                double d = norm(to.centre - from.centre), sn = (from.radius - to.radius) / d;
                double cs = std::sqrt(1 - sn * sn);
                generator_end[k][0] = from.centre + from.radius * (sn * a + cs * w);
                generator_end[k][1] = to.centre + to.radius * (sn * a + cs * w);
            }
            LineCrossing x = cross_lines(generator_end[0][0], generator_end[0][1] - generator_end[0][0],
                                         generator_end[1][0], generator_end[1][1] - generator_end[1][0]);
            ASSERT_LT(x.gap, 1e-9);
            if (norm(x.point - ch.s[1].centre) > 20.0) continue;  // nearly parallel generators
            EXPECT_NEAR(signed_distance(plane, x.point), 0.0, 1e-9) << "trial " << trial << " side " << side;
        }
    }
}

TEST(GeometrySeparator, StraightChainPlaneIsNormalToTheAxis) {
    V3 a = normalized(V3{0.2, -1, 0.5});
    Cone<double> in = make_cone<double>({-3.0 * a, 1.5}, {{0, 0, 0}, 1.0});
    Cone<double> out = make_cone<double>({{0, 0, 0}, 1.0}, {2.0 * a, 0.8});
    SeparatorPlane<double> plane = separator_plane(in, out);
    ASSERT_TRUE(plane.valid);
    expect_vec_near(plane.normal, a, 1e-15);
    // The two cones meet where their profiles (the lines through each cone's two tangency points, in a
    // meridian plane with x along the axis from the joint) give the same radius.
    auto rim_radius = [](double x0, double r0, double x1, double r1, double x) {
        double s = (r0 - r1) / (x1 - x0), c = std::sqrt(1 - s * s);
        double t0x = x0 + r0 * s, t0y = r0 * c, t1x = x1 + r1 * s, t1y = r1 * c;
        return t0y + (x - t0x) * (t1y - t0y) / (t1x - t0x);
    };
    double x = plane.offset_from_centre;
    EXPECT_NEAR(rim_radius(-3, 1.5, 0, 1.0, x), rim_radius(0, 1.0, 2, 0.8, x), 1e-12);
}

TEST(GeometrySeparator, FoldedEqualBonesAreInvalidButFinite) {
    V3 a{0, 0, 1};
    Cone<double> in = make_cone<double>({-2.0 * a, 0.5}, {{0, 0, 0}, 0.5});
    Cone<double> out = make_cone<double>({{0, 0, 0}, 0.5}, {-2.0 * a, 0.5});
    SeparatorPlane<double> plane = separator_plane(in, out);
    EXPECT_FALSE(plane.valid);
    EXPECT_TRUE(all_finite(plane.normal) && std::isfinite(plane.offset_from_centre));
}

TEST(GeometryPivotCircle, LiesOnTheJointSphereAndTheSeparator) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 100; ++trial) {
        Chain ch = random_chain(rng);
        Cone<double> in = make_cone(ch.s[0], ch.s[1]), out = make_cone(ch.s[1], ch.s[2]);
        SeparatorPlane<double> plane = separator_plane(in, out);
        PivotCircle<double> pivot = pivot_circle(plane, ch.s[1].radius);
        ASSERT_TRUE(pivot.cuts_sphere);
        EXPECT_NEAR(norm(pivot.circle.normal), 1.0, 1e-15);
        V3 e1 = any_orthogonal(pivot.circle.normal), e2 = cross(pivot.circle.normal, e1);
        for (int i = 0; i < 8; ++i) {
            double angle = i * M_PI / 4;
            V3 x = pivot.circle.centre + pivot.circle.radius * (std::cos(angle) * e1 + std::sin(angle) * e2);
            EXPECT_NEAR(norm(x - ch.s[1].centre), ch.s[1].radius, 1e-12);
            EXPECT_NEAR(signed_distance(plane, x), 0.0, 1e-12);
        }
    }
}

TEST(GeometryPivotCircle, PlaneMissingTheSphereIsFlagged) {
    SeparatorPlane<double> plane{{0, 0, 0}, {0, 0, 1}, 1.5, true};
    PivotCircle<double> pivot = pivot_circle(plane, 1.0);
    EXPECT_FALSE(pivot.cuts_sphere);
    EXPECT_EQ(pivot.circle.radius, 0.0);
}

// A junction: two bones leaving the same sphere. Seen from the joint, the plane is the same formula.
TEST(GeometrySeparator, JunctionPairOfOutgoingBones) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Sphere<double> joint{{0.5, 0, -1}, 1.2};
    Cone<double> left = make_cone<double>(joint, {joint.centre + 4.0 * normalized(V3{1, 1, 0}), 0.7});
    Cone<double> right = make_cone<double>(joint, {joint.centre + 3.0 * normalized(V3{1, -1, 0.2}), 0.9});
    SeparatorPlane<double> plane =
        separator_plane(joint, joint_end(left, BoneEnd::Parent), joint_end(right, BoneEnd::Parent));
    ASSERT_TRUE(plane.valid);
    V3 e1 = any_orthogonal(plane.normal), e2 = cross(plane.normal, e1);
    for (int i = 0; i < 50; ++i) {
        V3 x = joint.centre + plane.offset_from_centre * plane.normal + (2 * uniform(rng)) * e1 +
               (2 * uniform(rng)) * e2;
        EXPECT_NEAR(cone_implicit(left.child, joint, x), cone_implicit(right.child, joint, x), 1e-10);
    }
}

}  // namespace
}  // namespace bs
