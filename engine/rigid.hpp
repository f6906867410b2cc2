// Rigid transform x -> R x + t with R a unit quaternion: a bone's posed transform, the root transform.
#pragma once

#include "engine/vec.hpp"

namespace bs {

template <class T>
struct Rigid {
    Quat<T> rotation;
    Vec3<T> translation;

    BS_HD static Rigid identity() { return {Quat<T>::identity(), {T(0), T(0), T(0)}}; }
    BS_HD Vec3<T> apply(Vec3<T> x) const { return rotate(rotation, x) + translation; }
    BS_HD Vec3<T> apply_vector(Vec3<T> v) const { return rotate(rotation, v); }

    template <class U>
    BS_HD explicit operator Rigid<U>() const { return {Quat<U>(rotation), Vec3<U>(translation)}; }
};

// (a ∘ b)(x) = a(b(x)).
template <class T> BS_HD inline Rigid<T> compose(const Rigid<T>& a, const Rigid<T>& b) {
    return {normalized(a.rotation * b.rotation), a.apply(b.translation)};
}

// Rotation by q about the fixed point c: x -> c + q (x - c).
template <class T> BS_HD inline Rigid<T> rotation_about(Quat<T> q, Vec3<T> c) {
    return {q, c - rotate(q, c)};
}

}  // namespace bs
