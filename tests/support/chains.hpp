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

}  // namespace bs::testing
