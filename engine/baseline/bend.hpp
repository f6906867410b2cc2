// The bend of one joint (seed 000, "When a joint between two consecutive bones is bent"; DESIGN "Index
// the baselines at a joint by β"): where the ends V (on the parent bone) and X (on the child bone) of a
// baseline move on their circles of tangency, as target angles about each bone's axis.
//
// Everything here is in the parent bone's full frame: the parent is at rest and the child bone is
// turned by its swing S about the joint centre. For the rest baseline through V and X:
//   X_rot = S(X); the posed plane of the sheaf through V gives the baseline V–X1 and through X_rot the
//   baseline V1–X_rot; E_UV and E_YX are where those baselines' arcs (on a concave side, the arc between
//   their tangency points) cross the posed separator plane, i.e. two angles β on the pivot circle;
//   E_m is at their mean β_m, on the branch of β_YX − β_UV reached by opening the bend from rest (BendPath)
//   (stateless, and it does not flip where the two are antipodal); the posed plane of the sheaf
//   through E_m holds two generators of the parent, and V' is the one whose own posed baseline crosses
//   the separator at E_m (the paper's "V' on the arc V V1": the map from a parent generator to where its
//   baseline crosses the separator is one-to-one, so this picks V' continuously, with no branch to
//   follow); X' is the child's generator of that same baseline. The targets are the angles V → V' about
//   the parent's axis and X_rot → X' about the child's posed axis, right-handed.
#pragma once

#include "engine/geometry/belt.hpp"
#include "engine/rigid.hpp"
#include "engine/swing_twist.hpp"

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

// The point of the pivot circle at angle β.
template <class T> BS_HD inline Vec3<T> pivot_point(const PosedJoint<T>& j, T beta) {
    return j.pivot.circle.centre + j.pivot.circle.radius * (std::cos(beta) * j.pivot_u0 + std::sin(beta) * j.pivot_u1);
}

// The generators of the posed baseline of the joint through q (a point of `bone`'s circle of tangency), and
// its β. β needs the belt's generators (U, V, X), not its anchor or arc, and neither does anything that reads
// this (the bend's continuation asks for two β per step of every baseline it follows; the final targets
// read V and X), so `generators` holds U, V, X, Y, the radials and the flags of place_generators and
// nothing else (its anchor and arc are zero: belt_at_joint builds them).
template <class T>
struct GeneratorsCrossing {
    Belt<T> generators;
    T beta;
};

template <class T> BS_HD inline GeneratorsCrossing<T> generators_through(const PosedJoint<T>& j, Vec3<T> q, ChainBone bone) {
    SheafPlane<T> plane = sheaf_plane(j.parent, j.child, q);
    GeneratorsCrossing<T> out{};
    place_generators(j.parent, j.child, plane, bone, out.generators);
    out.beta = belt_beta(j, out.generators, plane.normal);
    return out;
}

template <class T> BS_HD inline T beta_through(const PosedJoint<T>& j, Vec3<T> q, ChainBone bone) {
    return generators_through(j, q, bone).beta;
}

// Two candidate baselines whose crossings miss β by amounts this close (radians on the pivot circle) are
// a tie (belt_crossing_at).
constexpr double kAmbiguousCrossing = 1e-6;

// The posed baseline that crosses the separator at β (E = that point of the pivot circle): of the two
// parent generators in the plane of the sheaf through E, the one whose own baseline crosses at E — the
// other crosses at the plane's second point of the pivot circle. Each parent generator's baseline crosses
// the separator at one β and each β is crossed by one baseline, so the choice is continuous in β; where
// the two crossings meet (the plane touches the pivot circle there) the two baselines meet too.
// That map degenerates where the joint's two cones mirror each other about a small sphere (radius ratio
// 1:100, tests/host/test_baseline_bend_continuity.cpp): both baselines then cross at E, or neither does,
// equally well, and the smaller miss was decided by rounding, flipping between generators 1e-3 rad apart
// and turning the deformed segment by about π at that end. Where the two misses tie (within
// kAmbiguousCrossing), the belt at the smaller `distance_from_expected(belt)` is taken (the caller's
// measure of how far a belt is from what it expects). Returns the baseline's generators and β
// (generators_through: its anchor and arc are not built; building them took about 6% of a table sample).
template <class T, class Distance>
BS_HD inline GeneratorsCrossing<T> belt_crossing_at(const PosedJoint<T>& j, T beta, Distance distance_from_expected) {
    SheafPlane<T> plane = sheaf_plane(j.parent, j.child, pivot_point(j, beta));
    GeneratorsCrossing<T> candidates[2];
    T misses[2];
    for (int i = 0; i < 2; ++i) {
        T side = i == 0 ? T(1) : T(-1);
        Vec3<T> V = tangency_point(j.parent, BoneEnd::Child, generator_in_plane(j.parent, plane.point, plane.normal, side).radial);
        candidates[i] = generators_through(j, V, ChainBone::Incoming);
        misses[i] = std::fabs(wrap_angle(candidates[i].beta - beta));
    }
    const bool ambiguous = std::fabs(misses[0] - misses[1]) <= T(kAmbiguousCrossing);
    const bool second = ambiguous ? distance_from_expected(candidates[1].generators) < distance_from_expected(candidates[0].generators)
                                   : misses[1] < misses[0];
    return second ? candidates[1] : candidates[0];
}

template <class T>
struct BendTargets {
    T parent_angle;  // θ_V: about the parent's axis, at its child end (radians, unwrapped: followed from 0 at rest)
    T child_angle;   // θ_X: about the child's axis, at its parent end (likewise)
    Vec3<T> V_prime, X_prime, E_m;  // in the parent's frame (for tests against the paper's construction)
    bool valid;      // false where the separator misses the joint sphere (no pivot circle): targets 0
};

// Uniform steps of the swing's scaling used to follow β_YX − β_UV continuously from rest: at most this
// many, fewer for a short path (uniform_bend_steps).
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

// The rotation taking unit u to unit v about an axis ⟂ both (half a turn about any axis ⟂ u when v = −u).
template <class T> BS_HD inline Quat<T> rotation_between(Vec3<T> u, Vec3<T> v) {
    const T w = T(1) + dot(u, v);
    if (!(w > relative_zero<T>())) return axis_angle(any_orthogonal(u), pi_value<T>());
    const Vec3<T> c = cross(u, v);
    return normalized(Quat<T>{w, c.x, c.y, c.z});
}

// The path along which the bend is scaled from rest (the continuation of Δβ below): the child's axis
// moves from its rest direction c0 to its posed one c1 with its angle ψ from the parent's axis and its
// azimuth about that axis both linear in the fraction f (the azimuth the shorter way round), and the
// swing's own turn about c0 (0 for a pure swing) scaled by f. The pivot circle exists while ψ is below a
// limit set by the radii alone, and along this path ψ stays between its values at the two ends, so every
// step of a pose that has a pivot circle has one too. The shorter arc of the swing (slerp) can fold the
// joint further than both ends where the rest chain is bent: on the bent test chain a 156° swing passed
// through a fold with no pivot circle at 3/4 of its way, the bend was dropped there, and the two bones'
// sections tore apart at the separator (1.76 for points 6e-5 apart). Where the parent, c0 and c1 lie in
// one meridian plane on one side of the axis (a straight rest chain, a bend in the plane of the rest
// bend) the path is slerp's.
template <class T>
struct BendPath {
    Vec3<T> parent_axis, c0, e0;
    T psi0, psi1, azimuth, own_turn;

    BS_HD Quat<T> at(T f) const {
        const T psi = (T(1) - f) * psi0 + f * psi1;
        const Vec3<T> e = rotate(axis_angle(parent_axis, f * azimuth), e0);
        const Vec3<T> c = std::cos(psi) * parent_axis + std::sin(psi) * e;
        return normalized(rotation_between(c0, c) * axis_angle(c0, f * own_turn));
    }
};

// How far the path takes the child (radians): its axis moves by |ψ1 − ψ0| in polar angle and by
// sin ψ · |azimuth| about the parent's axis, sin ψ at most its largest over [ψ0, ψ1] (which holds π/2 or
// not), so the axis travels at most the sum; the path's own turn about c0 adds |own_turn|.
template <class T> BS_HD inline T path_travel(const BendPath<T>& p) {
    const T low = p.psi0 < p.psi1 ? p.psi0 : p.psi1, high = p.psi0 < p.psi1 ? p.psi1 : p.psi0;
    const T half_pi = T(0.5) * pi_value<T>();
    const T sine_low = std::sin(low), sine_high = std::sin(high);
    const T largest_sine = low <= half_pi && half_pi <= high ? T(1) : (sine_low > sine_high ? sine_low : sine_high);
    return std::fabs(high - low) + largest_sine * std::fabs(p.azimuth) + std::fabs(p.own_turn);
}

// The most one uniform step takes the child (path_travel). Before 2026-12-03 every path was cut into
// kBendContinuationSteps uniform steps; then into as few as kept each step within π/8 (the most a step took
// on a path of up to half a turn); since 2026-12-06 within π/4, which spares 40% of the human's steps and a
// fifth of its table build. A survey against a continuation of 64 uniform steps written out (docs/ALGORITHM.md,
// "The bend's continuation"): the same targets on the human's capture either way; on 6,000 random extreme
// joints 0.11% of baselines off it against 0.10% with π/8 (the halving picks the winding there). A path over
// a whole turn's half still takes kBendContinuationSteps steps, longer ones, as before.
constexpr double kUniformBendTravel = pi_value<double>() / 4;
BS_HD constexpr bool is_power_of_two(int n) { return n >= 1 && (n & (n - 1)) == 0; }
static_assert(is_power_of_two(kBendContinuationSteps), "uniform_bend_steps doubles up to it");

// The uniform steps of a path: the fewest powers of two (1, 2, 4, …; so that the grid's fractions are
// exact in binary, see uniform_bend_step) whose steps each travel at most kUniformBendTravel, and
// kBendContinuationSteps at most (also for a travel that is not a number). On the human demo's capture
// 65% of the bent joints' paths take one step, 17% two, 18% four, none eight (6,685 joint poses over 394
// frames; 47%, 18%, 17%, 18% with π/8). The continuation only has to keep each step's change of Δβ
// unambiguous, which the halving of a step whose Δβ moves by more than kMaxBetaStep still guards
// (bend_targets).
template <class T> BS_HD inline int uniform_bend_steps(const BendPath<T>& path) {
    const T travel = path_travel(path);
    int steps = 1;
    while (steps < kBendContinuationSteps && !(travel <= T(steps) * T(kUniformBendTravel))) steps *= 2;
    return steps;
}

template <class T> BS_HD inline BendPath<T> bend_path(const Cone<T>& parent, const Cone<T>& child_rest, Quat<T> swing) {
    const Vec3<T> a = parent.axis, c0 = child_rest.axis, c1 = rotate(swing, c0);
    const SwingTwist<T> split = split_swing_twist(swing, c0);
    // A direction along the parent's axis has no azimuth: it takes the other end's.
    const T tiny = relative_zero<T>();
    const Vec3<T> e1_guess = across_axis(a, c1, tiny, any_orthogonal(a));
    const Vec3<T> e0 = across_axis(a, c0, tiny, e1_guess);
    const Vec3<T> e1 = across_axis(a, c1, tiny, e0);
    auto polar = [&a](Vec3<T> c) { return std::atan2(norm(cross(a, c)), dot(a, c)); };
    return {a, c0, e0, polar(c0), polar(c1), angle_about(a, e0, e1), split.twist_radians};
}

// The target angles followed from 0 at rest, cheaply, along the bend's continuation: a turn of 2π is not
// nothing here, since the cubic profile turns the segment's middle by a fraction of it, and taken wrapped
// an angle passing ±π jumped by 2π between neighbouring generators (seeds 163 and 198 of the bend
// continuity test: 3,447× and 6,037×). After each accepted step the targets lie on one of the two pairs
// of generators in the plane of the sheaf through E_m (the same side of both axes, as place_generators
// pairs them); building both belts to tell which (belt_crossing_at) doubled the cost of bend_targets, so
// the tracker takes the pair that moved less from the angles followed so far, where that pair is clearly
// the nearer (it moved less than half as far as the other). It is only the estimate that the exact
// targets' wrapped angles are brought near at the end (angle_near), but a wrong pick is followed from then
// on. Where the pick is not clear it builds both belts after all (tracked_crossing): on a joint bent
// sharply at rest, the two pairs of a generator near the plane of the rest bend start together (one is
// the other's mirror image) and part slowly, and a step moved both about as far; the pick was then decided
// by rounding, and taken wrong it wound the targets by a whole turn between generators 1e-16 apart
// (cylinders bent 140° at rest, the child swung 170° to 34° from the parent: points torn 1.97 radii apart,
// 1,500 of 36,000 generators wound wrong; docs/ALGORITHM.md "The tracker's unclear picks").
template <class T>
struct TargetTracker {
    T parent_angle = T(0), child_angle = T(0);  // about the parent's axis, about the posed child's axis

    // `v`, `x`: V − C and X_rot − C for the posed joint j; `beta_m`: E_m's angle on its pivot circle.
    BS_HD void follow(const PosedJoint<T>& j, Vec3<T> v, Vec3<T> x, T beta_m);
};

// The angles of a posed baseline's generators (`belt`: its V and X) about the parent's and the posed
// child's axes from the rest baseline's ends (`v`, `x`: V − C and X_rot − C), brought near the tracker's.
template <class T>
BS_HD inline void belt_angles(const PosedJoint<T>& j, Vec3<T> v, Vec3<T> x, const Belt<T>& belt, const TargetTracker<T>& near,
                              T& parent_angle, T& child_angle) {
    const Vec3<T> C = j.parent.child.centre;
    parent_angle = angle_near(angle_about(j.parent.axis, v, belt.V - C), near.parent_angle);
    child_angle = angle_near(angle_about(j.child.axis, x, belt.X - C), near.child_angle);
}

// The posed baseline crossing the separator at β (belt_crossing_at); where its two candidates tie, the
// one nearer the tracker's angles.
template <class T>
BS_HD inline Belt<T> tracked_crossing(const PosedJoint<T>& j, T beta, Vec3<T> v, Vec3<T> x, const TargetTracker<T>& tracker) {
    return belt_crossing_at(j, beta, [&](const Belt<T>& belt) {
               T parent_angle, child_angle;
               belt_angles(j, v, x, belt, tracker, parent_angle, child_angle);
               return std::fabs(parent_angle - tracker.parent_angle) + std::fabs(child_angle - tracker.child_angle);
           }).generators;
}

template <class T> BS_HD inline void TargetTracker<T>::follow(const PosedJoint<T>& j, Vec3<T> v, Vec3<T> x, T beta_m) {
    const SheafPlane<T> plane = sheaf_plane(j.parent, j.child, pivot_point(j, beta_m));
    auto on_side = [&](const Cone<T>& cone, Vec3<T> from, T side, T followed) {
        return angle_near(angle_about(cone.axis, from, generator_in_plane(cone, plane.point, plane.normal, side).radial), followed);
    };
    const T parent_plus = on_side(j.parent, v, T(1), parent_angle), child_plus = on_side(j.child, x, T(1), child_angle);
    const T parent_minus = on_side(j.parent, v, T(-1), parent_angle), child_minus = on_side(j.child, x, T(-1), child_angle);
    const T moved_plus = std::fabs(parent_plus - parent_angle) + std::fabs(child_plus - child_angle);
    const T moved_minus = std::fabs(parent_minus - parent_angle) + std::fabs(child_minus - child_angle);
    const bool plus = moved_plus <= moved_minus;
    const T nearer = plus ? moved_plus : moved_minus, farther = plus ? moved_minus : moved_plus;
    if (T(2) * nearer < farther) {
        parent_angle = plus ? parent_plus : parent_minus;
        child_angle = plus ? child_plus : child_minus;
        return;
    }
    T parent, child;
    belt_angles(j, v, x, tracked_crossing(j, beta_m, v, x, *this), *this, parent, child);
    parent_angle = parent;
    child_angle = child;
}

// The targets where the continuation ends (j: the posed joint; V, X_rot: the rest baseline's ends, the
// child's turned with it): the posed baseline crossing the separator at β_m, its angles brought near the
// tracker's; where the two candidate baselines tie (belt_crossing_at), the one nearer the tracker's angles
// (those followed up to the step before the last: the rest's, 0 and 0, on a path of one step).
template <class T>
BS_HD inline BendTargets<T> final_targets(const PosedJoint<T>& j, T beta_m, Vec3<T> C, Vec3<T> V, Vec3<T> X_rot,
                                          const TargetTracker<T>& tracker) {
    const Belt<T> target = tracked_crossing(j, beta_m, V - C, X_rot - C, tracker);
    BendTargets<T> out{T(0), T(0), target.V, target.X, pivot_point(j, beta_m), true};
    belt_angles(j, V - C, X_rot - C, target, tracker, out.parent_angle, out.child_angle);
    return out;
}

// What the bend's continuation needs of the pose alone, the same for every baseline of the joint: the
// swing, its path, and the swing and posed joint at each of the path's `steps` uniform steps (the last at
// the swing itself). Built once per joint and frame (baseline_pose_table), it spares
// every baseline a path point and a pose_joint per uniform step; a baseline whose step was halved builds
// its off-grid steps itself (any step that ends on the grid comes from here). The targets are bit for bit
// those of building every step per baseline on one processor (the GPU's fallback mixes the host's steps
// with its own, which may contract to FMA: last bits). A schedule belongs to the two cones it was built for.
template <class T>
struct BendSchedule {
    Quat<T> swing;
    BendPath<T> path;
    int steps = kBendContinuationSteps;            // uniform steps: a power of two, at most kBendContinuationSteps
    Quat<T> partials[kBendContinuationSteps];      // i < steps: path.at((i + 1) / steps); the last is the swing itself
    PosedJoint<T> joints[kBendContinuationSteps];  // pose_joint at partials[i]
};

template <class T> BS_HD inline bool bend_is_rest(Quat<T> swing) { return rotation_angle(swing) <= relative_zero<T>(); }

// `steps`: the uniform steps, a power of two up to kBendContinuationSteps; anything else (0 by default)
// for the path's own, uniform_bend_steps (tests compare the two).
template <class T>
BS_HD inline BendSchedule<T> bend_schedule(const Cone<T>& parent, const Cone<T>& child_rest, Quat<T> swing, int steps = 0) {
    BendSchedule<T> s{};
    s.swing = swing;
    if (bend_is_rest(swing)) return s;  // bend_targets returns before the continuation
    s.path = bend_path(parent, child_rest, swing);
    const bool given = is_power_of_two(steps) && steps <= kBendContinuationSteps;
    s.steps = given ? steps : uniform_bend_steps(s.path);
    for (int i = 0; i < s.steps; ++i) {
        s.partials[i] = i + 1 < s.steps ? s.path.at(T(i + 1) / T(s.steps)) : swing;
        s.joints[i] = pose_joint(parent, child_rest, s.partials[i]);
    }
    return s;
}

// The uniform step (of `steps`) that the path fraction f ends, or -1 off the grid (f is a sum of powers of
// two: exact).
template <class T> BS_HD inline int uniform_bend_step(T f, int steps) {
    const T scaled = f * T(steps);
    const int i = int(scaled);
    return T(i) == scaled && i >= 1 ? i - 1 : -1;
}

// Targets for the rest baseline `rest` (V on the parent, X on the child) when the child turns by the
// schedule's swing (`schedule`: bend_schedule of these two cones).
template <class T>
BS_HD inline BendTargets<T> bend_targets(const Cone<T>& parent, const Cone<T>& child_rest, const BendSchedule<T>& schedule,
                                         const Belt<T>& rest) {
    const Vec3<T> C = parent.child.centre;
    const Vec3<T> V = rest.V;
    BendTargets<T> none{T(0), T(0), V, rest.X, rest.anchor, true};
    if (bend_is_rest(schedule.swing)) return none;

    // Δβ = β_YX − β_UV followed by continuity while the bend opens from rest along BendPath. A step whose
    // Δβ would move by more than kMaxBetaStep is halved (down to kMinBendStep of the path).
    T difference = T(0), beta_uv = T(0);
    Vec3<T> X_rot = rest.X;
    PosedJoint<T> j{};
    TargetTracker<T> tracker{};
    const T uniform_step = T(1) / T(schedule.steps);
    T done = T(0), step = uniform_step;
    while (done < T(1)) {
        T next = done + step < T(1) ? done + step : T(1);
        const int uniform = uniform_bend_step(next, schedule.steps);
        Quat<T> partial = uniform >= 0 ? schedule.partials[uniform] : schedule.path.at(next);
        PosedJoint<T> trial = uniform >= 0 ? schedule.joints[uniform] : pose_joint(parent, child_rest, partial);
        if (!trial.pivot.cuts_sphere) return {T(0), T(0), V, rest.X, rest.anchor, false};
        Vec3<T> trial_X_rot = C + rotate(partial, rest.X - C);
        T trial_beta_uv = beta_through(trial, V, ChainBone::Incoming);
        T change = wrap_angle(beta_through(trial, trial_X_rot, ChainBone::Outgoing) - trial_beta_uv - difference);
        if (std::fabs(change) > T(kMaxBetaStep) && step > T(kMinBendStep)) {
            step /= T(2);
            continue;
        }
        difference += change;
        beta_uv = trial_beta_uv;
        done = next;
        j = trial;
        X_rot = trial_X_rot;
        // The last step's targets are the exact ones below, brought near the estimate of the step before.
        if (done < T(1)) tracker.follow(j, V - C, X_rot - C, beta_uv + difference / T(2));
        step = step * T(2) < uniform_step ? step * T(2) : uniform_step;
    }
    return final_targets(j, beta_uv + difference / T(2), C, V, X_rot, tracker);
}

// The same, building the schedule for this one baseline (tests, and callers without a pose table).
template <class T>
BS_HD inline BendTargets<T> bend_targets(const Cone<T>& parent, const Cone<T>& child_rest, Quat<T> swing, const Belt<T>& rest) {
    return bend_targets(parent, child_rest, bend_schedule(parent, child_rest, swing), rest);
}

}  // namespace bs
