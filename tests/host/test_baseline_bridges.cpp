// Baseline skinning beside bridges and where free ends meet (docs/ALGORITHM.md "Rigged models" and
// "Junctions"), on the two-chain tube of tests/support/chains.hpp: a bridge that runs inside the first
// chain, and the first chain's free end overlapping the second chain's start.
// - No point is coded on a bridge, and a bridge moves none: the first chain's points away from where the
//   chains meet deform exactly as with the first chain alone.
// - Where the free ends meet, codes of the two chains are wholly blended into the rigid field, and pairs
//   1e-4 apart across that boundary stay within 2× that distance under random poses that part the ends
//   (the field's weights are flat where the codes meet: 1.00× measured; 112,911× without the blend).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

// Points near the surface of the tube's first chain, x in [x_min, x_max]: at a random angle about the
// x axis, at a radius of 1 ± 0.3 from the chain's axis (the polyline through spheres 0, 1, 2).
std::vector<Vec3<double>> first_chain_points(Random& rng, int count, double x_min, double x_max) {
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        const double x = rng.uniform(x_min, x_max), angle = rng.uniform(-3.14159, 3.14159), radius = rng.uniform(0.7, 1.3);
        const double axis_y = x < 3 ? 0.4 * x / 3 : 0.4 * (6 - x) / 3;
        points.push_back({x, axis_y + radius * std::cos(angle), radius * std::sin(angle)});
    }
    return points;
}

int codes_on_bridge(const Skeleton& s, const std::vector<Vec3<double>>& points) {
    int on = 0;
    for (const BaselineCode& c : encode_points(make_baseline_bones(s), points, "tube")) on += c.bone == testing::kTubeBridge;
    return on;
}

TEST(BaselineBridges, NoPointIsCodedOnABridge) {
    Random rng(801);
    const std::vector<Vec3<double>> points = first_chain_points(rng, 4000, 0.0, 6.0);
    EXPECT_EQ(codes_on_bridge(testing::two_chain_tube(), points), 0);
    // What the mark changes: unmarked, the straight bone is nearer than the bent chain to part of its surface.
    EXPECT_GT(codes_on_bridge(testing::two_chain_tube(false), points), 100);
}

// The first chain bent 60° at sphere 1, its bones twisted, the bridge and the second chain at rest.
Pose first_chain_bent(const Skeleton& s) {
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 60 * 3.14159265358979 / 180);
    pose.joints[1].twist_radians = 0.7;
    return pose;
}

// Points up to x = 4 lie more than the unlinked bones' band (EncodeOptions::unlinked_band, 1 radius)
// nearer the first chain's surface than the second's: nothing of the second chain weighs there.
TEST(BaselineBridges, TheChainABridgeRunsInsideMovesItsPointsAlone) {
    Random rng(802);
    const std::vector<Vec3<double>> points = first_chain_points(rng, 3000, 0.0, 4.0);
    const Skeleton alone = make_skeleton({{{0, 0, 0}, 1.0}, {{3, 0.4, 0}, 1.0}, {{6, 0, 0}, 1.0}}, {{0, 1}, {1, 2}}, {}, "first chain");
    const Skeleton tube = testing::two_chain_tube(), unmarked_tube = testing::two_chain_tube(false);
    const Pose bent = first_chain_bent(tube);
    Pose alone_pose = Pose::rest(alone);
    alone_pose.joints[1] = bent.joints[1];
    std::vector<Vec3<double>> expected, bridged, unmarked;
    testing::with_every_bone_tabulated(BaselineSkinner<double>(alone, points, "first chain")).deform(alone_pose, expected);
    testing::with_every_bone_tabulated(BaselineSkinner<double>(tube, points, "tube")).deform(bent, bridged);
    testing::with_every_bone_tabulated(BaselineSkinner<double>(unmarked_tube, points, "tube")).deform(bent, unmarked);
    double worst = 0, worst_unmarked = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        worst = std::max(worst, norm(bridged[i] - expected[i]));
        worst_unmarked = std::max(worst_unmarked, norm(unmarked[i] - expected[i]));
    }
    EXPECT_LT(worst, 1e-9);
    // Unmarked, points coded on the straight bone stay behind as the chain bends.
    EXPECT_GT(worst_unmarked, 0.5);
}

// Pairs 1e-4 apart across the boundary between the codes of the first chain's end (bone 1, sphere 2 at
// x = 6) and the second chain's start (bone 3, sphere 3 at x = 6.5), found by bisection between a point
// on each side: at a random angle about the x axis, 0.4 to 1.6 from it.
std::vector<std::pair<Vec3<double>, Vec3<double>>> pairs_where_the_ends_meet(const std::vector<BaselineBone<double>>& bones, Random& rng) {
    auto around = [&](double x_min, double x_max) {
        const double x = rng.uniform(x_min, x_max), angle = rng.uniform(-3.14159, 3.14159), radius = rng.uniform(0.4, 1.6);
        return Vec3<double>{x, radius * std::cos(angle), radius * std::sin(angle)};
    };
    std::vector<std::pair<Vec3<double>, Vec3<double>>> pairs;
    for (int tries = 0; tries < 4000 && pairs.size() < 1000; ++tries) {
        Vec3<double> a = around(5.3, 6.25), b = around(6.25, 7.2);
        if (encode_point(bones, a).bone != 1 || encode_point(bones, b).bone != 3) continue;
        while (norm(b - a) > 1e-4) {
            const Vec3<double> mid = 0.5 * (a + b);
            const int bone = encode_point(bones, mid).bone;
            if (bone != 1 && bone != 3) break;  // a third bone between them: not this boundary
            (bone == 1 ? a : b) = mid;
        }
        if (norm(b - a) <= 1e-4) pairs.push_back({a, b});
    }
    return pairs;
}

TEST(BaselineBridges, CodesWhereFreeEndsMeetAreWhollyBlendedToTheRigidField) {
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(testing::two_chain_tube());
    Random rng(803);
    const auto pairs = pairs_where_the_ends_meet(bones, rng);
    ASSERT_GE(pairs.size(), 1000u);
    int partial = 0;
    for (const auto& [a, b] : pairs)
        for (const Vec3<double>& p : {a, b}) {
            const BaselineCode code = encode_point(bones, p);
            partial += code.rigid_blend < 1.0f - 1e-3f || !(code.flags & kCodeNearJunction);
        }
    EXPECT_EQ(partial, 0);
}

TEST(BaselineBridges, PointsWhereFreeEndsMeetStayTogetherAsTheEndsPart) {
    const Skeleton s = testing::two_chain_tube();
    Random rng(804);
    const auto pairs = pairs_where_the_ends_meet(make_baseline_bones(s), rng);
    ASSERT_GE(pairs.size(), 1000u);
    std::vector<Vec3<double>> points;
    for (const auto& [a, b] : pairs) points.insert(points.end(), {a, b});
    BaselineSkinner<double> skinner(s, points, "tube");
    skinner.set_deform_options(testing::tables_for_every_bone());
    std::vector<Vec3<double>> out;
    double worst = 0, parted = 0;
    testing::BendPoseOptions options;
    options.rigid = false;  // a root bone's random swing would move the whole tube, bridge and all
    options.max_joint_degrees = 90;
    for (int trial = 0; trial < 12; ++trial) {
        const Pose pose = testing::random_bend_pose(s, rng, options);
        skinner.deform(pose, out);
        const std::vector<Rigid<double>> posed = posed_bones(s, pose);
        parted = std::max(parted, norm(posed[1].apply(s.spheres[2].centre) - posed[3].apply(s.spheres[3].centre)));
        for (std::size_t i = 0; i < pairs.size(); ++i)
            worst = std::max(worst, norm(out[2 * i] - out[2 * i + 1]) / norm(points[2 * i] - points[2 * i + 1]));
    }
    std::printf("[ bridges  ] %zu pairs where the free ends meet x 12 poses (ends up to %.2f apart): worst stretch %.2f\n", pairs.size(),
                parted, worst);
    EXPECT_GT(parted, 2.0) << "the poses part the ends";
    EXPECT_LE(worst, 2);
}

// Two fingers side by side, hung by bridges from one root: their free ends overlap but face the same way,
// so they move on their own (a face's eyelids, X/BCN_Epileptic.X). Points between their tips in them,
// where the codes pass from one finger to the other, are not blended. (Off both surfaces they are, as
// anywhere two unlinked bones' codes meet there: tests/host/test_baseline_unlinked.cpp.)
TEST(BaselineBridges, FreeEndsSideBySideAreNotBlended) {
    Skeleton s = make_skeleton({{{-5, 0, 0}, 1.0}, {{0, 0.3, 0}, 0.5}, {{3, 0.3, 0}, 0.5}, {{0, -0.3, 0}, 0.5}, {{3, -0.3, 0}, 0.5}},
                               {{0, 1}, {1, 2}, {0, 3}, {3, 4}}, {}, "two fingers", SkeletonRules::Tree);
    set_bridges(s, {0, 2}, "two fingers");
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    int on[4] = {0, 0, 0, 0}, blended = 0;
    Random rng(805);
    for (int i = 0; i < 2000; ++i) {
        const Vec3<double> p{rng.uniform(0.5, 3.4), rng.uniform(-0.1, 0.1), rng.uniform(-0.6, 0.6)};
        if (std::min(closest_point_on_bone(bones[1].cone, p).signed_distance, closest_point_on_bone(bones[3].cone, p).signed_distance) > 0)
            continue;  // off both fingers
        const BaselineCode code = encode_point(bones, p);
        ++on[code.bone];
        blended += (code.flags & kCodeNearJunction) != 0;
    }
    EXPECT_GT(on[1], 100);
    EXPECT_GT(on[3], 100);
    EXPECT_EQ(blended, 0);
}

}  // namespace
}  // namespace bs
