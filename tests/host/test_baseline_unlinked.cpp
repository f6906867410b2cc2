// Baseline skinning where codes of two bones that nothing links meet (docs/ALGORITHM.md "Junctions",
// "Bones that nothing links"): two parallel legs hung by bridges from one root, so that no chain joint,
// junction or pair of meeting free ends joins them, under a belly that lies off both legs' surfaces.
// - Across the belly's midline, where the codes pass from one leg to the other, the codes are wholly
//   blended into the rigid field, and pairs 1e-4 apart there stay together under random poses that move
//   the legs apart (without the blend they tore by the legs' whole relative motion).
// - On a leg's surface nothing is blended, even beside the other leg: two separate parts side by side
//   (a face's eyelids) keep moving on their own.
// - Legs of one piece (each the second bone of an arm of one root junction, no bridge) that overlap are
//   parts of one body that touch: across their midline the codes are wholly blended on and inside the
//   surface too, and pairs there stay together (they tore where the surface's factor left them
//   unblended). As the legs come apart the blend of a point on one leg facing the other falls to the
//   side-by-side case continuously, over options.unlinked_touch_band of the radius. (Overlapping parts of
//   two pieces, hung by bridges, stay apart: tests/host/test_baseline_bridges.cpp.)
// - Bones of one chain, which its construction links, are not blended, however short.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

// A root at x = -5 and two legs along +x at y = ±half_gap, radius `radius`, from x = 0 to 3, one piece: the
// root is a junction of the two hip bones (0 and 2) and each leg (bones 1 and 3) is the second bone of its
// arm; the legs share no sphere.
Skeleton joined_legs(double half_gap, double radius) {
    return make_skeleton({{{-5, 0, 0}, 1.0},
                          {{0, half_gap, 0}, radius},
                          {{3, half_gap, 0}, radius},
                          {{0, -half_gap, 0}, radius},
                          {{3, -half_gap, 0}, radius}},
                         {{0, 1}, {1, 2}, {0, 3}, {3, 4}}, {}, "legs", SkeletonRules::Tree);
}

// The same legs as two pieces: the hip bones are bridges, so the legs end freely at both ends, side by side.
Skeleton two_legs(double half_gap, double radius) {
    Skeleton s = joined_legs(half_gap, radius);
    set_bridges(s, {0, 2}, "two legs");
    return s;
}

constexpr double kHalfGap = 1.3, kRadius = 0.8;
constexpr int kLeftLeg = 1, kRightLeg = 3;  // at y > 0 and y < 0

// Pairs 1e-4 apart across the belly's midline y = 0, where the legs' surfaces are equally far (by
// symmetry): 0.5 to 0.53 off both, 0.63 to 0.67 of their radius, where the far band has barely started.
std::vector<Vec3<double>> midline_pairs(Random& rng, int count) {
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        const double x = rng.uniform(0.5, 2.5), z = rng.uniform(-0.3, 0.3);
        points.insert(points.end(), {{x, 5e-5, z}, {x, -5e-5, z}});
    }
    return points;
}

TEST(BaselineUnlinked, CodesWhereUnlinkedBonesMeetOffTheirSurfacesAreWhollyBlended) {
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(two_legs(kHalfGap, kRadius));
    Random rng(811);
    const std::vector<Vec3<double>> points = midline_pairs(rng, 500);
    int wrong_bone = 0, partial = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const BaselineCode code = encode_point(bones, points[i]);
        wrong_bone += code.bone != (i % 2 == 0 ? kLeftLeg : kRightLeg);
        partial += code.rigid_blend < 1.0f - 1e-3f || !(code.flags & kCodeNearJunction);
    }
    EXPECT_EQ(wrong_bone, 0) << "the midline parts the two legs' codes";
    EXPECT_EQ(partial, 0);
}

TEST(BaselineUnlinked, PointsWhereUnlinkedBonesMeetStayTogetherAsTheBonesPart) {
    const Skeleton s = two_legs(kHalfGap, kRadius);
    Random rng(812);
    const std::vector<Vec3<double>> points = midline_pairs(rng, 500);
    BaselineSkinner<double> skinner(s, points, "belly");
    skinner.set_deform_options(testing::tables_for_every_bone());
    std::vector<Vec3<double>> out;
    testing::BendPoseOptions options;
    options.rigid = false;  // a root swing would move both legs alike
    options.max_joint_degrees = 60;
    double worst = 0, parted = 0;
    for (int trial = 0; trial < 12; ++trial) {
        const Pose pose = testing::random_bend_pose(s, rng, options);
        skinner.deform(pose, out);
        const std::vector<Rigid<double>> posed = posed_bones(s, pose);
        parted = std::max(parted, norm(posed[kLeftLeg].apply(s.spheres[2].centre) - posed[kRightLeg].apply(s.spheres[4].centre)) -
                                      norm(s.spheres[2].centre - s.spheres[4].centre));
        for (std::size_t i = 0; i < points.size(); i += 2)
            worst = std::max(worst, norm(out[i] - out[i + 1]) / norm(points[i] - points[i + 1]));
    }
    std::printf("[ unlinked ] 500 pairs across the belly's midline x 12 poses (leg tips parted up to %.2f more): worst stretch %.2f\n",
                parted, worst);
    EXPECT_GT(parted, 1.0) << "the poses part the legs";
    EXPECT_LE(worst, 2);
}

// Two legs 0.1 apart: points on either leg's surface, all around it (those facing the other leg are 0.1 to
// 0.26 from its surface, the meeting's band 0.5), are coded on their own leg and not blended. The points lie
// a hair inside their leg (1e-9 of its radius), where the factor is exactly 0: on the surface itself a
// distance rounded to +1e-16 would give a weight of 1e-31.
TEST(BaselineUnlinked, PointsOnTheSurfaceOfPartsSideBySideAreNotBlended) {
    const double half_gap = 0.55, radius = 0.5;
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(two_legs(half_gap, radius));
    Random rng(813);
    int blended = 0, wrong_bone = 0, facing = 0;
    for (int i = 0; i < 2000; ++i) {
        const double side = i % 2 == 0 ? 1.0 : -1.0, angle = rng.uniform(-3.14159, 3.14159);
        const double at = radius * (1 - 1e-9);
        const Vec3<double> p{rng.uniform(0.5, 2.5), side * half_gap + at * std::cos(angle), at * std::sin(angle)};
        const BaselineCode code = encode_point(bones, p);
        wrong_bone += code.bone != (side > 0 ? kLeftLeg : kRightLeg);
        blended += (code.flags & kCodeNearJunction) != 0;
        facing += std::fabs(p.y) < half_gap - 0.8 * radius;
    }
    EXPECT_GT(facing, 100) << "points that face the other leg, 0.1 to 0.26 from its surface";
    EXPECT_EQ(wrong_bone, 0);
    EXPECT_EQ(blended, 0);
}

// The same legs of one piece, 0.1 apart (0.2 of their radius, past the touch band's 0.1): parts side by
// side too, so the touch adds nothing to any surface point's blend — each is what it is with no touch band
// at all. (Off the surfaces of a leg and the other arm's hip bone, that far pair's own weight blends some
// points of either leg by a few hundredths, as before.)
TEST(BaselineUnlinked, TheTouchAddsNothingOnTheSurfacesOfJoinedLegsApartByMoreThanItsBand) {
    const double half_gap = 0.55, radius = 0.5;
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(joined_legs(half_gap, radius));
    EncodeOptions no_touch_band;
    no_touch_band.unlinked_touch_band = 0;
    Random rng(816);
    int touched = 0, facing = 0;
    for (int i = 0; i < 2000; ++i) {
        const double side = i % 2 == 0 ? 1.0 : -1.0, angle = rng.uniform(-3.14159, 3.14159);
        const double at = radius * (1 - 1e-9);
        const Vec3<double> p{rng.uniform(0.5, 2.5), side * half_gap + at * std::cos(angle), at * std::sin(angle)};
        touched += encode_point(bones, p).rigid_blend != encode_point(bones, p, no_touch_band).rigid_blend;
        facing += std::fabs(p.y) < half_gap - 0.8 * radius;
    }
    EXPECT_GT(facing, 100) << "points that face the other leg, 0.1 to 0.26 from its surface";
    EXPECT_EQ(touched, 0);
}

// Joined legs of radius 0.8 whose axes lie 1.4 apart (they overlap by 0.2): pairs across the midline y = 0
// from the crease where the two surfaces cross (z = ±0.39) inward to the axis plane, all inside both legs.
TEST(BaselineUnlinked, PointsWhereTouchingUnlinkedBonesMeetOnAndInsideTheirSurfacesStayTogether) {
    const Skeleton s = joined_legs(0.7, kRadius);
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    Random rng(815);
    std::vector<Vec3<double>> points;
    const double crease = std::sqrt(kRadius * kRadius - 0.7 * 0.7);
    for (int i = 0; i < 500; ++i) {
        const double x = rng.uniform(0.5, 2.5), z = rng.uniform(-crease, crease);
        points.insert(points.end(), {{x, 5e-5, z}, {x, -5e-5, z}});
    }
    int partial = 0;
    for (const Vec3<double>& p : points) partial += encode_point(bones, p).rigid_blend < 1.0f - 1e-3f;
    EXPECT_EQ(partial, 0) << "codes where touching legs meet are wholly blended";

    BaselineSkinner<double> skinner(s, points, "touching legs");
    std::vector<Vec3<double>> out;
    testing::BendPoseOptions options;
    options.rigid = false;
    options.max_joint_degrees = 60;
    double worst = 0;
    for (int trial = 0; trial < 12; ++trial) {
        skinner.deform(testing::random_bend_pose(s, rng, options), out);
        for (std::size_t i = 0; i < points.size(); i += 2) worst = std::max(worst, norm(out[i] - out[i + 1]) / norm(points[i] - points[i + 1]));
    }
    std::printf("[ unlinked ] 500 pairs where touching legs meet x 12 poses: worst stretch %.2f\n", worst);
    EXPECT_LE(worst, 10) << "the rigid field's own gradient where the legs move apart is 3";
}

// A point on the left joined leg's surface facing the right leg, as the legs' gap goes from an overlap of
// 0.1 to a gap of 0.2 in steps of 0.001: its blend falls from the touching case's to the side-by-side
// case's without a jump (a pair's touch is 1 − smoothstep of the gap over the touch band). Past the band
// the blend is the side-by-side case's: what it is with no touch band at all (the far pair of a leg and
// the other arm's hip bone, off both their surfaces, still weighs 0.018 there).
TEST(BaselineUnlinked, TheBlendOfAPointBetweenUnlinkedBonesIsContinuousAsTheyComeApart) {
    auto blend_at = [](double gap, const EncodeOptions& options) {
        const double half_gap = kRadius + 0.5 * gap;
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(joined_legs(half_gap, kRadius));
        return double(encode_point(bones, {1.5, half_gap - kRadius * (1 - 1e-9), 0.0}, options).rigid_blend);
    };
    const EncodeOptions options;
    EncodeOptions no_touch_band;
    no_touch_band.unlinked_touch_band = 0;
    double largest_step = 0;
    for (int step = 1; step <= 300; ++step)
        largest_step = std::max(largest_step, std::fabs(blend_at(-0.1 + 0.001 * step, options) - blend_at(-0.1 + 0.001 * (step - 1), options)));
    const double first = blend_at(-0.1, options), last = blend_at(0.2, options);
    std::printf("[ unlinked ] a point facing the other leg, gap -0.1 to 0.2: blend %.3f to %.3f, largest step %.4f\n", first, last, largest_step);
    EXPECT_GT(first, 0.8) << "overlapping, the pair weighs as a junction's: 1 − smoothstep(0.1 / 0.4) = 0.84 here";
    EXPECT_EQ(last, blend_at(0.2, no_touch_band));
    EXPECT_LT(last, 0.05);
    EXPECT_LT(largest_step, 0.05);
}

// A U of one piece: two arms from a root junction, each bending inward at its top, their free tips facing
// each other across a gap swept from an overlap of 0.1 to a gap of 0.3 (radius 0.5) in steps of 0.001. The
// free ends' own pair exists only once their end spheres overlap, so before the touch a point's blend
// jumped at that moment (from the off-surface factor's, 0.06 here, to 1); the touch carries it across
// smoothly (a first version that left such ends out of the touch jumped by 0.52 beside the midline).
TEST(BaselineUnlinked, TheBlendBetweenFacingFreeEndsOfOnePieceIsContinuousAsTheyMeet) {
    auto blend_at = [](double gap) {
        const double reach = 0.5 + 0.5 * gap;  // each tip's centre from the middle x = 3
        const Skeleton u = make_skeleton({{{0, 0, 0}, 0.5}, {{0, 3, 0}, 0.5}, {{3 - reach, 3, 0}, 0.5}, {{6, 0, 0}, 0.5}, {{6, 3, 0}, 0.5}, {{3 + reach, 3, 0}, 0.5}},
                                         {{0, 1}, {1, 2}, {0, 3}, {3, 4}, {4, 5}}, {}, "U", SkeletonRules::Tree);
        return double(encode_point(make_baseline_bones(u), {3.0, 3, 0.2}).rigid_blend);
    };
    double largest_step = 0, previous = blend_at(-0.1);
    for (int step = 1; step <= 400; ++step) {
        const double blend = blend_at(-0.1 + 0.001 * step);
        largest_step = std::max(largest_step, std::fabs(blend - previous));
        previous = blend;
    }
    std::printf("[ unlinked ] a point between facing free tips, gap -0.1 to 0.3: blend %.3f to %.3f, largest step %.4f\n", blend_at(-0.1),
                previous, largest_step);
    EXPECT_GT(blend_at(-0.1), 0.5) << "where the tips overlap the point rides the rigid field";
    EXPECT_LT(largest_step, 0.05);
}

// One straight chain of bones half as long as their radius: at half a radius off its surface bones two
// apart are as near a point as the one between them, but the chain construction hands points from bone
// to bone, and no code is blended.
TEST(BaselineUnlinked, BonesOfOneChainAreNotBlended) {
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> bone_list;
    for (int i = 0; i < 9; ++i) {
        spheres.push_back({{0.5 * i, 0, 0}, 1.0});
        if (i > 0) bone_list.push_back({i - 1, i});
    }
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(make_skeleton(spheres, bone_list, {}, "short bones"));
    Random rng(814);
    int blended = 0;
    for (int i = 0; i < 2000; ++i) {
        const double angle = rng.uniform(-3.14159, 3.14159), height = rng.uniform(1.0, 1.7);
        blended += (encode_point(bones, {rng.uniform(1.0, 3.0), height * std::cos(angle), height * std::sin(angle)}).flags & kCodeNearJunction) != 0;
    }
    EXPECT_EQ(blended, 0);
}

}  // namespace
}  // namespace bs
