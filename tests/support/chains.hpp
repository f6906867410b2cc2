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

}  // namespace bs::testing
