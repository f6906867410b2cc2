// Baseline skinning, part 2 (bend), under random poses (issue 4): no NaN or Inf, and every unflagged
// posed base-point lies on its own bone's posed surface or on the crease.
//
// Poses: up to 150° between consecutive posed bone axes (a fifth of the joints at exactly 150°), twists up
// to ±360° per bone, a random root motion and first-bone swing (testing::random_bend_pose).
// Counts (scaled down from the 1,000 poses × 10,000 points to fit the suite's time budget): per
// chain (the four test chains) 2,000 points around the chain plus 1,000 hugging the joints, and
// - finiteness: those plus ~300 awkward points (sphere centres, on the axes and their extensions, on the
//   separator planes and pivot circles, 1e3 × the size away), 24 poses in double and 8 in float;
// - surface: 30 poses (360,000 posed base-points over the four chains). In bone k's frame F⁰_k
//   (posed_base) bone k is at rest, so a base-point is on its posed surface when its signed distance to
//   bone k's rest hull is below 1e-4 × the local radius; otherwise it must be on the crease: on the posed
//   separator plane and on both posed cones (the cone surfaces, extended) to 1e-4 × the radius.
//   Unflagged: not a cap, not kCodeClamped, rigid_blend = 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/awkward.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr int kSurfacePoses = 30;
constexpr int kFinitePosesDouble = 24;
constexpr int kFinitePosesFloat = 8;

std::vector<Vec3<double>> random_pose_points(const Skeleton& s, const std::vector<BaselineBone<double>>& bones,
                                             unsigned seed) {
    Random rng(seed);
    std::vector<Vec3<double>> points = testing::points_around(s, 2000, seed, -0.8, 1.5);
    testing::add_joint_points(points, bones, rng, 1000, 1.2, -0.4, 0.8);
    return points;
}

template <class T>
void check_finite(const char* type, int poses) {
    Random rng(sizeof(T) == 4 ? 1501 : 1502);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = random_pose_points(s, bones, 61);
        std::vector<Vec3<double>> awkward = testing::awkward_points(s, bones, rng, {0, 40, 8});
        points.insert(points.end(), awkward.begin(), awkward.end());
        BaselineSkinner<T> skinner(s, points, chain.name);
        std::vector<Vec3<T>> out;
        int bad_total = 0;
        for (int trial = 0; trial < poses; ++trial) {
            Pose pose = testing::random_bend_pose(s, rng);
            skinner.deform(pose, out);
            ASSERT_EQ(out.size(), points.size());
            int bad = 0;
            std::size_t first = 0;
            for (std::size_t i = 0; i < out.size(); ++i)
                if (!all_finite(out[i]) && bad++ == 0) first = i;
            bad_total += bad;
            const BaselineCode& c = skinner.codes()[first];
            EXPECT_EQ(bad, 0) << type << " " << chain.name << " trial " << trial << ": " << bad
                              << " non-finite outputs, first at point (" << points[first].x << ", " << points[first].y
                              << ", " << points[first].z << ") bone " << c.bone << " flags " << c.flags << " phi " << c.phi
                              << " t " << c.t << " h " << c.h << " blend " << c.rigid_blend;
        }
        std::printf("[ bend finite ] %s %-11s %zu points x %d poses: %d non-finite\n", type, chain.name.c_str(),
                    points.size(), poses, bad_total);
    }
}

TEST(BaselineBendRandom, NoNaNOrInfUnderRandomBendPosesInDouble) { check_finite<double>("double", kFinitePosesDouble); }

TEST(BaselineBendRandom, NoNaNOrInfUnderRandomBendPosesInFloat) { check_finite<float>("float", kFinitePosesFloat); }

// Distance of x to the surface of the (infinite, two-sided along its generators) cone through the bone's
// tangency circles: along · sin θ + ρ cos θ − r1 (closest_point_on_bone's cone formula, without the caps).
double cone_surface_distance(const Cone<double>& c, Vec3<double> x) {
    Vec3<double> d = x - c.parent.centre;
    double along = dot(d, c.axis);
    double rho = norm(d - along * c.axis);
    return along * c.sin_theta + rho * c.cos_theta - c.parent.radius;
}

// Distances of a posed base-point, all over the local radius, in F⁰_k.
struct SurfaceCheck {
    bool checked = false;
    bool finite = true;
    double hull = 0;      // |signed distance to bone k's hull|
    double crease = 0;    // on a crease: max(plane, bone k's hull, the neighbour's posed hull), the better joint
    double extended = 0;  // the same with the two cones' surfaces extended past the bones (no caps)
    unsigned posed_flags = 0;
    testing::PosedPart part = testing::PosedPart::Cap;

    double distance() const { return std::min(hull, crease); }
};

SurfaceCheck check_base(const BaselineCode& code, const std::vector<BaselineBone<double>>& bones,
                        const std::vector<BaselineBonePose<double>>& table) {
    SurfaceCheck out;
    out.checked = true;
    const int k = code.bone;
    PosedBase<double> b = posed_base(code, bones.data(), table.data());
    auto describe_place = [&] {
        testing::PosedPlace place = testing::posed_place(code, bones, table);
        out.posed_flags = place.flags;
        out.part = place.part;
    };
    if (!all_finite(b.base) || !all_finite(b.direction)) {
        out.finite = false;
        describe_place();
        return out;
    }
    const Cone<double>& cone = bones[k].cone;
    const double r = testing::local_radius(cone, b.base);
    out.hull = std::fabs(closest_point_on_bone(cone, b.base).signed_distance) / r;
    out.crease = out.extended = INFINITY;
    LocalChain<double> local = posed_neighbourhood(bones.data(), table.data(), k);
    const double own_extended = std::fabs(cone_surface_distance(cone, b.base)) / r;
    auto joint = [&](const SeparatorPlane<double>& separator, const Cone<double>& neighbour) {
        double plane = std::fabs(signed_distance(separator, b.base)) / r;
        double other = std::fabs(closest_point_on_bone(neighbour, b.base).signed_distance) / r;
        double other_extended = std::fabs(cone_surface_distance(neighbour, b.base)) / r;
        out.crease = std::min(out.crease, std::max({plane, out.hull, other}));
        out.extended = std::min(out.extended, std::max({plane, own_extended, other_extended}));
    };
    if (bones[k].previous >= 0) joint(local.bones[1].parent_separator, local.bones[0].cone);
    if (bones[k].next >= 0) joint(local.bones[1].child_separator, local.bones[2].cone);
    if (out.distance() >= 1e-6) describe_place();  // only for the report
    return out;
}

// "On the crease" is read as on the posed separator plane and on both bones' posed hulls (the surfaces the
// posed body is made of, closest_point_on_bone), so a base-point on the crease is also on its own bone's
// hull. The looser reading — on the plane and on both cones' surfaces extended past the bones — is
// reported beside it: a base-point can meet it while lying well off the posed body.
//
// The documented fallback this test exempts, counts and bounds: where a fold puts the crossing of the two
// generators beyond the shorter bone's segment, the anchor is clamped (kBeltCrossingOffSegments, set on
// the posed section at pose time) between the two generators, and each bone's crease piece ends off its
// own cone at that shared anchor (continuity across the separator needs one anchor for both). Such
// base-points may be off by up to kMaxClampedOff local radii, on at most kMaxClampedShare of the checks;
// every other unflagged base-point must be on the surface or the crease to kTolerance.
// History: at 3ec70a2 this failed everywhere but on the sharp elbow (straight 2,295 of 51,510 off, worst
// 3.05 r; bent 435; flared 1,045), from crops searched on the deformed segment that collapsed where a large
// bend and twist carried the segment past the separator, and crease pieces swept the short way round the
// cone. Since the crop is the anchor's σ and the crease runs on the bone's own cone (docs/ALGORITHM.md),
// every base-point off the surface is in a clamped section (measured 2026-12-01: straight 1,016 of 50,730,
// worst 0.55 r; flared 404 of 49,050, worst 0.18 r; bent and sharp elbow none). Since the clamped anchor
// lies between both generators (2026-12-07; before, straight 450 of 50,970, worst 0.45 r): straight 954 of
// 50,970, worst 0.23 r; the others none.
constexpr double kMaxClampedOff = 1.0;
constexpr double kMaxClampedShare = 0.05;

TEST(BaselineBendRandom, UnflaggedPosedBasePointsLieOnTheirBonesPosedSurfaceOrOnTheCrease) {
    constexpr double kTolerance = 1e-4;
    Random rng(1503);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = random_pose_points(s, bones, 62);
        std::vector<BaselineCode> codes = encode_points(bones, points, chain.name);
        long checked = 0, off = 0, off_posed_flagged = 0, off_on_extended = 0, non_finite = 0, off_clamped = 0;
        double worst = 0;  // over unflagged points: distance to the surface or the crease / local radius
        double worst_clamped = 0;  // the same, in sections whose anchor was clamped
        std::string worst_case;
        std::vector<SurfaceCheck> result(points.size());
        for (int trial = 0; trial < kSurfacePoses; ++trial) {
            Pose pose = testing::random_bend_pose(s, rng);
            std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
            const long n = long(points.size());
#pragma omp parallel for schedule(dynamic, 64)
            for (long i = 0; i < n; ++i) {
                const BaselineCode& c = codes[i];
                bool exempt = (c.flags & (kCodeParentCap | kCodeChildCap | kCodeClamped)) || c.rigid_blend != 0.0f;
                result[i] = exempt ? SurfaceCheck{} : check_base(c, bones, table);
            }
            for (std::size_t i = 0; i < points.size(); ++i) {
                const SurfaceCheck& r = result[i];
                if (!r.checked) continue;
                ++checked;
                if (!r.finite) {
                    ++non_finite;
                    ADD_FAILURE() << "non-finite posed base-point: " << testing::describe_point(chain.name, points[i], codes[i], pose);
                    continue;
                }
                if (r.posed_flags & kBeltCrossingOffSegments) {  // the fallback: counted and bounded apart, within the tolerance too
                    off_clamped += r.distance() >= kTolerance;
                    worst_clamped = std::max(worst_clamped, r.distance());
                    continue;
                }
                if (r.distance() >= kTolerance) {
                    ++off;
                    if (r.posed_flags) ++off_posed_flagged;
                    if (r.extended < kTolerance) ++off_on_extended;
                }
                if (!(r.distance() <= worst)) {
                    worst = r.distance();
                    char text[300];
                    std::snprintf(text, sizeof text,
                                  "; posed part %s, posed-section flags %u, |sd| to bone k's hull %.3g r, on the crease "
                                  "of the extended cones to %.3g r",
                                  testing::posed_part_name(r.part), r.posed_flags, r.hull, r.extended);
                    worst_case = testing::describe_point(chain.name, points[i], codes[i], pose) + text;
                }
            }
        }
        EXPECT_EQ(non_finite, 0) << chain.name;
        EXPECT_GT(checked, long(kSurfacePoses) * 1500) << chain.name;
        EXPECT_EQ(off, 0) << chain.name << ": " << off << " posed base-points off their bone's posed surface and the "
                          << "crease (" << off_on_extended << " of them on the crease of the extended cones, "
                          << off_posed_flagged << " in a posed section flagged at pose time)";
        EXPECT_LE(off_clamped, long(kMaxClampedShare * double(checked))) << chain.name;
        EXPECT_LE(worst_clamped, kMaxClampedOff) << chain.name;
        std::printf("[ bend surface ] %-11s %ld checks, %ld off the surface and crease (%ld on the extended cones' "
                    "crease, %ld posed-flagged); worst distance / local radius %.3g outside clamped sections; clamped anchors: %ld off, worst %.3g\n",
                    chain.name.c_str(), checked, off, off_on_extended, off_posed_flagged, worst, off_clamped, worst_clamped);
        if (worst >= kTolerance) std::printf("    worst: %s\n", worst_case.c_str());
        ::testing::Test::RecordProperty("worst_relative_distance_" + chain.name, std::to_string(worst));
    }
}

}  // namespace
}  // namespace bs
