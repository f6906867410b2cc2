// The baseline portion at a joint, in one plane of the sheaf: a "belt over a pulley" (DESIGN §2
// "Baselines reduce to 2D", seed 000 Figure 5), and the arc that ends a baseline at a free extremity.
//
// Chain incoming (sphere 0 → joint sphere 1) then outgoing (sphere 1 → sphere 2). In the plane:
//   U = tangency of the incoming bone's generator with sphere 0,   V = with the joint sphere;
//   X = tangency of the outgoing bone's generator with the joint,  Y = with sphere 2.
// Both generators lie on the point's side of the chain (DESIGN "The belt's side": the sign of
// (a × (q − C)) · n for the bone the point lies on, the same sign for the other bone).
// Convex: the belt wraps the joint sphere on arc V → X (C¹ at both ends); the anchor is the point of that
// arc on the separator plane. Concave: the two segments cross before touching the sphere; they are cropped
// at the crossing, which lies on the separator plane and is the anchor.
// The crossing comes from tangent lengths: the tangent lines at V and X (both on the circle plane ∩ joint
// sphere) meet at V + λ t_V with λ = |X − V|² / (2 t_V · (X − V)), t_V the unit direction U → V;
// λ > 0 on the convex side, λ < 0 on the concave side.
#pragma once

#include "engine/geometry/joint.hpp"
#include "engine/geometry/sheaf.hpp"

namespace bs {

// Flags of a belt whose construction had to be clamped; each names what was clamped.
enum BeltFlag : unsigned {
    // The plane misses or grazes a cone: that generator is the nearest one to the plane.
    kBeltPlaneMissesCone = 1u << 0,
    // Convex: the separator plane does not cross arc V–X; the anchor is an end of the arc
    // (see arc_separator_crossing).
    kBeltAnchorOffArc = 1u << 1,
    // Concave: the crossing lies beyond U or Y (a bone shorter than the tangent length).
    kBeltCrossingOffSegments = 1u << 2,
};

// Which bone of the joint the point defining the plane lies on (it sets the belt's side).
enum class ChainBone { Incoming, Outgoing };

template <class T>
struct Belt {
    Vec3<T> U, V, X, Y;       // see above
    Vec3<T> radial_incoming;  // the incoming generator's radial direction (cone.hpp)
    Vec3<T> radial_outgoing;  // the outgoing generator's radial direction
    bool concave;
    Vec3<T> anchor;           // convex: arc V–X on the separator plane; concave: the crossing
    T anchor_angle;           // convex: the anchor's angle along joint_arc from V (arc length / radius); 0 if concave
    // Arc V → X on the joint sphere (centre and radius of the circle plane ∩ sphere, starting at V along
    // t_V). Sweep in [0, pi]; 0 when V = X (a C¹ straight belt) and on the concave side.
    Arc<T> joint_arc;
    unsigned flags;  // BeltFlag bits, 0 when nothing was clamped
};

// Circle of the plane ∩ joint sphere through V, started at V along the belt's travel direction t_V.
template <class T>
BS_HD inline Arc<T> joint_arc_from(Sphere<T> joint, Vec3<T> plane_normal, Vec3<T> V, Vec3<T> travel_at_V,
                                   Vec3<T> X) {
    Vec3<T> centre = joint.centre - dot(plane_normal, joint.centre - V) * plane_normal;
    Vec3<T> start_dir = normalized(V - centre);
    Vec3<T> tangent = normalized(travel_at_V - dot(travel_at_V, start_dir) * start_dir);
    Vec3<T> to_X = X - centre;
    T sweep = std::atan2(dot(to_X, tangent), dot(to_X, start_dir));
    return {centre, norm(V - centre), start_dir, tangent, sweep > T(0) ? sweep : T(0)};
}

// Where an arc crosses the separator plane: the angle along the arc, and whether it is a true crossing.
template <class T>
struct ArcCrossing {
    T angle;
    bool on_arc;
};

// f(s) = K + A cos s + B sin s = K + R cos(s − φ0) is the signed distance of arc_point(s); it rises
// through 0 (incoming side → outgoing side) at φ0 − γ and falls at φ0 + γ, γ = atan2(√(R² − K²), −K)
// (atan2 rather than acos, DESIGN numerics). The rising crossing is taken when it lies on the arc, else
// the falling one: past a bend of about 150° V can already lie beyond the separator and X before it.
// `on_arc` is false when neither lies in [0, sweep]; the angle is then that of the end nearer the
// rising crossing.
template <class T>
BS_HD inline ArcCrossing<T> arc_separator_crossing(const Arc<T>& arc, const SeparatorPlane<T>& separator) {
    T K = signed_distance(separator, arc.centre);
    T A = arc.radius * dot(separator.normal, arc.start_dir);
    T B = arc.radius * dot(separator.normal, arc.tangent);
    T R = std::sqrt(A * A + B * B);
    T phi0 = std::atan2(B, A);
    T gamma = std::atan2(std::sqrt(R > std::fabs(K) ? (R - K) * (R + K) : T(0)), -K);
    T rising = wrap_angle(phi0 - gamma), falling = wrap_angle(phi0 + gamma);
    T tolerance = relative_zero<T>();
    auto on_arc = [&](T s) { return R > std::fabs(K) && s >= -tolerance && s <= arc.sweep + tolerance; };
    if (on_arc(rising)) return {clamp_value(rising, T(0), arc.sweep), true};
    if (on_arc(falling)) return {clamp_value(falling, T(0), arc.sweep), true};
    T past_end = std::fabs(wrap_angle(rising - arc.sweep));
    return {std::fabs(rising) <= past_end ? T(0) : arc.sweep, false};
}

// U, V, X, Y and the radial directions of the two generators in the plane on side `side` (±1,
// side_of_axis) of the axes.
template <class T>
BS_HD inline void place_generators_on(const Cone<T>& incoming, const Cone<T>& outgoing, const SheafPlane<T>& plane, T side,
                                      Belt<T>& belt) {
    Generator<T> g_in = generator_in_plane(incoming, plane.point, plane.normal, side);
    Generator<T> g_out = generator_in_plane(outgoing, plane.point, plane.normal, side);
    belt.U = tangency_point(incoming, BoneEnd::Parent, g_in.radial);
    belt.V = tangency_point(incoming, BoneEnd::Child, g_in.radial);
    belt.X = tangency_point(outgoing, BoneEnd::Parent, g_out.radial);
    belt.Y = tangency_point(outgoing, BoneEnd::Child, g_out.radial);
    belt.radial_incoming = g_in.radial;
    belt.radial_outgoing = g_out.radial;
    belt.flags = g_in.plane_cuts_cone && g_out.plane_cuts_cone ? 0u : unsigned(kBeltPlaneMissesCone);
}

// The same on the point's side of its own bone's axis.
template <class T>
BS_HD inline void place_generators(const Cone<T>& incoming, const Cone<T>& outgoing, const SheafPlane<T>& plane,
                                   ChainBone point_bone, Belt<T>& belt) {
    const Cone<T>& own = point_bone == ChainBone::Incoming ? incoming : outgoing;
    place_generators_on(incoming, outgoing, plane, side_of_axis(own, plane.normal, plane.point), belt);
}

// Concave side: crop both segments at their crossing V + λ t_V (λ < 0, from tangent lengths). When the
// crossing lies beyond U or Y (a joint folded until the generators are nearly parallel, where λ grows
// without bound) the anchor is clamped, and flagged: to the middle of the two points the shorter segment's
// length (`reach`) back from the joint on each generator, V − reach t_V and X + reach t_X. Both generators
// alike, because one bone is the outgoing bone of one joint and the incoming bone of the next: an anchor on
// the incoming generator only made a short bone bent alike at both ends (a U) lopsided from the bend where
// the crossing leaves it, 2·atan(L / r) (0.39 radii at 105° for L = 1.2 r; benchmarks/RESULTS.md,
// 2026-12-07). At the bend where the crossing reaches `reach` the two points are the crossing itself, so
// the anchor is continuous there.
template <class T> BS_HD inline void crop_at_crossing(T ahead, T chord_squared, Vec3<T> travel_at_V, Belt<T>& belt) {
    T lambda = chord_squared / (T(2) * ahead);
    belt.anchor_angle = T(0);
    belt.joint_arc.sweep = T(0);
    T incoming_length = norm(belt.V - belt.U), outgoing_length = norm(belt.Y - belt.X);
    T reach = incoming_length < outgoing_length ? incoming_length : outgoing_length;
    if (-lambda <= reach) {
        belt.anchor = belt.V + lambda * travel_at_V;
        return;
    }
    belt.flags |= kBeltCrossingOffSegments;
    Vec3<T> travel_at_X = normalized(belt.Y - belt.X);
    belt.anchor = T(0.5) * ((belt.V - reach * travel_at_V) + (belt.X + reach * travel_at_X));
}

// The belt of the plane `plane` (built through a point lying on `point_bone`) at the joint between
// `incoming` and `outgoing` (incoming.child is outgoing.parent), with their separator plane.
template <class T>
BS_HD inline Belt<T> belt_at_joint(const Cone<T>& incoming, const Cone<T>& outgoing,
                                   const SeparatorPlane<T>& separator, const SheafPlane<T>& plane,
                                   ChainBone point_bone) {
    Belt<T> belt;
    place_generators(incoming, outgoing, plane, point_bone, belt);
    Vec3<T> travel_at_V = normalized(belt.V - belt.U);
    Vec3<T> chord = belt.X - belt.V;
    T ahead = dot(travel_at_V, chord);  // |VX| cos(ψ/2) on the convex side, its opposite on the concave one
    T chord_squared = norm2(chord);
    belt.concave = ahead < -relative_zero<T>() * std::sqrt(chord_squared);
    belt.joint_arc = joint_arc_from(incoming.child, plane.normal, belt.V, travel_at_V, belt.X);
    if (belt.concave) {
        crop_at_crossing(ahead, chord_squared, travel_at_V, belt);
        return belt;
    }
    ArcCrossing<T> crossing = arc_separator_crossing(belt.joint_arc, separator);
    belt.anchor = arc_point(belt.joint_arc, crossing.angle);
    belt.anchor_angle = crossing.angle;
    if (!crossing.on_arc) belt.flags |= kBeltAnchorOffArc;
    return belt;
}

// Arc that ends a baseline at a free extremity (seed 000: "extended by a circular arc joining the
// endpoint to the furthest point of the sphere cap that is aligned on the bone axis"): on the end
// sphere, in the generator's meridian plane, from the generator's tangency point (U at a parent end,
// Y at a child end) to the pole C2 + r2 a (child end) or C1 − r1 a (parent end).
// Sweep = pi/2 − θ at the child end, pi/2 + θ at the parent end (by atan2).
template <class T> BS_HD inline Arc<T> free_end_arc(const Cone<T>& cone, BoneEnd end, Vec3<T> radial) {
    Sphere<T> s = end_sphere(cone, end);
    Vec3<T> start_dir = cone_normal(cone, radial);
    Vec3<T> toward_child_pole = cone.cos_theta * cone.axis - cone.sin_theta * radial;
    if (end == BoneEnd::Child)
        return {s.centre, s.radius, start_dir, toward_child_pole, std::atan2(cone.cos_theta, cone.sin_theta)};
    return {s.centre, s.radius, start_dir, -toward_child_pole, std::atan2(cone.cos_theta, -cone.sin_theta)};
}

}  // namespace bs
