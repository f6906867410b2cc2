// Classical skinning of one point: linear blend skinning (LBS, four influences per point or any number)
// and dual quaternion skinning (DQS, Kavan, Collins, Žára, O'Sullivan 2008; engine/rigid.hpp, four).
// Per-frame bone tables: one 3×4 matrix (LBS) or one unit dual quaternion (DQS) per bone, both built
// from the bones' posed rigid transforms (engine/kinematics.hpp).
#pragma once

#include <cstdint>

#include "engine/rigid.hpp"

// The CPU build's float LBS runs on SSE2 (every x86-64 processor has it); nvcc and other targets take the
// one-source loop below.
#if defined(__SSE2__) && !defined(__CUDACC__)
#include <emmintrin.h>
#define BS_LBS_SSE2 1
#endif

namespace bs {

constexpr int kMaxInfluences = 4;

// Bone indices and weights of one point; weights are >= 0 and sum to 1, unused slots have weight 0.
struct Influences {
    std::uint32_t bone[kMaxInfluences];
    float weight[kMaxInfluences];
};

// LBS with any number of influences: the pairs (bones[i], weights[i]), i < count. The loop the GPU and
// the double passes run; the CPU build's float calls take the SSE2 overload below.
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

#if defined(BS_LBS_SSE2)
// The loop's point to the bit, four lanes at a time: the blended matrix's rows are summed as four-float
// vectors in the loop's order, then turned into columns so that each coordinate is ((m0 x + m1 y) + m2 z) + m3
// as Mat34::apply sums it (tests/engine/test_skinning_classic.cpp). Every pair is summed, weight 0
// included: the loop's branch per slot was mispredicted wherever points' unused slots vary (in a probe of
// random slots the loop took 21.5 ns a point, without its branch 14.6, this 7), and with finite matrices a
// weight of 0 adds a zero, which leaves every sum as it was. It reads the matrix of a weight 0's bone, which
// the loop does not: every index must be in range, unused ones too (host/weights.hpp,
// point_unused_pairs_at_bone_zero, says why the skinners see to it). RESULTS has the bench.
inline Vec3<float> lbs_point(Vec3<float> p, const std::uint32_t* bones, const float* weights, std::uint32_t count, const Mat34<float>* table) {
    __m128 row0 = _mm_setzero_ps(), row1 = _mm_setzero_ps(), row2 = _mm_setzero_ps();
    for (std::uint32_t i = 0; i < count; ++i) {
        const float* m = table[bones[i]].m;
        const __m128 w = _mm_set1_ps(weights[i]);
        row0 = _mm_add_ps(row0, _mm_mul_ps(w, _mm_loadu_ps(m)));
        row1 = _mm_add_ps(row1, _mm_mul_ps(w, _mm_loadu_ps(m + 4)));
        row2 = _mm_add_ps(row2, _mm_mul_ps(w, _mm_loadu_ps(m + 8)));
    }
    __m128 translation = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(row0, row1, row2, translation);  // rows in, columns out
    const __m128 &x_column = row0, &y_column = row1, &z_column = row2;
    const __m128 posed = _mm_add_ps(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(x_column, _mm_set1_ps(p.x)), _mm_mul_ps(y_column, _mm_set1_ps(p.y))), _mm_mul_ps(z_column, _mm_set1_ps(p.z))),
        translation);
    alignas(16) float out[4];
    _mm_store_ps(out, posed);
    return {out[0], out[1], out[2]};
}
#endif

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
    // Zero weights are skipped: summing them too (as LBS does on the CPU) made the chain's DQS slower, 26.4
    // -> 38.4 ns a point at one thread, and the human's no faster (the slots' pattern predicts well here).
    for (int i = 0; i < kMaxInfluences; ++i)
        if (inf.weight[i] != 0.0f) blend.add(T(inf.weight[i]), bones[inf.bone[i]]);
    return blend.apply(p);
}

}  // namespace bs
