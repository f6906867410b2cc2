// Baseline skinning, part 2 (bend): where the posed bundle's fan is read along a posed section
// (engine/baseline/deform.hpp fan_reading, fan_form_weight; docs/ALGORITHM.md Deformation step 5). Properties: with a
// segment at least kFanSpan radii long, or with no crease beside it, the reading is the fraction along the
// segment (the rest pose's reading); a short segment beside creases spreads the reading over the segment
// and part of each crease, from 0 where that part starts to 1 where it ends; the reading is continuous in
// the point and in every length, including where the segment's length passes the span. Where a bundle's
// segment shrinks to a point, the direction read off its fan stays put however the collapsing segment's
// plane turns, and at full length it is the fan's own.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/baseline/deform.hpp"
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

}  // namespace
}  // namespace bs
