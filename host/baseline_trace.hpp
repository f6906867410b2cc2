// The baseline of one encoded point under a pose, for inspection (the viewer draws it over the points):
// the posed section its base-point lies on, sampled along its length, the posed base-point, its detail
// direction and the point it gives, all by the direct construction of engine/baseline/deform.hpp (seed 000,
// "Deformation": the base-point keeps its ratio t on the posed section, p' = b' + h n', deep codes blended
// toward their axis foot), in world coordinates. A point over a free extremity's cap traces the cap's
// meridian through it, from the pole to the rim.
#pragma once

#include <cstddef>
#include <vector>

#include "host/baseline_skinner.hpp"

namespace bs {

struct BaselineTrace {
    std::vector<Vec3<double>> section;  // `samples` points, parent end to child end (caps: pole to rim)
    Vec3<double> base;                  // the posed base-point
    Vec3<double> direction;             // its detail direction n' (unit)
    Vec3<double> point;                 // b' + h n' (for a deep code blended toward its axis foot: engine/baseline/deform.hpp
                                        // detail_point), before the code's rigid blend (if any)
    int bone;
    BaselineCode code;
};

// InputError for an index out of range or samples < 2; the pose is checked as deform() checks it.
template <class T>
BaselineTrace trace_baseline(const BaselineSkinner<T>& skinner, std::size_t index, const Pose& pose, int samples = 64);

}  // namespace bs
