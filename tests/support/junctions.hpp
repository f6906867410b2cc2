// Skeletons with junctions for the baseline-skinning junction tests (tests/host/test_baseline_junction.cpp):
// a 3-bone junction, a 4-bone junction and a root carrying three bones (a capture's hips), each bone of a
// junction followed by a chain joint so that junction fields and chain joints meet; points around a
// junction; pairs of points 1e-4·r apart on either side of every boundary where the code changes (its
// bone, or cap against segment: the junction's cells, its creases, its caps).
#pragma once

#include <string>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/skeleton.hpp"
#include "tests/support/baseline.hpp"

namespace bs::testing {

struct NamedJunction {
    std::string name;
    Skeleton skeleton;
    int sphere;  // the junction sphere
};

// A spine into a junction of radius 1.2, two arms leaving it at unequal angles, each with a forearm.
inline NamedJunction three_bone_junction() {
    return {"three_bone",
            make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.2}, {{7, 2.5, 0}, 0.8}, {{9, 4.5, 1}, 0.6}, {{6.5, -2.5, 1.0}, 0.9},
                           {{8.5, -5, 1.5}, 0.6}},
                          {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5}}, {}, "three-bone junction", SkeletonRules::Tree),
            1};
}

// A chest: a spine into a junction of radius 1.3, a neck going on and two shoulders leaving sideways (one
// slightly forward), each followed by an arm.
inline NamedJunction four_bone_junction() {
    return {"four_bone",
            make_skeleton({{{0, 0, 0}, 1.1}, {{0, 4, 0}, 1.3}, {{0, 6.5, 0.2}, 0.6}, {{0, 8, 0.4}, 0.9},
                           {{2.4, 4.6, 0}, 0.8}, {{5.5, 4.0, 0.5}, 0.55}, {{-2.4, 4.5, 0.6}, 0.8}, {{-5.5, 3.8, 0.9}, 0.55}},
                          {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5}, {1, 6}, {6, 7}}, {}, "four-bone junction",
                          SkeletonRules::Tree),
            1};
}

// Hips: the root sphere carries two thighs (after short hip bones) and a spine.
inline NamedJunction root_junction() {
    return {"root",
            make_skeleton({{{0, 0, 0}, 1.4}, {{1.3, -0.6, 0}, 1.0}, {{1.5, -5, 0.3}, 0.7}, {{-1.3, -0.6, 0}, 1.0},
                           {{-1.5, -5, 0.3}, 0.7}, {{0, 3, -0.2}, 1.2}, {{0, 6, 0}, 1.1}},
                          {{0, 1}, {1, 2}, {0, 3}, {3, 4}, {0, 5}, {5, 6}}, {}, "root junction", SkeletonRules::Tree),
            0};
}

inline std::vector<NamedJunction> all_junctions() { return {three_bone_junction(), four_bone_junction(), root_junction()}; }

// Points around the junction sphere: directions uniform, signed heights over the body in
// [min_height, max_height] × the junction radius, distances up to `reach` junction radii from its centre.
inline std::vector<Vec3<double>> junction_points(const NamedJunction& j, const std::vector<BaselineBone<double>>& bones,
                                                 Random& rng, int count, double min_height, double max_height,
                                                 double reach = 3.0) {
    const Sphere<double>& s = j.skeleton.spheres[j.sphere];
    std::vector<Vec3<double>> points;
    while (int(points.size()) < count) {
        Vec3<double> centre = s.centre + (rng.uniform(0, reach - 1) * s.radius) * rng.unit_vector();
        if (body_signed_distance(bones, centre) > 0) continue;  // the ray must start inside the body
        Vec3<double> dir = rng.unit_vector();
        points.push_back(point_at_height(bones, centre, dir, rng.uniform(min_height, max_height) * s.radius, 8 * reach * s.radius));
    }
    return points;
}

// What a continuity test compares across: the code's bone and whether it is a cap code.
inline int code_kind(const BaselineCode& c) { return 4 * int(c.bone) + (c.flags & (kCodeParentCap | kCodeChildCap)); }

// Pairs at most `gap` apart whose codes differ in kind, found by bisection between random points near the
// junction; up to `wanted` pairs from at most 40 × wanted tries.
inline std::vector<PointPair> junction_boundary_pairs(const NamedJunction& j, const std::vector<BaselineBone<double>>& bones,
                                                      Random& rng, int wanted, double gap, double min_height,
                                                      double max_height) {
    std::vector<PointPair> pairs;
    for (int tries = 0; int(pairs.size()) < wanted && tries < 40 * wanted; ++tries) {
        std::vector<Vec3<double>> ends = junction_points(j, bones, rng, 2, min_height, max_height);
        Vec3<double> a = ends[0], b = ends[1];
        if (norm(a - b) > 1.5 * j.skeleton.spheres[j.sphere].radius) b = a + 0.5 * (b - a) / norm(b - a);
        int kind_a = code_kind(encode_point(bones, a)), kind_b = code_kind(encode_point(bones, b));
        if (kind_a == kind_b) continue;
        for (int it = 0; it < 80 && norm(b - a) > gap; ++it) {
            Vec3<double> mid = 0.5 * (a + b);
            if (code_kind(encode_point(bones, mid)) == kind_a) a = mid;
            else b = mid;
        }
        if (norm(b - a) > 0) pairs.push_back({a, b});
    }
    return pairs;
}

}  // namespace bs::testing
