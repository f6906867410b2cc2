// Baseline skinning, part 2 (bend): a joint folded sharply at rest, swung back past its parent's axis,
// keeps neighbouring points together (the bend's continuation, engine/baseline/bend.hpp, TargetTracker).
//
// Two equal cylinders (radius 1, length 4) folded 120°, 140° and 160° at rest. The child's axis is posed at
// polar angles 5° … 55° from the parent's and azimuths within 60° of the side opposite its rest direction
// (the child swung by up to ~175° from rest, straightening the joint from the far side). There a generator
// near the plane of the rest bend has two candidate target pairs that start together (mirror images) and
// part slowly, and the continuation's tracker picked between them by rounding: the targets of generators
// 1e-16 apart wound a whole turn apart and tore surface points 2 radii apart (a probe, 2026-12-07: 1,500
// of 36,000 generators on the 140° chain). Surface points in pairs 1e-4 r apart on both bones, with the
// tables and with the direct construction: every pair within the stretch bound of 20.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::radians_of;

// Parent along x from the origin, the child leaving the parent's end `fold_degrees` off the parent's line.
Skeleton folded_cylinders(double fold_degrees) {
    const double leave = radians_of(180 - fold_degrees), length = 4;
    return make_skeleton({{{0, 0, 0}, 1}, {{length, 0, 0}, 1}, {{length - length * std::cos(leave), length * std::sin(leave), 0}, 1}},
                         {{0, 1}, {1, 2}}, {}, "cylinders folded at rest");
}

// `count` points within 0.1 r of the surface around both bones (the parent's last 70%, the child's first
// 70%), each followed by a partner 1e-4 r away in a random direction: the suite's pairs (a joint's
// convex/concave change has a square-root singularity, where the stretch of closer pairs grows without
// bound: at 1e-8 r these bodies' worst is 29-82).
std::vector<Vec3<double>> surface_pairs(const Skeleton& s, int count, testing::Random& rng) {
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        const int k = i % 2;
        const Vec3<double> from = s.spheres[s.bones[k][0]].centre, to = s.spheres[s.bones[k][1]].centre;
        const double t = k == 0 ? rng.uniform(0.3, 1.0) : rng.uniform(0.0, 0.7);
        const Vec3<double> p = (1 - t) * from + t * to + rng.uniform(0.9, 1.1) * rng.unit_vector();
        points.push_back(p);
        points.push_back(p + 1e-4 * rng.unit_vector());
    }
    return points;
}

TEST(BaselineBendRestFolded, AJointFoldedAtRestAndStraightenedFromTheFarSideDoesNotTear) {
    testing::Random rng(2026);
    for (double fold : {120.0, 140.0, 160.0}) {
        const Skeleton s = folded_cylinders(fold);
        const std::vector<Vec3<double>> points = surface_pairs(s, 400, rng);
        const Vec3<double> a = s.rest_axis(0), c0 = s.rest_axis(1), across = normalized(c0 - dot(c0, a) * a);
        for (bool exact : {false, true}) {
            BaselineSkinner<double> skinner(s, points, "folded cylinders");
            BaselineDeformOptions options = testing::tables_for_every_bone();
            options.exact = exact;
            skinner.set_deform_options(options);
            double worst = 0;
            char worst_where[160] = "";
            std::vector<Vec3<double>> out;
            for (double polar = 5; polar <= 55; polar += 10)
                for (double azimuth = 120; azimuth <= 240; azimuth += 20) {
                    Pose pose = Pose::rest(s);
                    const Vec3<double> e = rotate(axis_angle(a, radians_of(azimuth)), across);
                    pose.joints[1].swing = testing::shortest_arc(c0, std::cos(radians_of(polar)) * a + std::sin(radians_of(polar)) * e);
                    pose.joints[1].twist_radians = rng.uniform(-3, 3);
                    skinner.deform(pose, out);
                    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
                        const double stretch = norm(out[i + 1] - out[i]) / norm(points[i + 1] - points[i]);
                        if (!(stretch <= worst)) {
                            worst = stretch;
                            std::snprintf(worst_where, sizeof worst_where, "child at polar %g°, azimuth %g° from its rest side, pair %zu",
                                          polar, azimuth, i / 2);
                        }
                    }
                }
            std::printf("[ rest-folded joint ] folded %g°, %s: worst stretch %.3g (%s)\n", fold, exact ? "exact " : "tables", worst,
                        worst_where);
            EXPECT_LE(worst, 20) << "folded " << fold << "°, " << (exact ? "exact" : "tables") << ": " << worst_where;
        }
    }
}

}  // namespace
}  // namespace bs
