// The section of a baseline on one bone (seed 000, "anchor points"; DESIGN "Curvilinear ratio t"):
// the part of the baseline through a generator of bone k that lies between its two anchors.
//
// Along the generator, σ is the distance from U (tangency with the parent sphere, σ = 0) toward V
// (tangency with the child sphere, σ = ω = length · cos θ). A section is, in order:
//   parent part  — convex joint: the arc on the parent joint sphere from the anchor S_k to U;
//                  concave joint: the crease piece from the anchor S_k to the segment's start, as the
//                  posed section builds it at the rest pose (engine/baseline/crease.hpp): of length 0
//                  where S_k lies on the generator (the segment then starts at the crossing, σ > 0), not
//                  where a folded joint's anchor was clamped off it (kBeltCrossingOffSegments);
//                  free extremity: nothing (the section starts at U; the cap beyond is encoded radially);
//   segment      — the generator from σ_start to σ_end, measured by σ (its rest length), so a twist,
//                  which rotates segment points about the axis, never slides them along it;
//   child part   — the same three cases at the child sphere (arc V → S_{k+1}, crossing, or free end).
// Its length L = parent part + (σ_end − σ_start) + child part; a base-point is placed by ℓ = t L. At the
// rest pose this is the posed section (engine/baseline/posed_section.hpp), piece for piece, so that a
// code's t means the same to the encoder and to the deformation: a concave end's σ is the anchor's on the
// cone (anchor_sigma) and its crease piece is counted. Until 2026-12-05 the crease piece was left out
// here, and where a joint's anchor is clamped off the generator (the hips of Debian's
// BVH/Boxing_Toes.bvh, a 90° rest bend below a hip sphere nearly inside the pelvis's) the posed section
// at rest was longer by that piece: 13% of that rig's points moved by up to 3 (1.2% of its diagonal)
// at the rest pose.
#pragma once

#include "engine/baseline/bone.hpp"
#include "engine/baseline/crease.hpp"
#include "engine/geometry/belt.hpp"
#include "engine/geometry/fan.hpp"

namespace bs {

enum class EndKind : unsigned char { Free, Convex, Concave };

// A flag beside the BeltFlag bits of an end: the two crossings of a segment overlap.
constexpr unsigned kSectionCollapsed = 1u << 8;

template <class T>
struct SectionEnd {
    EndKind kind;
    T sigma;            // where the segment ends on this side (generator parameter)
    Vec3<T> direction;  // detail direction at that segment end (DESIGN §2 "Detail directions")
    Arc<T> arc;         // convex: the belt's joint arc (incoming V → outgoing X)
    T arc_begin;        // convex: angles on `arc` bounding this section's part, in travel order
    T arc_end;
    unsigned flags;     // BeltFlag bits of the belt that built this end
    Vec3<T> anchor;     // concave: the belt's anchor, the crease piece's far end
    T crease_length;    // concave: the crease piece's length at rest (rest_crease_length)
};

template <class T>
struct Section {
    Vec3<T> radial;       // the generator
    Vec3<T> U, along;     // the generator line: U + σ · along (along unit, U → V)
    SectionEnd<T> parent, child;

    BS_HD T parent_length() const { return part_length(parent); }
    BS_HD T child_length() const { return part_length(child); }
    BS_HD T segment_length() const { return child.sigma - parent.sigma; }
    BS_HD T length() const { return parent_length() + segment_length() + child_length(); }
    BS_HD Vec3<T> at_sigma(T sigma) const { return U + sigma * along; }
    // An end's part: its arc (convex), its crease piece (concave), nothing at a free end.
    BS_HD static T part_length(const SectionEnd<T>& e) {
        return e.kind == EndKind::Convex ? (e.arc_end - e.arc_begin) * e.arc.radius : (e.kind == EndKind::Concave ? e.crease_length : T(0));
    }
};

// A concave end's crease piece at rest, from the anchor to the segment's end (`crop`) in travel order, as
// the posed section builds it with no turn (make_crease). Where the anchor lies on the generator that is
// their distance, a rounding's worth (the polyline is not built: it costs a per-point construction four
// cone points); off it (a clamped anchor), the piece.
template <class T> BS_HD inline T rest_crease_length(const Cone<T>& cone, Vec3<T> anchor, Vec3<T> crop, bool anchor_first) {
    const T apart = norm(anchor - crop);
    if (!(apart > relative_zero<T>() * cone.parent.radius)) return apart;
    return anchor_first ? make_crease(cone, anchor, crop, T(0)).length : make_crease(cone, crop, anchor, T(0)).length;
}

namespace detail {

// A concave end's detail direction: from the joint's centre C toward the anchor (seed 000: the end lines
// pass through the sphere's centre), taken in the generator's meridian plane, where the fan lies
// (fan_projection takes p in the plane of the segment and n0, and the deformation puts b + h n back in
// it). An anchor on the generator is in that plane already; one clamped off it (kBeltCrossingOffSegments)
// is not, and its raw direction tilted the fan's plane away from the meridian, so that the encoder dropped
// the part of p off that plane and a point inside such a joint came back up to 0.6 away at rest (Debian's
// BVH/Boxing_Toes.bvh hips, 2026-12-05). Should the direction lie across the meridian (never seen), the
// cone's normal.
template <class T> BS_HD inline Vec3<T> concave_end_direction(const Cone<T>& cone, Vec3<T> radial, Vec3<T> centre, Vec3<T> anchor) {
    const Vec3<T> d = direction_from_centre(centre, anchor), tangent = cross(cone.axis, radial);
    const Vec3<T> in_plane = d - dot(d, tangent) * tangent;
    return norm2(in_plane) > relative_zero<T>() ? normalized(in_plane) : cone_normal(cone, radial);
}

// The end of bone `k`'s section at its child sphere, from the belt with `next` in the plane of the
// sheaf through the generator's tangency point V.
template <class T>
BS_HD inline SectionEnd<T> child_end(const BaselineBone<T>* bones, const BaselineBone<T>& bone, Vec3<T> radial) {
    const Cone<T>& cone = bone.cone;
    const T omega = generator_length(cone);
    const Vec3<T> normal = cone_normal(cone, radial);
    if (bone.next < 0) return {EndKind::Free, omega, normal, {}, T(0), T(0), 0u, {}, T(0)};
    const Cone<T>& next = bones[bone.next].cone;
    Vec3<T> V = tangency_point(cone, BoneEnd::Child, radial);
    Belt<T> belt = belt_at_joint(cone, next, bone.child_separator, sheaf_plane(cone, next, V), ChainBone::Incoming);
    if (!belt.concave) return {EndKind::Convex, omega, normal, belt.joint_arc, T(0), belt.anchor_angle, belt.flags, {}, T(0)};
    return {EndKind::Concave, anchor_sigma(cone, belt.anchor), concave_end_direction(cone, radial, cone.child.centre, belt.anchor), {}, T(0), T(0),
            belt.flags, belt.anchor, T(0)};  // crease_length: bone_section, once both crops are known
}

// The end at the parent sphere, from the belt with `previous` in the plane through U.
template <class T>
BS_HD inline SectionEnd<T> parent_end(const BaselineBone<T>* bones, const BaselineBone<T>& bone, Vec3<T> radial) {
    const Cone<T>& cone = bone.cone;
    const Vec3<T> normal = cone_normal(cone, radial);
    if (bone.previous < 0) return {EndKind::Free, T(0), normal, {}, T(0), T(0), 0u, {}, T(0)};
    const Cone<T>& previous = bones[bone.previous].cone;
    Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
    Belt<T> belt = belt_at_joint(previous, cone, bone.parent_separator, sheaf_plane(previous, cone, U), ChainBone::Outgoing);
    if (!belt.concave)
        return {EndKind::Convex, T(0), normal, belt.joint_arc, belt.anchor_angle, belt.joint_arc.sweep, belt.flags, {}, T(0)};
    return {EndKind::Concave, anchor_sigma(cone, belt.anchor), concave_end_direction(cone, radial, cone.parent.centre, belt.anchor), {}, T(0), T(0),
            belt.flags, belt.anchor, T(0)};  // crease_length: bone_section, once both crops are known
}

}  // namespace detail

// The section of bone `k` (an index into `bones`) through the generator with radial direction `radial`.
template <class T> BS_HD inline Section<T> bone_section(const BaselineBone<T>* bones, int k, Vec3<T> radial) {
    const BaselineBone<T>& bone = bones[k];
    Vec3<T> U = tangency_point(bone.cone, BoneEnd::Parent, radial);
    Vec3<T> V = tangency_point(bone.cone, BoneEnd::Child, radial);
    Section<T> s{radial, U, normalized(V - U), detail::parent_end(bones, bone, radial), detail::child_end(bones, bone, radial)};
    if (s.child.sigma < s.parent.sigma) {
        // Both ends concave and their crossings overlap (a short bone between two sharp rest bends):
        // the segment collapses to the middle of the overlap, flagged.
        T middle = (s.parent.sigma + s.child.sigma) / T(2);
        s.parent.sigma = s.child.sigma = middle;
        s.parent.flags |= kSectionCollapsed;
    }
    if (s.parent.kind == EndKind::Concave) s.parent.crease_length = rest_crease_length(bone.cone, s.parent.anchor, s.at_sigma(s.parent.sigma), true);
    if (s.child.kind == EndKind::Concave) s.child.crease_length = rest_crease_length(bone.cone, s.child.anchor, s.at_sigma(s.child.sigma), false);
    return s;
}

// Where a curvilinear position ℓ ∈ [0, L] falls on a section.
enum class SectionPart : unsigned char { ParentArc, Segment, ChildArc };

template <class T>
struct SectionPlace {
    SectionPart part;
    T sigma;         // segment: the generator parameter; arcs: the nearest segment end's σ
    Vec3<T> point;   // the base-point
    T profile;       // d ∈ [0, 1]: 0 at the segment's parent end, 1 at its child end (arcs: 0 / 1)
};

// A concave end's crease piece holds no base-point at rest (the encoder places none there): ℓ within it is
// taken to the segment's end.
template <class T> BS_HD inline SectionPlace<T> place_on_section(const Section<T>& s, T ell) {
    const T parent_arc = s.parent_length(), segment = s.segment_length();
    if (ell < parent_arc && s.parent.kind == EndKind::Convex) {
        T angle = s.parent.arc_begin + ell / s.parent.arc.radius;
        return {SectionPart::ParentArc, s.parent.sigma, arc_point(s.parent.arc, angle), T(0)};
    }
    if (ell <= parent_arc + segment || s.child.kind != EndKind::Convex) {
        T along = clamp_value(ell - parent_arc, T(0), segment);
        T d = segment > T(0) ? along / segment : T(0);
        return {SectionPart::Segment, s.parent.sigma + along, s.at_sigma(s.parent.sigma + along), d};
    }
    T angle = s.child.arc_begin + (ell - parent_arc - segment) / s.child.arc.radius;
    angle = angle < s.child.arc_end ? angle : s.child.arc_end;
    return {SectionPart::ChildArc, s.child.sigma, arc_point(s.child.arc, angle), T(1)};
}

}  // namespace bs
