// Per-frame pose tables: what a pose does to the bones, in the form each method's per-point pass reads.
// Built on the host from the posed bone transforms (bones × a few dozen bytes), uploaded once per frame.
#pragma once

#include <vector>

#include "engine/skinning_classic.hpp"

namespace bs {

// Skinning transform of each bone: posed ∘ rest⁻¹. Rest frames are the world axes (DESIGN §2a), so the
// skinning transform is the posed transform itself.
template <class T>
std::vector<Mat34<T>> lbs_table(const std::vector<Rigid<double>>& posed) {
    std::vector<Mat34<T>> table;
    table.reserve(posed.size());
    for (const Rigid<double>& g : posed) table.push_back(Mat34<T>::from_rigid(Rigid<T>(g)));
    return table;
}

// The one of q and −q (one rotation) whose first non-zero component, w x y z in that order, is positive.
inline Quat<double> canonical_sign(const Quat<double>& q) {
    for (double c : {q.w, q.x, q.y, q.z})
        if (c != 0) return c > 0 ? q : -1.0 * q;
    return q;
}

// Each bone's dual quaternion, its rotation's sign canonical: DQS aligns each influence with its pivot by the
// sign of their dot product, which is a rounding's (±6e-17) where two bones turn half a turn apart, and the
// sign a pose file wrote a rotation with decided it: [0,1,0,0] and [0,−1,0,0] (one twist of 180°) gave
// points 2.2 apart on the demo chain. Elsewhere the sign changes no bit of the result.
template <class T>
std::vector<DualQuat<T>> dqs_table(const std::vector<Rigid<double>>& posed) {
    std::vector<DualQuat<T>> table;
    table.reserve(posed.size());
    for (const Rigid<double>& g : posed)
        table.push_back(DualQuat<T>(DualQuat<double>::from_rigid({canonical_sign(g.rotation), g.translation})));
    return table;
}

}  // namespace bs
