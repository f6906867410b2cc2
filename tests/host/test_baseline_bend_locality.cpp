// Baseline skinning, part 2 (bend): locality (issue 4). With a bend only at joint j (bone j+1's swing), the
// points of bones not adjacent to that joint move rigidly with their bone:
//   - bend alone (plus a root motion and the first bone's swing, both rigid): p' = G_m(p), G_m bone m's
//     posed transform (posed_bones);
//   - bend with random twists on every bone (±360°): p'_bend = G_m,bend ∘ G_m,twist⁻¹ (p'_twist), i.e. the
//     bend changes such a point only by the rigid change of its bone's frame.
// Every point whose code is on a non-adjacent bone is checked, fallback bands and caps included, except the
// far-from-surface band: the rigid field the bands blend toward weighs bones by the point's distance to
// them, relative to the nearest, with a band that widens with that distance (engine/baseline/deform.hpp), so
// near the body only the bone and its neighbours count, but a point a few radii out also weighs the bones
// across the bent joint. (The field must be one function of the point for every code: far from the body,
// codes of bones that are not neighbours meet, around a junction's bones for one.) Tolerance 1e-6 × (diagonal + |root translation|), double. Chains: the straight chain (3 bones)
// and testing::long_chain() (4 bones); 5 poses per joint and variant, 4,000 points around each chain plus
// 1,000 near its joints.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Random;

// A pose bent only at the joint where bone `k` starts (k ≥ 1), up to 150° between the posed axes.
Pose bend_only_at(const Skeleton& s, int k, Random& rng, bool twists) {
    testing::BendPoseOptions options;
    options.max_twist = twists ? 2 * testing::kBaselinePi : 0.0;
    Pose pose = testing::random_bend_pose(s, rng, options);
    for (std::size_t m = 1; m < s.bone_count(); ++m)
        if (int(m) != k) pose.joints[m].swing = Quat<double>::identity();
    return pose;
}

TEST(BaselineBendLocality, PointsOfBonesNotAdjacentToABentJointMoveRigidlyWithTheirBone) {
    Random rng(3003);
    for (const auto& chain : {testing::NamedChain{"straight", testing::straight_chain()},
                              testing::NamedChain{"long", testing::long_chain()}}) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = testing::points_around(s, 4000, 33, -0.8, 2.5);
        testing::add_joint_points(points, bones, rng, 1000, 1.2, -0.4, 1.0);
        BaselineSkinner<double> skinner(s, points, chain.name);
        const std::vector<BaselineCode>& codes = skinner.codes();
        double worst = 0;
        std::string worst_case;
        long checked = 0, checked_flagged = 0, skipped_far = 0;
        std::vector<Vec3<double>> bent_out, twist_out;
        for (int k = 1; k < int(s.bone_count()); ++k) {  // the joint between bones k−1 and k
            for (int variant = 0; variant < 2; ++variant) {
                for (int trial = 0; trial < 5; ++trial) {
                    Pose bent = bend_only_at(s, k, rng, variant == 1);
                    Pose twist_only = bent;
                    twist_only.joints[k].swing = Quat<double>::identity();
                    skinner.deform(bent, bent_out);
                    std::vector<Rigid<double>> g_bent = posed_bones(s, bent), g_twist = posed_bones(s, twist_only);
                    if (variant == 1) skinner.deform(twist_only, twist_out);
                    const double tolerance = 1e-6 * (testing::diagonal(s) + norm(bent.root.translation));
                    for (std::size_t i = 0; i < points.size(); ++i) {
                        const int m = codes[i].bone;
                        if (m == k || m == k - 1) continue;
                        if (codes[i].flags & kCodeFarFromSurface) {
                            ++skipped_far;
                            continue;
                        }
                        ++checked;
                        if (codes[i].flags) ++checked_flagged;
                        Vec3<double> expected = variant == 0 ? g_bent[m].apply(points[i])
                                                             : g_bent[m].apply(testing::inverse(g_twist[m]).apply(twist_out[i]));
                        double e = norm(bent_out[i] - expected) / tolerance;
                        if (!(e <= worst)) {
                            worst = e;
                            const BaselineCode& c = codes[i];
                            char text[400];
                            std::snprintf(text, sizeof text,
                                          "chain %s, joint of bone %d, %s, trial %d: point (%.9g, %.9g, %.9g) bone %d "
                                          "flags %d blend %.3g off by %.3g",
                                          chain.name.c_str(), k, variant ? "bend + twists" : "bend alone", trial,
                                          points[i].x, points[i].y, points[i].z, c.bone, c.flags, c.rigid_blend,
                                          norm(bent_out[i] - expected));
                            worst_case = text;
                        }
                    }
                }
            }
        }
        EXPECT_GT(checked, 10000) << chain.name;
        EXPECT_LE(worst, 1.0) << worst_case;
        std::printf("[ bend locality ] %-8s %ld checks (%ld flagged codes; %ld far from the surface, not checked): worst error / "
                    "tolerance %.3g\n",
                    chain.name.c_str(), checked, checked_flagged, skipped_far, worst);
        ::testing::Test::RecordProperty("worst_error_over_tolerance_" + chain.name, std::to_string(worst));
    }
}

}  // namespace
}  // namespace bs
