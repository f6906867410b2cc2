// Baseline skinning at junctions (issue 7; docs/ALGORITHM.md "Junctions"): spheres carrying 3+ bones, or a
// root carrying several. A junction's neighbourhood rides the rigid field of its bones, blended in by a
// weight of the rest point alone; these tests check what that must give:
// - the weight is 1 (to 1e-3) wherever the code's bone or cap changes near a junction (a property of the encoder
//   that the continuity below rests on, checked directly so that a failure names its cause);
// - the rest pose gives every point back (float, 1e-5 of the diagonal);
// - pairs 1e-4·r apart across every such boundary of a 3- and a 4-bone junction and a root junction stay
//   within 20× that distance under random poses (up to 150° at every joint, twists ±360°, a rigid motion);
// - no NaN or Inf under those poses, and every unflagged posed base-point (no cap, no clamp, rigid_blend 0)
//   on its own bone's posed surface (1e-4 of the local radius) under poses that bend the chain joints up to
//   60° (sharper chain bends with large twists are issue 4's open problem);
// - a small change of one joint of such a pose moves no point by more than 20 · Δ · (its distance to that
//   joint + 3 r).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::NamedJunction;
using testing::Random;

constexpr double kGap = 1e-4;  // pair distance, × the junction radius
constexpr int kPairsPerJunction = 1000;
constexpr int kPoses = 12;
// "Wholly blended": a weight within this of 1 (smoothstep tails; the stretch test bounds what is left).
constexpr float kWhole = 1e-3f;

// Whether a pair straddles one of the junction's own boundaries: between two of its bones, or around one
// of its caps. Chain joints and free extremities nearby are the chain construction's own business (tested
// elsewhere), and so are boundaries between bones that meet only far from the body.
bool across_junction(const NamedJunction& j, const BaselineCode& a, const BaselineCode& b) {
    auto at_junction = [&](int bone) { return j.skeleton.bones[bone][0] == j.sphere || j.skeleton.bones[bone][1] == j.sphere; };
    auto junction_cap = [&](const BaselineCode& c) {
        return ((c.flags & kCodeParentCap) && j.skeleton.bones[c.bone][0] == j.sphere) ||
               ((c.flags & kCodeChildCap) && j.skeleton.bones[c.bone][1] == j.sphere);
    };
    return (a.bone != b.bone && at_junction(a.bone) && at_junction(b.bone)) || junction_cap(a) || junction_cap(b);
}

// Pairs across the junction's own boundaries, near its surface (heights up to 2 local radii, past the far
// band's full height of 1.7, where the far band takes over).
std::vector<testing::PointPair> junction_pairs(const NamedJunction& j, const std::vector<BaselineBone<double>>& bones, Random& rng) {
    const double r = j.skeleton.spheres[j.sphere].radius;
    std::vector<testing::PointPair> pairs;
    for (int round = 0; round < 8 && int(pairs.size()) < kPairsPerJunction; ++round)
        for (const auto& pair : testing::junction_boundary_pairs(j, bones, rng, kPairsPerJunction, kGap * r, -0.6, 2.0))
            if (across_junction(j, encode_point(bones, pair.a), encode_point(bones, pair.b))) pairs.push_back(pair);
    return pairs;
}

// The junction weight is continuous in the point: along straight walks through each test junction's
// neighbourhood it changes by no more than one pair's weight can (two smoothsteps of slope 1.5 / band, of
// distance differences that change by at most 2 a unit: 6 / band, the narrowest band the skeleton's
// smallest sphere gives). A search cut short of the neighbours within three bands jumped by 125× the step
// where the nearest bone overall was none of the junction's.
TEST(BaselineJunction, TheJunctionWeightIsContinuousInThePoint) {
    const EncodeOptions options;
    for (const NamedJunction& j : testing::all_junctions()) {
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        double smallest = j.skeleton.spheres[0].radius;
        for (const Sphere<double>& s : j.skeleton.spheres) smallest = std::min(smallest, s.radius);
        const double bound = 6 / (options.junction_band * smallest), step = 2e-3;
        Random rng(77);
        double steepest = 0;
        for (const Vec3<double>& start : testing::points_around(j.skeleton, 300, 77, -1.0, 2.0)) {
            const Vec3<double> direction = rng.unit_vector();
            double before = junction_weight(bones, start, options);
            for (int k = 1; k <= 250; ++k) {
                const double now = junction_weight(bones, start + (k * step) * direction, options);
                steepest = std::max(steepest, std::fabs(now - before) / step);
                before = now;
            }
        }
        EXPECT_LE(steepest, bound) << j.name;
        std::printf("%s: steepest change of the junction weight %.3g a unit (bound %.3g)\n", j.name.c_str(), steepest, bound);
    }
}

// The junction weight is the largest pair weight over every two of the junction's bones (docs/ALGORITHM.md
// "Junctions"), though the encoder only visits neighbours in order of distance: on stars of 9 and 40 bones
// around one root (no free ends meet, no unlinked pair: every pair shares the root), over points near the
// root and along the arms, it equals the maximum over every pair to the bit.
TEST(BaselineJunction, TheJunctionWeightIsTheLargestOverEveryPair) {
    testing::Random rng(61);
    for (int arms : {9, 40}) {
        std::vector<Sphere<double>> spheres{{{0, 0, 0}, 1.0}};
        std::vector<std::array<int, 2>> links;
        for (int k = 0; k < arms; ++k) {
            const double a = 2 * testing::kBaselinePi * k / arms, lift = 0.4 * std::sin(3.0 * k);
            spheres.push_back({{3 * std::cos(a), 3 * std::sin(a), lift}, 0.3 + 0.03 * (k % 7)});
            links.push_back({0, k + 1});
        }
        const Skeleton star = make_skeleton(spheres, links, {}, "star");
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(star);
        const EncodeOptions options;
        const double band = options.junction_band * spheres[0].radius;
        int blended = 0;
        for (int i = 0; i < 3000; ++i) {
            const Vec3<double> p = rng.in_box(i % 2 ? 1.6 : 3.5);
            std::vector<double> distance;
            for (const BaselineBone<double>& bone : bones) distance.push_back(closest_point_on_bone(bone.cone, p).signed_distance);
            const double nearest = *std::min_element(distance.begin(), distance.end());
            double want = 0;
            for (std::size_t a = 0; a < bones.size(); ++a)
                for (std::size_t b = a + 1; b < bones.size(); ++b) {
                    const double apart = std::fabs(distance[a] - distance[b]) / band, above = (std::min(distance[a], distance[b]) - nearest) / band;
                    want = std::max(want, (1 - smoothstep_unit(apart)) * (1 - smoothstep_unit(above)));
                }
            const double got = junction_weight(bones, p, options);
            ASSERT_EQ(got, want) << arms << " arms, point " << i;
            blended += got > 0;
        }
        EXPECT_GT(blended, 1000) << arms << " arms";
    }
}

TEST(BaselineJunction, EveryCodeBoundaryNearAJunctionIsWhollyBlendedToTheRigidField) {
    for (const NamedJunction& j : testing::all_junctions()) {
        std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        Random rng(701);
        std::vector<testing::PointPair> pairs = junction_pairs(j, bones, rng);
        ASSERT_GE(pairs.size(), std::size_t(kPairsPerJunction)) << j.name;
        int partial = 0;
        for (const auto& pair : pairs) {
            BaselineCode a = encode_point(bones, pair.a), b = encode_point(bones, pair.b);
            if (a.rigid_blend < 1.0f - kWhole || b.rigid_blend < 1.0f - kWhole) {
                if (partial++ < 5)
                    ADD_FAILURE() << j.name << ": codes of bones " << a.bone << " (flags " << a.flags << ", blend " << a.rigid_blend
                                  << ") and " << b.bone << " (flags " << b.flags << ", blend " << b.rigid_blend << ") meet at ("
                                  << pair.a.x << ", " << pair.a.y << ", " << pair.a.z << ") without the whole rigid field";
            }
        }
        std::printf("[ junction ] %-10s %zu pairs across its boundaries, %d not wholly blended\n", j.name.c_str(), pairs.size(), partial);
        EXPECT_EQ(partial, 0) << j.name;
    }
}

TEST(BaselineJunction, RestPoseReproducesPointsAroundJunctionsInFloat) {
    for (const NamedJunction& j : testing::all_junctions()) {
        std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        Random rng(702);
        std::vector<Vec3<double>> points = testing::junction_points(j, bones, rng, 4000, -0.8, 2.0);
        BaselineSkinner<float> skinner(j.skeleton, points, j.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::vector<Vec3<float>> out;
        skinner.deform(Pose::rest(j.skeleton), out);
        const double tolerance = 1e-5 * testing::diagonal(j.skeleton);
        double worst = 0;
        for (std::size_t i = 0; i < points.size(); ++i) worst = std::max(worst, norm(Vec3<double>(out[i]) - points[i]));
        std::printf("[ junction ] %-10s rest pose: worst %.2e (tolerance %.2e)\n", j.name.c_str(), worst, tolerance);
        EXPECT_LE(worst, tolerance) << j.name;
    }
}

TEST(BaselineJunction, PointsAcrossCellBoundariesStayTogetherUnderRandomPoses) {
    for (const NamedJunction& j : testing::all_junctions()) {
        std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        Random rng(703);
        std::vector<testing::PointPair> pairs = junction_pairs(j, bones, rng);
        ASSERT_GE(pairs.size(), std::size_t(kPairsPerJunction)) << j.name;
        std::vector<Vec3<double>> points;
        for (const auto& p : pairs) {
            points.push_back(p.a);
            points.push_back(p.b);
        }
        BaselineSkinner<double> skinner(j.skeleton, points, j.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::vector<Vec3<double>> out;
        double worst = 0;
        for (int trial = 0; trial < kPoses; ++trial) {
            skinner.deform(testing::random_bend_pose(j.skeleton, rng), out);
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                double ratio = norm(out[2 * i] - out[2 * i + 1]) / norm(points[2 * i] - points[2 * i + 1]);
                if (ratio > 20 && worst <= 20)
                    ADD_FAILURE() << j.name << " trial " << trial << ": pair at (" << points[2 * i].x << ", " << points[2 * i].y
                                  << ", " << points[2 * i].z << ") stretched " << ratio << "x (bones " << skinner.codes()[2 * i].bone
                                  << ", " << skinner.codes()[2 * i + 1].bone << ")";
                worst = std::max(worst, ratio);
            }
        }
        std::printf("[ junction ] %-10s %zu pairs x %d poses: worst stretch %.2f\n", j.name.c_str(), pairs.size(), kPoses, worst);
        EXPECT_LE(worst, 20) << j.name;
    }
}

// Signed distance of a posed base-point to its bone's hull, in the bone's frame F⁰_k (there bone k is at
// rest), over the local radius.
double base_point_off_surface(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                              const BaselineCode& code) {
    PosedBase<double> b = posed_base(code, bones.data(), poses.data());
    const Cone<double>& cone = bones[code.bone].cone;
    return std::fabs(closest_point_on_bone(cone, b.base).signed_distance) / radius_at(cone, b.base);
}

// A random pose with bends up to 150° at the junction and up to 60° at the chain joints, twists up to ±180°:
// the chain construction's own open problem at sharper bends with large twists (issue 4, docs/ALGORITHM.md
// "Known open problem") stays out of this test of the junction.
Pose junction_bend_pose(const Skeleton& s, const std::vector<BaselineBone<double>>& bones, Random& rng) {
    testing::BendPoseOptions options;
    options.max_twist = testing::kBaselinePi;
    Pose pose = testing::random_bend_pose(s, rng, options);
    for (std::size_t k = 0; k < bones.size(); ++k)
        if (bones[k].previous >= 0) pose.joints[k].swing = slerp(Quat<double>::identity(), pose.joints[k].swing, 60.0 / 150.0);
    return pose;
}

TEST(BaselineJunction, NoNaNAndUnflaggedBasePointsOnTheirPosedBonesUnderRandomPoses) {
    for (const NamedJunction& j : testing::all_junctions()) {
        std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        Random rng(704);
        std::vector<Vec3<double>> points = testing::points_around(j.skeleton, 3000, 705, -0.8, 1.5);
        std::vector<Vec3<double>> near = testing::junction_points(j, bones, rng, 2000, -0.8, 2.0);
        points.insert(points.end(), near.begin(), near.end());
        for (const auto& s : j.skeleton.spheres) points.push_back(s.centre);
        points.push_back(j.skeleton.spheres[j.sphere].centre + 1e3 * testing::diagonal(j.skeleton) * rng.unit_vector());
        BaselineSkinner<double> skinner(j.skeleton, points, j.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::vector<Vec3<double>> out;
        int non_finite = 0, checked = 0, junction_coded = 0;
        for (const BaselineCode& c : skinner.codes()) junction_coded += (c.flags & kCodeNearJunction) != 0;
        double worst = 0;
        for (int trial = 0; trial < kPoses; ++trial) {
            Pose pose = trial % 2 ? junction_bend_pose(j.skeleton, bones, rng) : testing::random_bend_pose(j.skeleton, rng);
            skinner.deform(pose, out);
            for (const Vec3<double>& p : out) non_finite += !all_finite(p);
            if (trial % 2 == 0) continue;  // NaN only: the surface under these poses is issue 4's
            std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
            for (const BaselineCode& c : skinner.codes()) {
                if ((c.flags & (kCodeParentCap | kCodeChildCap | kCodeClamped)) || c.rigid_blend != 0.0f) continue;
                ++checked;
                worst = std::max(worst, base_point_off_surface(bones, poses, c));
            }
        }
        std::printf("[ junction ] %-10s %zu points (%d in a junction's field) x %d poses: %d non-finite; %d unflagged base-points, "
                    "worst off-surface %.2e r\n",
                    j.name.c_str(), points.size(), junction_coded, kPoses, non_finite, checked, worst);
        EXPECT_EQ(non_finite, 0) << j.name;
        EXPECT_GT(checked, 150) << j.name << ": too few points away from the junction to test";
        EXPECT_LE(worst, 1e-4) << j.name;
    }
}

TEST(BaselineJunction, ASmallChangeOfOneJointMovesPointsByABoundedAmount) {
    const double delta = 1e-4;
    for (const NamedJunction& j : testing::all_junctions()) {
        std::vector<BaselineBone<double>> bones = make_baseline_bones(j.skeleton);
        Random rng(706);
        std::vector<Vec3<double>> points = testing::junction_points(j, bones, rng, 3000, -0.6, 1.5);
        BaselineSkinner<double> skinner(j.skeleton, points, j.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::vector<Vec3<double>> before, after;
        double worst = 0;
        for (int trial = 0; trial < 6; ++trial) {
            Pose pose = junction_bend_pose(j.skeleton, bones, rng);
            int k = int(rng.uniform(0, double(j.skeleton.bone_count()) - 1e-9));
            Pose nudged = pose;
            nudged.joints[k].swing = normalized(axis_angle(rng.unit_vector(), delta) * pose.joints[k].swing);
            skinner.deform(pose, before);
            skinner.deform(nudged, after);
            // The joint that turned: bone k's parent sphere, posed.
            std::vector<Rigid<double>> frames = posed_bones(j.skeleton, pose);
            Vec3<double> joint = frames[k].apply(j.skeleton.spheres[j.skeleton.bones[k][0]].centre);
            double r = j.skeleton.spheres[j.skeleton.bones[k][0]].radius;
            for (std::size_t i = 0; i < points.size(); ++i) {
                double bound = 20 * delta * (norm(before[i] - joint) + 3 * r);
                worst = std::max(worst, norm(after[i] - before[i]) / bound);
            }
        }
        std::printf("[ junction ] %-10s pose continuity: worst move / bound %.3f\n", j.name.c_str(), worst);
        EXPECT_LE(worst, 1.0) << j.name;
    }
}

}  // namespace
}  // namespace bs
