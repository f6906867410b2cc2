// Bone cones (engine/geometry/cone.hpp): cylinders, near-cylinders, invalid bones, and the closest point
// on the bone's surface against brute force over a densely sampled profile.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/geometry/cone.hpp"
#include "tests/support/geometry_expect.hpp"

namespace bs {
namespace {

using V3 = Vec3<double>;
using testing::expect_vec_near;
using testing::random_unit;

TEST(GeometryCone, CylinderHasZeroAngleAndApexAtInfinity) {
    Cone<double> c = make_cone<double>({{1, 2, 3}, 0.5}, {{1, 2, 7}, 0.5});
    ASSERT_TRUE(c.valid);
    EXPECT_EQ(c.sin_theta, 0.0);
    EXPECT_EQ(c.cos_theta, 1.0);
    expect_vec_near(c.axis, {0, 0, 1}, 1e-15);
    EXPECT_EQ(apex_homogeneous(c).w, 0.0);
    expect_vec_near(apex_direction(c, V3{5, -3, 2}), {0, 0, 0.5}, 1e-15);
    Circle<double> top = tangency_circle(c, BoneEnd::Child);
    expect_vec_near(top.centre, {1, 2, 7}, 1e-15);
    EXPECT_EQ(top.radius, 0.5);
    SurfacePoint<double> s = closest_point_on_bone(c, V3{1, 4, 5});
    EXPECT_EQ(s.part, BonePart::Cone);
    EXPECT_NEAR(s.signed_distance, 1.5, 1e-15);
    expect_vec_near(s.point, {1, 2.5, 5}, 1e-15);
    expect_vec_near(s.normal, {0, 1, 0}, 1e-15);
}

// Radii differing by 1e-4: the angle keeps its digits and nothing goes through the far apex.
TEST(GeometryCone, NearCylinderKeepsItsDigitsInFloat) {
    Sphere<float> parent{{0.3f, -1.1f, 2.0f}, 1.0001f};
    Sphere<float> child{{4.3f, 1.9f, 2.0f}, 1.0f};
    Cone<float> cf = make_cone(parent, child);
    Cone<double> cd = make_cone<double>({V3(parent.centre), double(parent.radius)},
                                        {V3(child.centre), double(child.radius)});
    ASSERT_TRUE(cf.valid);
    ASSERT_TRUE(cd.valid);
    EXPECT_NEAR(cf.sin_theta / cd.sin_theta, 1.0, 1e-6);
    // Outside, behind the parent cap, inside (0.5 off the axis), beyond the child cap.
    for (V3 p : {V3{2, 0.5, 3.7}, V3{-5, 2, 1}, V3{2.3, 0.4, 2.5}, V3{6, 3.5, 2.2}}) {
        Vec3<float> pf(p);
        V3 pd(pf);
        expect_vec_near(V3(apex_direction(cf, pf)), apex_direction(cd, pd), 1e-6);
        SurfacePoint<float> sf = closest_point_on_bone(cf, pf);
        SurfacePoint<double> sd = closest_point_on_bone(cd, pd);
        EXPECT_EQ(sf.part, sd.part);
        EXPECT_NEAR(sf.signed_distance, sd.signed_distance, 1e-5);
        expect_vec_near(V3(sf.point), sd.point, 1e-5);
    }
}

// Every generator touches each sphere on that sphere's tangency circle, where the generator is tangent
// to the sphere; the cone's normal there is the sphere's.
TEST(GeometryCone, GeneratorsTouchTheSpheresOnTheTangencyCircles) {
    std::mt19937 rng(3);
    Cone<double> c = make_cone<double>({{0.5, -1, 2}, 1.3}, {{3, 1, 4}, 0.4});
    for (int i = 0; i < 20; ++i) {
        V3 radial = normalized(cross(c.axis, random_unit(rng)));
        V3 far = tangency_point(c, BoneEnd::Parent, radial), near = tangency_point(c, BoneEnd::Child, radial);
        for (BoneEnd end : {BoneEnd::Parent, BoneEnd::Child}) {
            Sphere<double> s = end_sphere(c, end);
            Circle<double> circle = tangency_circle(c, end);
            V3 t = end == BoneEnd::Parent ? far : near;
            EXPECT_NEAR(norm(t - s.centre), s.radius, 1e-12);
            EXPECT_NEAR(dot(normalized(near - far), t - s.centre), 0.0, 1e-12);
            EXPECT_NEAR(norm(t - circle.centre), circle.radius, 1e-12);
            EXPECT_NEAR(dot(t - circle.centre, circle.normal), 0.0, 1e-12);
            expect_vec_near(cone_normal(c, radial), (t - s.centre) / s.radius, 1e-12);
        }
    }
}

// A generator's point at σ has the same meridian coordinates on every generator, and a turn about the axis
// keeps them: the tables' shortcut for a point on the deformed segment (engine/baseline/table.hpp).
TEST(GeometryCone, MeridianCoordinatesOfAGeneratorPointDoNotDependOnTheGenerator) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> unit(0, 1);
    for (const Cone<double>& c : {make_cone<double>({{0.5, -1, 2}, 1.3}, {{3, 1, 4}, 0.4}),
                                  make_cone<double>({{0, 0, 0}, 0.2}, {{0, 1, 0}, 0.9}),
                                  make_cone<double>({{1, 2, 3}, 0.5}, {{1, 2, 7}, 0.5})}) {
        const double omega = c.length * c.cos_theta;
        for (int i = 0; i < 50; ++i) {
            V3 radial = normalized(cross(c.axis, random_unit(rng)));
            const double sigma = omega * (1.4 * unit(rng) - 0.2);  // beyond the ends too: the same line
            V3 U = tangency_point(c, BoneEnd::Parent, radial);
            V3 on_generator = U + sigma * normalized(tangency_point(c, BoneEnd::Child, radial) - U);
            MeridianFrame<double> frame = meridian_frame(c, radial);
            expect_vec_near(frame.point(generator_point_in_meridian(c, sigma)), on_generator, 1e-12);
            expect_vec_near(frame.local_point(on_generator), generator_point_in_meridian(c, sigma), 1e-12);
            // Turned about the axis, the point is at the same coordinates in the turned meridian.
            const double angle = 6 * unit(rng) - 3;
            Quat<double> turn = axis_angle(c.axis, angle);
            V3 turned = c.parent.centre + rotate(turn, on_generator - c.parent.centre);
            expect_vec_near(meridian_frame(c, rotate(turn, radial)).point(generator_point_in_meridian(c, sigma)), turned, 1e-12);
            // A vector's coordinates round-trip, the tangential one included.
            V3 v = random_unit(rng);
            expect_vec_near(frame.vector(frame.local_vector(v)), v, 1e-14);
        }
    }
}

TEST(GeometryCone, SwallowedSphereIsInvalidButFinite) {
    for (Cone<double> c : {make_cone<double>({{0, 0, 0}, 2.0}, {{1, 0, 0}, 0.5}),
                           make_cone<double>({{0, 0, 0}, 1.0}, {{0, 0, 0}, 1.0}),
                           make_cone<double>({{0, 0, 0}, 0.0}, {{3, 0, 0}, 1.0})}) {
        EXPECT_FALSE(c.valid);
        EXPECT_TRUE(all_finite(c.axis));
        EXPECT_TRUE(std::isfinite(c.sin_theta) && std::isfinite(c.cos_theta));
    }
}

TEST(GeometryCone, CapPointsProjectRadiallyOnTheirSphere) {
    Cone<double> c = make_cone<double>({{0, 0, 0}, 1.5}, {{5, 0, 0}, 1.0});
    SurfacePoint<double> beyond_child = closest_point_on_bone(c, V3{6.5, 0.3, 0.0});
    EXPECT_EQ(beyond_child.part, BonePart::ChildCap);
    EXPECT_NEAR(beyond_child.signed_distance, std::hypot(1.5, 0.3) - 1.0, 1e-15);
    expect_vec_near(beyond_child.point, V3{5, 0, 0} + normalized(V3{1.5, 0.3, 0}), 1e-15);
    SurfacePoint<double> behind_parent = closest_point_on_bone(c, V3{-0.5, 0, 0.2});
    EXPECT_EQ(behind_parent.part, BonePart::ParentCap);
    EXPECT_NEAR(behind_parent.signed_distance, std::hypot(0.5, 0.2) - 1.5, 1e-15);
    EXPECT_LT(behind_parent.signed_distance, 0.0);
}

TEST(GeometryCone, PointOnAxisIsFlaggedAndFinite) {
    Cone<double> c = make_cone<double>({{0, 0, 0}, 1.5}, {{5, 0, 0}, 1.0});
    SurfacePoint<double> s = closest_point_on_bone(c, V3{2, 0, 0});
    EXPECT_TRUE(s.on_axis);
    EXPECT_EQ(s.part, BonePart::Cone);
    EXPECT_TRUE(all_finite(s.point) && all_finite(s.normal));
    // On the axis every generator is equally near: minus the distance from (2, 0) to the tangent line
    // through (r1 sin θ, r1 cos θ) and (d + r2 sin θ, r2 cos θ) in a meridian plane.
    double sin_theta = 0.1, cos_theta = std::sqrt(1.0 - 0.01);
    V3 t1{1.5 * sin_theta, 1.5 * cos_theta, 0}, t2{5 + 1.0 * sin_theta, 1.0 * cos_theta, 0};
    double line_distance = norm(cross(t2 - t1, V3{2, 0, 0} - t1)) / norm(t2 - t1);
    EXPECT_NEAR(s.signed_distance, -line_distance, 1e-12);
}

// The bone's profile in the meridian half-plane of a point, sampled densely by the test's own
// construction: arc of the parent circle from the back pole to the tangency point, the tangent segment,
// arc of the child circle to the front pole. Tangency angle from the axis: acos((r1 − r2)/d).
struct Profile {
    std::vector<V3> points;
    std::vector<BonePart> parts;
};

Profile sample_profile(Sphere<double> s1, Sphere<double> s2, V3 radial, int per_piece) {
    V3 u = s2.centre - s1.centre;
    double d = norm(u);
    V3 a = u / d;
    double tangency_angle = std::acos((s1.radius - s2.radius) / d);
    Profile profile;
    auto on_circle = [&](Sphere<double> s, double angle) {
        return s.centre + s.radius * (std::cos(angle) * a + std::sin(angle) * radial);
    };
    for (int i = 0; i <= per_piece; ++i) {
        double f = double(i) / per_piece;
        profile.points.push_back(on_circle(s1, M_PI + f * (tangency_angle - M_PI)));
        profile.parts.push_back(BonePart::ParentCap);
    }
    V3 t1 = on_circle(s1, tangency_angle), t2 = on_circle(s2, tangency_angle);
    for (int i = 1; i < per_piece; ++i) {
        profile.points.push_back(t1 + (double(i) / per_piece) * (t2 - t1));
        profile.parts.push_back(BonePart::Cone);
    }
    for (int i = 0; i <= per_piece; ++i) {
        profile.points.push_back(on_circle(s2, tangency_angle * (1.0 - double(i) / per_piece)));
        profile.parts.push_back(BonePart::ChildCap);
    }
    return profile;
}

// Inside the hull of two spheres iff inside one of the balls interpolated linearly between them.
bool inside_hull(Sphere<double> s1, Sphere<double> s2, V3 p) {
    for (int i = 0; i <= 20000; ++i) {
        double t = i / 20000.0;
        V3 c = s1.centre + t * (s2.centre - s1.centre);
        if (norm(p - c) < s1.radius + t * (s2.radius - s1.radius)) return true;
    }
    return false;
}

TEST(GeometryCone, ClosestPointMatchesBruteForceInsideAndOutside) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    int inside_count = 0;
    for (int trial = 0; trial < 60; ++trial) {
        Sphere<double> s1{{uniform(rng), uniform(rng), uniform(rng)}, 0.5 + 1.5 * uniform(rng)};
        Sphere<double> s2{s1.centre + (1.0 + 4.0 * uniform(rng)) * random_unit(rng), 0.5 + 1.5 * uniform(rng)};
        Cone<double> c = make_cone(s1, s2);
        if (!c.valid) continue;
        V3 p = s1.centre + uniform(rng) * (s2.centre - s1.centre) + 3.0 * uniform(rng) * random_unit(rng);
        V3 off_axis = (p - s1.centre) - dot(p - s1.centre, c.axis) * c.axis;
        Profile profile = sample_profile(s1, s2, normalized(off_axis), 4000);
        std::size_t nearest = 0;
        for (std::size_t i = 1; i < profile.points.size(); ++i)
            if (norm(p - profile.points[i]) < norm(p - profile.points[nearest])) nearest = i;
        double brute_distance = norm(p - profile.points[nearest]);

        SurfacePoint<double> s = closest_point_on_bone(c, p);
        bool inside = inside_hull(s1, s2, p);
        inside_count += inside;
        EXPECT_EQ(s.signed_distance < 0.0, inside) << "trial " << trial;
        EXPECT_NEAR(std::fabs(s.signed_distance), brute_distance, 2e-3) << "trial " << trial;
        expect_vec_near(s.point, profile.points[nearest], 5e-3);
        if (std::fabs(s.signed_distance) > 0.05) {
            V3 outward_to_p = (s.signed_distance > 0 ? 1.0 : -1.0) * normalized(p - profile.points[nearest]);
            expect_vec_near(s.normal, outward_to_p, 5e-2);
        }
        EXPECT_EQ(s.part, profile.parts[nearest]) << "trial " << trial;
        // The returned point is on the surface: the farthest it is from a sampled profile point is the
        // sample spacing.
        double to_profile = 1e9;
        for (const V3& q : profile.points) to_profile = std::min(to_profile, norm(s.point - q));
        EXPECT_LT(to_profile, 3e-3);
    }
    EXPECT_GT(inside_count, 5);
}

}  // namespace
}  // namespace bs
