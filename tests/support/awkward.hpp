// Awkward points for the finiteness and stress tests of baseline skinning: the origin, sphere centres and
// points 1e-9 r from them, every bone's axis (exactly, past both ends and far along it), its tangency
// circles and caps' poles, each chain joint's separator plane (the point nearest the joint centre, the pivot
// circle and circles inside and outside it, far along the plane), points far from the body, and optionally
// random points around the body from deep inside to well outside.
#pragma once

#include <cmath>
#include <vector>

#include "engine/baseline/bone.hpp"
#include "host/skeleton.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs::testing {

struct AwkwardCounts {
    int around = 1000;  // random points around the body (signed heights −1 … 3 radii)
    int far = 500;      // points 500–1000 diagonals away
    int near_centre = 20;  // per sphere, 1e-9 radii from its centre
};

inline std::vector<Vec3<double>> awkward_points(const Skeleton& s, const std::vector<BaselineBone<double>>& bones, Random& rng,
                                                const AwkwardCounts& counts = {}) {
    const double size = diagonal(s);
    std::vector<Vec3<double>> points = counts.around > 0 ? points_around(s, counts.around, 3, -1.0, 3.0) : std::vector<Vec3<double>>{};
    points.push_back({0, 0, 0});
    for (int i = 0; i < counts.far; ++i) points.push_back((1e3 * size * rng.uniform(0.5, 1.0)) * rng.unit_vector());
    for (const auto& sphere : s.spheres) {
        points.push_back(sphere.centre);
        for (int i = 0; i < counts.near_centre; ++i) points.push_back(sphere.centre + (sphere.radius * 1e-9) * rng.unit_vector());
    }
    for (const auto& bone : bones) {
        const Cone<double>& c = bone.cone;
        // Exactly on the axis (and its extensions past both ends), and on it far away.
        for (double f : {-3.0, -1.0, -0.25, -1e-12, 0.0, 1e-12, 0.1, 0.5, 0.9, 1.0, 1.0 + 1e-12, 1.25, 2.0, 1e3})
            points.push_back(c.parent.centre + (f * c.length) * c.axis);
        // Exactly on the tangency circles and the caps' poles.
        for (int i = 0; i < 12; ++i) {
            Vec3<double> radial = generator_radial(bone, 2 * kBaselinePi * i / 12);
            points.push_back(tangency_point(c, BoneEnd::Parent, radial));
            points.push_back(tangency_point(c, BoneEnd::Child, radial));
        }
        points.push_back(c.parent.centre - c.parent.radius * c.axis);
        points.push_back(c.child.centre + c.child.radius * c.axis);
        if (bone.next < 0) continue;
        // On the separator plane: its point nearest the joint centre, the pivot circle, inside and
        // outside it, and far along the plane.
        const SeparatorPlane<double>& plane = bone.child_separator;
        PivotCircle<double> pivot = pivot_circle(plane, c.child.radius);
        Vec3<double> e1, e2;
        orthonormal_basis(plane.normal, e1, e2);
        points.push_back(pivot.circle.centre);
        for (int i = 0; i < 24; ++i) {
            double a = 2 * kBaselinePi * i / 24;
            Vec3<double> u = std::cos(a) * e1 + std::sin(a) * e2;
            for (double scale : {1e-9, 0.5, 1.0, 1.0 + 1e-12, 1.5, 3.0, 1e3})
                points.push_back(pivot.circle.centre + (scale * pivot.circle.radius) * u);
        }
    }
    return points;
}

}  // namespace bs::testing
