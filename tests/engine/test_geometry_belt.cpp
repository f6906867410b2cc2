// Planes of the sheaf, generators and belts at a joint, free-extremity arcs
// (engine/geometry/sheaf.hpp, belt.hpp). Each belt is checked against properties the test computes on
// its own: tangency, coplanarity with both apexes, the point's generator, the side rule, the anchor on
// the separator, C¹ arcs, and the convex/concave split from an independent line crossing.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "engine/geometry/belt.hpp"
#include "tests/support/geometry_expect.hpp"

namespace bs {
namespace {

using V3 = Vec3<double>;
using testing::expect_vec_near;
using testing::random_unit;

struct Chain {
    Sphere<double> s[3];
    Cone<double> in() const { return make_cone(s[0], s[1]); }
    Cone<double> out() const { return make_cone(s[1], s[2]); }
};

// Spheres 0 → 1 → 2, bone lengths 2..5, radii in [r_min, r_min + r_spread], bend in degrees.
Chain bent_chain(std::mt19937& rng, double bend_degrees, double r_min = 0.5, double r_spread = 1.0) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    V3 a0 = random_unit(rng);
    V3 side = normalized(cross(a0, random_unit(rng)));
    double bend = bend_degrees * M_PI / 180.0;
    V3 a1 = std::cos(bend) * a0 + std::sin(bend) * side;
    Chain ch;
    ch.s[1] = {{uniform(rng), uniform(rng), uniform(rng)}, r_min + r_spread * uniform(rng)};
    ch.s[0] = {ch.s[1].centre - (2.0 + 3.0 * uniform(rng)) * a0, r_min + r_spread * uniform(rng)};
    ch.s[2] = {ch.s[1].centre + (2.0 + 3.0 * uniform(rng)) * a1, r_min + r_spread * uniform(rng)};
    return ch;
}

// A point on the conical part of the bone from → to, on the generator of radial direction `radial`
// (⟂ the axis), a fraction f of the way from the far tangency point; the test's own construction.
V3 point_on_cone(Sphere<double> from, Sphere<double> to, V3 radial, double f) {
    V3 a = normalized(to.centre - from.centre);
    double sn = (from.radius - to.radius) / norm(to.centre - from.centre), cs = std::sqrt(1 - sn * sn);
    V3 t0 = from.centre + from.radius * (sn * a + cs * radial);
    V3 t1 = to.centre + to.radius * (sn * a + cs * radial);
    return t0 + f * (t1 - t0);
}

// x rounded to float, as a double, through a volatile float. Not V3(Vec3<float>(x)): GCC 12.2 at -O2 and
// -O3 (x86-64) vectorises the x and y round trips double → float → double and its value numbering (FRE)
// then folds the vector pair back to the unrounded doubles, so the "rounded" inputs kept all their
// digits in some lanes and uses and not in others (5e-9 inconsistencies, not a loss in the engine).
double rounded_to_float(double x) {
    volatile float f = float(x);
    return f;
}
V3 rounded_to_float(V3 v) { return {rounded_to_float(v.x), rounded_to_float(v.y), rounded_to_float(v.z)}; }

V3 random_radial(std::mt19937& rng, V3 axis) {
    return normalized(cross(axis, random_unit(rng)));
}

// The belt at the joint of in → out in `plane`, built through a point of the incoming bone.
template <class T> Belt<T> chain_belt(const Cone<T>& in, const Cone<T>& out, const SheafPlane<T>& plane) {
    return belt_at_joint(in, out, separator_plane(in, out), plane, ChainBone::Incoming);
}

struct LineCrossing {
    double s, t;  // parameters on p + s u and q + t v
    double gap;
};

LineCrossing cross_lines(V3 p, V3 u, V3 q, V3 v) {
    V3 w = p - q;
    double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
    double den = uu * vv - uv * uv;
    double s = (uv * vw - vv * uw) / den, t = (uu * vw - uv * uw) / den;
    return {s, t, norm((p + s * u) - (q + t * v))};
}

double side_sign(V3 axis, V3 on_axis, V3 x, V3 normal) { return dot(cross(axis, x - on_axis), normal) < 0 ? -1 : 1; }

// A clamped concave anchor: the middle of the points `reach` (the shorter segment's length) back from the
// joint along each generator, V → U and X → Y.
V3 clamped_anchor(const Belt<double>& belt) {
    const double reach = std::min(norm(belt.V - belt.U), norm(belt.Y - belt.X));
    return 0.5 * ((belt.V + reach * normalized(belt.U - belt.V)) + (belt.X + reach * normalized(belt.Y - belt.X)));
}

// Every property of a belt built through q (on the incoming bone when q_on_incoming); tol is relative
// to the chain's size. Returns false when the belt was flagged (the caller counts those).
bool check_belt(const Chain& ch, const Belt<double>& belt, const SheafPlane<double>& plane, V3 q,
                bool q_on_incoming, double tol, const std::string& what) {
    const Sphere<double>* s = ch.s;
    // On their spheres, and the segments tangent there.
    EXPECT_NEAR(norm(belt.U - s[0].centre), s[0].radius, tol) << what;
    EXPECT_NEAR(norm(belt.V - s[1].centre), s[1].radius, tol) << what;
    EXPECT_NEAR(norm(belt.X - s[1].centre), s[1].radius, tol) << what;
    EXPECT_NEAR(norm(belt.Y - s[2].centre), s[2].radius, tol) << what;
    V3 g_in = normalized(belt.V - belt.U), g_out = normalized(belt.Y - belt.X);
    EXPECT_NEAR(dot(g_in, belt.U - s[0].centre), 0.0, tol) << what;
    EXPECT_NEAR(dot(g_in, belt.V - s[1].centre), 0.0, tol) << what;
    EXPECT_NEAR(dot(g_out, belt.X - s[1].centre), 0.0, tol) << what;
    EXPECT_NEAR(dot(g_out, belt.Y - s[2].centre), 0.0, tol) << what;
    // In the plane through q.
    for (V3 t : {belt.U, belt.V, belt.X, belt.Y}) EXPECT_NEAR(dot(plane.normal, t - q), 0.0, tol) << what;
    // q on its own generator, between the tangency points.
    V3 from = q_on_incoming ? belt.U : belt.X, to = q_on_incoming ? belt.V : belt.Y;
    EXPECT_NEAR(norm(cross(to - from, q - from)) / norm(to - from), 0.0, tol) << what;
    double f = dot(q - from, to - from) / norm2(to - from);
    EXPECT_TRUE(f > -1e-9 && f < 1 + 1e-9) << what << " f " << f;
    // Side rule: V and X on q's side of their own axes.
    V3 a0 = normalized(s[1].centre - s[0].centre), a1 = normalized(s[2].centre - s[1].centre);
    double q_side = q_on_incoming ? side_sign(a0, s[0].centre, q, plane.normal)
                                  : side_sign(a1, s[1].centre, q, plane.normal);
    EXPECT_EQ(side_sign(a0, s[0].centre, belt.V, plane.normal), q_side) << what;
    EXPECT_EQ(side_sign(a1, s[1].centre, belt.X, plane.normal), q_side) << what;
    // Anchor on the separator — except where the crossing lies beyond U or Y: then it is clamped to the
    // middle of the points the shorter segment's length back from the joint on each generator, and flagged.
    SeparatorPlane<double> separator = separator_plane(ch.in(), ch.out());
    const bool clamped = (belt.flags & kBeltCrossingOffSegments) != 0;
    if (clamped) {
        expect_vec_near(belt.anchor, clamped_anchor(belt), tol, what + " clamped anchor");
        return false;
    }
    EXPECT_NEAR(signed_distance(separator, belt.anchor), 0.0, tol) << what;
    // Convex or concave, from the test's own crossing of lines UV and XY: concave iff it is before V.
    LineCrossing crossing = cross_lines(belt.U, belt.V - belt.U, belt.X, belt.Y - belt.X);
    if (std::fabs(crossing.s - 1) > 1e-6 && crossing.gap < tol) {
        EXPECT_EQ(belt.concave, crossing.s < 1) << what;
    }
    if (belt.concave) {
        expect_vec_near(belt.anchor, belt.U + crossing.s * (belt.V - belt.U), tol * (1 + std::fabs(crossing.s)), what);
        EXPECT_EQ(belt.joint_arc.sweep, 0.0) << what;
        EXPECT_EQ(belt.anchor_angle, 0.0) << what;
    } else {
        EXPECT_NEAR(norm(belt.anchor - s[1].centre), s[1].radius, tol) << what;
        const Arc<double>& arc = belt.joint_arc;
        expect_vec_near(arc_point(arc, 0.0), belt.V, tol, what + " arc start");
        expect_vec_near(arc_point(arc, arc.sweep), belt.X, tol, what + " arc end");
        expect_vec_near(arc_tangent(arc, 0.0), g_in, tol, what + " C1 at V");
        if (norm(belt.X - belt.V) > 1e-6) expect_vec_near(arc_tangent(arc, arc.sweep), g_out, 1e-6, what + " C1 at X");
        expect_vec_near(arc_point(arc, belt.anchor_angle), belt.anchor, tol, what + " anchor angle");
        EXPECT_TRUE(belt.anchor_angle >= 0 && belt.anchor_angle <= arc.sweep) << what;
        double chord = norm(belt.X - belt.V);
        EXPECT_LE(norm(belt.anchor - belt.V), chord + tol) << what << " anchor between V and X";
        EXPECT_LE(norm(belt.anchor - belt.X), chord + tol) << what << " anchor between V and X";
    }
    return belt.flags == 0;
}

// The plane contains both apexes (explicit, away from cylinders).
void expect_plane_through_apexes(const Chain& ch, const SheafPlane<double>& plane, double tol) {
    for (Cone<double> c : {ch.in(), ch.out()}) {
        if (std::fabs(c.sin_theta) < 0.02) continue;
        V3 apex = c.parent.centre + (c.parent.radius / c.sin_theta) * c.axis;
        EXPECT_NEAR(dot(plane.normal, apex - plane.point) / norm(apex - plane.point), 0.0, tol);
    }
}

TEST(GeometryBelt, RandomBentChainsPointOnEitherBone) {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    int convex = 0, concave = 0, flagged = 0, total = 0;
    for (int trial = 0; trial < 400; ++trial) {
        Chain ch = bent_chain(rng, 5.0 + 160.0 * uniform(rng));
        Cone<double> in = ch.in(), out = ch.out();
        ASSERT_TRUE(in.valid && out.valid);
        SeparatorPlane<double> separator = separator_plane(in, out);
        bool on_incoming = trial % 2 == 0;
        V3 q = on_incoming ? point_on_cone(ch.s[0], ch.s[1], random_radial(rng, in.axis), 0.05 + 0.9 * uniform(rng))
                           : point_on_cone(ch.s[1], ch.s[2], random_radial(rng, out.axis), 0.05 + 0.9 * uniform(rng));
        SheafPlane<double> plane = sheaf_plane(in, out, q);
        if (plane.conditioning < 1e-3) continue;
        expect_plane_through_apexes(ch, plane, 1e-9);
        Belt<double> belt =
            belt_at_joint(in, out, separator, plane, on_incoming ? ChainBone::Incoming : ChainBone::Outgoing);
        std::string what = "trial " + std::to_string(trial);
        flagged += !check_belt(ch, belt, plane, q, on_incoming, 1e-9, what);
        ++total;
        (belt.concave ? concave : convex) += 1;
    }
    EXPECT_GT(total, 350);
    EXPECT_GT(convex, 100);
    EXPECT_GT(concave, 100);
    EXPECT_LT(flagged, total / 10);
}

// Straight chain of equal cylinders: no plane of the sheaf (D_k ∥ D_{k+1}); the fallback is the plane
// through the axis, and the belt is the straight generator with V = X on the mitre plane.
TEST(GeometryBelt, StraightEqualCylindersAreFlaggedAndFinite) {
    V3 a = normalized(V3{1, 2, -0.5});
    Chain ch{{{-4.0 * a, 0.8}, {{0, 0, 0}, 0.8}, {3.0 * a, 0.8}}};
    V3 q = point_on_cone(ch.s[0], ch.s[1], normalized(cross(a, V3{0, 0, 1})), 0.4);
    SheafPlane<double> plane = sheaf_plane(ch.in(), ch.out(), q);
    EXPECT_TRUE(plane.degenerate);
    EXPECT_NEAR(dot(plane.normal, a), 0.0, 1e-15);
    EXPECT_NEAR(dot(plane.normal, q), 0.0, 1e-14);
    Belt<double> belt = chain_belt(ch.in(), ch.out(), plane);
    EXPECT_FALSE(belt.concave);
    expect_vec_near(belt.V, belt.X, 1e-14);
    expect_vec_near(belt.anchor, belt.V, 1e-14);
    EXPECT_EQ(belt.flags, 0u);
    check_belt(ch, belt, plane, q, true, 1e-12, "straight cylinders");
}

TEST(GeometryBelt, PointOnTheAxisOfAStraightChainIsFinite) {
    Chain ch{{{{-4, 0, 0}, 0.8}, {{0, 0, 0}, 0.8}, {{3, 0, 0}, 0.8}}};
    SheafPlane<double> plane = sheaf_plane(ch.in(), ch.out(), V3{-1, 0, 0});
    EXPECT_TRUE(plane.degenerate);
    EXPECT_NEAR(norm(plane.normal), 1.0, 1e-15);
    Belt<double> belt = chain_belt(ch.in(), ch.out(), plane);
    for (V3 v : {belt.U, belt.V, belt.X, belt.Y, belt.anchor}) EXPECT_TRUE(all_finite(v));
}

TEST(GeometryBelt, StraightChainOfConesHasAPlaneThroughTheAxis) {
    std::mt19937 rng(5);
    V3 a = normalized(V3{0.3, -1, 0.2});
    Chain ch{{{-4.0 * a, 1.5}, {{0, 0, 0}, 1.0}, {3.0 * a, 0.8}}};
    for (int i = 0; i < 20; ++i) {
        V3 q = point_on_cone(ch.s[0], ch.s[1], random_radial(rng, a), 0.1 + 0.04 * i);
        SheafPlane<double> plane = sheaf_plane(ch.in(), ch.out(), q);
        ASSERT_FALSE(plane.degenerate);
        EXPECT_NEAR(dot(plane.normal, a), 0.0, 1e-12);
        Belt<double> belt = chain_belt(ch.in(), ch.out(), plane);
        EXPECT_TRUE(check_belt(ch, belt, plane, q, true, 1e-12, "straight cones " + std::to_string(i)));
    }
}

// Cylinders: the plane is parallel to each cylinder's axis (the paper's special cases), no special code.
TEST(GeometryBelt, BentCylindersAndCylinderThenCone) {
    std::mt19937 rng(8);
    for (int trial = 0; trial < 40; ++trial) {
        Chain ch = bent_chain(rng, 20.0 + 3.0 * trial);
        ch.s[0].radius = ch.s[1].radius;
        if (trial % 2 == 1) ch.s[2].radius = ch.s[1].radius;  // both cylinders
        Cone<double> in = ch.in(), out = ch.out();
        ASSERT_EQ(in.sin_theta, 0.0);
        V3 q = point_on_cone(ch.s[0], ch.s[1], random_radial(rng, in.axis), 0.5);
        SheafPlane<double> plane = sheaf_plane(in, out, q);
        ASSERT_FALSE(plane.degenerate);
        EXPECT_NEAR(dot(plane.normal, in.axis), 0.0, 1e-12);
        if (out.sin_theta == 0.0) {
            EXPECT_NEAR(dot(plane.normal, out.axis), 0.0, 1e-12);
        }
        expect_plane_through_apexes(ch, plane, 1e-9);
        Belt<double> belt = belt_at_joint(in, out, separator_plane(in, out), plane, ChainBone::Incoming);
        check_belt(ch, belt, plane, q, true, 1e-9, "cylinders " + std::to_string(trial));
    }
}

// Radii differing by 1e-4: double keeps every property; float matches double from the rounded inputs.
TEST(GeometryBelt, NearCylindersInDoubleAndFloat) {
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int trial = 0; trial < 100; ++trial) {
        Chain ch = bent_chain(rng, 10.0 + 150.0 * uniform(rng), 1.0, 0.0);
        ch.s[0].radius = 1.0001f;
        ch.s[2].radius = 0.9999f;
        Chain rounded;
        Sphere<float> sf[3];
        for (int i = 0; i < 3; ++i) {
            rounded.s[i] = {rounded_to_float(ch.s[i].centre), rounded_to_float(ch.s[i].radius)};
            sf[i] = {Vec3<float>(rounded.s[i].centre), float(rounded.s[i].radius)};  // exact
        }
        // Properties with q exactly on the rounded chain's surface.
        V3 q = point_on_cone(rounded.s[0], rounded.s[1], random_radial(rng, rounded.in().axis), 0.6);
        SeparatorPlane<double> separator = separator_plane(rounded.in(), rounded.out());
        SheafPlane<double> plane = sheaf_plane(rounded.in(), rounded.out(), q);
        Belt<double> exact = belt_at_joint(rounded.in(), rounded.out(), separator, plane, ChainBone::Incoming);
        check_belt(rounded, exact, plane, q, true, 1e-9, "near-cylinder double " + std::to_string(trial));
        // Float against double from the same rounded q.
        V3 q_rounded = rounded_to_float(q);
        Vec3<float> qf(q_rounded);
        Belt<double> bd = belt_at_joint(rounded.in(), rounded.out(), separator,
                                        sheaf_plane(rounded.in(), rounded.out(), q_rounded), ChainBone::Incoming);
        Cone<float> in = make_cone(sf[0], sf[1]), out = make_cone(sf[1], sf[2]);
        Belt<float> bf = chain_belt(in, out, sheaf_plane(in, out, qf));
        EXPECT_EQ(bf.concave, bd.concave);
        const std::string what = "near-cylinder float " + std::to_string(trial);
        expect_vec_near(V3(bf.U), bd.U, 1e-5, what);
        expect_vec_near(V3(bf.V), bd.V, 1e-5, what);
        expect_vec_near(V3(bf.X), bd.X, 1e-5, what);
        expect_vec_near(V3(bf.Y), bd.Y, 1e-5, what);
        expect_vec_near(V3(bf.anchor), bd.anchor, 1e-5, what);
    }
}

// A straight chain of near-cylinders in float: the plane is nearly undefined; whatever comes out is finite.
TEST(GeometryBelt, StraightNearCylindersInFloatStayFinite) {
    std::mt19937 rng(4);
    Vec3<float> a = normalized(Vec3<float>{0.3f, 1.0f, -0.7f});
    Sphere<float> s[3] = {{-3.0f * a, 1.0001f}, {{0, 0, 0}, 1.0f}, {2.5f * a, 0.9999f}};
    Cone<float> in = make_cone(s[0], s[1]), out = make_cone(s[1], s[2]);
    SeparatorPlane<float> separator = separator_plane(in, out);
    for (int i = 0; i < 200; ++i) {
        V3 radial = random_radial(rng, V3(a));
        Vec3<float> q(point_on_cone({V3(s[0].centre), s[0].radius}, {V3(s[1].centre), s[1].radius}, radial, 0.5));
        SheafPlane<float> plane = sheaf_plane(in, out, q);
        Belt<float> belt = belt_at_joint(in, out, separator, plane, ChainBone::Incoming);
        ASSERT_TRUE(all_finite(plane.normal));
        for (Vec3<float> v : {belt.U, belt.V, belt.X, belt.Y, belt.anchor}) ASSERT_TRUE(all_finite(v)) << i;
        ASSERT_TRUE(std::isfinite(belt.joint_arc.sweep));
    }
}

// The clamp starts where the crossing reaches the shorter segment's end, 2·atan(L / r) for equal radii
// (L the outgoing bone's length), and there both generators' clamped points are the crossing itself: the
// anchor moves continuously through it. A sweep of 0.01° steps across it (the anchor moves by about
// r / (2 cos²(θ/2)) a radian there, 2e-4 r a step), in the bend's plane and in one tilted from it (whose
// generators cross the segment's end at another bend), for outgoing bones 0.3 r and 1.2 r long.
TEST(GeometryBelt, TheClampedAnchorIsContinuousWhereTheClampStarts) {
    for (double length : {0.3, 1.2}) {
        const double threshold = 2 * std::atan(length) * 180 / M_PI, step = 0.01;
        for (double tilt : {0.0, 0.4}) {
            V3 previous{};
            bool clamped_seen = false, unclamped_seen = false;
            double largest_move = 0;
            for (double degrees = threshold - 3; degrees <= std::min(threshold + 40, 165.0); degrees += step) {
                const double bend = degrees * M_PI / 180;
                Chain ch{{{{-4, 0, 0}, 1.0}, {{0, 0, 0}, 1.0}, {length * V3{std::cos(bend), std::sin(bend), 0}, 1.0}}};
                const Cone<double> in = ch.in(), out = ch.out();
                const V3 q = point_on_cone(ch.s[0], ch.s[1], normalized(V3{0, 1, tilt}), 0.5);  // inside of the bend
                const Belt<double> belt = belt_at_joint(in, out, separator_plane(in, out), sheaf_plane(in, out, q), ChainBone::Incoming);
                ASSERT_TRUE(belt.concave) << degrees;
                ((belt.flags & kBeltCrossingOffSegments) ? clamped_seen : unclamped_seen) = true;
                if (degrees > threshold - 3) largest_move = std::max(largest_move, norm(belt.anchor - previous));
                previous = belt.anchor;
            }
            EXPECT_TRUE(clamped_seen && unclamped_seen) << length << " tilt " << tilt;
            EXPECT_LT(largest_move, 1e-3) << length << " tilt " << tilt << ": the anchor jumps";
        }
    }
}

TEST(GeometryBelt, CrossingBeyondAShortBoneIsFlagged) {
    // Strong bend onto a very short outgoing bone: the tangent length exceeds |XY|.
    Chain ch{{{{-4, 0, 0}, 1.0}, {{0, 0, 0}, 1.0}, {0.3 * V3{std::cos(2.4), std::sin(2.4), 0}, 0.9}}};
    Cone<double> in = ch.in(), out = ch.out();
    ASSERT_TRUE(out.valid);
    V3 q = point_on_cone(ch.s[0], ch.s[1], {0, 1, 0}, 0.5);  // inside of the bend
    SheafPlane<double> plane = sheaf_plane(in, out, q);
    Belt<double> belt = belt_at_joint(in, out, separator_plane(in, out), plane, ChainBone::Incoming);
    EXPECT_TRUE(belt.concave);
    EXPECT_TRUE(belt.flags & kBeltCrossingOffSegments);
    // The anchor is clamped: the middle of the points the shorter segment's length back from the joint on
    // each generator (the crossing lies beyond them), so the same distance from V and from X.
    expect_vec_near(belt.anchor, clamped_anchor(belt), 1e-12, "clamped anchor");
    EXPECT_NEAR(norm(belt.anchor - belt.V), norm(belt.anchor - belt.X), 1e-12);
}

TEST(GeometryBelt, PlaneGrazingTheConeIsFlagged) {
    Chain ch{{{{-4, 0, 0}, 1.5}, {{0, 0, 0}, 1.0}, {{3, 2, 0}, 0.7}}};
    Cone<double> in = ch.in(), out = ch.out();
    V3 top{0, 0, 1};
    // The plane tangent to the incoming cone along its top generator holds no crossing generator.
    SheafPlane<double> tangent_plane{point_on_cone(ch.s[0], ch.s[1], top, 0.5), cone_normal(in, top), 1.0, false};
    Generator<double> g = generator_in_plane(in, tangent_plane.point, tangent_plane.normal, 1.0);
    EXPECT_FALSE(g.plane_cuts_cone);
    expect_vec_near(g.radial, top, 1e-6);
    Belt<double> belt = belt_at_joint(in, out, separator_plane(in, out), tangent_plane, ChainBone::Incoming);
    EXPECT_TRUE(belt.flags & kBeltPlaneMissesCone);
    for (V3 v : {belt.U, belt.V, belt.X, belt.Y, belt.anchor}) EXPECT_TRUE(all_finite(v));
    // A plane far from the cone: the nearest generator, unit and ⟂ the axis.
    Generator<double> far = generator_in_plane(in, V3{0, 0, 10}, V3{0, 0.6, 0.8}, 1.0);
    EXPECT_FALSE(far.plane_cuts_cone);
    EXPECT_NEAR(norm(far.radial), 1.0, 1e-15);
    EXPECT_NEAR(dot(far.radial, in.axis), 0.0, 1e-15);
}

TEST(GeometryArcCrossing, RisingThenFallingCrossingThenNearerEnd) {
    Arc<double> quarter{{0, 0, 0}, 1.0, {1, 0, 0}, {0, 1, 0}, M_PI / 2};
    auto plane = [](V3 normal, double offset) { return SeparatorPlane<double>{{0, 0, 0}, normal, offset, true}; };
    // Rising through x = 0.5 (normal −x, offset −0.5) at 60°.
    ArcCrossing<double> rising = arc_separator_crossing(quarter, plane({-1, 0, 0}, -0.5));
    EXPECT_TRUE(rising.on_arc);
    EXPECT_NEAR(rising.angle, M_PI / 3, 1e-15);
    // Falling through x = 0.5 at 60° (the arc starts beyond the plane): still that crossing.
    ArcCrossing<double> falling = arc_separator_crossing(quarter, plane({1, 0, 0}, 0.5));
    EXPECT_TRUE(falling.on_arc);
    EXPECT_NEAR(falling.angle, M_PI / 3, 1e-15);
    // A half circle crossing y = 0.5 twice: falls at 30°, rises at 150°; the rising one is taken.
    Arc<double> half{{0, 0, 0}, 1.0, {1, 0, 0}, {0, 1, 0}, M_PI};
    ArcCrossing<double> twice = arc_separator_crossing(half, plane({0, -1, 0}, -0.5));
    EXPECT_TRUE(twice.on_arc);
    EXPECT_NEAR(twice.angle, 5 * M_PI / 6, 1e-15);
    // x = −0.5 is crossed at ±120°, off the quarter arc: the end nearer the rising crossing (−120°).
    ArcCrossing<double> off = arc_separator_crossing(quarter, plane({1, 0, 0}, -0.5));
    EXPECT_FALSE(off.on_arc);
    EXPECT_EQ(off.angle, 0.0);
    // A plane that misses the circle.
    ArcCrossing<double> missing = arc_separator_crossing(quarter, plane({0, 0, 1}, 2.0));
    EXPECT_FALSE(missing.on_arc);
    EXPECT_TRUE(std::isfinite(missing.angle));
}

// Free extremities: the arc from the end tangency point to the pole, C¹ with the segment, on the sphere.
TEST(GeometryFreeEndArc, FromTangencyPointToPole) {
    std::mt19937 rng(17);
    for (int trial = 0; trial < 50; ++trial) {
        Chain ch = bent_chain(rng, 30.0 + 2.0 * trial);
        Cone<double> in = ch.in(), out = ch.out();
        V3 q = point_on_cone(ch.s[0], ch.s[1], random_radial(rng, in.axis), 0.5);
        Belt<double> belt = chain_belt(in, out, sheaf_plane(in, out, q));
        Arc<double> root_arc = free_end_arc(in, BoneEnd::Parent, belt.radial_incoming);
        Arc<double> tip_arc = free_end_arc(out, BoneEnd::Child, belt.radial_outgoing);
        expect_vec_near(arc_point(root_arc, 0.0), belt.U, 1e-12);
        expect_vec_near(arc_point(root_arc, root_arc.sweep), ch.s[0].centre - ch.s[0].radius * in.axis, 1e-12);
        expect_vec_near(arc_tangent(root_arc, 0.0), normalized(belt.U - belt.V), 1e-12);
        expect_vec_near(arc_point(tip_arc, 0.0), belt.Y, 1e-12);
        expect_vec_near(arc_point(tip_arc, tip_arc.sweep), ch.s[2].centre + ch.s[2].radius * out.axis, 1e-12);
        expect_vec_near(arc_tangent(tip_arc, 0.0), normalized(belt.Y - belt.X), 1e-12);
        for (double f : {0.25, 0.5, 0.75}) {
            EXPECT_NEAR(norm(arc_point(root_arc, f * root_arc.sweep) - ch.s[0].centre), ch.s[0].radius, 1e-12);
            EXPECT_NEAR(norm(arc_point(tip_arc, f * tip_arc.sweep) - ch.s[2].centre), ch.s[2].radius, 1e-12);
        }
    }
}

}  // namespace
}  // namespace bs
