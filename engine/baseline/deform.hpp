// Baseline skinning of one point from its code (seed 000, last third; DESIGN §2 "Deformation"), for
// poses without bends: twists of any size, root motion and the first bone's swing.
//
// Per frame each bone has a posed frame F⁰_k (its posed transform without its own twist) and its own
// total twist τ_k. In F⁰_k the parent bone is at rest and the child bone is turned by τ_k about the axis.
// A base-point at profile d on its segment turns about the axis by τ_k (3d² − 2d³) (d = 0 at the
// segment's parent end, 1 at its child end: the anchor turns by exactly τ_k and meets the next bone,
// which turns rigidly with everything downstream); base-points on the parent arc do not turn, on the
// child arc they turn by τ_k. The detail direction at the posed base-point is rebuilt from the posed
// bundle — the parent end of its generator's section from the rest geometry, the child end from the
// rest geometry turned by τ_k — and p' = F⁰_k(b' + h n'). Codes with rigid_blend > 0 blend toward the
// bone's rigid motion at the same profile.
#pragma once

#include "engine/baseline/code.hpp"
#include "engine/baseline/section.hpp"
#include "engine/rigid.hpp"

namespace bs {

template <class T>
struct BaselineBonePose {
    Rigid<T> frame;  // F⁰_k: posed transform of bone k without its own twist
    T twist;         // τ_k, radians, unwrapped
};

template <class T> BS_HD inline T cubic_profile(T d) { return d * d * (T(3) - T(2) * d); }

// The section of generator `radial` in F⁰_k's posed bundle: parent end as at rest, child end turned by τ.
template <class T>
BS_HD inline Section<T> posed_section(const BaselineBone<T>* bones, int k, Vec3<T> radial, T twist) {
    const BaselineBone<T>& bone = bones[k];
    Section<T> s = bone_section(bones, k, radial);
    if (bone.next < 0 || twist == T(0)) return s;
    Quat<T> turn = axis_angle(bone.cone.axis, twist);
    Section<T> unturned = bone_section(bones, k, rotate(conjugate(turn), radial));
    s.child = unturned.child;
    s.child.direction = rotate(turn, unturned.child.direction);
    if (s.child.sigma < s.parent.sigma) s.child.sigma = s.parent.sigma;
    return s;
}

template <class T>
BS_HD inline Vec3<T> deform_cap_point(const BaselineCode& code, const BaselineBone<T>& bone, const BaselineBonePose<T>& pose) {
    bool child = (code.flags & kCodeChildCap) != 0;
    Sphere<T> s = child ? bone.cone.child : bone.cone.parent;
    Vec3<T> pole = child ? bone.cone.axis : -bone.cone.axis;
    Vec3<T> u = std::cos(T(code.t)) * pole + std::sin(T(code.t)) * generator_radial(bone, T(code.phi));
    Vec3<T> local = s.centre + (s.radius + T(code.h)) * u;
    // The root-end cap rides the frame at the parent end (without the bone's twist), the tip cap the
    // frame at the child end (with it): DESIGN "Anchors at a free extremity".
    if (child) local = rotate_about_axis(bone, pose.twist, local);
    return pose.frame.apply(local);
}

// The posed base-point of a (non-cap) code in its bone's frame F⁰_k, with its detail direction and the
// angle its bone turned it by about the axis. p' = F⁰_k(base + h · direction).
template <class T>
struct PosedBase {
    Vec3<T> base;
    Vec3<T> direction;
    T turn;
};

template <class T>
BS_HD inline PosedBase<T> posed_base(const BaselineCode& code, const BaselineBone<T>* bones, const BaselineBonePose<T>& pose) {
    const int k = code.bone;
    const BaselineBone<T>& bone = bones[k];
    Section<T> rest_section = bone_section(bones, k, generator_radial(bone, T(code.phi)));
    SectionPlace<T> place = place_on_section(rest_section, T(code.t) * rest_section.length());
    T turn = place.part == SectionPart::ParentArc ? T(0)
             : place.part == SectionPart::ChildArc ? pose.twist
                                                   : pose.twist * cubic_profile(place.profile);
    Vec3<T> base = rotate_about_axis(bone, turn, place.point);
    if (place.part != SectionPart::Segment) {
        Vec3<T> centre = place.part == SectionPart::ParentArc ? bone.cone.parent.centre : bone.cone.child.centre;
        return {base, direction_from_centre(centre, base), turn};
    }
    Vec3<T> radial = rotate(axis_angle(bone.cone.axis, turn), rest_section.radial);
    return {base, segment_direction(posed_section(bones, k, radial, pose.twist), base), turn};
}

template <class T>
BS_HD inline Vec3<T> deform_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                           const BaselineBonePose<T>* poses) {
    const BaselineBonePose<T>& pose = poses[code.bone];
    if (code.flags & (kCodeParentCap | kCodeChildCap)) return deform_cap_point(code, bones[code.bone], pose);
    PosedBase<T> b = posed_base(code, bones, pose);
    Vec3<T> posed = pose.frame.apply(b.base + T(code.h) * b.direction);
    if (code.rigid_blend == 0.0f) return posed;
    Vec3<T> rigid = pose.frame.apply(rotate_about_axis(bones[code.bone], b.turn, rest));
    T w = T(code.rigid_blend);
    return w * rigid + (T(1) - w) * posed;
}

}  // namespace bs
