// The section of a baseline on one bone (seed 000, "anchor points"; DESIGN "Curvilinear ratio t"):
// the part of the baseline through a generator of bone k that lies between its two anchors.
//
// Along the generator, σ is the distance from U (tangency with the parent sphere, σ = 0) toward V
// (tangency with the child sphere, σ = ω = length · cos θ). A section is, in order:
//   parent part  — convex joint: the arc on the parent joint sphere from the anchor S_k to U;
//                  concave joint: nothing (the segment starts at the crossing S_k, σ > 0);
//                  free extremity: nothing (the section starts at U; the cap beyond is encoded radially);
//   segment      — the generator from σ_start to σ_end, measured by σ (its rest length), so a twist,
//                  which rotates segment points about the axis, never slides them along it;
//   child part   — the same three cases at the child sphere (arc V → S_{k+1}, crossing, or free end).
// Its length L = parent arc + (σ_end − σ_start) + child arc; a base-point is placed by ℓ = t L.
#pragma once

#include "engine/baseline/bone.hpp"
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
};

template <class T>
struct Section {
    Vec3<T> radial;       // the generator
    Vec3<T> U, along;     // the generator line: U + σ · along (along unit, U → V)
    SectionEnd<T> parent, child;

    BS_HD T parent_arc_length() const { return parent.kind == EndKind::Convex ? (parent.arc_end - parent.arc_begin) * parent.arc.radius : T(0); }
    BS_HD T child_arc_length() const { return child.kind == EndKind::Convex ? (child.arc_end - child.arc_begin) * child.arc.radius : T(0); }
    BS_HD T segment_length() const { return child.sigma - parent.sigma; }
    BS_HD T length() const { return parent_arc_length() + segment_length() + child_arc_length(); }
    BS_HD Vec3<T> at_sigma(T sigma) const { return U + sigma * along; }
};

namespace detail {

// The end of bone `k`'s section at its child sphere, from the belt with `next` in the plane of the
// sheaf through the generator's tangency point V.
template <class T>
BS_HD inline SectionEnd<T> child_end(const BaselineBone<T>* bones, const BaselineBone<T>& bone, Vec3<T> radial) {
    const Cone<T>& cone = bone.cone;
    const T omega = generator_length(cone);
    const Vec3<T> normal = cone_normal(cone, radial);
    if (bone.next < 0) return {EndKind::Free, omega, normal, {}, T(0), T(0), 0u};
    const Cone<T>& next = bones[bone.next].cone;
    Vec3<T> V = tangency_point(cone, BoneEnd::Child, radial);
    Belt<T> belt = belt_at_joint(cone, next, bone.child_separator, sheaf_plane(cone, next, V), ChainBone::Incoming);
    if (!belt.concave) return {EndKind::Convex, omega, normal, belt.joint_arc, T(0), belt.anchor_angle, belt.flags};
    Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
    T sigma = dot(belt.anchor - U, normalized(V - U));
    return {EndKind::Concave, sigma, direction_from_centre(cone.child.centre, belt.anchor), {}, T(0), T(0), belt.flags};
}

// The end at the parent sphere, from the belt with `previous` in the plane through U.
template <class T>
BS_HD inline SectionEnd<T> parent_end(const BaselineBone<T>* bones, const BaselineBone<T>& bone, Vec3<T> radial) {
    const Cone<T>& cone = bone.cone;
    const Vec3<T> normal = cone_normal(cone, radial);
    if (bone.previous < 0) return {EndKind::Free, T(0), normal, {}, T(0), T(0), 0u};
    const Cone<T>& previous = bones[bone.previous].cone;
    Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
    Belt<T> belt = belt_at_joint(previous, cone, bone.parent_separator, sheaf_plane(previous, cone, U), ChainBone::Outgoing);
    if (!belt.concave)
        return {EndKind::Convex, T(0), normal, belt.joint_arc, belt.anchor_angle, belt.joint_arc.sweep, belt.flags};
    Vec3<T> V = tangency_point(cone, BoneEnd::Child, radial);
    T sigma = dot(belt.anchor - U, normalized(V - U));
    return {EndKind::Concave, sigma, direction_from_centre(cone.parent.centre, belt.anchor), {}, T(0), T(0), belt.flags};
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

template <class T> BS_HD inline SectionPlace<T> place_on_section(const Section<T>& s, T ell) {
    const T parent_arc = s.parent_arc_length(), segment = s.segment_length();
    if (ell < parent_arc) {
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
