// The fallback's rigid field (engine/baseline/deform.hpp, rigid_motion): one pass over the bones keeps
// the few that can still weigh, instead of a second pass over every bone, and passes over far bones by a
// bound without a root (surely_beyond) from a bound started at a given bone, which must not change it. The field is defined by the
// second pass (docs/ALGORITHM.md "Fallback bands and the rigid field"): every bone j weighs
// smoothstep(1 − (s_j − nearest) / band), s_j its scaled axis distance. That definition is written out
// here and the engine's field must equal it bit for bit, near bodies with junctions (a few bones within
// the band) and far from a star of twelve bones (all twelve within it: more than the candidates kept,
// so the engine repeats the pass over every bone).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/junctions.hpp"

namespace bs {
namespace {

using testing::Random;

// The field as defined: weights over every bone, summed in bone order.
Vec3<double> field_over_every_bone(const std::vector<BaselineBone<double>>& bones,
                                   const std::vector<BaselineBonePose<double>>& poses, Vec3<double> p, int& weighing) {
    double nearest = 1e30;
    for (const auto& b : bones) nearest = std::min(nearest, scaled_axis_distance(b.cone, p));
    const double band = 0.5 * std::max(nearest, 1.0);
    Vec3<double> sum{0, 0, 0};
    double total = 0;
    weighing = 0;
    for (std::size_t j = 0; j < bones.size(); ++j) {
        double w = smoothstep_unit(1 - (scaled_axis_distance(bones[j].cone, p) - nearest) / band);
        if (w == 0) continue;
        ++weighing;
        sum += w * rigid_motion_of_bone(bones[j], poses[j], p);
        total += w;
    }
    return sum / total;
}

// Twelve bones leaving one root sphere in directions spread over the sphere, each of its own length.
Skeleton star_of_twelve() {
    std::vector<Sphere<double>> spheres{{{0, 0, 0}, 1.5}};
    std::vector<std::array<int, 2>> bones;
    Random rng(12);
    for (int i = 0; i < 12; ++i) {
        spheres.push_back({rng.unit_vector() * rng.uniform(3.0, 6.0), rng.uniform(0.4, 0.9)});
        bones.push_back({0, i + 1});
    }
    return make_skeleton(spheres, bones, {}, "star of twelve", SkeletonRules::Tree);
}

// Points, those with at most kFieldCandidates bones weighing, and those with more: every bone that weighs
// is among the candidates the one pass keeps, so more than kFieldCandidates weighing means the engine
// took its pass over every bone.
struct Counts {
    long points = 0, few = 0, many = 0;
};

void expect_field_as_defined(const std::string& name, const Skeleton& s, double reach, Random& rng, Counts& counts) {
    std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    for (int pose_index = 0; pose_index < 8; ++pose_index) {
        std::vector<BaselineBonePose<double>> poses = baseline_pose_table(s, testing::random_bend_pose(s, rng));
        for (int i = 0; i < 500; ++i) {
            // Around a random bone, from its axis out to `reach` times its radius.
            const int near_index = int(rng.uniform(0, double(bones.size()) - 1e-9));
            const BaselineBone<double>& near = bones[std::size_t(near_index)];
            Vec3<double> p = near.cone.parent.centre + rng.uniform(0, 1) * near.cone.length * near.cone.axis +
                             rng.uniform(0, reach) * near.cone.parent.radius * rng.unit_vector();
            int weighing = 0;
            Vec3<double> want = field_over_every_bone(bones, poses, p, weighing);
            // The bone that starts the bound: the one the point was drawn around, and any other.
            const int other_index = int(rng.uniform(0, double(bones.size()) - 1e-9));
            for (int hint : {near_index, other_index}) {
                Vec3<double> got = rigid_motion(bones.data(), poses.data(), int(bones.size()), p, hint);
                ASSERT_EQ(got.x, want.x) << name << " point " << i << " bound from bone " << hint;
                ASSERT_EQ(got.y, want.y) << name << " point " << i << " bound from bone " << hint;
                ASSERT_EQ(got.z, want.z) << name << " point " << i << " bound from bone " << hint;
            }
            ++counts.points;
            (weighing <= kFieldCandidates ? counts.few : counts.many) += 1;
        }
    }
}

TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneNearBodiesWithJunctions) {
    Random rng(2026);
    for (const auto& j : testing::all_junctions()) {
        Counts c;
        expect_field_as_defined(j.name, j.skeleton, 3.0, rng, c);
        EXPECT_GT(c.few, 0);
    }
}

TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneWhereMoreBonesWeighThanItKeeps) {
    Random rng(77);
    Counts c;
    expect_field_as_defined("star of twelve", star_of_twelve(), 60.0, rng, c);
    std::printf("[ rigid field ] star of twelve: %ld points, %ld with more than %d bones weighing\n", c.points, c.many,
                kFieldCandidates);
    EXPECT_GT(c.many, 100) << "the points must reach the pass over every bone";
    EXPECT_GT(c.few, 100);
}

}  // namespace
}  // namespace bs
