// An axis-aligned bounding box grown point by point: the extents the readers, rigs and the viewer size
// their tolerances and views by.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/vec.hpp"

namespace bs {

struct Box {
    // Empty (no point added): lo +∞, hi −∞, so that the first point added is the box.
    Vec3<double> lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    Vec3<double> hi{-lo.x, -lo.y, -lo.z};

    void add(const Vec3<double>& p) {
        for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
    }
    Vec3<double> diagonal() const { return hi - lo; }
    double largest_side() const { return std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}); }
    // The largest |coordinate| of a point in the box (the magnitude float and double round at).
    double magnitude() const {
        return std::max({std::fabs(lo.x), std::fabs(lo.y), std::fabs(lo.z), std::fabs(hi.x), std::fabs(hi.y), std::fabs(hi.z)});
    }
};

// The box of `points` (any range of Vec3<double>).
template <class Points> Box box_of(const Points& points) {
    Box box;
    for (const Vec3<double>& p : points) box.add(p);
    return box;
}

}  // namespace bs
