// Forward kinematics of a sphere-mesh skeleton (DESIGN §2a).
//
// Rest frames are the world axes. Bone k's local rotation q_k (swing · twist about its rest axis, the
// twist angle unwrapped) is expressed in its parent bone's posed frame and turns the bone and everything
// downstream about the rest centre of its parent sphere C_k:
//     G_k = G_parent(k) ∘ rotation_about(q_k, C_k),      G_parent(first bone) = root transform.
// Host-side loop over bones (a handful to a few hundred); templated so tests can run it in double and
// the per-frame table can be built in float or double.
#pragma once

#include <cstddef>

#include "engine/rigid.hpp"
#include "engine/swing_twist.hpp"

namespace bs {

// What a bone needs from the rest skeleton for kinematics.
template <class T>
struct BoneRestFrame {
    Vec3<T> parent_centre;  // rest centre of the bone's parent sphere (the pivot)
    Vec3<T> axis;           // unit rest axis, parent sphere -> child sphere
    int parent_bone;        // index of the bone ending at the parent sphere, -1 for a root bone
};

// A bone's local rotation as swing (about an axis ⟂ the rest axis) and total twist about the rest axis.
template <class T>
struct JointRotation {
    Quat<T> swing;
    T twist_radians;  // unwrapped: may exceed ±pi
};

template <class T> BS_HD inline Quat<T> local_rotation(const JointRotation<T>& j, Vec3<T> rest_axis) {
    return compose_swing_twist(j.swing, rest_axis, j.twist_radians);
}

// Fills posed[k] for every bone. `order` lists all bones with every parent before its children.
template <class T>
void forward_kinematics(const BoneRestFrame<T>* bones, const int* order, std::size_t bone_count,
                        const Rigid<T>& root, const JointRotation<T>* joints, Rigid<T>* posed) {
    for (std::size_t i = 0; i < bone_count; ++i) {
        int k = order[i];
        const BoneRestFrame<T>& b = bones[k];
        Rigid<T> parent = b.parent_bone < 0 ? root : posed[b.parent_bone];
        posed[k] = compose(parent, rotation_about(local_rotation(joints[k], b.axis), b.parent_centre));
    }
}

}  // namespace bs
