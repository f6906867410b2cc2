// Stress (issue 10): 100,000 random extreme poses over five bodies — a chain of unequal cones, neighbouring
// spheres of radius ratio 1:100, a nearly degenerate cone (|C1 − C2| = |r1 − r2| (1 + 1e-6)), a 3-bone
// junction and a root junction — with bends up to 179° at every joint, twists up to ±1080°, root
// translations of 0, one diagonal and 1e6 diagonals; 16 awkward points per pose (on axes, on every
// boundary, at centres, far outside and deep inside; testing::awkward_points). Every pose either is refused
// with UnsupportedError (baseline skinning: a chain joint folded beyond 170°, or folded until the separator
// misses the joint sphere — its documented limit) or deforms every point to a finite position within
// 2 × (its rest distance to the root sphere + the bones' total length + the largest radius) of the posed
// root centre. LBS and DQS (automatic weights) take every tenth pose, never refused, with the same checks.
// The per-frame tables (the pass's default) take kTablePoses of these poses per body, every awkward point
// deformed through them, with the same checks: a table is built per pose, so they take fewer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "host/skinner.hpp"
#include "tests/support/awkward.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/stress_bodies.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr int kPoses = 100000;
constexpr int kPointsPerPose = 16;
constexpr int kTablePoses = 50;

// Bends up to 179° (any direction) at every joint, twists up to ±6π, a random root rotation and one of three
// translation scales.
Pose extreme_pose(const Skeleton& s, Random& rng, int trial) {
    Pose pose = Pose::rest(s);
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        pose.joints[k].twist_radians = rng.uniform(-6 * testing::kBaselinePi, 6 * testing::kBaselinePi);
        Vec3<double> axis = s.rest_axis(int(k)), e = rng.unit_vector();
        pose.joints[k].swing = axis_angle(normalized(e - dot(e, axis) * axis), testing::radians_of(rng.uniform(0, 179)));
    }
    const double scale = trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? testing::diagonal(s) : 1e6 * testing::diagonal(s);
    pose.root = {rng.rotation(), scale * rng.in_box(1)};
    return pose;
}

double total_length(const Skeleton& s) {
    double sum = 0, radius = 0;
    for (std::size_t k = 0; k < s.bone_count(); ++k) sum += norm(s.spheres[s.bones[k][1]].centre - s.spheres[s.bones[k][0]].centre);
    for (const auto& sphere : s.spheres) radius = std::max(radius, sphere.radius);
    return sum + radius;
}

struct Tally {
    long deformed = 0, refused = 0, non_finite = 0, unbounded = 0;
    double worst_ratio = 0;  // posed distance to the root centre over its bound
    std::string worst_case;
};

void check_point(const Skeleton& s, const Pose& pose, Vec3<double> rest, Vec3<double> posed, Tally& t, const BaselineCode* code = nullptr) {
    if (!all_finite(posed)) {
        ++t.non_finite;
        return;
    }
    const Vec3<double> root = s.spheres[s.root_sphere].centre;
    const Vec3<double> posed_root = pose.root.apply(root);
    double bound = 2 * (norm(rest - root) + total_length(s));
    // Rounding of a huge translation: a few ulps of it.
    double slack = 1e-9 * norm(pose.root.translation);
    double ratio = (norm(posed - posed_root) - slack) / bound;
    if (ratio > t.worst_ratio && ratio > 1) {
        std::string text = "point (" + std::to_string(rest.x) + ", " + std::to_string(rest.y) + ", " + std::to_string(rest.z) + ")";
        if (code)
            text += " code bone " + std::to_string(code->bone) + " flags " + std::to_string(code->flags) + " phi " +
                    std::to_string(code->phi) + " t " + std::to_string(code->t) + " h " + std::to_string(code->h) + " blend " +
                    std::to_string(code->rigid_blend);
        testing::append_pose(text, pose);
        t.worst_case = text;
    }
    t.worst_ratio = std::max(t.worst_ratio, ratio);
    t.unbounded += ratio > 1;
}

// Prints a tally and expects no non-finite or unbounded point, and more than a tenth of `poses` deformed.
void expect_finite_bounded_mostly_deformed(const std::string& what, const Tally& t, int poses) {
    std::printf("[ stress ] %-24s %ld poses deformed, %ld refused, %ld non-finite, %ld unbounded (worst %.3f of the bound)\n",
                what.c_str(), t.deformed, t.refused, t.non_finite, t.unbounded, t.worst_ratio);
    EXPECT_EQ(t.non_finite, 0) << what;
    EXPECT_EQ(t.unbounded, 0) << what << ": worst " << t.worst_case;
    EXPECT_GT(t.deformed, poses / 10) << what << ": almost every pose refused";
}

TEST(BaselineStress, ExtremePosesGiveFiniteBoundedPointsOrTheDocumentedRefusal) {
    Random rng(901);
    const std::vector<testing::NamedChain> bodies = testing::stress_bodies();
    const int poses_per_body = kPoses / int(bodies.size());
    for (const auto& body : bodies) {
        const Skeleton& s = body.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = testing::awkward_points(s, bones, rng, {200, 40, 2});
        BaselineSkinner<double> baseline(s, points, body.name);
        baseline.set_deform_options(testing::tables_for_every_bone());
        std::vector<Vec3<double>> few(points.begin(), points.begin() + kPointsPerPose);
        Skinner lbs(Method::lbs, s, few, {}, body.name), dqs(Method::dqs, s, few, {}, body.name);
        Tally tb, tc;
        std::vector<Vec3<float>> out;
        for (int trial = 0; trial < poses_per_body; ++trial) {
            Pose pose = extreme_pose(s, rng, trial);
            try {
                std::vector<BaselineBonePose<double>> table = baseline.frame(pose);
                ++tb.deformed;
                for (int n = 0; n < kPointsPerPose; ++n) {
                    std::size_t i = std::size_t(rng.uniform(0, double(points.size()) - 1e-9));
                    check_point(s, pose, points[i],
                                deform_baseline_point(baseline.codes()[i], points[i], bones.data(), table.data(), int(bones.size())), tb,
                                &baseline.codes()[i]);
                }
            } catch (const UnsupportedError&) {
                ++tb.refused;
            }
            if (trial % 10) continue;
            for (const Skinner* classic : {&lbs, &dqs}) {
                classic->deform(pose, out);
                ++tc.deformed;
                for (std::size_t i = 0; i < few.size(); ++i) check_point(s, pose, few[i], Vec3<double>(out[i]), tc);
            }
        }
        expect_finite_bounded_mostly_deformed(body.name + " baseline", tb, poses_per_body);
        expect_finite_bounded_mostly_deformed(body.name + " LBS/DQS", tc, tc.deformed);
    }
}

TEST(BaselineStress, ExtremePosesThroughTheTablesGiveFiniteBoundedPointsOrTheDocumentedRefusal) {
    Random rng(902);
    for (const auto& body : testing::stress_bodies()) {
        const Skeleton& s = body.skeleton;
        std::vector<Vec3<double>> points = testing::awkward_points(s, make_baseline_bones(s), rng, {200, 40, 2});
        BaselineSkinner<double> baseline(s, points, body.name);
        baseline.set_deform_options(testing::tables_for_every_bone());
        Tally t;
        std::vector<Vec3<double>> out;
        for (int trial = 0; trial < kTablePoses; ++trial) {
            Pose pose = extreme_pose(s, rng, trial);
            try {
                baseline.deform(pose, out);
            } catch (const UnsupportedError&) {
                ++t.refused;
                continue;
            }
            ++t.deformed;
            for (std::size_t i = 0; i < points.size(); ++i) check_point(s, pose, points[i], out[i], t, &baseline.codes()[i]);
        }
        expect_finite_bounded_mostly_deformed(body.name + " tables", t, kTablePoses);
    }
}

}  // namespace
}  // namespace bs
