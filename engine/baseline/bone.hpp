// A bone as baseline skinning sees it (seed 000): its cone, its neighbours along a chain, the separator
// planes at its two joints, a fixed reference direction that measures the angle φ of a generator about
// the axis, and which junction either end lies on. Each end is a joint of a chain (the
// sphere carries this bone and one other, one ending and one starting there), a free extremity, or lies
// on a junction sphere (3+ bones, or a root carrying 2+): the section treats a junction end like a free
// one and the junction's neighbourhood blends to the rigid field (docs/ALGORITHM.md "Junctions").
// Built once from the rest skeleton (host/baseline_rig.cpp) and read by the per-point passes on the host
// and the device; plain data, indices instead of pointers.
#pragma once

#include "engine/geometry/joint.hpp"

namespace bs {

// The rigid field's neighbour lists (BaselineBone::field_neighbours): how far from its bone a point may be
// for the list to hold (in scaled axis distance, 1 on the bone's surface), and the longest list kept.
constexpr double kFieldNeighbourReach = 2.0;
constexpr int kMaxFieldNeighbours = 16;

template <class T>
struct BaselineBone {
    Cone<T> cone;
    Vec3<T> reference;       // unit ⟂ axis: the generator with φ = 0
    Vec3<T> reference_side;  // axis × reference: the generator with φ = π/2
    int previous;            // bone ending at this bone's parent sphere, -1 at a free extremity or a junction
    int next;                // bone starting at this bone's child sphere, -1 at a free extremity or a junction
    // The skeleton's sphere index of the junction at each end, -1 where the end is not on a junction.
    // Read by the encoder only.
    int parent_junction, child_junction;
    SeparatorPlane<T> parent_separator;  // with `previous` (normal toward this bone); valid if previous >= 0
    SeparatorPlane<T> child_separator;   // with `next` (normal toward next); valid if next >= 0
    // Every bone that may weigh in the rigid field at a point within kFieldNeighbourReach of this bone, this
    // one included, in bone order (engine/baseline/deform.hpp, may_share_field); count -1 where there are
    // more than kMaxFieldNeighbours or none were listed: the field then passes over every bone. A shortcut
    // only: the field is the same with or without it.
    int field_neighbours[kMaxFieldNeighbours] = {};
    int field_neighbour_count = -1;
    // A bone the body does not follow (host/skeleton.hpp set_bridges): no code lies on it, no other bone
    // links to it or shares a junction with it, and it never weighs in the rigid field.
    bool bridge = false;
};

// cos and sin of an angle: from the library (cos_sin), or, in the per-point pass, from the tables' fan grid
// (engine/baseline/table.hpp, angle_on_grid).
struct CosSin {
    double cos, sin;
};
BS_HD inline CosSin cos_sin(double angle) { return {std::cos(angle), std::sin(angle)}; }

// Radial direction of the generator at angle φ about the bone's axis (or given φ's cos and sin).
template <class T> BS_HD inline Vec3<T> generator_radial(const BaselineBone<T>& bone, CosSin phi) {
    return T(phi.cos) * bone.reference + T(phi.sin) * bone.reference_side;
}
template <class T> BS_HD inline Vec3<T> generator_radial(const BaselineBone<T>& bone, T phi) {
    return generator_radial(bone, cos_sin(double(phi)));
}

// Angle φ of a radial direction (unit, ⟂ axis), in (-π, π].
template <class T> BS_HD inline T generator_angle(const BaselineBone<T>& bone, Vec3<T> radial) {
    return std::atan2(dot(radial, bone.reference_side), dot(radial, bone.reference));
}

// A bone's axis line and its two reference radials (side = axis × reference), in its frame at rest or moved
// rigidly with it (BaselineBonePose::axes): the meridian frame of generator angle ψ from cos ψ and sin ψ
// alone, since axis × (cos ψ reference + sin ψ side) = cos ψ side − sin ψ reference.
template <class T>
struct BoneAxes {
    Vec3<T> origin;  // the parent sphere's centre
    Vec3<T> axis, reference, side;

    BS_HD MeridianFrame<T> meridian(T cos_psi, T sin_psi) const {
        return {origin, axis, cos_psi * reference + sin_psi * side, cos_psi * side - sin_psi * reference};
    }
};

template <class T> BS_HD inline BoneAxes<T> rest_axes(const BaselineBone<T>& bone) {
    return {bone.cone.parent.centre, bone.cone.axis, bone.reference, bone.reference_side};
}

}  // namespace bs
