// Swing–twist split of a local rotation about a bone's rest axis (DESIGN §2a):
//   q = swing · twist,  twist a rotation about the unit axis a, swing turns a without turning about it.
// The quaternion gives the twist only modulo 360°, canonically in (-180°, 180°]; at a 180° swing the
// split is singular and the twist counts as 0. Unwrapped twists come from the pose file's
// twist_degrees and from motion unwrapping (host/pose), not from here.
#pragma once

#include "engine/vec.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

template <class T>
struct SwingTwist {
    Quat<T> swing;
    T twist_radians;  // in (-pi, pi]
};

// Below this norm of the (w, q·a) pair the twist is undefined (swing of 180°): twist = 0.
template <class T> BS_HD inline T swing_twist_singular_eps() { return sizeof(T) == 4 ? T(1e-6) : T(1e-12); }

template <class T> BS_HD inline SwingTwist<T> split_swing_twist(Quat<T> q, Vec3<T> unit_axis) {
    T along = dot(q.vec(), unit_axis);
    if (std::sqrt(q.w * q.w + along * along) < swing_twist_singular_eps<T>()) return {q, T(0)};
    T angle = T(2) * std::atan2(along, q.w);  // in (-2pi, 2pi]
    const T pi = pi_value<T>();
    if (angle > pi) angle -= T(2) * pi;
    if (angle <= -pi) angle += T(2) * pi;
    Quat<T> twist = axis_angle(unit_axis, angle);
    return {normalized(q * conjugate(twist)), angle};
}

// Inverse of the split with an arbitrary (unwrapped) twist angle.
template <class T> BS_HD inline Quat<T> compose_swing_twist(Quat<T> swing, Vec3<T> unit_axis, T twist_radians) {
    return normalized(swing * axis_angle(unit_axis, twist_radians));
}

}  // namespace bs
