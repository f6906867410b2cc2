// Baseline skinning, part 2 (bend): where the posed bundle's fan is read along a posed section
// (engine/baseline/deform.hpp fan_reading, fan_form_weight; docs/ALGORITHM.md Deformation step 5). Properties: with a
// segment at least kFanSpan radii long, or with no crease beside it, the reading is the fraction along the
// segment (the rest pose's reading); a short segment beside creases spreads the reading over the segment
// and part of each crease, from 0 where that part starts to 1 where it ends; the reading is continuous in
// the point and in every length, including where the segment's length passes the span. Where a bundle's
// segment shrinks to a point, the direction read off its fan stays put however the collapsing segment's
// plane turns, and at full length it is the fan's own.
// Also: a section whose two crops overlap collapses without favouring either end (make_posed_section), and a
// deep code blends toward its axis foot over exactly [kDeepStart, kDeepFull] (detail_point).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

using testing::Random;

double fan_fraction(double along, double segment, double parent_crease, double child_crease, double min_span) {
    return fan_reading(along, segment, parent_crease, child_crease, min_span).u;
}

TEST(BaselineFanFraction, IsTheFractionAlongTheSegmentWhereNothingIsLacking) {
    const double span = 0.25;
    for (double segment : {0.25, 0.4, 3.0})
        for (double along : {-0.1, 0.0, 0.1, 0.2, 0.25, 0.5}) {
            const double want = std::fmin(std::fmax(along / segment, 0.0), 1.0);
            EXPECT_DOUBLE_EQ(fan_fraction(along, segment, 0.3, 0.3, span), want) << segment << " " << along;
        }
    // A short segment with no crease beside it (convex or free ends, or the rest pose) keeps its fraction.
    EXPECT_DOUBLE_EQ(fan_fraction(0.003, 0.004, 0.0, 0.0, span), 0.75);
}

TEST(BaselineFanFraction, AShortSegmentSpreadsTheTurnOverTheCreasesBesideIt) {
    // The seed-8 section of the bend continuity test: segment 4.5e-3, parent crease 0.093, no child crease.
    const double segment = 4.5e-3, parent_crease = 0.093, span = 0.25;
    const double lend = 0.5 * (span - segment);  // what each end may lend, more than the child's 0
    const double before = std::fmin(parent_crease, lend);
    EXPECT_DOUBLE_EQ(fan_fraction(-before, segment, parent_crease, 0.0, span), 0.0);
    EXPECT_DOUBLE_EQ(fan_fraction(segment, segment, parent_crease, 0.0, span), 1.0);
    EXPECT_NEAR(fan_fraction(0.0, segment, parent_crease, 0.0, span), before / (before + segment), 1e-15);
    // The reading turns over the whole spread: its slope is 1 / (before + segment), not 1 / segment.
    const double slope = (fan_fraction(1e-3, segment, parent_crease, 0.0, span) - fan_fraction(0.0, segment, parent_crease, 0.0, span)) / 1e-3;
    EXPECT_NEAR(slope, 1 / (before + segment), 1e-9);
    // A crease shorter than what is lacking lends all of itself.
    EXPECT_DOUBLE_EQ(fan_fraction(-0.01, segment, 0.01, 0.0, span), 0.0);
    EXPECT_GT(fan_fraction(-0.005, segment, 0.01, 0.0, span), 0.0);
}

TEST(BaselineFanFraction, IsContinuousInThePointAndInEveryLength) {
    Random rng(881);
    const double span = 0.25, step = 1e-9;
    for (int i = 0; i < 20000; ++i) {
        // Lengths around the span, where the spread switches on, and down to collapsed segments.
        double segment = rng.uniform(0, 2 * span), parent = rng.uniform(0, 0.3), child = rng.uniform(0, 0.3);
        if (i % 4 == 0) segment = span + rng.uniform(-1e-6, 1e-6);
        if (i % 4 == 1) parent = rng.uniform(0, 1e-6);
        const double along = rng.uniform(-parent - 0.01, segment + child + 0.01);
        const double u = fan_fraction(along, segment, parent, child, span);
        // The smallest spread is min(span, segment + both creases) / 2 or more: bound the slope by it.
        const double least = std::fmin(span, segment + parent + child);
        const double bound = 4 * step / least + 1e-12;
        EXPECT_LE(std::fabs(fan_fraction(along + step, segment, parent, child, span) - u), bound);
        EXPECT_LE(std::fabs(fan_fraction(along, segment + step, parent, child, span) - u), bound * (1 + std::fabs(along) / least));
        EXPECT_LE(std::fabs(fan_fraction(along, segment, parent + step, child, span) - u), bound * (1 + std::fabs(along) / least));
        EXPECT_LE(std::fabs(fan_fraction(along, segment, parent, child + step, span) - u), bound * (1 + std::fabs(along) / least));
    }
}

// How far a short segment's reading spreads (fan_reading: each concave end lends up to half of what the
// segment lacks of the span): never beyond the span; exactly over it where both creases can lend their half;
// over the segment and half the lack where one end has no crease, however long the other. The tests above
// check the reading where nothing is lacking or the creases are shorter than half the lack, so a reading
// spread over up to twice the span (each end lending the whole lack) passed them: the fan's turn from n0 to
// n1 was then spread up to twice as far along the creases as the method says.
TEST(BaselineFanFraction, AShortSegmentIsReadOverTheSpanAtMost) {
    Random rng(884);
    const double span = 0.25;
    for (int i = 0; i < 2000; ++i) {
        const double segment = rng.uniform(0, span), lack = span - segment;
        const double parent = rng.uniform(0, 0.3), child = rng.uniform(0, 0.3);
        EXPECT_LE(fan_reading(0.0, segment, parent, child, span).span, span * (1 + 1e-15)) << segment << " " << parent << " " << child;
        EXPECT_NEAR(fan_reading(0.0, segment, 0.5 * lack + parent, 0.5 * lack + child, span).span, span, 1e-15) << segment;
        EXPECT_NEAR(fan_reading(0.0, segment, lack + parent, 0.0, span).span, segment + 0.5 * lack, 1e-15) << segment;
        EXPECT_NEAR(fan_reading(0.0, segment, 0.0, lack + child, span).span, segment + 0.5 * lack, 1e-15) << segment;
    }
}

// A bundle's segment from P0 with end directions n0, n1 (both outward of the segment's side), shrunk toward
// P0 along a direction that turns with each draw: the segment's plane, and the fan's own A and B, turn
// with it. On a bone of smaller radius 4, read over a span shorter than that (the fan takes its own form
// whole from a bundle of length 1), the direction at u = 1/2 must converge as the length falls to 0 (to
// the plain interpolation of n0 and n1), and at a length of 1 the fan's own form must weigh 1 however
// short the span; read over a span of 40, a bundle of length 1 is nearly collapsed, unless it was that short at
// rest.
TEST(BaselineFanFormWeight, ACollapsingBundleReadsTheSameDirectionWhicheverWayItsPlaneTurns) {
    Random rng(882);
    const Vec3<double> n0 = normalized(Vec3<double>{0.2, 1, 0}), n1 = normalized(Vec3<double>{-0.3, 1, 0.4}), start{0, 0, 0};
    const FanReading<double> reading{0.5, 1e-3};
    const Cone<double> bone = make_cone(Sphere<double>{{0, 0, 0}, 5.0}, Sphere<double>{{20, 0, 0}, 4.0});
    const Vec3<double> plain = normalized(n0 + n1);
    for (double length : {1e-2, 1e-4, 1e-7}) {
        for (int i = 0; i < 200; ++i) {
            // A direction across the two end directions' common side, turning from draw to draw.
            Vec3<double> along = rng.unit_vector();
            along = normalized(along - dot(along, normalized(n0 + n1)) * normalized(n0 + n1));
            const FanField<double> fan = fan_field<double>({start, n0}, {start + length * along, n1});
            const Vec3<double> d = fan.direction_at(reading.u, fan_form_weight(fan, reading, bone, 4.0));
            // The fan's own form still weighs smoothstep(length) ≈ 3 length², and the two forms differ by
            // at most 2: bounded by 8 length².
            EXPECT_LE(norm(d - plain), 8 * length * length + 1e-14) << length;
        }
    }
    const FanField<double> whole = fan_field<double>({start, n0}, {start + Vec3<double>{1, 0, 0}, n1});
    EXPECT_DOUBLE_EQ(fan_form_weight(whole, reading, bone, 4.0), 1.0);
    EXPECT_NEAR(fan_form_weight(whole, FanReading<double>{0.5, 40.0}, bone, 40.0), 0.028, 1e-12);  // smoothstep(0.1)
    // A bundle as long as it is at rest has not collapsed, however long the span and the radius: at rest the
    // fan's own form, by which the encoder places points, weighs 1.
    EXPECT_DOUBLE_EQ(fan_form_weight(whole, FanReading<double>{0.5, 40.0}, bone, 1.0), 1.0);
    EXPECT_NEAR(fan_form_weight(whole, FanReading<double>{0.5, 40.0}, bone, 8.0), 0.5, 1e-12);  // an eighth of its rest length: smoothstep(1/2)
}

// Opposite end directions read halfway mix to the zero vector: the field still gives a unit direction
// (n0), never the zero that would drop the point onto its base-point.
TEST(BaselineFanFormWeight, OppositeEndDirectionsStillGiveAUnitDirection) {
    const Vec3<double> n{0, 1, 0}, start{0, 0, 0};
    const FanField<double> fan = fan_field<double>({start, n}, {start + Vec3<double>{1, 0, 0}, -n});
    ASSERT_FALSE(fan.outward);
    for (double w : {0.0, 0.5, 1.0}) EXPECT_NEAR(norm(fan.direction_at(0.5, w)), 1.0, 1e-15) << w;
}

// The two ends of a bone are treated alike: a chain symmetric about the mid-plane of its middle bone, bent
// alike at both of that bone's joints (a U), deforms into a shape symmetric about the posed mid-plane, point
// for mirrored point. Bent this far the middle bone is short beside its radius, so the crops of its two
// concave ends overlap and the section collapses between them (make_posed_section): where it collapses
// must not favour either end (the crops meeting at the parent's crop instead of their middle passed every
// other test, and moved points on the inner side of a U by up to 3 radii). Codes keep φ, t and h in float:
// mirrored points come back to about 1e-7 apart. Bends of 70° to 160° in two planes. From 2·atan(L / r)
// on (L the middle bone's length: 100.389° for L = 1.2 r) the inner generators' crossing runs off the middle
// bone at both joints and crop_at_crossing clamps the anchor: a clamp onto the incoming bone's generator
// alone let the parent's side win (for L = 1.2 r mirrored points 0.39 radii apart at 105°, 1.77 at 160°;
// benchmarks/RESULTS.md, 2026-12-07).
TEST(BaselineCollapsedSection, AChainBentAlikeAtBothEndsOfAShortBoneDeformsSymmetrically) {
    const double a = 3.0, radius = 1.0;
    double worst = 0;
    std::string worst_case;
    // Middle bones 0.3, 1.2 and 2.5 radii long (the clamp from 33°, 100° and 136° on), of the outer bones'
    // radius and of 0.6 of it.
    for (double length : {0.3, 1.2, 2.5})
        for (double middle_radius : {radius, 0.6 * radius}) {
            const double b = a + length, c = b + 3.0, mid = 0.5 * (a + b);
            const Skeleton s = make_skeleton({{{0, 0, 0}, radius}, {{a, 0, 0}, middle_radius}, {{b, 0, 0}, middle_radius}, {{c, 0, 0}, radius}},
                                             {{0, 1}, {1, 2}, {2, 3}}, {}, "short middle bone", SkeletonRules::Tree);
            Random rng(885);
            std::vector<Vec3<double>> points;  // pairs mirrored about the middle bone's rest mid-plane x = mid
            for (int i = 0; i < 1000; ++i) {
                const double x = rng.uniform(a - 0.5, b + 0.5), angle = rng.uniform(-3.14159, 3.14159), r = rng.uniform(0.6, 1.4);
                points.push_back({x, r * std::cos(angle), r * std::sin(angle)});
                points.push_back({2 * mid - x, r * std::cos(angle), r * std::sin(angle)});
            }
            BaselineSkinner<double> skinner(s, points, "short middle bone");
            skinner.set_deform_options({true});
            for (const Vec3<double>& plane : {Vec3<double>{0, 0, 1}, normalized(Vec3<double>{0, 1, 1})})
                for (double degrees : {70.0, 85.0, 100.0, 105.0, 120.0, 140.0, 160.0}) {
                    Pose pose = Pose::rest(s);
                    const Quat<double> bend = axis_angle(plane, degrees * 3.14159265358979323846 / 180);
                    pose.joints[1].swing = pose.joints[2].swing = bend;  // each in its parent's posed frame: a U
                    std::vector<Vec3<double>> out;
                    skinner.deform(pose, out);
                    // The middle bone turns about its parent sphere (a, 0, 0), the first bone stays: the posed mid-plane.
                    const Vec3<double> axis = rotate(bend, Vec3<double>{1, 0, 0}), centre = Vec3<double>{a, 0, 0} + (mid - a) * axis;
                    for (std::size_t i = 0; i < points.size(); i += 2) {
                        const Vec3<double> mirrored = out[i] - 2 * dot(out[i] - centre, axis) * axis;
                        const double miss = norm(mirrored - out[i + 1]) / radius;
                        if (miss > worst)
                            worst = miss, worst_case = "middle bone " + std::to_string(length) + " long, radius " + std::to_string(middle_radius) +
                                                       ", " + std::to_string(degrees) + "°, points " + std::to_string(i) + " and " + std::to_string(i + 1);
                    }
                }
        }
    std::printf("  mirrored points within %.2g radii of each other's mirror\n", worst);
    EXPECT_LT(worst, 1e-5) << worst_case;
}

// Deep points (docs/ALGORITHM.md, Deformation step 6): a deep code's posed point blends from b' + h n' toward
// the point λ of the way from its posed base-point b' to its posed axis foot, by smoothstep over
// λ ∈ [kDeepStart, kDeepFull]. So from kDeepFull on it moves with its base-point alone, whatever the posed
// detail direction n' (what keeps deep pairs together where n' turns fast near a crease), and up to
// kDeepStart it is the paper's b' + h n' exactly, whatever the foot. Rest, continuity and height tests
// cannot see where the ramp runs (both ends give the rest point back at rest, and any ramp is continuous):
// a ramp over [kDeepStart, kDeepStart + kDeepFull] passed them all. Random posed base-points, directions and
// rigidly moved axes; the rest point on a cylinder of radius 1, its detail line from the base-point meeting
// the axis at the foot (depth H = 1, so λ = −h).
TEST(BaselineDeepPoint, FollowsItsBasePointAloneFromTheFullBlendOnAndItsDetailDirectionUpToTheStart) {
    Random rng(883);
    const Cone<double> cone = make_cone(Sphere<double>{{0, 0, 0}, 1.0}, Sphere<double>{{4, 0, 0}, 1.0});
    const Vec3<double> rest_base{2, 1, 0}, rest_direction{0, 1, 0};
    const float foot_along = 2.0f;  // the rest foot (2, 0, 0)
    for (int i = 0; i < 400; ++i) {
        const bool full = i % 2 == 0;
        BaselineCode code{};
        code.flags = kCodeDeep;
        code.h = float(full ? -rng.uniform(kDeepFull, 0.95) : -rng.uniform(0.0, kDeepStart));
        code.axis_foot = foot_along;
        const double h = double(code.h), lambda = -h;
        const Vec3<double> rest = rest_base + h * rest_direction;
        const Rigid<double> g{rng.rotation(), rng.in_box(3)};
        const BoneAxes<double> axes{g.apply(cone.parent.centre), g.apply_vector(cone.axis), g.apply_vector(Vec3<double>{0, 1, 0}),
                                    g.apply_vector(Vec3<double>{0, 0, 1})};
        const PosedBase<double> b{rng.in_box(3), rng.unit_vector()};
        const Vec3<double> foot = axes.origin + double(foot_along) * axes.axis;
        const Vec3<double> want = full ? b.base + lambda * (foot - b.base) : b.base + h * b.direction;
        EXPECT_LT(norm(detail_point(code, rest, cone, axes, b) - want), 1e-12) << "lambda " << lambda;
    }
}

}  // namespace
}  // namespace bs
