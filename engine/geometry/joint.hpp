// Two bones meeting at a joint sphere (C, r): the separator plane where their cones intersect and the
// pivot circle (that plane cut with the joint sphere). DESIGN §2 "Separator plane", seed 000 (Figure 10).
//
// Here each bone is seen from the joint: u_k is its unit axis pointing *into* the joint and
// sin θ_k = (r_far − r) / d_k (DESIGN's convention; for the bone that leaves the joint this is minus its
// parent→child sin θ). Each cone is |x−C|² − r² − P_k(x)²/cos²θ_k = 0 with P_k(x) = (x−C)·u_k − r sin θ_k,
// so the two cones meet on the plane P_k/cos θ_k = P_l/cos θ_l:
//     (x − C) · (u_k / cos θ_k − u_l / cos θ_l) = r (tan θ_k − tan θ_l).
#pragma once

#include "engine/geometry/cone.hpp"

namespace bs {

// A bone as seen from one of its end spheres (the joint).
template <class T>
struct JointEnd {
    Vec3<T> axis_into_joint;  // unit
    T sin_into_joint;         // (r_far − r_joint) / length
    T cos_theta;
};

// The bone `cone` seen from its end sphere `joint`.
template <class T> BS_HD inline JointEnd<T> joint_end(const Cone<T>& cone, BoneEnd joint) {
    if (joint == BoneEnd::Child) return {cone.axis, cone.sin_theta, cone.cos_theta};
    return {-cone.axis, -cone.sin_theta, cone.cos_theta};
}

// The plane normal · (x − joint_centre) = offset_from_centre.
template <class T>
struct SeparatorPlane {
    Vec3<T> joint_centre;
    Vec3<T> normal;  // unit, from the first bone's side toward the second's
    T offset_from_centre;
    // False when the two bones lie folded onto each other (u_k/cos θ_k ≈ u_l/cos θ_l, a 180° bend): the
    // cones then do not cross in a plane. The plane returned is the one through C normal to u_k.
    bool valid;
};

template <class T> BS_HD inline T signed_distance(const SeparatorPlane<T>& plane, Vec3<T> x) {
    return dot(plane.normal, x - plane.joint_centre) - plane.offset_from_centre;
}

// Separator plane of two bones meeting at the sphere `joint` (any pair at a junction, too).
template <class T>
BS_HD inline SeparatorPlane<T> separator_plane(Sphere<T> joint, JointEnd<T> first, JointEnd<T> second) {
    Vec3<T> m = first.axis_into_joint / first.cos_theta - second.axis_into_joint / second.cos_theta;
    T m_norm = norm(m);
    T scale = T(1) / first.cos_theta + T(1) / second.cos_theta;
    if (!(m_norm > relative_zero<T>() * scale)) return {joint.centre, first.axis_into_joint, T(0), false};
    T tan_difference = first.sin_into_joint / first.cos_theta - second.sin_into_joint / second.cos_theta;
    return {joint.centre, m / m_norm, joint.radius * tan_difference / m_norm, true};
}

// Separator plane at the joint of a chain: `incoming` ends at the joint sphere, `outgoing` starts there
// (incoming.child is outgoing.parent). The normal points toward the outgoing bone.
template <class T>
BS_HD inline SeparatorPlane<T> separator_plane(const Cone<T>& incoming, const Cone<T>& outgoing) {
    return separator_plane(incoming.child, joint_end(incoming, BoneEnd::Child),
                           joint_end(outgoing, BoneEnd::Parent));
}

template <class T>
struct PivotCircle {
    Circle<T> circle;  // normal = the separator's normal
    // False when the separator plane misses the joint sphere (|offset| ≥ r); the radius is then 0.
    bool cuts_sphere;
};

template <class T> BS_HD inline PivotCircle<T> pivot_circle(const SeparatorPlane<T>& plane, T joint_radius) {
    T offset = plane.offset_from_centre;
    T radius_squared = (joint_radius - offset) * (joint_radius + offset);
    Vec3<T> centre = plane.joint_centre + offset * plane.normal;
    bool cuts = radius_squared > T(0);
    return {{centre, plane.normal, cuts ? std::sqrt(radius_squared) : T(0)}, cuts};
}

}  // namespace bs
