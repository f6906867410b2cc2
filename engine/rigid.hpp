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

// A rigid transform as a row-major 3×4 matrix [R | t], the form the per-point passes apply.
template <class T>
struct Mat34 {
    T m[12];

    BS_HD static Mat34 from_rigid(const Rigid<T>& g) {
        Vec3<T> c0 = rotate(g.rotation, Vec3<T>{T(1), T(0), T(0)});
        Vec3<T> c1 = rotate(g.rotation, Vec3<T>{T(0), T(1), T(0)});
        Vec3<T> c2 = rotate(g.rotation, Vec3<T>{T(0), T(0), T(1)});
        return {{c0.x, c1.x, c2.x, g.translation.x, c0.y, c1.y, c2.y, g.translation.y,
                 c0.z, c1.z, c2.z, g.translation.z}};
    }
    BS_HD Vec3<T> apply(Vec3<T> p) const {
        return {m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3], m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]};
    }
    // Exactly [I | 0] (from_rigid of the identity is).
    BS_HD bool is_identity() const {
        for (int i = 0; i < 12; ++i)
            if (m[i] != (i % 5 == 0 ? T(1) : T(0))) return false;
        return true;
    }
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
    // The transform applied to p (a unit dual quaternion): the rotation, then the translation
    // t = 2 dual · conj(real) (its vector part).
    BS_HD Vec3<T> apply(Vec3<T> p) const {
        const Quat<T> t = T(2) * (dual * conjugate(real));
        return rotate(real, p) + Vec3<T>{t.x, t.y, t.z};
    }

    template <class U>
    BS_HD explicit operator DualQuat<U>() const { return {Quat<U>(real), Quat<U>(dual)}; }
};

// (a ⊗ b) is a ∘ b for unit dual quaternions of this convention; the product is bilinear, so it also
// takes the line coordinates of TurnedRigid, which are not unit.
template <class T> BS_HD inline DualQuat<T> operator*(const DualQuat<T>& a, const DualQuat<T>& b) {
    return {a.real * b.real, a.real * b.dual + a.dual * b.real};
}

template <class T> BS_HD inline DualQuat<T> operator+(const DualQuat<T>& a, const DualQuat<T>& b) {
    return {a.real + b.real, a.dual + b.dual};
}
template <class T> BS_HD inline DualQuat<T> operator*(T s, const DualQuat<T>& d) { return {s * d.real, s * d.dual}; }

// g ∘ (a turn by θ about the line through c along the unit a), as a function of θ. The turn is the unit
// dual quaternion cos(θ/2) + sin(θ/2) (a + ε c × a), a + ε c × a being the line's Plücker coordinates, so
// the composite is cos(θ/2) g + sin(θ/2) g ⊗ (a + ε c × a): two dual quaternions built once, then a sine,
// a cosine and 16 products per θ, where composing the turn's rigid transform costs two rotations, a
// quaternion product and a normalisation.
template <class T>
struct TurnedRigid {
    DualQuat<T> fixed, turning;

    BS_HD static TurnedRigid of(const Rigid<T>& g, Vec3<T> unit_axis, Vec3<T> centre) {
        const DualQuat<T> d = DualQuat<T>::from_rigid(g);
        const Vec3<T> moment = cross(centre, unit_axis);
        const DualQuat<T> line{{T(0), unit_axis.x, unit_axis.y, unit_axis.z}, {T(0), moment.x, moment.y, moment.z}};
        return {d, d * line};
    }
    // The rigid field's turns are mostly small (on the human demo's capture, nearly every half-turn that is not
    // 0 or a whole twist is below kSeriesAngle): those take cos and sin from the series, not the library.
    BS_HD DualQuat<T> at(T theta) const {
        T c, s;
        cos_sin_by_series_near_zero(T(0.5) * theta, c, s);
        return c * fixed + s * turning;
    }
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
        return DualQuat<T>{inv * real, inv * dual}.apply(p);
    }
};

}  // namespace bs
