// Small shapes shared by the baseline-skinning geometry (DESIGN §2): spheres, circles, circular arcs,
// homogeneous points (for apexes and fan centres that may lie at infinity), and the numeric thresholds
// that decide when a construction is degenerate. Header-only, host and device (BS_HD), float or double.
// Units are the input's; angles are radians.
#pragma once

#include <cmath>

#include "engine/vec.hpp"

namespace bs {

// Relative size below which a quantity of order one counts as zero (a degenerate construction).
// About 8 ulps in float; in double far above rounding, far below any real geometric feature.
template <class T> BS_HD inline T relative_zero() { return sizeof(T) == 4 ? T(1e-6) : T(1e-12); }

template <class T> BS_HD constexpr T pi_value() { return T(3.14159265358979323846); }

// Angle wrapped into (-pi, pi]. Within a turn fmod is exact and returns its argument, so it is left out
// there (most calls: differences of angles already wrapped), the same value to the bit.
template <class T> BS_HD inline T wrap_angle(T radians) {
    const T two_pi = T(2) * pi_value<T>();
    if (!(std::fabs(radians) < two_pi)) radians = std::fmod(radians, two_pi);
    if (radians > pi_value<T>()) radians -= two_pi;
    if (radians <= -pi_value<T>()) radians += two_pi;
    return radians;
}

// The angle equal to `radians` up to whole turns that lies within half a turn of `reference`: an angle
// followed continuously, given its wrapped value and where it was.
template <class T> BS_HD inline T angle_near(T radians, T reference) { return reference + wrap_angle(radians - reference); }

template <class T> BS_HD inline T clamp_value(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }

// 3x² − 2x³ of x clamped to [0, 1]: the C¹ ramp every blend band of the project uses.
template <class T> BS_HD inline T smoothstep_unit(T x) {
    x = clamp_value(x, T(0), T(1));
    return x * x * (T(3) - T(2) * x);
}

template <class T>
struct Sphere {
    Vec3<T> centre;
    T radius;
};

// Circle in 3D: the points at distance `radius` from `centre` in the plane through it normal to `normal`.
template <class T>
struct Circle {
    Vec3<T> centre;
    Vec3<T> normal;  // unit
    T radius;
};

// Circular arc: points centre + radius (cos s · start_dir + sin s · tangent) for s in [0, sweep].
// start_dir and tangent are orthonormal; tangent is the direction of travel at the start point.
template <class T>
struct Arc {
    Vec3<T> centre;
    T radius;
    Vec3<T> start_dir;
    Vec3<T> tangent;
    T sweep;  // radians, in [0, pi] for every arc built by engine/geometry
};

template <class T> BS_HD inline Vec3<T> arc_point(const Arc<T>& arc, T s) {
    return arc.centre + arc.radius * (std::cos(s) * arc.start_dir + std::sin(s) * arc.tangent);
}

// Unit direction of travel at angle s.
template <class T> BS_HD inline Vec3<T> arc_tangent(const Arc<T>& arc, T s) {
    return std::cos(s) * arc.tangent - std::sin(s) * arc.start_dir;
}

// Point xyz / w; w = 0 is the point at infinity in direction xyz (e.g. a cylinder's apex).
template <class T>
struct HomogeneousPoint {
    Vec3<T> xyz;
    T w;
};

}  // namespace bs
