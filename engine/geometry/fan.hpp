// Detail directions over a baseline segment and the base-point of a point above it (seed 000, "detail
// directions" and Figure 5; DESIGN §2 "Detail directions").
//
// On an arc the detail direction is the sphere normal, direction_from_centre(sphere centre, point). On a
// segment P0 P1 it is interpolated between the end directions n0, n1: an end that meets an arc uses the
// surface normal there, an end S where two segments cross uses (S − C)/|S − C|; both are
// direction_from_centre(sphere centre, end point), so each end line passes through its sphere's centre.
// The fan is the pencil of lines through I, the crossing of the two end lines: the direction at b is
// ±(b − I), and the base-point of p is where line pI meets the segment. With parallel end directions
// (I at infinity) this is the projection along them, the orthogonal projection on a cylinder.
//
// Computed in the segment's plane with coordinates x along P0 → P1 (length L) and y toward the side
// n0 points to. Written n⊥ for a direction's y component, the fan direction at x is
//     n(x) ∝ (L − x) n1⊥ · n0 + x n0⊥ · n1,
// a linear interpolation of the end directions, whose lines all pass through I; solving (p − b) ∥ n(b)
// for b = (x, 0) is linear in x. I is returned as a homogeneous point (w = 0 for parallel ends), so
// nothing divides by the angle between the end directions.
#pragma once

#include "engine/geometry/primitives.hpp"

namespace bs {

// A segment end and its unit detail direction.
template <class T>
struct SegmentEnd {
    Vec3<T> point;
    Vec3<T> direction;
};

// Unit direction from a sphere's centre toward a point: the detail direction on an arc of that sphere and
// at a segment end on it (zero if the point is the centre).
template <class T> BS_HD inline Vec3<T> direction_from_centre(Vec3<T> sphere_centre, Vec3<T> point) {
    return normalized(point - sphere_centre);
}

template <class T>
struct FanProjection {
    Vec3<T> base_point;
    Vec3<T> direction;      // unit detail direction at base_point, toward the segment's outer side
    T height;               // signed: (p − base_point) · direction; p = base_point + height · direction
    T segment_parameter;    // base_point = P0 + t (P1 − P0); in [0, 1] when the base-point is on the segment
    HomogeneousPoint<T> centre;  // I, the crossing of the end lines (w = 0: parallel end directions)
    // False when the fan does not cover p: an end direction not pointing to the outer side of the
    // segment (n⊥ ≤ 0), a zero-length segment, or p level with or beyond I. The fields are then finite:
    // for p level with I (or a bad segment) the orthogonal projection on the segment's line.
    bool valid;
};

// The fan as a direction field over its segment, read by the fraction u ∈ [0, 1] along it: the direction
// is normalised((1 − u) A + u B) with A = n1⊥ n0 and B = n0⊥ n1 (n1's part in the segment's plane), the
// formula above divided by L. Where the fan is not defined (an end direction not outward, a zero-length
// segment) A = n0 and B = n1. A and B are not unit, and scaling both by one factor changes nothing, so a
// table may interpolate them (engine/baseline/table.hpp).
//
// As the segment shrinks to a point its plane, and with it A and B, turns with the smallest change of the
// ends, while n0 and n1 stay put; a caller reading a collapsing segment (a posed bundle's, by the fraction
// along a longer deformed segment) mixes A and B toward n0 and n1 (direction_at with fan_weight < 1), so
// the field passes continuously to the plain interpolation of the end directions.
template <class T>
struct FanField {
    Vec3<T> at_start, at_end;                // A and B
    Vec3<T> start_direction, end_direction;  // n0 and n1
    T length;                                // the segment's
    bool outward;                            // both end directions point to the segment's outer side

    BS_HD Vec3<T> direction_at(T u) const { return direction_at(u, T(1)); }
    // Where the mix vanishes (opposite end directions, halfway), n0: a unit direction always.
    BS_HD Vec3<T> direction_at(T u, T fan_weight) const {
        const T plain = T(1) - fan_weight;
        const Vec3<T> mix = (T(1) - u) * (fan_weight * at_start + plain * start_direction) + u * (fan_weight * at_end + plain * end_direction);
        return norm2(mix) > T(0) ? normalized(mix) : start_direction;
    }
};

namespace detail {

// The segment's plane: e_x along P0 → P1, e_y toward the side n0 points to, and the end directions'
// components in it.
template <class T>
struct FanPlane {
    T length;
    Vec3<T> e_x, e_y;
    T n0x, n0y, n1x, n1y;
    bool outward;
};

template <class T> BS_HD inline FanPlane<T> fan_plane(SegmentEnd<T> first, SegmentEnd<T> second) {
    Vec3<T> along = second.point - first.point;
    T length = norm(along);
    Vec3<T> e_x = length > T(0) ? along / length : along;
    Vec3<T> e_y = normalized(first.direction - dot(first.direction, e_x) * e_x);
    T n0y = dot(first.direction, e_y), n1y = dot(second.direction, e_y);
    T eps = relative_zero<T>();
    return {length, e_x, e_y, dot(first.direction, e_x), n0y, dot(second.direction, e_x), n1y, length > T(0) && n0y > eps && n1y > eps};
}

template <class T> BS_HD inline FanField<T> fan_field(const FanPlane<T>& f, SegmentEnd<T> first, SegmentEnd<T> second) {
    if (!f.outward) return {first.direction, second.direction, first.direction, second.direction, f.length, false};
    // n0 = n0x e_x + n0y e_y exactly (e_y is built from n0), so A needs no projection.
    return {f.n1y * first.direction, f.n0y * (f.n1x * f.e_x + f.n1y * f.e_y), first.direction, second.direction, f.length, true};
}

}  // namespace detail

template <class T> BS_HD inline FanField<T> fan_field(SegmentEnd<T> first, SegmentEnd<T> second) {
    return detail::fan_field(detail::fan_plane(first, second), first, second);
}

// Base-point, detail direction and signed height of p over the segment first → second.
// p is taken in the segment's plane (the plane of the segment and its bone's axis, seed 000): a component
// of p off that plane is ignored by base_point and height.
template <class T>
BS_HD inline FanProjection<T> fan_projection(SegmentEnd<T> first, SegmentEnd<T> second, Vec3<T> p) {
    const detail::FanPlane<T> f = detail::fan_plane(first, second);
    const T length = f.length;
    const Vec3<T> e_x = f.e_x, e_y = f.e_y;
    const T n0x = f.n0x, n0y = f.n0y, n1x = f.n1x, n1y = f.n1y;
    T px = dot(p - first.point, e_x), py = dot(p - first.point, e_y);

    // I = l0 × l1 with l0, l1 the end lines in homogeneous 2D coordinates.
    T Ix = length * n0x * n1y, Iy = length * n0y * n1y, Iw = n0x * n1y - n0y * n1x;
    HomogeneousPoint<T> centre{Iw * first.point + Ix * e_x + Iy * e_y, Iw};

    T eps = relative_zero<T>();
    T denominator = Iy - py * Iw;  // > 0 when p is on the segment's side of I
    bool level_with_I = !(std::fabs(denominator) > eps * (std::fabs(Iy) + std::fabs(py * Iw)));
    T x = f.outward && !level_with_I ? (px * Iy - py * Ix) / denominator : px;

    T t = length > T(0) ? x / length : T(0);
    Vec3<T> direction = detail::fan_field(f, first, second).direction_at(t);
    Vec3<T> base = first.point + x * e_x;
    bool valid = f.outward && !level_with_I && denominator > T(0);
    return {base, direction, dot(p - base, direction), t, centre, valid};
}

}  // namespace bs
