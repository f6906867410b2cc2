// Baseline skinning does not depend on the body's size: a body, its points and its pose scaled by f
// (root translation included; angles unchanged) deform to f × the unscaled result. Every threshold of the
// construction must be relative (to a radius, a length or an angle): an absolute one (a length of 1e-9,
// say) changes decisions at f = 1e-12 or 1e12 and shows here as a displaced or non-finite point.
// Bodies: the stress test's five (a chain of unequal cones, the 1:100 and nearly degenerate chains, a
// 3-bone junction, a root junction) and the three chains with a concave side; 1,500 points around each
// (inside to outside), 3 random bend poses the unscaled body deforms (≤ 150°, twists ±2π, root motion)
// and one it refuses where it refuses any, f = 1e-12, 1e-6, 1e6, 1e12.
// Tolerances, in units of the unscaled body's diagonal (measured: 2.1e-8 and 4.7e-7): the direct
// construction 1e-6 (codes are float: φ, t and h round at 6e-8 relative, differently at each scale); the
// per-frame tables 1e-5 (a cell's refinement may be decided differently at another scale, which moves a
// point by up to the cell tolerance, 3e-5 of its bone's smaller radius, under a fifth of the diagonal on
// these bodies).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/points.hpp"
#include "tests/support/stress_bodies.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr double kScales[] = {1e-12, 1e-6, 1e6, 1e12};
constexpr int kPoses = 3;
constexpr double kDirectTolerance = 1e-6;
constexpr double kTableTolerance = 1e-5;

Skeleton scaled(const Skeleton& s, double f) {
    std::vector<Sphere<double>> spheres;
    for (const Sphere<double>& sphere : s.spheres) spheres.push_back({f * sphere.centre, f * sphere.radius});
    return make_skeleton(spheres, s.bones, {}, "scaled body", SkeletonRules::Tree);
}

// The stress test's bodies and the chains with a concave side.
std::vector<testing::NamedChain> bodies() {
    std::vector<testing::NamedChain> out = testing::stress_bodies();
    for (testing::NamedChain& chain : testing::concave_chains()) out.push_back(std::move(chain));
    return out;
}

// kPoses random bend poses the unscaled body deforms, with their results, and the first it refuses (if
// any of the draws is refused).
struct DrawnPoses {
    std::vector<Pose> deformed, refused;
    std::vector<std::vector<Vec3<double>>> results;
};

DrawnPoses draw_poses(const BaselineSkinner<double>& unscaled, const Skeleton& s) {
    Random rng(9);
    testing::BendPoseOptions bend;
    bend.max_joint_degrees = 175;  // beyond the method's limit for a share of the joints: refusals are checked too
    bend.max_twist = 2 * testing::kBaselinePi;
    DrawnPoses drawn;
    for (int draw = 0; draw < 50 && int(drawn.deformed.size()) < kPoses; ++draw) {
        const Pose pose = testing::random_bend_pose(s, rng, bend);
        std::vector<Vec3<double>> result;
        try {
            unscaled.deform(pose, result);
        } catch (const UnsupportedError&) {  // a joint folded beyond the method's limit
            if (drawn.refused.empty()) drawn.refused.push_back(pose);
            continue;
        }
        drawn.deformed.push_back(pose);
        drawn.results.push_back(std::move(result));
    }
    return drawn;
}

// The largest |deformed at scale f / f − deformed unscaled| over the bodies, poses and points, in units
// of each body's diagonal, over kPoses poses each body deforms; non-finite points are counted apart. A
// pose the unscaled body refuses (its first) must be refused at every scale.
struct ScaleReport {
    double worst = 0;
    long non_finite = 0;
    int refusals_checked = 0;  // a pose refused unscaled, refused again at a scale
};

// One body at scale f against its unscaled results (`drawn`), into `report`; returns the worst there.
double compare_at_scale(const testing::NamedChain& body, const std::vector<Vec3<double>>& rest, const DrawnPoses& drawn,
                        const BaselineDeformOptions& options, double f, ScaleReport& report) {
    std::vector<Vec3<double>> scaled_rest;
    for (const Vec3<double>& p : rest) scaled_rest.push_back(f * p);
    BaselineSkinner<double> skinner(scaled(body.skeleton, f), scaled_rest, body.name);
    skinner.set_deform_options(options);
    auto at_scale = [f](Pose pose) {
        pose.root.translation = f * pose.root.translation;
        return pose;
    };
    std::vector<Vec3<double>> got;
    for (const Pose& pose : drawn.refused) {
        EXPECT_THROW(skinner.deform(at_scale(pose), got), UnsupportedError) << body.name << " at scale " << f;
        ++report.refusals_checked;
    }
    const double diagonal = testing::diagonal(body.skeleton);
    double worst = 0;
    for (std::size_t p = 0; p < drawn.deformed.size(); ++p) {
        try {
            skinner.deform(at_scale(drawn.deformed[p]), got);
        } catch (const std::exception& e) {
            ADD_FAILURE() << body.name << " at scale " << f << " refuses a pose it deforms unscaled: " << e.what();
            continue;
        }
        for (std::size_t i = 0; i < rest.size(); ++i) {
            if (!all_finite(got[i])) {
                ++report.non_finite;
                continue;
            }
            worst = std::max(worst, norm(got[i] / f - drawn.results[p][i]) / diagonal);
        }
    }
    return worst;
}

ScaleReport compare_scales(const BaselineDeformOptions& options) {
    ScaleReport report;
    for (const testing::NamedChain& body : bodies()) {
        const std::vector<Vec3<double>> rest = testing::points_around(body.skeleton, 1500, 11, -0.5, 1.0);
        BaselineSkinner<double> unscaled(body.skeleton, rest, body.name);
        unscaled.set_deform_options(options);
        const DrawnPoses drawn = draw_poses(unscaled, body.skeleton);
        EXPECT_EQ(int(drawn.deformed.size()), kPoses) << body.name;
        for (double f : kScales) {
            const double worst = compare_at_scale(body, rest, drawn, options, f, report);
            std::printf("[ scale ] %-16s f %-6g %s: worst %.3g of the diagonal\n", body.name.c_str(), f,
                        options.exact ? "direct" : "tables", worst);
            report.worst = std::max(report.worst, worst);
        }
    }
    return report;
}

TEST(BaselineScale, TheDirectConstructionCommutesWithScaling) {
    BaselineDeformOptions exact;
    exact.exact = true;
    const ScaleReport r = compare_scales(exact);
    EXPECT_EQ(r.non_finite, 0);
    EXPECT_LE(r.worst, kDirectTolerance);
    EXPECT_GT(r.refusals_checked, 0);
}

TEST(BaselineScale, TheTablesCommuteWithScaling) {
    const ScaleReport r = compare_scales(testing::tables_for_every_bone());
    EXPECT_EQ(r.non_finite, 0);
    EXPECT_LE(r.worst, kTableTolerance);
    EXPECT_GT(r.refusals_checked, 0);
}

}  // namespace
}  // namespace bs
