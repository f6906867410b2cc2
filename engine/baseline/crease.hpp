// A crease piece on a bone's cone and the generator coordinates it is built from (seed 000: "we crop the
// parts of the curves that get inside the other cone, and we connect the truncated parts"). Shared by the
// rest section (engine/baseline/section.hpp), which counts a concave end's piece at rest, and the posed
// section (engine/baseline/posed_section.hpp), which rebuilds it for each pose, so that at the rest pose
// the two are one section.
#pragma once

#include "engine/baseline/bend.hpp"
#include "engine/baseline/bone.hpp"

namespace bs {

// Where a point lies on the cone in generator coordinates: the radial of its meridian and σ along that
// generator (from its tangency point with the parent sphere), clamped to the bone.
template <class T>
struct ConePlace {
    Vec3<T> radial;
    T sigma;
};

// The generator of `radial` as a line: U (its tangency point with the parent sphere) + σ · along.
template <class T>
struct GeneratorLine {
    Vec3<T> U, along;
};

template <class T> BS_HD inline GeneratorLine<T> generator_line(const Cone<T>& cone, Vec3<T> radial) {
    Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
    return {U, normalized(tangency_point(cone, BoneEnd::Child, radial) - U)};
}

template <class T> BS_HD inline Vec3<T> cone_point(const Cone<T>& cone, Vec3<T> radial, T sigma) {
    GeneratorLine<T> g = generator_line(cone, radial);
    return g.U + sigma * g.along;
}

// The radial direction of the meridian through x; on the axis (only a clamped anchor or a pinned crease
// point under an extreme fold gets there) the bone's fixed orthogonal direction, as closest_point_on_bone.
template <class T> BS_HD inline Vec3<T> radial_through(const Cone<T>& cone, Vec3<T> x) {
    // The fallback is computed only where needed: this runs for every point on a segment or a crease.
    const Vec3<T> radial = across_axis(cone.axis, x - cone.parent.centre, relative_zero<T>() * cone.parent.radius, Vec3<T>{});
    return norm2(radial) > T(0) ? radial : any_orthogonal(cone.axis);
}

template <class T> BS_HD inline ConePlace<T> cone_place(const Cone<T>& cone, Vec3<T> x) {
    Vec3<T> radial = radial_through(cone, x);
    GeneratorLine<T> g = generator_line(cone, radial);
    return {radial, clamp_value(dot(x - g.U, g.along), T(0), generator_length(cone))};
}

// A crease piece, joining the crop point of the deformed segment to the posed anchor (seed 000: "we crop
// the parts of the curves that get inside the other cone, and we connect the truncated parts") along the
// bone's own cone: the generator angle and σ both run linearly from one end's generator coordinates to the
// other's, so every point of the piece lies on the bone's posed surface (where its ends' generators are
// within a quarter turn of the turn it is given: make_crease). Its ends are pinned to the two
// points exactly: an anchor clamped by kBeltCrossingOffSegments lies between the two bones' generators
// (crop_at_crossing), so it is off either bone's cone, and the difference is spread linearly along the
// piece (zero wherever both ends lie on the cone).
// Its detail direction is set where a point is placed on it (deform.hpp, crease_point).
template <class T>
struct Crease {
    Cone<T> cone;
    Vec3<T> from_radial;
    T sweep;                  // signed angle about the axis from `from_radial` to the other end's radial
    T from_sigma, to_sigma;   // σ of the two ends on their generators
    Vec3<T> from_offset, to_offset;  // from − raw(0), to − raw(1)
    T length;  // polyline length (kCreaseChords chords)

    BS_HD Vec3<T> raw(T u) const {
        return cone_point(cone, rotate(axis_angle(cone.axis, u * sweep), from_radial), from_sigma + u * (to_sigma - from_sigma));
    }
    BS_HD Vec3<T> at(T u) const { return raw(u) + (T(1) - u) * from_offset + u * to_offset; }
};

constexpr int kCreaseChords = 4;

// `turn`: about how far the piece turns about the axis (the deformed segment's turn between its ends),
// so that a piece turned by more than half a revolution under a large twist keeps its way round; the
// exact sweep is that plus the remaining angle between the two radials, wrapped. Wrapped, that angle
// flips sign at half a turn (a clamped anchor across the axis at a deep fold: a crease 3.92 ↔ 0.48 long
// between generators 1e-4 rad apart), so it counts whole up to a quarter turn and fades to 0 by half a
// turn, where both signs agree; beyond a quarter turn the pins below bring the far end onto `to`.
template <class T> BS_HD inline Crease<T> make_crease(const Cone<T>& cone, Vec3<T> from, Vec3<T> to, T turn) {
    ConePlace<T> p0 = cone_place(cone, from), p1 = cone_place(cone, to);
    const T remaining = angle_about(cone.axis, rotate(axis_angle(cone.axis, turn), p0.radial), p1.radial);
    const T quarter_turn = T(0.5) * pi_value<T>();
    const T sweep = turn + remaining * (T(1) - smoothstep_unit((std::fabs(remaining) - quarter_turn) / quarter_turn));
    Crease<T> c{cone, p0.radial, sweep, p0.sigma, p1.sigma, {}, {}, T(0)};
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

// The crop of a concave posed end: the σ of the posed anchor on the bone's end generator (the generator
// through the moved end V' or U', which the posed belt crosses with its partner at the anchor). The
// deformed segment itself is not searched for its crossing with the separator plane: under a large bend
// and twist it is a helix that may cross the plane several times, and crossings appear and vanish in
// pairs as φ or the pose changes, so any one of them jumps (measured: a crop moving 2.5 of a bone's 3.9
// for generators 1e-3 rad apart). The anchor's σ is continuous, reaches the moved end where the end turns
// convex (λ → 0), and equals the rest crop when nothing bends (the profile's d is 1 there, so the crease
// piece has length 0 and the twist-only section comes back; on a rest segment shorter than the turn's
// ramp, kTurnRampFloor, d is below 1 at the crop and the crease takes the rest of the turn). Near the end the cubic profile is flat, so
// for moderate bends the crop lies close to where the segment meets the plane.
template <class T> BS_HD inline T anchor_sigma(const Cone<T>& cone, Vec3<T> anchor) { return cone_place(cone, anchor).sigma; }

}  // namespace bs
