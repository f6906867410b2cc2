// Small fixed-size vector and quaternion types for per-point math, templated on the scalar
// (float on the GPU hot path, double for encoding and references). Trivially copyable, no heap,
// no exceptions: usable inside CUDA kernels and host loops alike.
// Quaternions are stored [w, x, y, z] as in every file format of the project (DESIGN §2a).
#pragma once

#include <cmath>

#include "engine/hd.hpp"

namespace bs {

template <class T>
struct Vec3 {
    T x, y, z;

    BS_HD T& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
    BS_HD const T& operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }

    template <class U>
    BS_HD explicit operator Vec3<U>() const { return {U(x), U(y), U(z)}; }
};

template <class T> BS_HD inline Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> BS_HD inline Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> BS_HD inline Vec3<T> operator-(Vec3<T> a) { return {-a.x, -a.y, -a.z}; }
template <class T> BS_HD inline Vec3<T> operator*(T s, Vec3<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T> BS_HD inline Vec3<T> operator*(Vec3<T> a, T s) { return s * a; }
template <class T> BS_HD inline Vec3<T> operator/(Vec3<T> a, T s) { return {a.x / s, a.y / s, a.z / s}; }
template <class T> BS_HD inline Vec3<T>& operator+=(Vec3<T>& a, Vec3<T> b) { a = a + b; return a; }
template <class T> BS_HD inline Vec3<T>& operator-=(Vec3<T>& a, Vec3<T> b) { a = a - b; return a; }

template <class T> BS_HD inline T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T> BS_HD inline Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T> BS_HD inline T norm2(Vec3<T> a) { return dot(a, a); }
template <class T> BS_HD inline T norm(Vec3<T> a) { return std::sqrt(dot(a, a)); }
// Unit vector along a; a zero vector stays zero (callers that can meet one must handle it).
template <class T> BS_HD inline Vec3<T> normalized(Vec3<T> a) {
    T n = norm(a);
    return n > T(0) ? a / n : a;
}
template <class T> BS_HD inline bool all_finite(Vec3<T> a) {
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
}

// A unit vector orthogonal to the unit vector a (any one; continuous away from the switch).
template <class T> BS_HD inline Vec3<T> any_orthogonal(Vec3<T> a) {
    Vec3<T> helper = std::fabs(a.x) < T(0.6) ? Vec3<T>{T(1), T(0), T(0)} : Vec3<T>{T(0), T(1), T(0)};
    return normalized(cross(a, helper));
}

// The part of d orthogonal to the unit axis a, as a unit vector; `otherwise` where that part is not
// longer than min_length (d along a has no direction across it).
template <class T> BS_HD inline Vec3<T> across_axis(Vec3<T> a, Vec3<T> d, T min_length, Vec3<T> otherwise) {
    const Vec3<T> across = d - dot(a, d) * a;
    const T length = norm(across);
    return length > min_length ? across / length : otherwise;
}

template <class T>
struct Quat {
    T w, x, y, z;

    BS_HD static Quat identity() { return {T(1), T(0), T(0), T(0)}; }
    BS_HD Vec3<T> vec() const { return {x, y, z}; }

    template <class U>
    BS_HD explicit operator Quat<U>() const { return {U(w), U(x), U(y), U(z)}; }
};

template <class T> BS_HD inline Quat<T> operator*(Quat<T> a, Quat<T> b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
template <class T> BS_HD inline Quat<T> operator*(T s, Quat<T> q) { return {s * q.w, s * q.x, s * q.y, s * q.z}; }
template <class T> BS_HD inline Quat<T> operator+(Quat<T> a, Quat<T> b) { return {a.w + b.w, a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> BS_HD inline Quat<T> conjugate(Quat<T> q) { return {q.w, -q.x, -q.y, -q.z}; }
template <class T> BS_HD inline T dot(Quat<T> a, Quat<T> b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T> BS_HD inline T norm(Quat<T> q) { return std::sqrt(dot(q, q)); }
template <class T> BS_HD inline Quat<T> normalized(Quat<T> q) {
    T n = norm(q);
    return n > T(0) ? (T(1) / n) * q : Quat<T>::identity();
}

// Rotation by angle (radians, right-handed) about a unit axis.
template <class T> BS_HD inline Quat<T> axis_angle(Vec3<T> unit_axis, T radians) {
    T s = std::sin(radians / T(2));
    return {std::cos(radians / T(2)), s * unit_axis.x, s * unit_axis.y, s * unit_axis.z};
}

// Rotates v by the unit quaternion q (q v q*), in the expanded form that costs 2 cross products.
template <class T> BS_HD inline Vec3<T> rotate(Quat<T> q, Vec3<T> v) {
    Vec3<T> u = q.vec();
    Vec3<T> t = T(2) * cross(u, v);
    return v + q.w * t + cross(u, t);
}

constexpr double kTwoPi = 6.283185307179586476925286766559;

// Angles of magnitude up to this (radians) take their cosine and sine from Taylor series
// (cos_sin_near_zero).
constexpr double kSeriesAngle = kTwoPi / 128;

// cos and sin of d, |d| <= kSeriesAngle, from their Taylor series through d⁸ and d⁷: the first term left
// out is below 5e-18, so they are the library's to a few units in the last place, in a tenth of the
// instructions of a library sincos.
template <class T> BS_HD inline void cos_sin_near_zero(T d, T& c, T& s) {
    const T d2 = d * d;
    c = T(1) + d2 * (T(-1.0 / 2) + d2 * (T(1.0 / 24) + d2 * (T(-1.0 / 720) + d2 * T(1.0 / 40320))));
    s = d * (T(1) + d2 * (T(-1.0 / 6) + d2 * (T(1.0 / 120) + d2 * T(-1.0 / 5040))));
}

// cos and sin of any angle: the series where |angle| <= kSeriesAngle, else the library's.
template <class T> BS_HD inline void cos_sin_by_series_near_zero(T angle, T& c, T& s) {
    if (std::fabs(angle) <= T(kSeriesAngle)) return cos_sin_near_zero(angle, c, s);
    c = std::cos(angle);
    s = std::sin(angle);
}

// Rotation angle of a unit quaternion in [0, pi], computed by atan2 (well conditioned near 0 and pi).
template <class T> BS_HD inline T rotation_angle(Quat<T> q) {
    return T(2) * std::atan2(norm(q.vec()), std::fabs(q.w));
}

// Spherical interpolation along the shorter arc (q and -q are one rotation); s in [0, 1].
template <class T> BS_HD inline Quat<T> slerp(Quat<T> a, Quat<T> b, T s) {
    T c = dot(a, b);
    if (c < T(0)) { b = T(-1) * b; c = -c; }
    if (c > T(0.9995)) return normalized((T(1) - s) * a + s * b);
    T angle = std::acos(c);
    T sa = std::sin(angle);
    return (std::sin((T(1) - s) * angle) / sa) * a + (std::sin(s * angle) / sa) * b;
}

}  // namespace bs
