// The plane of the sheaf through a point for two consecutive bones k, k+1, and the generators of a cone
// that lie in a plane through its apex (DESIGN §2 "Baselines reduce to 2D", seed 000 Figures 5 and 8).
//
// The plane contains both apexes A_k, A_{k+1} and the point q. Its normal is D_k(q) × D_{k+1}(q) with
// D the well-conditioned apex direction of cone.hpp: no special case for cylinders (an apex at infinity
// makes the plane parallel to that axis, as the paper asks) and near-cylinders keep their digits.
#pragma once

#include "engine/geometry/cone.hpp"

namespace bs {

template <class T>
struct SheafPlane {
    Vec3<T> point;   // the point q it was built through
    Vec3<T> normal;  // unit, D_k(q) × D_{k+1}(q) normalised
    // |D_k × D_{k+1}| / (|D_k| |D_{k+1}|): sine of the angle at q between the lines to the two apexes.
    // Small values mean a plane that turns fast with q (DESIGN: blend toward the rigid fallback there).
    T conditioning;
    // True when D_k ∥ D_{k+1} (q on the line A_k A_{k+1}, e.g. a straight chain of cylinders, or any
    // point on the axis of a straight chain): the plane is undefined. `normal` is then the normal of the
    // plane through bone k's axis and q (the limit for a straight chain), or any normal ⟂ that axis when
    // q is on it.
    bool degenerate;
};

template <class T>
BS_HD inline SheafPlane<T> sheaf_plane(const Cone<T>& bone_k, const Cone<T>& bone_next, Vec3<T> q) {
    Vec3<T> d_k = apex_direction(bone_k, q);
    Vec3<T> d_next = apex_direction(bone_next, q);
    Vec3<T> n = cross(d_k, d_next);
    T n_norm = norm(n);
    T conditioning = n_norm / (norm(d_k) * norm(d_next));
    if (conditioning > relative_zero<T>()) return {q, n / n_norm, conditioning, false};
    Vec3<T> meridian_normal = cross(bone_k.axis, q - bone_k.parent.centre);
    T meridian_norm = norm(meridian_normal);
    bool q_on_axis = meridian_norm <= relative_zero<T>() * bone_k.parent.radius;
    return {q, q_on_axis ? any_orthogonal(bone_k.axis) : meridian_normal / meridian_norm, conditioning, true};
}

// Side of the cone's axis on which q lies within a plane of normal n: the sign of (a × (q − C1)) · n,
// +1 or −1 (+1 when q is on the axis' line). DESIGN "The belt's side".
template <class T> BS_HD inline T side_of_axis(const Cone<T>& cone, Vec3<T> plane_normal, Vec3<T> q) {
    return dot(cross(cone.axis, q - cone.parent.centre), plane_normal) < T(0) ? T(-1) : T(1);
}

template <class T>
struct Generator {
    Vec3<T> radial;  // unit, ⟂ axis: the generator touches sphere i at tangency_point(cone, i, radial)
    // False when the plane misses the cone or grazes it (within rounding): the generator returned is
    // the one nearest to the plane (where the plane would first touch the cone).
    bool plane_cuts_cone;
};

// The generator of `cone` lying in the plane {x : n·(x − point) = 0}, which must contain the cone's apex
// (or be parallel to a cylinder's axis), on side `side` (±1, see side_of_axis) of the axis.
// The generator's tangency point with the parent sphere lies in the plane:
//     n·(C1 − point) + r1 sin θ (n·a) + r1 cos θ (n·e) = 0,
// which fixes n·e = c; with n = (n·a) a + n⊥, |n⊥| = m and w = n × a (|w| = m),
//     e = (c/m) n⊥/m ± √(1 − (c/m)²) w/m,   the sign chosen by side (e·w > 0 on side +1).
template <class T>
BS_HD inline Generator<T> generator_in_plane(const Cone<T>& cone, Vec3<T> plane_point, Vec3<T> plane_normal,
                                             T side) {
    const Vec3<T>& a = cone.axis;
    Vec3<T> n_perp = plane_normal - dot(plane_normal, a) * a;
    Vec3<T> w = cross(plane_normal, a);
    T m = norm(n_perp);
    if (!(m > relative_zero<T>())) return {any_orthogonal(a), false};  // plane ⟂ axis: holds no generator
    T r1 = cone.parent.radius;
    T c = -(dot(plane_normal, cone.parent.centre - plane_point) + r1 * cone.sin_theta * dot(plane_normal, a)) /
          (r1 * cone.cos_theta);
    T ratio = c / m;
    bool cuts = std::fabs(ratio) < T(1) - relative_zero<T>();
    ratio = clamp_value(ratio, T(-1), T(1));
    T across = side * std::sqrt((T(1) - ratio) * (T(1) + ratio));
    return {normalized((ratio / m) * n_perp + (across / m) * w), cuts};
}

}  // namespace bs
