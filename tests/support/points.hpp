// Point sets around a skeleton for property tests.
#pragma once

#include <algorithm>
#include <vector>

#include "host/skeleton.hpp"
#include "tests/support/random.hpp"

namespace bs::testing {

inline double diagonal(const Skeleton& s) {
    auto b = bounds(s);
    return norm(b[1] - b[0]);
}

// The diagonal of the points' bounding box (not empty).
inline double diagonal(const std::vector<Vec3<double>>& points) {
    Vec3<double> lo = points[0], hi = points[0];
    for (const Vec3<double>& p : points) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    return norm(hi - lo);
}

// Points around every bone, cap and joint: a random sphere of the skeleton or a random point of a bone's
// axis, pushed out in a random direction to a height in [min_height, max_height] × the local radius over
// the nearest surface (heights from inside the body to well outside).
inline std::vector<Vec3<double>> points_around(const Skeleton& s, int count, unsigned seed, double min_height = -0.5,
                                               double max_height = 2.0) {
    Random rng(seed);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        int k = int(rng.uniform(0, double(s.bone_count()) - 1e-9));
        const Sphere<double>& a = s.spheres[s.bones[k][0]];
        const Sphere<double>& b = s.spheres[s.bones[k][1]];
        double t = rng.uniform(-0.1, 1.1);
        double radius = (1 - t) * a.radius + t * b.radius;
        double h = rng.uniform(min_height, max_height);
        points.push_back((1 - t) * a.centre + t * b.centre + (1 + h) * radius * rng.unit_vector());
    }
    return points;
}

}  // namespace bs::testing
