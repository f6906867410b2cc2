// The posed section of a baseline on its bone (seed 000: "the deformed segments are completed with
// circular arcs in the spherical convex parts of the joints, and they are truncated where they intersect
// in the concave parts"; DESIGN "Bend targets keep the baseline tangent", "Curvilinear ratio t").
//
// Everything is in bone k's frame F⁰_k (its posed frame without its own twist): bone k is at rest, its
// parent is turned back by k's swing about the parent joint, its child is turned by k's twist and the
// child's swing. The deformed segment is the rest generator with each point turned about the axis by
// α(σ) = θ_parent c(1 − d) + θ_child c(d), c(d) = 3d² − 2d³, d running over the rest segment (0 at its
// parent end, 1 at its child end, clamped beyond; over at least kTurnRampFloor of the generator);
// θ_child includes the bone's twist. At each joint the
// posed end is rebuilt from the posed belt through the segment's moved end (V' or U'):
//   convex  — the segment runs to the tangency point, then the posed arc to the posed anchor;
//   concave — the posed anchor is the crossing of the generators through V' and X' (on the separator);
//             the segment is cropped at the anchor's σ on the end generator, and a crease piece on the
//             bone's cone joins the crop point to the anchor (wherever that lies: it may run either way);
//   free    — the segment runs to the tangency point (the cap is encoded radially).
#pragma once

#include <limits>

#include "engine/baseline/bend.hpp"
#include "engine/baseline/section.hpp"

namespace bs {

template <class T>
struct BaselineBonePose {
    Rigid<T> frame;  // F⁰_k: posed transform of bone k without its own twist
    T twist;         // τ_k, radians, unwrapped
    BendSchedule<T> bend;  // bone k's swing in its parent's posed frame (its bend; unused for the first bone),
                           // with the continuation's steps at its joint with the previous chain bone, if any:
                           // built for these bones' cones (baseline_pose_table), valid with them alone
    TurnedRigid<T> field;  // F⁰_k after a turn about bone k's rest axis line: the rigid field's motion of bone k
                           // (deform.hpp, rigid_transform_of_bone); of(frame, rest axis, rest parent centre)
    DualQuat<T> field_twisted;  // field.at(twist): the field's motion of bone k beyond its child end, and its
                                // tip cap's (deform_cap_point): `frame` after the turn by `twist`
    BoneAxes<T> axes;  // bone k's rest axes moved by `frame` (posed_axes): the per-point pass places a point on
                       // its deformed segment directly in posed coordinates (engine/baseline/table.hpp)
};

template <class T> BS_HD inline BoneAxes<T> posed_axes(const BaselineBone<T>& bone, const Rigid<T>& frame) {
    const BoneAxes<T> rest = rest_axes(bone);
    return {frame.apply(rest.origin), frame.apply_vector(rest.axis), frame.apply_vector(rest.reference), frame.apply_vector(rest.side)};
}

// Bone k's entry of a pose table from its posed frame F⁰_k (without its own twist), its unwrapped twist and
// its swing (about its parent joint, in the parent's posed frame). At rest: the identity, 0 and the identity.
template <class T>
BS_HD inline BaselineBonePose<T> bone_pose(const BaselineBone<T>* bones, int k, const Rigid<T>& frame, T twist, Quat<T> swing) {
    const BaselineBone<T>& bone = bones[k];
    BaselineBonePose<T> entry;
    entry.frame = frame;
    entry.twist = twist;
    entry.field = TurnedRigid<T>::of(frame, bone.cone.axis, bone.cone.parent.centre);
    entry.field_twisted = entry.field.at(twist);
    entry.axes = posed_axes(bone, frame);
    if (bone.previous >= 0) {
        entry.bend = bend_schedule(bones[bone.previous].cone, bone.cone, swing);
    } else {
        entry.bend.swing = swing;  // no chain joint: no continuation
    }
    return entry;
}

template <class T> BS_HD inline T cubic_profile(T d) { return d * d * (T(3) - T(2) * d); }

// Bone k and its neighbours in F⁰_k; local indices 0 (previous), 1 (k), 2 (next).
template <class T>
struct LocalChain {
    BaselineBone<T> bones[3];
};

template <class T>
BS_HD inline LocalChain<T> posed_neighbourhood(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, int k) {
    LocalChain<T> local;
    const BaselineBone<T>& bone = bones[k];
    local.bones[1] = bone;
    local.bones[1].previous = bone.previous >= 0 ? 0 : -1;
    local.bones[1].next = bone.next >= 0 ? 2 : -1;
    if (bone.previous >= 0) {
        local.bones[0] = bones[bone.previous];
        local.bones[0].cone = turned_cone(bones[bone.previous].cone, conjugate(poses[k].bend.swing), bone.cone.parent.centre);
        local.bones[1].parent_separator = separator_plane(local.bones[0].cone, bone.cone);
    }
    if (bone.next >= 0) {
        Quat<T> twist = axis_angle(bone.cone.axis, poses[k].twist);
        const Vec3<T> C = bone.cone.child.centre;  // on the axis: the twist leaves it in place
        local.bones[2] = bones[bone.next];
        local.bones[2].cone = turned_cone(turned_cone(bones[bone.next].cone, poses[bone.next].bend.swing, C), twist, C);
        local.bones[1].child_separator = separator_plane(bone.cone, local.bones[2].cone);
    }
    return local;
}

// Turn of the deformed segment about the axis along the rest generator parameter σ.
template <class T>
struct SegmentTurn {
    T at_parent, at_child;   // target angles at the segment's two ends (θ_child includes the twist)
    T sigma_start, sigma_end;  // where the ramp runs (d = 0 and d = 1): the rest segment, at least kTurnRampFloor ω long

    // A product by 1 / span, which does not wait for σ: a division there lay on the per-point pass's chain.
    // segment_turn keeps the span at least kTurnRampFloor ω; a span below the smallest normal number (whose
    // reciprocal would overflow: a combination of table samples, or a generator that short) is a step.
    BS_HD T at(T sigma) const {
        T span = sigma_end - sigma_start;
        T d = span >= std::numeric_limits<T>::min() ? clamp_value((sigma - sigma_start) * (T(1) / span), T(0), T(1))
                                                    : (sigma <= sigma_start ? T(0) : T(1));
        return at_parent * cubic_profile(T(1) - d) + at_child * cubic_profile(d);
    }
};

// The shortest rest span the turn ramps over, as a fraction of the bone's generator length ω. Where the
// rest segment is empty (its two ends meet: a convex parent arc running straight into a child crop, as on
// a nearly degenerate cone, |C1 − C2| just above |r1 − r2|, whose rest crop is clamped to σ = 0 on every
// generator) its ends differ by rounding alone (±1e-19), and a ramp over that span is a step whose side
// rounding picks: the segment's single point took the parent's turn or the child's, twist and all, between
// generators 1e-4 rad apart (base-points 0.06–0.10 apart under bends up to 45°; the disc's 7e-4-long
// generators). Over at least this span (or up to ω, where the rest segment starts closer to it than that)
// the turn is continuous in the rest ends, and the ramp ends by ω wherever it starts before ω, so the
// child's moved end at ω keeps the child's whole turn as before.
constexpr double kTurnRampFloor = 1e-6;

// Targets of the rest baseline through `radial` on bone k at both its joints, plus its twist.
template <class T>
BS_HD inline SegmentTurn<T> segment_turn(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, int k,
                                         const Section<T>& rest) {
    const BaselineBone<T>& bone = bones[k];
    const T omega = generator_length(bone.cone);
    const T floor_end = rest.parent.sigma + T(kTurnRampFloor) * omega;
    const T ramp_end = floor_end < omega ? floor_end : omega;
    SegmentTurn<T> turn{T(0), poses[k].twist, rest.parent.sigma, rest.child.sigma > ramp_end ? rest.child.sigma : ramp_end};
    if (bone.next >= 0) {
        const Cone<T>& next = bones[bone.next].cone;
        Belt<T> rest_belt = rest_belt_from(bone.cone, next, rest.radial, ChainBone::Incoming);
        turn.at_child += bend_targets(bone.cone, next, poses[bone.next].bend, rest_belt).parent_angle;
    }
    if (bone.previous >= 0) {
        const Cone<T>& previous = bones[bone.previous].cone;
        Belt<T> rest_belt = rest_belt_from(previous, bone.cone, rest.radial, ChainBone::Outgoing);
        turn.at_parent = bend_targets(previous, bone.cone, poses[k].bend, rest_belt).child_angle;
    }
    return turn;
}

template <class T>
struct DeformedSegment {
    Vec3<T> axis_point, axis;  // the bone's axis line (its parent centre, unit direction)
    Vec3<T> U, along;          // the rest generator: U + σ along
    SegmentTurn<T> turn;

    BS_HD Vec3<T> at(T sigma) const {
        return axis_point + rotate(axis_angle(axis, turn.at(sigma)), U + sigma * along - axis_point);
    }
};

// The length of a posed end: its arc's, its crease piece's, or 0 for a free end. Selected, not branched on:
// the kind changes with φ across a bent joint (see combine_end_extent in table.hpp).
template <class T> BS_HD inline T end_length(EndKind kind, T arc_radius, T arc_begin, T arc_end, T crease_length) {
    const T arc = (arc_end - arc_begin) * arc_radius;
    return kind == EndKind::Convex ? arc : (kind == EndKind::Concave ? crease_length : T(0));
}

// One end of a posed section.
template <class T>
struct PosedEnd {
    EndKind kind;
    T sigma;       // where the deformed segment ends (crop point on a concave side)
    Arc<T> arc;    // convex
    T arc_begin, arc_end;
    Crease<T> crease;  // concave: from the crop point (child end) or the anchor (parent end), in travel order
    unsigned flags;
    T rest_crease = T(0);  // concave: the crease piece's length at rest on this generator (SectionEnd::crease_length: 0
                           // but where the anchor is clamped off the generator or the segment is collapsed at rest),
                           // which the fan does not borrow (fan_reading)

    BS_HD T length() const { return end_length(kind, arc.radius, arc_begin, arc_end, crease.length); }
};

template <class T>
BS_HD inline PosedEnd<T> posed_child_end(const LocalChain<T>& local, const DeformedSegment<T>& segment) {
    const BaselineBone<T>& bone = local.bones[1];
    const T omega = generator_length(bone.cone);
    PosedEnd<T> end{EndKind::Free, omega, {}, T(0), T(0), {}, 0u};
    if (bone.next < 0) return end;
    const Cone<T>& next = local.bones[2].cone;
    Vec3<T> V = segment.at(omega);
    Belt<T> belt = belt_at_joint(bone.cone, next, bone.child_separator, sheaf_plane(bone.cone, next, V), ChainBone::Incoming);
    end.flags = belt.flags;
    if (!belt.concave) {
        end.kind = EndKind::Convex;
        end.arc = belt.joint_arc;
        end.arc_end = belt.anchor_angle;
        return end;
    }
    end.kind = EndKind::Concave;
    end.sigma = anchor_sigma(bone.cone, belt.anchor);
    end.crease = make_crease(bone.cone, segment.at(end.sigma), belt.anchor, segment.turn.at(omega) - segment.turn.at(end.sigma));
    return end;
}

template <class T>
BS_HD inline PosedEnd<T> posed_parent_end(const LocalChain<T>& local, const DeformedSegment<T>& segment) {
    const BaselineBone<T>& bone = local.bones[1];
    PosedEnd<T> end{EndKind::Free, T(0), {}, T(0), T(0), {}, 0u};
    if (bone.previous < 0) return end;
    const Cone<T>& previous = local.bones[0].cone;
    Vec3<T> U = segment.at(T(0));
    Belt<T> belt = belt_at_joint(previous, bone.cone, bone.parent_separator, sheaf_plane(previous, bone.cone, U),
                                 ChainBone::Outgoing);
    end.flags = belt.flags;
    if (!belt.concave) {
        end.kind = EndKind::Convex;
        end.arc = belt.joint_arc;
        end.arc_begin = belt.anchor_angle;
        end.arc_end = belt.joint_arc.sweep;
        return end;
    }
    end.kind = EndKind::Concave;
    end.sigma = anchor_sigma(bone.cone, belt.anchor);
    end.crease = make_crease(bone.cone, belt.anchor, segment.at(end.sigma), segment.turn.at(end.sigma) - segment.turn.at(T(0)));
    return end;
}

}  // namespace bs
