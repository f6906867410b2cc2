// The bend of one joint (seed 000, "When a joint between two consecutive bones is bent"; DESIGN "Index
// the baselines at a joint by β"): where the ends V (on the parent bone) and X (on the child bone) of a
// baseline move on their circles of tangency, as target angles about each bone's axis.
//
// Everything here is in the parent bone's full frame: the parent is at rest and the child bone is
// turned by its swing S about the joint centre. For the rest baseline through V and X:
//   X_rot = S(X); the posed plane of the sheaf through V gives the baseline V–X1 and through X_rot the
//   baseline V1–X_rot; E_UV and E_YX are where those baselines' arcs (on a concave side, the arc between
//   their tangency points) cross the posed separator plane, i.e. two angles β on the pivot circle;
//   E_m is at their mean β_m, on the branch of β_YX − β_UV reached by scaling S from the identity
//   (stateless, and it does not flip where the two are antipodal); the posed plane of the sheaf
//   through E_m holds V' and X' — V' the one of its two parent generators followed from V along the
//   same scaling, X' the child's generator on V''s side. The targets are the angles V → V' about the parent's axis and
//   X_rot → X' about the child's posed axis, right-handed.
#pragma once

#include "engine/geometry/belt.hpp"
#include "engine/rigid.hpp"

namespace bs {

// A cone turned by q about the point c.
template <class T> BS_HD inline Cone<T> turned_cone(const Cone<T>& cone, Quat<T> q, Vec3<T> c) {
    Cone<T> out = cone;
    out.parent.centre = c + rotate(q, cone.parent.centre - c);
    out.child.centre = c + rotate(q, cone.child.centre - c);
    out.axis = rotate(q, cone.axis);
    return out;
}

// Signed angle from a to b about the unit axis (components along the axis ignored).
template <class T> BS_HD inline T angle_about(Vec3<T> axis, Vec3<T> a, Vec3<T> b) {
    Vec3<T> a_perp = a - dot(a, axis) * axis, b_perp = b - dot(b, axis) * axis;
    return std::atan2(dot(cross(a_perp, b_perp), axis), dot(a_perp, b_perp));
}

// One joint in the parent's full frame: the parent at rest, the child turned by `swing`.
template <class T>
struct PosedJoint {
    Cone<T> parent;
    Cone<T> child;  // posed
    SeparatorPlane<T> separator;
    PivotCircle<T> pivot;
    Vec3<T> pivot_u0, pivot_u1;  // orthonormal frame of the pivot circle's plane: β = 0 along u0
};

template <class T>
BS_HD inline PosedJoint<T> pose_joint(const Cone<T>& parent, const Cone<T>& child_rest, Quat<T> swing) {
    PosedJoint<T> j;
    j.parent = parent;
    j.child = turned_cone(child_rest, swing, parent.child.centre);
    j.separator = separator_plane(j.parent, j.child);
    j.pivot = pivot_circle(j.separator, parent.child.radius);
    j.pivot_u0 = any_orthogonal(j.separator.normal);
    j.pivot_u1 = cross(j.separator.normal, j.pivot_u0);
    return j;
}

// β of a belt: where its arc V → X (on a concave side, the arc between the tangency points) crosses the
// separator plane, as an angle on the pivot circle.
template <class T> BS_HD inline T belt_beta(const PosedJoint<T>& j, const Belt<T>& belt, Vec3<T> plane_normal) {
    Vec3<T> chord = belt.X - belt.V;
    T chord_length = norm(chord);
    Vec3<T> travel = chord_length > T(0) ? chord / chord_length : normalized(belt.V - belt.U);
    Arc<T> arc = joint_arc_from(j.parent.child, plane_normal, belt.V, travel, belt.X);
    Vec3<T> e = arc_point(arc, arc_separator_crossing(arc, j.separator).angle) - j.pivot.circle.centre;
    return std::atan2(dot(e, j.pivot_u1), dot(e, j.pivot_u0));
}

template <class T> BS_HD inline T beta_through(const PosedJoint<T>& j, Vec3<T> q, ChainBone bone) {
    SheafPlane<T> plane = sheaf_plane(j.parent, j.child, q);
    return belt_beta(j, belt_at_joint(j.parent, j.child, j.separator, plane, bone), plane.normal);
}

// Of the two generators of `cone` in a plane through its apex, the one whose tangency point with the
// sphere at `end` is nearer to `near`.
template <class T>
BS_HD inline Vec3<T> nearest_generator(const Cone<T>& cone, const SheafPlane<T>& plane, BoneEnd end, Vec3<T> near) {
    Vec3<T> a = generator_in_plane(cone, plane.point, plane.normal, T(1)).radial;
    Vec3<T> b = generator_in_plane(cone, plane.point, plane.normal, T(-1)).radial;
    return norm2(tangency_point(cone, end, a) - near) <= norm2(tangency_point(cone, end, b) - near) ? a : b;
}

template <class T>
struct BendTargets {
    T parent_angle;  // θ_V: about the parent's axis, at its child end
    T child_angle;   // θ_X: about the child's axis, at its parent end
    Vec3<T> V_prime, X_prime, E_m;  // in the parent's frame (for tests against the paper's construction)
    bool valid;      // false where the separator misses the joint sphere (no pivot circle): targets 0
};

// Steps of the swing's scaling used to follow β_YX − β_UV continuously from rest.
constexpr int kBendContinuationSteps = 8;
constexpr double kMaxBetaStep = 0.5;           // radians of Δβ per accepted step
constexpr double kMinBendStep = 1.0 / 1024.0;  // smallest step, as a fraction of the swing

// The rest baseline at a joint seen from one of its bones: the belt of the plane of the sheaf through
// that bone's tangency point with the joint sphere (V for the parent, X for the child). Near a joint's
// convex/concave change the pairing of generators is only consistent when taken from the point's own
// bone, so the bend of a baseline always starts from this belt.
template <class T>
BS_HD inline Belt<T> rest_belt_from(const Cone<T>& parent, const Cone<T>& child_rest, Vec3<T> radial, ChainBone bone) {
    Vec3<T> q = bone == ChainBone::Incoming ? tangency_point(parent, BoneEnd::Child, radial)
                                           : tangency_point(child_rest, BoneEnd::Parent, radial);
    return belt_at_joint(parent, child_rest, separator_plane(parent, child_rest), sheaf_plane(parent, child_rest, q), bone);
}

// Targets for the rest baseline `rest` (V on the parent, X on the child) when the child turns by `swing`.
template <class T>
BS_HD inline BendTargets<T> bend_targets(const Cone<T>& parent, const Cone<T>& child_rest, Quat<T> swing,
                                         const Belt<T>& rest) {
    const Vec3<T> C = parent.child.centre;
    const Vec3<T> V = rest.V;
    BendTargets<T> none{T(0), T(0), V, rest.X, rest.anchor, true};
    if (rotation_angle(swing) <= relative_zero<T>()) return none;

    // Follow the construction while the swing is scaled from the identity: Δβ = β_YX − β_UV by
    // continuity, and V' along its branch (below).
    T difference = T(0);
    Vec3<T> V_prime = V, X_prime = rest.X, E_m = rest.anchor, X_rot = rest.X;
    PosedJoint<T> j{};
    // Adaptive steps: a step whose Δβ would move by more than kMaxBetaStep, or after which V' could not be
    // told from the other branch, is halved (down to kMinBendStep of the swing).
    T done = T(0), step = T(1) / T(kBendContinuationSteps);
    while (done < T(1)) {
        T next = done + step < T(1) ? done + step : T(1);
        Quat<T> partial = slerp(Quat<T>::identity(), swing, next);
        PosedJoint<T> trial = pose_joint(parent, child_rest, partial);
        if (!trial.pivot.cuts_sphere) return {T(0), T(0), V, rest.X, rest.anchor, false};
        Vec3<T> trial_X_rot = C + rotate(partial, rest.X - C);
        T beta_uv = beta_through(trial, V, ChainBone::Incoming);
        T beta_yx = beta_through(trial, trial_X_rot, ChainBone::Outgoing);
        T change = wrap_angle(beta_yx - beta_uv - difference);
        if (std::fabs(change) > T(kMaxBetaStep) && step > T(kMinBendStep)) {
            step /= T(2);
            continue;
        }
        T trial_difference = difference + change;
        T beta_m = beta_uv + trial_difference / T(2);
        Vec3<T> trial_E_m = trial.pivot.circle.centre +
                            trial.pivot.circle.radius * (std::cos(beta_m) * trial.pivot_u0 + std::sin(beta_m) * trial.pivot_u1);
        // V' follows its branch: of the two parent generators in the plane through E_m, the one nearer to
        // the previous step's V' — but only once it is clearly nearer (half the other's distance): where
        // the other branch sweeps past, the step is halved until the two are told apart.
        SheafPlane<T> plane = sheaf_plane(trial.parent, trial.child, trial_E_m);
        Vec3<T> a = tangency_point(trial.parent, BoneEnd::Child, generator_in_plane(trial.parent, plane.point, plane.normal, T(1)).radial);
        Vec3<T> b = tangency_point(trial.parent, BoneEnd::Child, generator_in_plane(trial.parent, plane.point, plane.normal, T(-1)).radial);
        T to_a = norm(a - V_prime), to_b = norm(b - V_prime);
        bool a_nearer = to_a <= to_b;
        T near = a_nearer ? to_a : to_b, far = a_nearer ? to_b : to_a;
        if (near > T(0.5) * far && step > T(kMinBendStep)) {
            step /= T(2);
            continue;
        }
        difference = trial_difference;
        done = next;
        j = trial;
        X_rot = trial_X_rot;
        E_m = trial_E_m;
        V_prime = a_nearer ? a : b;
        // X': the child's generator on V''s side (the belt side rule), so that the posed belt through V' —
        // built from either bone — pairs V' with X'.
        T side = side_of_axis(j.parent, plane.normal, V_prime);
        X_prime = tangency_point(j.child, BoneEnd::Parent, generator_in_plane(j.child, plane.point, plane.normal, side).radial);
        step = step * T(2) < T(1) / T(kBendContinuationSteps) ? step * T(2) : T(1) / T(kBendContinuationSteps);
    }
    return {angle_about(parent.axis, V - C, V_prime - C), angle_about(j.child.axis, X_rot - C, X_prime - C), V_prime,
            X_prime, E_m, true};
}

}  // namespace bs
