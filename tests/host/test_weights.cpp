#include "host/weights.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

#include "engine/geometry/cone.hpp"
#include "host/errors.hpp"
#include "host/pose.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

// Weight of `bone` in a point's influences (0 if absent).
double weight_of(const Influences& inf, int bone) {
    double w = 0;
    for (int i = 0; i < kMaxInfluences; ++i)
        if (inf.bone[i] == std::uint32_t(bone)) w += inf.weight[i];
    return w;
}

TEST(AutoWeights, SumToOneAndPassValidation) {
    Skeleton s = testing::straight_chain();
    testing::Random rng(5);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < 5000; ++i) points.push_back(Vec3<double>{4.5, 0, 0} + rng.in_box(6));
    std::vector<Influences> w = auto_influences(s, points);
    EXPECT_NO_THROW(validate_influences(w, points.size(), s.bone_count(), "auto"));
    for (const Influences& inf : w) {
        double total = 0;
        for (float x : inf.weight) total += x;
        EXPECT_NEAR(total, 1.0, 1e-6);
    }
}

TEST(AutoWeights, ABridgeTakesNoWeight) {
    // Points all along the bridge of the two-chain tube, which runs inside its first chain: unmarked, the
    // bridge weighs on many of them.
    testing::Random rng(6);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < 2000; ++i) points.push_back(Vec3<double>{rng.uniform(0, 6.5), 0, 0} + rng.in_box(1.2));
    auto bridge_weight = [&](const Skeleton& s) {
        double most = 0;
        for (const Influences& inf : auto_influences(s, points)) most = std::max(most, weight_of(inf, testing::kTubeBridge));
        return most;
    };
    EXPECT_EQ(bridge_weight(testing::two_chain_tube()), 0.0);
    EXPECT_GT(bridge_weight(testing::two_chain_tube(false)), 0.5);
}

TEST(AutoWeights, MidBonePointsBelongToTheirBoneAlone) {
    Skeleton s = testing::straight_chain();
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{2, 1, 0}), 0), 1.0);   // middle of the cylinder
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{5.5, 0, -0.8}), 1), 1.0);
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{8.3, 0.5, 0}), 2), 1.0);
}

TEST(AutoWeights, BlendAcrossAJointIsSymmetricAndMonotone) {
    // Bones 0 and 1 meet at x = 4 with equal radius 1 there: the surface point over the joint is shared
    // equally, and bone 1's weight grows along x through the joint. Just past the joint bone 1 narrows
    // (radius 1 -> 0.7) while bone 0's projection stays clamped at radius 1, which lowers bone 1's weight
    // by ~1e-4 before it rises: monotone up to 1e-3.
    Skeleton s = testing::straight_chain();
    EXPECT_NEAR(weight_of(auto_influences(s, Vec3<double>{4, 1, 0}), 1), 0.5, 1e-6);
    double previous = -1;
    for (double x = 2.5; x <= 5.5; x += 0.05) {
        double w = weight_of(auto_influences(s, Vec3<double>{x, 0, 1}), 1);
        EXPECT_GE(w, previous - 1e-3) << x;
        previous = w;
    }
    EXPECT_EQ(previous, 1.0);
}

TEST(AutoWeights, ContinuousInThePoint) {
    // Pairs of points 1e-5 apart around a bent joint: weights differ by a small multiple of the step.
    Skeleton s = testing::bent_chain();
    testing::Random rng(9);
    for (int i = 0; i < 20000; ++i) {
        Vec3<double> p = Vec3<double>{5, 0, 0} + rng.in_box(2.5);
        Vec3<double> q = p + 1e-5 * rng.unit_vector();
        Influences a = auto_influences(s, p), b = auto_influences(s, q);
        for (int bone = 0; bone < 2; ++bone) EXPECT_LT(std::fabs(weight_of(a, bone) - weight_of(b, bone)), 1e-3) << i;
    }
}

// Each bone's raw weight at `p`, as defined: smoothstep(1 − (s_k − s_min) / band) from its scaled axis
// distance, band = max(blend, min(blend · (s_min − 1), s_5 − s_min)) with s_5 the fifth smallest.
std::vector<double> raw_weights_as_defined(const Skeleton& s, Vec3<double> p, double blend) {
    std::vector<double> scaled, raw;
    for (const auto& bone : s.bones) scaled.push_back(scaled_axis_distance(make_cone(s.spheres[bone[0]], s.spheres[bone[1]]), p));
    std::vector<double> ascending = scaled;
    std::sort(ascending.begin(), ascending.end());
    const double nearest = ascending[0], fifth = ascending.size() > 4 ? ascending[4] : INFINITY;
    const double band = std::max(blend, std::min(blend * (nearest - 1), fifth - nearest));
    for (double x : scaled) raw.push_back(smoothstep_unit(1 - (x - nearest) / band));
    return raw;
}

// The fifth largest raw weight at `p` (0 with fewer than five bones).
double fifth_raw_weight(const Skeleton& s, Vec3<double> p, double blend = 0.5) {
    std::vector<double> raw = raw_weights_as_defined(s, p, blend);
    if (raw.size() <= kMaxInfluences) return 0;
    std::nth_element(raw.begin(), raw.begin() + kMaxInfluences, raw.end(), std::greater<double>());
    return raw[kMaxInfluences];
}

// The weights as defined: the kMaxInfluences largest raw weights kept (a stable sort: ties to the lower
// bone), less r_5 · smoothstep((1 − r_5) / 0.2) (r_5 the fifth largest raw weight), normalised.
Influences influences_as_defined(const Skeleton& s, Vec3<double> p, double blend) {
    const std::vector<double> raw = raw_weights_as_defined(s, p, blend);
    std::vector<int> order(raw.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return raw[i] > raw[j]; });
    Influences inf{};
    const int kept = std::min<int>(kMaxInfluences, int(raw.size()));
    const double fifth = fifth_raw_weight(s, p, blend);
    const double given_up = fifth * smoothstep_unit((1 - fifth) / 0.2);
    double total = 0;
    for (int i = 0; i < kept; ++i) total += raw[order[i]] - given_up;
    for (int i = 0; i < kept; ++i) {
        inf.bone[i] = std::uint32_t(order[i]);
        inf.weight[i] = float((raw[order[i]] - given_up) / total);
    }
    return inf;
}

// A star of nine bones from one sphere: up to all of them weigh near its centre.
Skeleton star_of_nine() {
    std::vector<Sphere<double>> spheres{{{0, 0, 0}, 1.0}};
    std::vector<std::array<int, 2>> bones;
    for (int k = 0; k < 9; ++k) {
        const double a = 2 * 3.14159265358979 * k / 9;
        spheres.push_back({{3 * std::cos(a), 3 * std::sin(a), 0.3 * (k % 3)}, 0.5 + 0.05 * k});
        bones.push_back({0, k + 1});
    }
    return make_skeleton(spheres, bones, {}, "star", SkeletonRules::Tree);
}

// The largest stretch of LBS with automatic weights on pairs of points 1e-4 apart, 5 to 60 units from
// `centre` in random directions, under `pose`.
double far_pair_stretch(const Skeleton& s, const Pose& pose, Vec3<double> centre, unsigned seed) {
    std::vector<Vec3<double>> pairs;
    testing::Random rng(seed);
    for (int i = 0; i < 4000; ++i) {
        const Vec3<double> p = centre + rng.uniform(5, 60) * rng.unit_vector();
        pairs.push_back(p);
        pairs.push_back(p + 1e-4 * rng.unit_vector());
    }
    const std::vector<Influences> weights = auto_influences(s, pairs);
    const std::vector<Rigid<double>> posed = posed_bones(s, pose);  // each bone's rest-to-posed motion
    auto lbs = [&](Vec3<double> p, const Influences& inf) {
        Vec3<double> out{0, 0, 0};
        for (int j = 0; j < kMaxInfluences; ++j) out = out + double(inf.weight[j]) * posed[inf.bone[j]].apply(p);
        return out;
    };
    double worst = 0;
    for (std::size_t i = 0; i < pairs.size(); i += 2)
        worst = std::max(worst, norm(lbs(pairs[i], weights[i]) - lbs(pairs[i + 1], weights[i + 1])) / norm(pairs[i] - pairs[i + 1]));
    return worst;
}

// The largest stretch of LBS with automatic weights between consecutive points of a line from `from` to
// `to` in `steps` steps (a line crosses every place where the weights might jump; random pairs rarely do).
double line_stretch(const Skeleton& s, const Pose& pose, Vec3<double> from, Vec3<double> to, int steps) {
    std::vector<Vec3<double>> line;
    for (int i = 0; i <= steps; ++i) line.push_back(from + (double(i) / steps) * (to - from));
    const std::vector<Influences> weights = auto_influences(s, line);
    const std::vector<Rigid<double>> posed = posed_bones(s, pose);
    auto lbs = [&](std::size_t i) {
        Vec3<double> out{0, 0, 0};
        for (int j = 0; j < kMaxInfluences; ++j) out = out + double(weights[i].weight[j]) * posed[weights[i].bone[j]].apply(line[i]);
        return out;
    };
    double worst = 0;
    for (std::size_t i = 1; i < line.size(); ++i) worst = std::max(worst, norm(lbs(i) - lbs(i - 1)) / norm(line[i] - line[i - 1]));
    return worst;
}

// Far from the body the band widens with the distance, so LBS's stretch stays bounded: pairs 1e-4 apart
// 5 to 60 units out move apart by at most 20× their distance, around the three-bone chain bent 90° at its
// middle joint (18.5× measured, nearest the body, where the band is narrowest) and around a chain of eight
// bones bent 0.3 rad at every joint (random pairs, and lines 5, 10 and 20 off its axis swept in steps of
// 1e-3). With a band of a fixed 0.5 radius the weights passed from bone to
// bone within a quarter of a unit 20 units out (the three-bone chain's pairs parted 142×); widened without
// bound, five or more bones weighed far out and the fifth, dropped, made the eight-bone chain's weights
// jump where it overtook the fourth (5,290× along those lines; 3.29× now).
TEST(AutoWeights, FarPointsKeepTheirNeighboursUnderLbs) {
    const Skeleton three = testing::straight_chain();
    Pose bent = Pose::rest(three);
    bent.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 3.14159265358979 / 2);
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> bones;
    for (int k = 0; k <= 8; ++k) spheres.push_back({{3.0 * k, 0, 0}, 1.0});
    for (int k = 0; k < 8; ++k) bones.push_back({k, k + 1});
    const Skeleton eight = make_skeleton(spheres, bones, {}, "eight bones");
    Pose curled = Pose::rest(eight);
    for (std::size_t k = 1; k < curled.joints.size(); ++k) curled.joints[k].swing = axis_angle(Vec3<double>{0, 0, 1}, 0.3);
    const double three_worst = far_pair_stretch(three, bent, {4.5, 0, 0}, 14);
    double eight_worst = far_pair_stretch(eight, curled, {12, 0, 0}, 15);
    for (double off : {5.0, 10.0, 20.0}) eight_worst = std::max(eight_worst, line_stretch(eight, curled, {-20, off, 1}, {44, off, 1}, 64000));
    std::printf("[ auto weights ] pairs 5 to 60 out: stretched up to %.3g× (three bones, 90° bend), %.3g× (eight bones curled)\n",
                three_worst, eight_worst);
    EXPECT_LT(three_worst, 20.0);
    EXPECT_LT(eight_worst, 20.0);
}

// Bones and weights equal to the definition's, bit for bit, where the selection matters: a star of nine
// bones (up to all of them weighing near its centre, many ties at 0 far out), and chains of one and three
// bones (fewer than kMaxInfluences).
TEST(AutoWeights, AreTheFourLargestRawWeightsTiesToTheLowerBone) {
    const Skeleton star = star_of_nine();
    const Skeleton one = make_skeleton({{{0, 0, 0}, 1.0}, {{3, 0, 0}, 0.6}}, {{0, 1}}, {}, "one bone");
    testing::Random rng(12);
    const std::pair<const char*, Skeleton> bodies[] = {{"star", star}, {"one bone", one}, {"chain", testing::straight_chain()}};
    for (const auto& [name, body] : bodies)
        for (int i = 0; i < 2000; ++i) {
            const Vec3<double> p = rng.in_box(i % 2 ? 1.5 : 6);
            for (double blend : {0.5, 3.0}) {
                const Influences got = auto_influences(body, p, {blend}), want = influences_as_defined(body, p, blend);
                for (int j = 0; j < kMaxInfluences; ++j) {
                    ASSERT_EQ(got.bone[j], want.bone[j]) << name << " point " << i << " slot " << j;
                    ASSERT_EQ(got.weight[j], want.weight[j]) << name << " point " << i << " slot " << j;
                }
            }
        }
}

// Where five or more bones weigh, the four kept give up the fifth's weight, so a bone passing from fourth
// to fifth place weighs 0 as it does: along lines through a star of nine bones, in steps of 1e-4, no
// weight changes by more than 0.01 a step wherever the fifth raw weight is at most 0.8 (1 − 0.2, beyond the
// near-ties of five). Dropping the fifth whole made weights jump by up to about a fifth there.
TEST(AutoWeights, ContinuousWhereFiveOrMoreBonesWeigh) {
    const Skeleton star = star_of_nine();
    testing::Random rng(31);
    int steps_checked = 0, steps_with_five = 0;
    double worst = 0;
    for (int line = 0; line < 60; ++line) {
        const Vec3<double> from = rng.in_box(2.5), direction = rng.unit_vector();
        Influences before = auto_influences(star, from);
        bool fifth_far_before = fifth_raw_weight(star, from) <= 0.8;
        for (int step = 1; step <= 20000; ++step) {
            const Vec3<double> p = from + (1e-4 * step) * direction;
            const Influences after = auto_influences(star, p);
            const double fifth = fifth_raw_weight(star, p);
            if (fifth_far_before && fifth <= 0.8) {
                ++steps_checked;
                if (fifth > 0) ++steps_with_five;
                for (int bone = 0; bone < 9; ++bone) worst = std::max(worst, std::fabs(weight_of(after, bone) - weight_of(before, bone)));
            }
            before = after;
            fifth_far_before = fifth <= 0.8;
        }
    }
    std::printf("[ auto weights ] star of nine: largest change of a weight in a step of 1e-4 %.3g (%d steps, %d where a fifth bone weighs)\n",
                worst, steps_checked, steps_with_five);
    EXPECT_GT(steps_with_five, 10000);
    EXPECT_LT(worst, 0.01);
}

TEST(AutoWeights, RejectsNonPositiveBlend) {
    Skeleton s = testing::straight_chain();
    EXPECT_THROW(auto_influences(s, std::vector<Vec3<double>>{{0, 0, 0}}, AutoWeightOptions{0.0}), InputError);
}

// A Skeleton filled in by hand with a sphere index out of range is refused before any point reads it.
TEST(AutoWeights, ASkeletonCheckSkeletonRefusesIsRefused) {
    Skeleton hand_made = testing::straight_chain();
    hand_made.bones[1][1] = 17;  // of 4 spheres
    EXPECT_THROW(auto_influences(hand_made, std::vector<Vec3<double>>{{1, 0, 0}}), InputError);
}

}  // namespace
}  // namespace bs
