// A sphere-mesh on a joint hierarchy (a motion capture's joints, a rigged model's bone nodes), and poses
// of it from the joints' rotations. Shared by host/bvh_rig.hpp and host/model_rig.hpp.
//
// Spheres: one per joint at its rest position, except a joint at no distance (kSamePlace of the largest
// parent–joint distance) from its parent, which merges into its parent's sphere, or from a sibling listed
// before it (the same parent joint), which merges into the sibling's; a merged joint has no bone of its
// own. Siblings at one place would otherwise give two copies of one bone, from the same sphere along the
// same axis, turned alike, whose chains tear apart where they leave it (FBX/huesitos.fbx's Bone.002 and
// Bone.003: the arm and the neck); merged, the sphere is a junction of the three.
// Bones: from the sphere of a joint's parent (the sphere the parent merged into, where it merged) to the
// joint's sphere; a bone turns with
// the rotation of the joint's parent (for a bone through a merged joint, the merged one). The root's
// sphere may carry several bones and a sphere several children: tree rules (host/skeleton.hpp).
//
// Poses (DESIGN §2a: rest frames are the world axes): given each joint's rotation from rest to posed,
// R_j, a bone's local rotation is R_(its parent bone's driver)⁻¹ · R_(its driver), split into swing and
// twist about its rest axis; the root transform is given.
#pragma once

#include <string>
#include <vector>

#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs {

// Joints this close (a fraction of the largest parent–joint distance) are one place. 1e-6 until 2026-12-05:
// X/BCN_Epileptic.X has a pelvis bone 9.98e-7 long (2.5e-6 of its largest), whose cones at the joint beside
// it are so short that the plane where they meet misses the joint sphere at rest, so the baseline method
// refused every pose of its rig. A bone of 1e-4 of the body's largest is no bone a mesh can show.
constexpr double kSamePlace = 1e-4;

struct RigJoint {
    std::string name;
    int parent = -1;  // index in the list, parents first; -1 for the root (exactly one)
    Vec3<double> position;
};

struct HierarchyRig {
    Skeleton skeleton;
    std::vector<int> sphere_of_joint;  // per joint: its sphere, or (merged) its parent's or its sibling's
    std::vector<int> joint_of_sphere;  // per sphere: its joint
    std::vector<int> driver_of_bone;   // per bone: the joint whose rotation turns it
    std::vector<std::string> merged;   // names of the merged joints, in order
};

// The rig's topology and centres; `radius_of_sphere(rig, sphere)` gives each sphere's radius before the
// cone clamp: from the root outwards each child radius is clamped to its parent's ± 0.8 × the bone's
// length, so every bone admits a tangent cone. InputError naming `source` when no bone remains or the
// tree rules refuse the result.
template <class RadiusRule>
HierarchyRig rig_hierarchy(const std::vector<RigJoint>& joints, const std::string& source, RadiusRule radius_of_sphere);

// The pose for joint rotations `rotations` (rest → posed, one per joint) and root transform `root`.
Pose hierarchy_pose(const HierarchyRig& rig, const std::vector<Quat<double>>& rotations, const Rigid<double>& root);

// The centres' largest extent (a body's height, when upright).
double largest_extent(const std::vector<Vec3<double>>& points);

// --- implementation details of rig_hierarchy ---
HierarchyRig rig_topology(const std::vector<RigJoint>& joints, const std::string& source);
void finish_rig(HierarchyRig& rig, std::vector<double> radii, const std::string& source);

template <class RadiusRule>
HierarchyRig rig_hierarchy(const std::vector<RigJoint>& joints, const std::string& source, RadiusRule radius_of_sphere) {
    HierarchyRig rig = rig_topology(joints, source);
    std::vector<double> radii(rig.skeleton.spheres.size());
    for (std::size_t s = 0; s < radii.size(); ++s) radii[s] = radius_of_sphere(rig, int(s));
    finish_rig(rig, std::move(radii), source);
    return rig;
}

}  // namespace bs
