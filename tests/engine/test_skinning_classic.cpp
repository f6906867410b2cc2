// Classical skinning of one point (engine/skinning_classic.hpp): the CPU build's SSE2 LBS against the
// one-source loop the GPU and the double passes run (called as lbs_point<float>: the template).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "engine/skinning_classic.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

using testing::Random;

// A posed bone's matrix in float, as the pose table holds it: a rotation and a translation of up to `reach`.
Mat34<float> random_bone(Random& rng, double reach) {
    const Mat34<double> m = Mat34<double>::from_rigid({rng.rotation(), rng.in_box(reach)});
    Mat34<float> f;
    for (int e = 0; e < 12; ++e) f.m[e] = float(m.m[e]);
    return f;
}

// Four slots, any of which may be unused (weight 0, any bone in range), the others' weights summing to 1
// in float: unused slots first, last, between, one bone in two slots.
Influences random_influences(Random& rng, std::uint32_t bone_count) {
    Influences inf{};
    float total = 0;
    for (int i = 0; i < kMaxInfluences; ++i) {
        inf.bone[i] = std::uint32_t(rng.uniform(0, bone_count)) % bone_count;
        inf.weight[i] = rng.uniform(0, 1) < 0.35 ? 0.0f : float(rng.uniform(0.01, 1));
        total += inf.weight[i];
    }
    if (total == 0) inf.weight[int(rng.uniform(0, kMaxInfluences)) % kMaxInfluences] = total = 1;
    for (float& w : inf.weight) w /= total;
    return inf;
}

bool same_bits(Vec3<float> a, Vec3<float> b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The SSE2 path sums every slot and transposes the blended rows; the loop skips zero weights and sums each
// row itself. Same additions in the same order: the same float to the bit (an addition out of order, or the
// translation added first, changes thousands of these points in their last bits).
TEST(LbsPoint, TheFourInfluencePathIsTheLoopsPointToTheBit) {
#if !defined(BS_LBS_SSE2)
    GTEST_SKIP() << "this build has no SSE2 path: both calls run the loop";
#endif
    Random rng(211);
    const std::uint32_t bone_count = 27;
    for (double reach : {1.0, 300.0}) {
        std::vector<Mat34<float>> bones(bone_count);
        for (Mat34<float>& bone : bones) bone = random_bone(rng, reach);
        int differing = 0;
        for (int trial = 0; trial < 20000; ++trial) {
            const Influences inf = random_influences(rng, bone_count);
            const Vec3<double> rest = rng.in_box(reach);
            const Vec3<float> p{float(rest.x), float(rest.y), float(rest.z)};
            const Vec3<float> fast = lbs_point(p, inf, bones.data());
            const Vec3<float> loop = lbs_point<float>(p, inf.bone, inf.weight, kMaxInfluences, bones.data());
            if (!same_bits(fast, loop) && ++differing <= 3)
                ADD_FAILURE() << "trial " << trial << ": (" << fast.x << ", " << fast.y << ", " << fast.z << ") against (" << loop.x << ", "
                              << loop.y << ", " << loop.z << ")";
        }
        EXPECT_EQ(differing, 0) << "reach " << reach;
    }
}

// Any number of pairs (LBS of any number of influences), zero weights among them.
TEST(LbsPoint, AnyNumberOfPairsIsTheLoopsPointToTheBit) {
#if !defined(BS_LBS_SSE2)
    GTEST_SKIP() << "this build has no SSE2 path: both calls run the loop";
#endif
    Random rng(213);
    const std::uint32_t bone_count = 40;
    std::vector<Mat34<float>> bones(bone_count);
    for (Mat34<float>& bone : bones) bone = random_bone(rng, 20.0);
    int differing = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const std::uint32_t count = std::uint32_t(trial % 13);  // 0 to 12 pairs
        std::vector<std::uint32_t> index(count);
        std::vector<float> weight(count);
        for (std::uint32_t i = 0; i < count; ++i) {
            index[i] = std::uint32_t(rng.uniform(0, bone_count)) % bone_count;
            weight[i] = rng.uniform(0, 1) < 0.2 ? 0.0f : float(rng.uniform(0, 1));
        }
        const Vec3<double> rest = rng.in_box(20.0);
        const Vec3<float> p{float(rest.x), float(rest.y), float(rest.z)};
        const Vec3<float> fast = lbs_point(p, index.data(), weight.data(), count, bones.data());
        const Vec3<float> loop = lbs_point<float>(p, index.data(), weight.data(), count, bones.data());
        if (!same_bits(fast, loop)) ++differing;
    }
    EXPECT_EQ(differing, 0);
}

DualQuat<float> random_dual_quat(Random& rng, double reach) {
    DualQuat<double> d = DualQuat<double>::from_rigid({rng.rotation(), rng.in_box(reach)});
    if (rng.uniform(0, 1) < 0.5) d = -1.0 * d;  // the same transform, the other sign
    return DualQuat<float>(d);
}

// A slot of weight 0 changes nothing, whatever bone in range it names (the CPU's LBS sums every slot: a zero
// weight must add a zero, never a sign of its own). Indices out of range: the skinners' tests
// (AnUnusedSlotNamingNoBoneIsAcceptedAndChangesNothing, APairOfWeightZeroNamingNoBoneIsAcceptedAndChangesNothing).
TEST(ClassicPoint, AnUnusedSlotChangesNothingWhateverBoneItNames) {
    Random rng(214);
    const std::uint32_t bone_count = 16;
    std::vector<Mat34<float>> matrices(bone_count);
    std::vector<DualQuat<float>> duals(bone_count);
    for (std::uint32_t b = 0; b < bone_count; ++b) {
        matrices[b] = random_bone(rng, 5.0);
        duals[b] = random_dual_quat(rng, 5.0);
    }
    int unused_slots = 0;
    for (int trial = 0; trial < 5000; ++trial) {
        const Influences inf = random_influences(rng, bone_count);
        Influences renamed = inf;
        for (int i = 0; i < kMaxInfluences; ++i)
            if (inf.weight[i] == 0) {
                renamed.bone[i] = (inf.bone[i] + 1 + std::uint32_t(rng.uniform(0, bone_count - 1))) % bone_count;
                ++unused_slots;
            }
        const Vec3<double> rest = rng.in_box(5.0);
        const Vec3<float> p{float(rest.x), float(rest.y), float(rest.z)};
        EXPECT_TRUE(same_bits(lbs_point(p, inf, matrices.data()), lbs_point(p, renamed, matrices.data()))) << trial;
        EXPECT_TRUE(same_bits(dqs_point(p, inf, duals.data()), dqs_point(p, renamed, duals.data()))) << trial;
    }
    EXPECT_GT(unused_slots, 5000);
}

// One bone at full weight is that bone's transform, whatever the other slots name.
TEST(LbsPoint, OneBoneAtFullWeightIsItsTransform) {
    Random rng(212);
    std::vector<Mat34<float>> bones(5);
    for (Mat34<float>& bone : bones) bone = random_bone(rng, 4.0);
    for (int trial = 0; trial < 1000; ++trial) {
        Influences inf{{0, 1, 2, 3}, {0, 0, 0, 0}};
        const int slot = trial % kMaxInfluences;
        inf.bone[slot] = 4;
        inf.weight[slot] = 1;
        const Vec3<double> rest = rng.in_box(3.0);
        const Vec3<float> p{float(rest.x), float(rest.y), float(rest.z)};
        EXPECT_TRUE(same_bits(lbs_point(p, inf, bones.data()), bones[4].apply(p))) << trial;
    }
}

}  // namespace
}  // namespace bs
