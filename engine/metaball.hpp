// Metaball deformation of one point (seed 001 §1.3, with DESIGN §3's reading of the field).
//
// Every joint j of the skeleton is a constraint source: its rest centre c_j, its radius of influence R_j
// (the farthest vertex of its region, host/metaball_skinner.hpp) and, per pose, its displacement d_j. A
// vertex v bound to the regions of joints j ∈ J(v) moves to
//     v' = G (v + Σ_{j ∈ J(v)} d_j · f(|v − c_j|, R_j)),
// with Wyvill's six-degree field f (the paper's choice among Borrel's, Nishimura's, Murakami's and
// Wyvill's potentials) and G the body's rigid motion (a pose's root transform; the identity for the
// paper's drags), the displacements taken in the body's frame (docs/ALGORITHM.md "Metaball deformation":
// the field only translates, so a body carried by its root would leave each region's edge behind).
// Distances are measured at the rest vertex. Units are the input's.
// Header-only, BS_HD, float or double, no heap: the same code runs in host loops and CUDA kernels.
#pragma once

#include <cstdint>

#include "engine/rigid.hpp"

namespace bs {

// Wyvill's field f(r, R) = 1 − 4/9 (r/R)⁶ + 17/9 (r/R)⁴ − 22/9 (r/R)² for r < R, else 0.
// f(0) = 1, f(R/2) = 1/2, f(R) = 0, with zero slope at r = 0 and r = R (C¹ at the region's edge).
// R <= 0 (a joint whose region is empty or a single point at its centre) gives 0 everywhere: such a
// joint moves nothing, and no division by zero happens.
// Of s = (r/R)², for s < 1 (0 beyond).
template <class T> BS_HD inline T wyvill_field_of_square(T s) {
    if (!(s < T(1))) return T(0);
    return T(1) + s * (T(-22) / T(9) + s * (T(17) / T(9) + s * (T(-4) / T(9))));
}
template <class T> BS_HD inline T wyvill_field(T r, T R) { return r < R ? wyvill_field_of_square((r / R) * (r / R)) : T(0); }

// 1 / R for a region of radius R, 0 for an empty one (R <= 0) or one too small for T to invert (1 / R
// beyond T's range): such a region moves nothing.
template <class T> BS_HD inline T inverse_radius(T R) {
    const T inverse = T(1) / R;
    return R > T(0) && inverse * T(0) == T(0) ? inverse : T(0);
}

// The field at offset v − c_j from a joint of inverse radius 1/R (inverse_radius): the offset is scaled by
// 1/R before it is squared, so that a body of any size within float's range reads the same field
// (|v − c|² in float underflows for bodies under about 1e-19 units: their points moved by 12% of the body
// at 1e-22).
template <class T> BS_HD inline T wyvill_field_at(Vec3<T> offset, T inverse_R) {
    if (!(inverse_R > T(0))) return T(0);
    const Vec3<T> scaled = offset * inverse_R;
    return wyvill_field_of_square(dot(scaled, scaled));
}

// One joint as the per-point pass reads it: rest centre c_j, radius of influence R_j (>= 0), the pose's
// displacement d_j in the body's frame (above), and 1/R_j, computed when the joint is made rather than
// divided per point and joint. 8 scalars.
template <class T>
struct MetaballJoint {
    Vec3<T> centre;
    T radius;
    Vec3<T> displacement;
    T inverse = T(0);  // inverse_radius(radius)

    MetaballJoint() = default;
    BS_HD MetaballJoint(Vec3<T> c, T R, Vec3<T> d) : centre(c), radius(R), displacement(d), inverse(inverse_radius(R)) {}

    template <class U>
    BS_HD explicit operator MetaballJoint<U>() const { return {Vec3<U>(centre), U(radius), Vec3<U>(displacement)}; }
};

// v + Σ d_j f for a vertex bound to `bound_count` joints, whose indices into `joints` are
// bound[0 .. bound_count), in the body's frame; the pass then applies the body's motion G
// (kernels/passes.hpp, MetaballJob::body). A vertex bound to no joint is not displaced.
template <class T>
BS_HD inline Vec3<T> metaball_point(Vec3<T> v, const std::uint32_t* bound, std::uint32_t bound_count,
                                    const MetaballJoint<T>* joints) {
    Vec3<T> moved = v;
    for (std::uint32_t k = 0; k < bound_count; ++k) {
        const MetaballJoint<T>& joint = joints[bound[k]];
        moved += wyvill_field_at(v - joint.centre, joint.inverse) * joint.displacement;
    }
    return moved;
}

}  // namespace bs
