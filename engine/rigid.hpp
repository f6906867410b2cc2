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

// Unit dual quaternion real + ε dual, with dual = ½ (0, t) · real: a rigid transform in the form that
// blends (Kavan, Collins, Žára, O'Sullivan 2008).
template <class T>
struct DualQuat {
    Quat<T> real;
    Quat<T> dual;

    BS_HD static DualQuat from_rigid(const Rigid<T>& g) {
        Quat<T> t{T(0), g.translation.x, g.translation.y, g.translation.z};
        return {g.rotation, T(0.5) * (t * g.rotation)};
    }

    template <class U>
    BS_HD explicit operator DualQuat<U>() const { return {Quat<U>(real), Quat<U>(dual)}; }
};

// A weighted blend of unit dual quaternions, each flipped into the hemisphere of `pivot` (any rotation
// none of them is at a right angle to: the heaviest, or their mean) before it is added, so that q and −q
// (one rotation) never cancel. A blend of norm 0 cannot arise from same-hemisphere unit quaternions with
// positive weights. The blend of rigid transforms is rigid: it keeps lengths where a blend of positions (LBS) shrinks them.
template <class T>
struct DualQuatBlend {
    Quat<T> pivot;
    Quat<T> real{T(0), T(0), T(0), T(0)}, dual{T(0), T(0), T(0), T(0)};

    BS_HD void add(T w, const DualQuat<T>& d) {
        if (dot(d.real, pivot) < T(0)) w = -w;
        real = real + w * d.real;
        dual = dual + w * d.dual;
    }
    // The normalised blend applied to p (at least one add with a positive weight).
    BS_HD Vec3<T> apply(Vec3<T> p) const {
        const T inv = T(1) / norm(real);
        const Quat<T> r = inv * real, d = inv * dual;
        // Translation of the normalised dual quaternion: t = 2 dual · conj(real) (vector part).
        const Quat<T> t = T(2) * (d * conjugate(r));
        return rotate(r, p) + Vec3<T>{t.x, t.y, t.z};
    }
};

}  // namespace bs
