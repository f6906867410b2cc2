// One bone of a sphere-mesh: the convex hull of its parent sphere (C1, r1) and child sphere (C2, r2),
// i.e. a truncated cone tangent to both spheres plus two spherical caps (DESIGN §2, seed 000).
//
// Conventions: the axis runs parent → child (DESIGN §2a); the half-angle is signed,
// sin θ = (r1 − r2) / d, cos θ = √(d² − (r1 − r2)²) / d > 0, so sin θ > 0 when the bone narrows toward
// its child and sin θ = 0 for a cylinder. A generator of the cone is identified by its *radial* unit
// vector e ⟂ axis: it touches sphere i at C_i + r_i (sin θ · a + cos θ · e), where the outward surface
// normal is sin θ · a + cos θ · e.
#pragma once

#include "engine/geometry/primitives.hpp"

namespace bs {

enum class BoneEnd { Parent, Child };

template <class T>
struct Cone {
    Sphere<T> parent;
    Sphere<T> child;
    Vec3<T> axis;  // unit, parent → child
    T length;      // |C2 − C1|
    T sin_theta;   // (r1 − r2) / length, signed
    T cos_theta;   // > 0
    // False when one sphere swallows the other (length ≤ |r1 − r2|) or a radius is not positive:
    // the input must be rejected. The other fields are then finite but meaningless.
    bool valid;
};

// Builds the cone of the bone parent → child. cos θ is computed as √((d − Δr)(d + Δr)) / d, which keeps
// its digits when the cone is nearly flat (d close to |Δr|).
template <class T> BS_HD inline Cone<T> make_cone(Sphere<T> parent, Sphere<T> child) {
    Vec3<T> u = child.centre - parent.centre;
    T length = norm(u);
    T radius_drop = parent.radius - child.radius;
    bool valid = parent.radius > T(0) && child.radius > T(0) && length > std::fabs(radius_drop);
    if (!valid) {
        Vec3<T> axis = length > T(0) ? u / length : Vec3<T>{T(1), T(0), T(0)};
        return {parent, child, axis, length, T(0), T(1), false};
    }
    T cos_theta = std::sqrt((length - radius_drop) * (length + radius_drop)) / length;
    return {parent, child, u / length, length, radius_drop / length, cos_theta, true};
}

// ω: the length of a generator between its tangency points with the two spheres, d cos θ.
template <class T> BS_HD inline T generator_length(const Cone<T>& cone) { return cone.length * cone.cos_theta; }

template <class T> BS_HD inline Sphere<T> end_sphere(const Cone<T>& cone, BoneEnd end) {
    return end == BoneEnd::Parent ? cone.parent : cone.child;
}

// The apex A = C1 + a · r1 / sin θ as the homogeneous point (sin θ · C1 + r1 · a, sin θ): finite in
// every case, at infinity along the axis (w = 0) for a cylinder. Divide only when |w| is well away from 0:
// a near-cylinder's far apex has lost its digits; use apex_direction instead.
template <class T> BS_HD inline HomogeneousPoint<T> apex_homogeneous(const Cone<T>& cone) {
    return {cone.sin_theta * cone.parent.centre + cone.parent.radius * cone.axis, cone.sin_theta};
}

// D(p) = sin θ · (C1 − p) + r1 · a = sin θ · (A − p): the well-conditioned direction from p along the
// line to the apex (DESIGN §2, "well-conditioned formulas"). Not normalised; it points toward A when
// sin θ > 0, away from it when sin θ < 0, and is r1 · a for a cylinder, so it is continuous in the radii.
template <class T> BS_HD inline Vec3<T> apex_direction(const Cone<T>& cone, Vec3<T> p) {
    return cone.sin_theta * (cone.parent.centre - p) + cone.parent.radius * cone.axis;
}

// Outward unit normal of the cone along the generator with radial direction `radial`.
template <class T> BS_HD inline Vec3<T> cone_normal(const Cone<T>& cone, Vec3<T> radial) {
    return cone.sin_theta * cone.axis + cone.cos_theta * radial;
}

// Where the generator with radial direction `radial` touches the sphere at `end`.
template <class T> BS_HD inline Vec3<T> tangency_point(const Cone<T>& cone, BoneEnd end, Vec3<T> radial) {
    Sphere<T> s = end_sphere(cone, end);
    return s.centre + s.radius * cone_normal(cone, radial);
}

// Circle where the cone touches the sphere at `end`: centre C_i + r_i sin θ · a, radius r_i cos θ,
// normal a.
template <class T> BS_HD inline Circle<T> tangency_circle(const Cone<T>& cone, BoneEnd end) {
    Sphere<T> s = end_sphere(cone, end);
    return {s.centre + (s.radius * cone.sin_theta) * cone.axis, cone.axis, s.radius * cone.cos_theta};
}

// The frame of a cone's meridian half-plane with radial direction `radial`: origin the parent centre,
// then the axis, the radial and their tangent axis × radial (right-handed). A turn about the axis moves a
// point with its meridian and keeps its coordinates in this frame; so do a generator's points, which lie
// in the plane (tangential coordinate 0).
template <class T>
struct MeridianFrame {
    Vec3<T> origin, axis, radial, tangent;

    BS_HD Vec3<T> vector(Vec3<T> local) const { return local.x * axis + local.y * radial + local.z * tangent; }
    BS_HD Vec3<T> point(Vec3<T> local) const { return origin + vector(local); }
    BS_HD Vec3<T> local_vector(Vec3<T> v) const { return {dot(v, axis), dot(v, radial), dot(v, tangent)}; }
    BS_HD Vec3<T> local_point(Vec3<T> p) const { return local_vector(p - origin); }
};

template <class T> BS_HD inline MeridianFrame<T> meridian_frame(const Cone<T>& cone, Vec3<T> radial) {
    return {cone.parent.centre, cone.axis, radial, cross(cone.axis, radial)};
}

// The point at σ on a generator, in its meridian frame: the parent tangency point (r1 sin θ, r1 cos θ)
// plus σ times the generator's direction (cos θ, −sin θ). The same for every generator.
template <class T> BS_HD inline Vec3<T> generator_point_in_meridian(const Cone<T>& cone, T sigma) {
    return {cone.parent.radius * cone.sin_theta + sigma * cone.cos_theta, cone.parent.radius * cone.cos_theta - sigma * cone.sin_theta,
            T(0)};
}

// Position of p's projection on the axis segment, 0 at the parent centre, 1 at the child's (clamped).
template <class T> BS_HD inline T axis_fraction(const Cone<T>& cone, Vec3<T> p) {
    return clamp_value(dot(p - cone.parent.centre, cone.axis) / cone.length, T(0), T(1));
}

// The radius interpolated linearly between the two spheres at axis fraction `along` (0 parent, 1 child).
template <class T> BS_HD inline T radius_at_fraction(const Cone<T>& cone, T along) {
    return (T(1) - along) * cone.parent.radius + along * cone.child.radius;
}

// The smaller of the two end radii (the scale of the tables' tolerances) and the larger.
template <class T> BS_HD inline T smaller_radius(const Cone<T>& cone) {
    return cone.parent.radius < cone.child.radius ? cone.parent.radius : cone.child.radius;
}
template <class T> BS_HD inline T larger_radius(const Cone<T>& cone) {
    return cone.parent.radius > cone.child.radius ? cone.parent.radius : cone.child.radius;
}

// That radius at p's projection on the axis segment.
template <class T> BS_HD inline T radius_at(const Cone<T>& cone, Vec3<T> p) { return radius_at_fraction(cone, axis_fraction(cone, p)); }

// Distance from p to the axis segment over radius_at(p): 1 on a cylinder's surface, continuous in p.
template <class T> BS_HD inline T scaled_axis_distance(const Cone<T>& cone, Vec3<T> p) {
    const T along = axis_fraction(cone, p);
    Vec3<T> foot = cone.parent.centre + (along * cone.length) * cone.axis;
    return norm(p - foot) / radius_at_fraction(cone, along);
}

enum class BonePart { ParentCap, Cone, ChildCap };

template <class T>
struct SurfacePoint {
    Vec3<T> point;      // closest point on the bone's surface
    Vec3<T> normal;     // outward unit normal there
    T signed_distance;  // > 0 outside the bone, < 0 inside (minus the distance to the nearest surface point)
    BonePart part;
    // True when p lies on the axis inside the cone part (every generator is equally near): the
    // generator is then an arbitrary one (any_orthogonal(axis)) and the result jumps across the axis.
    bool on_axis;
};

// Closest point of p on the bone's surface, exact both outside and inside (DESIGN §2: project on the
// axis, shift toward the larger sphere, clamp to the caps, go out by the local radius). In the meridian
// half-plane of p, with x = a·(p − C1) and ρ the distance to the axis, s = x cos θ − ρ sin θ is the
// coordinate of p along the generator measured from the parent tangency point; the generator runs over
// s ∈ [0, d cos θ] and the normals at its ends pass through C1 and C2, so s < 0 is the parent cap's
// region and s > d cos θ the child cap's, inside as well as outside the hull.
template <class T> BS_HD inline SurfacePoint<T> closest_point_on_bone(const Cone<T>& cone, Vec3<T> p) {
    Vec3<T> from_parent = p - cone.parent.centre;
    Vec3<T> from_child = p - cone.child.centre;
    T along = dot(from_parent, cone.axis);
    Vec3<T> off_axis = from_parent - along * cone.axis;
    T radial_distance = norm(off_axis);
    T s = along * cone.cos_theta - radial_distance * cone.sin_theta;
    T parent_distance = norm(from_parent);
    T child_distance = norm(from_child);
    if (s < T(0) && parent_distance > T(0)) {
        Vec3<T> n = from_parent / parent_distance;
        return {cone.parent.centre + cone.parent.radius * n, n, parent_distance - cone.parent.radius,
                BonePart::ParentCap, false};
    }
    if (s > generator_length(cone) && child_distance > T(0)) {
        Vec3<T> n = from_child / child_distance;
        return {cone.child.centre + cone.child.radius * n, n, child_distance - cone.child.radius,
                BonePart::ChildCap, false};
    }
    bool on_axis = radial_distance <= relative_zero<T>() * cone.parent.radius;
    Vec3<T> radial = on_axis ? any_orthogonal(cone.axis) : off_axis / radial_distance;
    Vec3<T> n = cone_normal(cone, radial);
    T distance = along * cone.sin_theta + radial_distance * cone.cos_theta - cone.parent.radius;
    return {p - distance * n, n, distance, BonePart::Cone, on_axis};
}

}  // namespace bs
