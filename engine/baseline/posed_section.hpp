// The posed section of a baseline on its bone (seed 000: "the deformed segments are completed with
// circular arcs in the spherical convex parts of the joints, and they are truncated where they intersect
// in the concave parts"; DESIGN "Bend targets keep the baseline tangent", "Curvilinear ratio t").
//
// Everything is in bone k's frame F⁰_k (its posed frame without its own twist): bone k is at rest, its
// parent is turned back by k's swing about the parent joint, its child is turned by k's twist and the
// child's swing. The deformed segment is the rest generator with each point turned about the axis by
// α(σ) = θ_parent c(1 − d) + θ_child c(d), c(d) = 3d² − 2d³, d running over the rest segment (0 at its
// parent end, 1 at its child end, clamped beyond); θ_child includes the bone's twist. At each joint the
// posed end is rebuilt from the posed belt through the segment's moved end (V' or U'):
//   convex  — the segment runs to the tangency point, then the posed arc to the posed anchor;
//   concave — the segment is cropped where it crosses the posed separator plane, and the section runs
//             along the crease (the cones' intersection, on the separator) to the posed anchor, the
//             crossing of the generators through V' and X' (wherever that anchor lies: the crease piece
//             may run either way);
//   free    — the segment runs to the tangency point (the cap is encoded radially).
#pragma once

#include "engine/baseline/bend.hpp"
#include "engine/baseline/section.hpp"

namespace bs {

template <class T>
struct BaselineBonePose {
    Rigid<T> frame;  // F⁰_k: posed transform of bone k without its own twist
    T twist;         // τ_k, radians, unwrapped
    Quat<T> swing;   // bone k's swing in its parent's posed frame (its bend; unused for the first bone)
};

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
        local.bones[0].cone = turned_cone(bones[bone.previous].cone, conjugate(poses[k].swing), bone.cone.parent.centre);
        local.bones[1].parent_separator = separator_plane(local.bones[0].cone, bone.cone);
    }
    if (bone.next >= 0) {
        Quat<T> twist = axis_angle(bone.cone.axis, poses[k].twist);
        const Vec3<T> C = bone.cone.child.centre;  // on the axis: the twist leaves it in place
        local.bones[2] = bones[bone.next];
        local.bones[2].cone = turned_cone(turned_cone(bones[bone.next].cone, poses[bone.next].swing, C), twist, C);
        local.bones[1].child_separator = separator_plane(bone.cone, local.bones[2].cone);
    }
    return local;
}

// Turn of the deformed segment about the axis along the rest generator parameter σ.
template <class T>
struct SegmentTurn {
    T at_parent, at_child;   // target angles at the segment's two ends (θ_child includes the twist)
    T sigma_start, sigma_end;  // the rest segment (d = 0 and d = 1)

    BS_HD T at(T sigma) const {
        T span = sigma_end - sigma_start;
        T d = span > T(0) ? clamp_value((sigma - sigma_start) / span, T(0), T(1)) : (sigma <= sigma_start ? T(0) : T(1));
        return at_parent * cubic_profile(T(1) - d) + at_child * cubic_profile(d);
    }
};

// Targets of the rest baseline through `radial` on bone k at both its joints, plus its twist.
template <class T>
BS_HD inline SegmentTurn<T> segment_turn(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, int k,
                                         const Section<T>& rest) {
    const BaselineBone<T>& bone = bones[k];
    SegmentTurn<T> turn{T(0), poses[k].twist, rest.parent.sigma, rest.child.sigma};
    if (bone.next >= 0) {
        const Cone<T>& next = bones[bone.next].cone;
        Belt<T> rest_belt = rest_belt_from(bone.cone, next, rest.radial, ChainBone::Incoming);
        turn.at_child += bend_targets(bone.cone, next, poses[bone.next].swing, rest_belt).parent_angle;
    }
    if (bone.previous >= 0) {
        const Cone<T>& previous = bones[bone.previous].cone;
        Belt<T> rest_belt = rest_belt_from(previous, bone.cone, rest.radial, ChainBone::Outgoing);
        turn.at_parent = bend_targets(previous, bone.cone, poses[k].swing, rest_belt).child_angle;
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

// A crease piece: the points where the generators of the bone's cone between two radials cross a plane
// (within the bone: clamped to each generator's segment), from `from` to `to`. Its ends are pinned to those
// two points exactly (a crop point that could not be placed on the plane — flagged — would otherwise leave
// a gap to the segment): the correction is spread linearly along the piece and vanishes when the ends lie
// on the plane.
template <class T>
struct Crease {
    Cone<T> cone;
    SeparatorPlane<T> plane;
    Vec3<T> from_radial;
    T sweep;   // signed angle about the axis from `from_radial` to the other end's radial
    Vec3<T> from_offset, to_offset;  // from − raw(0), to − raw(1)
    T length;  // polyline length (kCreaseChords chords)

    BS_HD Vec3<T> raw(T u) const {
        Vec3<T> radial = rotate(axis_angle(cone.axis, u * sweep), from_radial);
        Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
        Vec3<T> along = normalized(tangency_point(cone, BoneEnd::Child, radial) - U);
        T rate = dot(plane.normal, along);
        T sigma = std::fabs(rate) > relative_zero<T>() ? -signed_distance(plane, U) / rate : T(0);
        // Only the generator's extent on the bone: a generator nearly parallel to the plane (a crease
        // swept around the cone under a large twist) would put the point at any distance (measured: a
        // crease 5,800 long beside a joint sphere of radius 0.01). Continuous, and no change where the
        // crease stays on the bone.
        return U + clamp_value(sigma, T(0), cone.length * cone.cos_theta) * along;
    }
    BS_HD Vec3<T> at(T u) const { return raw(u) + (T(1) - u) * from_offset + u * to_offset; }
};

constexpr int kCreaseChords = 4;

template <class T> BS_HD inline Crease<T> make_crease(const Cone<T>& cone, const SeparatorPlane<T>& plane, Vec3<T> from, Vec3<T> to) {
    auto radial_of = [&](Vec3<T> x) {
        Vec3<T> d = x - cone.parent.centre;
        return normalized(d - dot(d, cone.axis) * cone.axis);
    };
    Vec3<T> r0 = radial_of(from);
    Crease<T> c{cone, plane, r0, angle_about(cone.axis, r0, radial_of(to)), {}, {}, T(0)};
    c.from_offset = from - c.raw(T(0));
    c.to_offset = to - c.raw(T(1));
    Vec3<T> previous = from;
    for (int i = 1; i <= kCreaseChords; ++i) {
        Vec3<T> next = c.at(T(i) / T(kCreaseChords));
        c.length += norm(next - previous);
        previous = next;
    }
    return c;
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

    BS_HD T length() const {
        if (kind == EndKind::Convex) return (arc_end - arc_begin) * arc.radius;
        if (kind == EndKind::Concave) return crease.length;
        return T(0);
    }
};

// The σ where the deformed segment, walked from `from` (on bone k's side of the plane) toward `to`,
// first leaves bone k's side (inside_sign · signed distance > 0 is the far side): a scan, then bisection.
// Where it never crosses it is cropped at `to`; where it starts outside, at `from` (both flagged).
template <class T>
BS_HD inline T crossing_sigma(const DeformedSegment<T>& segment, const SeparatorPlane<T>& plane, T inside_sign, T from, T to,
                              unsigned& flags) {
    auto outside = [&](T s) { return inside_sign * signed_distance(plane, segment.at(s)) > T(0); };
    constexpr int kScan = 8;
    if (outside(from)) {
        flags |= kSectionCollapsed;
        return from;
    }
    T a = from;
    for (int i = 1; i <= kScan; ++i) {
        T b = from + (to - from) * T(i) / T(kScan);
        if (!outside(b)) {
            a = b;
            continue;
        }
        for (int iteration = 0; iteration < 48; ++iteration) {
            T m = (a + b) / T(2);
            if (outside(m)) b = m; else a = m;
        }
        return (a + b) / T(2);
    }
    flags |= kSectionCollapsed;
    return to;
}

template <class T>
BS_HD inline PosedEnd<T> posed_child_end(const LocalChain<T>& local, const DeformedSegment<T>& segment, T sigma_from) {
    const BaselineBone<T>& bone = local.bones[1];
    const T omega = bone.cone.length * bone.cone.cos_theta;
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
    end.sigma = crossing_sigma(segment, bone.child_separator, T(1), sigma_from, omega, end.flags);
    end.crease = make_crease(bone.cone, bone.child_separator, segment.at(end.sigma), belt.anchor);
    return end;
}

template <class T>
BS_HD inline PosedEnd<T> posed_parent_end(const LocalChain<T>& local, const DeformedSegment<T>& segment, T sigma_from) {
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
    // The parent separator's normal points toward bone k: its far side is the negative one.
    end.sigma = crossing_sigma(segment, bone.parent_separator, T(-1), sigma_from, T(0), end.flags);
    end.crease = make_crease(bone.cone, bone.parent_separator, belt.anchor, segment.at(end.sigma));
    return end;
}

}  // namespace bs
