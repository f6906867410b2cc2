// Metaball deformation of one point (seed 001 §1.3, with DESIGN §3's reading of the field).
//
// Every joint j of the skeleton is a constraint source: its rest centre c_j, its radius of influence R_j
// (the farthest vertex of its region, host/metaball_skinner.hpp) and, per pose, its displacement d_j. A
// vertex v bound to the regions of joints j ∈ J(v) moves to
//     v' = v + Σ_{j ∈ J(v)} d_j · f(|v − c_j|, R_j),
// with Wyvill's six-degree field f (the paper's choice among Borrel's, Nishimura's, Murakami's and
// Wyvill's potentials). Distances are measured at the rest vertex. Units are the input's.
// Header-only, BS_HD, float or double, no heap: the same code runs in host loops and CUDA kernels.
#pragma once

#include <cstdint>

#include "engine/vec.hpp"

namespace bs {

// Wyvill's field f(r, R) = 1 − 4/9 (r/R)⁶ + 17/9 (r/R)⁴ − 22/9 (r/R)² for r < R, else 0.
// f(0) = 1, f(R/2) = 1/2, f(R) = 0, with zero slope at r = 0 and r = R (C¹ at the region's edge).
// R <= 0 (a joint whose region is empty or a single point at its centre) gives 0 everywhere: such a
// joint moves nothing, and no division by zero happens.
template <class T> BS_HD inline T wyvill_field(T r, T R) {
    if (!(r < R)) return T(0);
    const T s = (r / R) * (r / R);
    return T(1) + s * (T(-22) / T(9) + s * (T(17) / T(9) + s * (T(-4) / T(9))));
}

// One joint as the per-point pass reads it: rest centre c_j, radius of influence R_j (>= 0) and the
// pose's displacement d_j (posed centre − rest centre). 7 scalars.
template <class T>
struct MetaballJoint {
    Vec3<T> centre;
    T radius;
    Vec3<T> displacement;

    template <class U>
    BS_HD explicit operator MetaballJoint<U>() const { return {Vec3<U>(centre), U(radius), Vec3<U>(displacement)}; }
};

// v' for a vertex bound to `bound_count` joints, whose indices into `joints` are bound[0 .. bound_count).
// A vertex bound to no joint does not move.
template <class T>
BS_HD inline Vec3<T> metaball_point(Vec3<T> v, const std::uint32_t* bound, std::uint32_t bound_count,
                                    const MetaballJoint<T>* joints) {
    Vec3<T> moved = v;
    for (std::uint32_t k = 0; k < bound_count; ++k) {
        const MetaballJoint<T>& joint = joints[bound[k]];
        moved += wyvill_field(norm(v - joint.centre), joint.radius) * joint.displacement;
    }
    return moved;
}

}  // namespace bs
