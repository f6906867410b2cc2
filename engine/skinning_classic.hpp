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

// Row-major 3×4 affine matrix [R | t].
template <class T>
struct Mat34 {
    T m[12];

    BS_HD static Mat34 from_rigid(const Rigid<T>& g) {
        Vec3<T> c0 = rotate(g.rotation, Vec3<T>{T(1), T(0), T(0)});
        Vec3<T> c1 = rotate(g.rotation, Vec3<T>{T(0), T(1), T(0)});
        Vec3<T> c2 = rotate(g.rotation, Vec3<T>{T(0), T(0), T(1)});
        return {{c0.x, c1.x, c2.x, g.translation.x, c0.y, c1.y, c2.y, g.translation.y,
                 c0.z, c1.z, c2.z, g.translation.z}};
    }
    BS_HD Vec3<T> apply(Vec3<T> p) const {
        return {m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3], m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]};
    }
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
// before blending (DualQuatBlend, engine/rigid.hpp).
template <class T> BS_HD inline Vec3<T> dqs_point(Vec3<T> p, const Influences& inf, const DualQuat<T>* bones) {
    int pivot = 0;
    for (int i = 1; i < kMaxInfluences; ++i)
        if (inf.weight[i] > inf.weight[pivot]) pivot = i;
    DualQuatBlend<T> blend{bones[inf.bone[pivot]].real};
    for (int i = 0; i < kMaxInfluences; ++i)
        if (inf.weight[i] != 0.0f) blend.add(T(inf.weight[i]), bones[inf.bone[i]]);
    return blend.apply(p);
}

}  // namespace bs
