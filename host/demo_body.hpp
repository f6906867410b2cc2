// The built-in demo bodies: a chain of three bones with unequal radii (the first a cylinder) with a pose
// sequence that bends the first joint 0 -> 135° and twists the last bone 0 -> 180°; a humanoid rigged on a
// motion capture, moved by that capture; and a point set sampled uniformly over any sphere-mesh's surface
// with a relief of bumps.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs {

Skeleton demo_chain();

// The CMU walk of Debian's assimp-testmodels: the human demo's capture (./run installs it).
inline constexpr const char* kDemoCapture = "/usr/share/assimp/models/BVH/01_01.bvh";

// A humanoid sphere-mesh rigged on a capture's hierarchy (host/bvh_rig.hpp: human proportions) and the
// capture as its motion, one pose per frame.
struct CapturedBody {
    Skeleton skeleton;
    Motion motion;
};
// IoError naming `capture` (and where to get the default one) when the file does not exist; the BVH
// loader's errors otherwise.
CapturedBody captured_human(const std::string& capture);

struct SurfaceSample {
    Vec3<double> position;
    Vec3<double> normal;  // outward unit normal of the sphere-mesh at the sample
};

// `count` points spread uniformly (by area) over the boundary of the union of the skeleton's bones
// (each the convex hull of its two spheres), bridges (host/skeleton.hpp) left out. Deterministic for a given seed, whatever the thread count (drawn
// in blocks of 65,536 on all cores, each block from a generator of its own). InputError for a skeleton
// check_skeleton refuses: an empty one or one of bridges alone (nothing to sample: it crashed), a sphere
// index out of range (it read past the spheres).
std::vector<SurfaceSample> sample_surface(const Skeleton& skeleton, std::size_t count, unsigned seed);

// Surface samples pushed out along their normal by a relief of smooth Gaussian bumps
// (height up to ~15% of the mean radius), so the point set carries detail above the surface.
std::vector<Vec3<double>> demo_points(const Skeleton& skeleton, std::size_t count, unsigned seed);

// Pose at progress s in [0, 1]: joint 1 bent by 135°·s about the z axis, bone 2 twisted by 180°·s. InputError
// for a skeleton of fewer than three bones (it wrote past the pose's joints).
Pose demo_pose(const Skeleton& skeleton, double s);

}  // namespace bs
