// Classical skinning of one point: linear blend skinning (LBS) and dual quaternion skinning
// (DQS, Kavan, Collins, Žára, O'Sullivan 2008; engine/rigid.hpp), four influences per point.
// Per-frame bone tables: one 3×4 matrix (LBS) or one unit dual quaternion (DQS) per bone, both built
// from the bones' posed rigid transforms (engine/kinematics.hpp).
#pragma once

#include <cstdint>

#include "engine/rigid.hpp"

namespace bs {

constexpr int kMaxInfluences = 4;

// Bone indices and weights of one point; weights are >= 0 and sum to 1, unused slots have weight 0.
struct Influences {
    std::uint32_t bone[kMaxInfluences];
    float weight[kMaxInfluences];
};

// LBS with any number of influences: the pairs (bones[i], weights[i]), i < count.
template <class T>
BS_HD inline Vec3<T> lbs_point(Vec3<T> p, const std::uint32_t* bones, const float* weights, std::uint32_t count, const Mat34<T>* table) {
    Mat34<T> blended{};
    for (std::uint32_t i = 0; i < count; ++i) {
        T w = T(weights[i]);
        if (w == T(0)) continue;
        const Mat34<T>& b = table[bones[i]];
        for (int e = 0; e < 12; ++e) blended.m[e] += w * b.m[e];
    }
    return blended.apply(p);
}

// The 4-influence fast path (fixed size, no indirection through offsets).
template <class T> BS_HD inline Vec3<T> lbs_point(Vec3<T> p, const Influences& inf, const Mat34<T>* bones) {
    return lbs_point(p, inf.bone, inf.weight, kMaxInfluences, bones);
}

// DQS with antipodality handling: every influence is flipped into the hemisphere of the heaviest one
// before blending (DualQuatBlend, engine/rigid.hpp); of influences that tie for the heaviest, the one of the
// lowest bone index, so that the pivot, and with it the point, does not depend on the influences' order
// (the first in order was taken until 2026-12-06: one point given its influences in two orders came out 0.73
// apart, tests/host/test_classic_skinner.cpp).
template <class T> BS_HD inline Vec3<T> dqs_point(Vec3<T> p, const Influences& inf, const DualQuat<T>* bones) {
    int pivot = 0;
    for (int i = 1; i < kMaxInfluences; ++i)
        if (inf.weight[i] > inf.weight[pivot] || (inf.weight[i] == inf.weight[pivot] && inf.bone[i] < inf.bone[pivot])) pivot = i;
    DualQuatBlend<T> blend{bones[inf.bone[pivot]].real};
    for (int i = 0; i < kMaxInfluences; ++i)
        if (inf.weight[i] != 0.0f) blend.add(T(inf.weight[i]), bones[inf.bone[i]]);
    return blend.apply(p);
}

}  // namespace bs
