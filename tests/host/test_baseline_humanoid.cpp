// Baseline skinning of a whole humanoid under a real capture (issue 7): CMU 01_01 (Debian's
// assimp-testmodels) rigged by host/bvh_rig (junctions at the hips, the chest and the neck), points over
// its surface with detail relief (host/demo_body), every frame of the capture:
// - no NaN or Inf;
// - unflagged posed base-points (no cap, no clamp, rigid_blend 0) on their own bone's posed surface to 1e-4
//   of the local radius (checked on every 4th frame: the check constructs each base-point directly);
// - pairs 1e-4·r apart at rest (r: the nearest bone's local radius) stay within 20× that distance, every
//   pair; the worst is printed for pairs where a junction is involved (either code in a junction's field,
//   or the two codes on different bones) and for pairs inside one chain bone's construction. Those tore at
//   CMU's left toe joint on frame 2641 (bent only 46°: 16 pair-frames) while V' was followed along the
//   swing's scaling; none since it is chosen by where its baseline crosses the separator (issue 4).
// - pairs 1e-4 apart straddling the very places where two bones' codes meet (found by bisection between
//   surface points and partners 0.02 away) stay within 20× under every 2nd frame: random pairs seldom
//   fall on those seams. The neck's second bone (Neck1 to Head) lies against the chest junction's bones
//   out to the shoulders; the two share no sphere, and their codes met unblended on and inside the
//   surface: this test's pairs stretched up to 555× (docs/ALGORITHM.md "Bones that nothing links",
//   parts that touch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "host/demo_body.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

constexpr const char* kCapture = "/usr/share/assimp/models/BVH/01_01.bvh";
constexpr std::size_t kPoints = 600;
constexpr int kSurfaceEvery = 4;

TEST(BaselineHumanoid, EveryFrameOfACaptureIsFiniteOnTheSurfaceAndContinuous) {
    if (!std::filesystem::exists(kCapture)) GTEST_SKIP() << kCapture << " missing (Debian's assimp-testmodels; ./run installs it)";
    const CapturedBody body = captured_human(kCapture);
    const Skeleton& s = body.skeleton;
    const Motion& motion = body.motion;
    std::vector<BaselineBone<double>> bones = make_baseline_bones(s);

    // Each surface point and a partner 1e-4·r away in a random direction.
    std::vector<Vec3<double>> points;
    testing::Random rng(801);
    for (const Vec3<double>& p : demo_points(s, kPoints, 802)) {
        double r = INFINITY, nearest = INFINITY;
        for (const auto& b : bones) {
            double d = closest_point_on_bone(b.cone, p).signed_distance;
            if (d < nearest) nearest = d, r = radius_at(b.cone, p);
        }
        points.push_back(p);
        points.push_back(p + (1e-4 * r) * rng.unit_vector());
    }
    BaselineSkinner<double> skinner(s, points, kCapture);
    // The direct construction: 27 bones' tables cost ~0.4 s a frame on 2 cores, far more than these few
    // points (the tables are tested against it in test_baseline_table.cpp).
    BaselineDeformOptions exact;
    exact.exact = true;
    skinner.set_deform_options(exact);
    const std::vector<BaselineCode>& codes = skinner.codes();
    std::size_t in_junction_fields = 0;
    for (const BaselineCode& c : codes) in_junction_fields += (c.flags & kCodeNearJunction) != 0;

    std::vector<Vec3<double>> out;
    long non_finite = 0, surface_checks = 0;
    double worst_stretch = 0, worst_junction_stretch = 0, worst_chain_stretch = 0, worst_off_surface = 0;
    std::string worst_case;
    for (std::size_t f = 0; f < motion.frame_count(); ++f) {
        Pose pose = motion.frame(f);
        skinner.deform(pose, out);
        for (std::size_t i = 0; i < out.size(); i += 2) {
            non_finite += !all_finite(out[i]) + !all_finite(out[i + 1]);
            double stretch = norm(out[i] - out[i + 1]) / norm(points[i] - points[i + 1]);
            bool junction = codes[i].bone != codes[i + 1].bone || ((codes[i].flags | codes[i + 1].flags) & kCodeNearJunction);
            double& worst_here = junction ? worst_junction_stretch : worst_chain_stretch;
            worst_here = std::max(worst_here, stretch);
            if (stretch > worst_stretch && stretch > 20) {
                const BaselineCode &a = codes[i], &b = codes[i + 1];
                char text[400];
                std::snprintf(text, sizeof text, "frame %zu: pair at (%.9g, %.9g, %.9g) stretched %.3g: codes (bone %d, flags %d, t %.4g, h %.4g, blend %.4g) and (bone %d, flags %d, t %.4g, h %.4g, blend %.4g)",
                              f, points[i].x, points[i].y, points[i].z, stretch, a.bone, a.flags, a.t, a.h, a.rigid_blend, b.bone, b.flags, b.t, b.h, b.rigid_blend);
                worst_case = text;
            }
            worst_stretch = std::max(worst_stretch, stretch);
        }
        if (f % kSurfaceEvery) continue;
        std::vector<BaselineBonePose<double>> table = skinner.frame(pose);
        for (const BaselineCode& c : codes) {
            if ((c.flags & (kCodeParentCap | kCodeChildCap | kCodeClamped)) || c.rigid_blend != 0.0f) continue;
            PosedBase<double> b = posed_base(c, bones.data(), table.data());
            const Cone<double>& cone = bones[c.bone].cone;
            ++surface_checks;
            worst_off_surface = std::max(worst_off_surface, std::fabs(closest_point_on_bone(cone, b.base).signed_distance) /
                                                                radius_at(cone, b.base));
        }
    }
    std::printf("[ humanoid ] %zu bones, %zu points (%zu in junction fields) x %zu frames: %ld non-finite, worst pair stretch "
                "%.2f (junction pairs %.2f, chain pairs %.2f), %ld surface checks, worst off-surface %.2e r\n",
                s.bone_count(), points.size(), in_junction_fields, motion.frame_count(), non_finite, worst_stretch,
                worst_junction_stretch, worst_chain_stretch, surface_checks, worst_off_surface);
    EXPECT_EQ(non_finite, 0);
    EXPECT_LE(worst_stretch, 20) << worst_case;
    EXPECT_GT(surface_checks, 100000) << "too few points outside the junctions' fields to test";
    EXPECT_LE(worst_off_surface, 1e-4);
}

// Pairs 1e-4 apart across each place where a surface point's code and that of a partner 0.02 away (in a
// random direction) lie on different bones: the boundary between them bisected to 2e-14.
std::vector<Vec3<double>> pairs_across_code_boundaries(const std::vector<BaselineBone<double>>& bones, const Skeleton& s) {
    testing::Random rng(803);
    std::vector<Vec3<double>> pairs;
    for (const Vec3<double>& p : demo_points(s, 20000, 804)) {
        Vec3<double> on = p, off = p + 0.02 * rng.unit_vector();
        const int bone = encode_point(bones, on).bone;
        if (encode_point(bones, off).bone == bone) continue;
        for (int step = 0; step < 40; ++step) {
            const Vec3<double> middle = 0.5 * (on + off);
            if (encode_point(bones, middle).bone == bone)
                on = middle;
            else
                off = middle;
        }
        const Vec3<double> across = normalized(off - on), middle = 0.5 * (on + off);
        pairs.insert(pairs.end(), {middle - 5e-5 * across, middle + 5e-5 * across});
    }
    return pairs;
}

TEST(BaselineHumanoid, PairsAcrossWhereTwoBonesCodesMeetStayTogetherUnderEveryFrame) {
    if (!std::filesystem::exists(kCapture)) GTEST_SKIP() << kCapture << " missing (Debian's assimp-testmodels; ./run installs it)";
    const CapturedBody body = captured_human(kCapture);
    const std::vector<Vec3<double>> points = pairs_across_code_boundaries(make_baseline_bones(body.skeleton), body.skeleton);
    BaselineSkinner<double> skinner(body.skeleton, points, kCapture);
    std::vector<Vec3<double>> out;
    double worst = 0;
    std::size_t worst_pair = 0, worst_frame = 0;
    for (std::size_t f = 0; f < body.motion.frame_count(); f += 2) {
        skinner.deform(body.motion.frame(f), out);
        for (std::size_t i = 0; i < out.size(); i += 2) {
            const double stretch = norm(out[i] - out[i + 1]) / norm(points[i] - points[i + 1]);
            if (stretch > worst) worst = stretch, worst_pair = i, worst_frame = f;
        }
    }
    const BaselineCode &a = skinner.codes()[worst_pair], &b = skinner.codes()[worst_pair + 1];
    std::printf("[ humanoid ] %zu pairs across code boundaries x every 2nd frame: worst stretch %.3g (frame %zu, bones %d and %d)\n",
                points.size() / 2, worst, worst_frame, a.bone, b.bone);
    EXPECT_GT(points.size(), 100u) << "too few pairs across code boundaries to test";
    EXPECT_LE(worst, 20) << "bones " << a.bone << " (blend " << a.rigid_blend << ") and " << b.bone << " (blend " << b.rigid_blend << ")";
}

}  // namespace
}  // namespace bs
