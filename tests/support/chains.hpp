// Small skeletons shared by tests.
#pragma once

#include "host/skeleton.hpp"

namespace bs::testing {

// Three bones along x with unequal radii (a cylinder first): spheres at x = 0, 4, 7, 9.
inline Skeleton straight_chain() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{7, 0, 0}, 0.7}, {{9, 0, 0}, 0.45}},
                         {{0, 1}, {1, 2}, {2, 3}}, {}, "test chain");
}

// Two bones, the second bent 60° in the xy plane (rest-bent elbow).
inline Skeleton bent_chain() {
    return make_skeleton({{{0, 0, 0}, 1.2}, {{5, 0, 0}, 1.0}, {{7.5, 4.33, 0}, 0.6}}, {{0, 1}, {1, 2}}, {},
                         "bent chain");
}

// Neighbouring spheres of radius ratio 1:100: two cones that mirror each other about a sphere of radius
// 0.01 between spheres of radius 1 (the stress test's body).
inline Skeleton ratio_1_100_chain() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{3, 0, 0}, 1.0}, {{4.5, 0.5, 0}, 0.01}, {{6, 0.5, 0.5}, 1.0}},
                         {{0, 1}, {1, 2}, {2, 3}}, {}, "ratio 1:100");
}

// A nearly degenerate cone, |C1 − C2| = |r1 − r2| (1 + 1e-6), after a cylinder: a disc whose generators
// are 7e-4 long (the stress test's body).
inline Skeleton near_degenerate_chain() {
    const double drop = 0.5 * (1 + 1e-6);
    return make_skeleton({{{0, 0, 0}, 1.0}, {{3, 0, 0}, 1.0}, {{3 + drop, 0, 0}, 0.5}, {{5, 1, 0}, 0.4}},
                         {{0, 1}, {1, 2}, {2, 3}}, {}, "near-degenerate cone");
}

// Two chains of one tube that meet end to end, the second hung from the first's root by a bridge that runs
// inside the first (as a rigged model's armature node links its chains: FBX/animation_with_skeleton.fbx).
// Spheres of radius 1: 0 at the origin (the root), 1 at (3, 0.4, 0), 2 at (6, 0, 0) (the first chain's free
// end), 3 at (6.5, 0, 0) (the second chain's start), 4 at (10, 0, 0). Bones: 0 [0→1], 1 [1→2], 2 [0→3]
// (the bridge, marked as one when `bridged`), 3 [3→4]. The first chain bends 15° at sphere 1, so that the
// straight bridge is nearer than it to some of its surface.
constexpr int kTubeBridge = 2;
inline Skeleton two_chain_tube(bool bridged = true) {
    Skeleton s = make_skeleton({{{0, 0, 0}, 1.0}, {{3, 0.4, 0}, 1.0}, {{6, 0, 0}, 1.0}, {{6.5, 0, 0}, 1.0}, {{10, 0, 0}, 1.0}},
                               {{0, 1}, {1, 2}, {0, 3}, {3, 4}}, {}, "two-chain tube", SkeletonRules::Tree);
    if (bridged) set_bridges(s, {kTubeBridge}, "two-chain tube");
    return s;
}

}  // namespace bs::testing
