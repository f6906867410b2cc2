// The fallback's rigid field (engine/baseline/deform.hpp, rigid_motion): one pass over the bones keeps
// the few that can still weigh, instead of a second pass over every bone, passes over far bones by a
// bound without a root (surely_beyond) from a bound started at a given bone, and near that bone looks only
// at the bones on its neighbour list; none of which may change it. The
// field is defined by the second pass (docs/ALGORITHM.md "Fallback bands and the rigid field"): every bone
// j weighs smoothstep(1 − (s_j − nearest) / band) in float, s_j its scaled axis distance, and the bones' rigid
// transforms are blended as dual quaternions. That definition is written out here and the engine's field
// must equal it bit for bit, near bodies with junctions (a few bones within the band), along a comb of
// 22 bones (neighbour lists that leave bones out) and far from a star of twelve bones (all twelve within it: more than the candidates kept, so the engine repeats the pass
// over every bone). And the blend is rigid where it matters: around a junction, where every bone that
// weighs turns about the junction's centre, a point keeps its distance from the posed centre.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/junctions.hpp"

namespace bs {
namespace {

using testing::Random;

// Every bone's weight in the field at p, as defined: smoothstep(1 − (s_j − nearest) / band) rounded to
// float (the weights are kept in float, engine/baseline/deform.hpp FieldWeight), 0 for a bridge.
std::vector<double> field_weights(const std::vector<BaselineBone<double>>& bones, Vec3<double> p) {
    double nearest = 1e30;
    for (const auto& b : bones)
        if (!b.bridge) nearest = std::min(nearest, scaled_axis_distance(b.cone, p));
    const double band = 0.5 * std::max(nearest, 1.0);
    std::vector<double> weights;
    for (const auto& b : bones)
        weights.push_back(b.bridge ? 0.0 : double(float(smoothstep_unit(1 - (scaled_axis_distance(b.cone, p) - nearest) / band))));
    return weights;
}

// The field as defined: weights over every bone, the bones that weigh handed to the engine's blend in
// bone order (the blend itself is tested below).
Vec3<double> field_over_every_bone(const std::vector<BaselineBone<double>>& bones,
                                   const std::vector<BaselineBonePose<double>>& poses, Vec3<double> p, int& weighing) {
    const std::vector<double> weights = field_weights(bones, p);
    weighing = int(std::count_if(weights.begin(), weights.end(), [](double w) { return w > 0; }));
    return blend_rigid_field(bones.data(), poses.data(), p, [&](auto&& fn) {
        for (std::size_t j = 0; j < bones.size(); ++j)
            if (weights[j] > 0) fn(int(j), weights[j]);
    });
}

// Twelve bones leaving one root sphere in directions spread over the sphere, each of its own length.
Skeleton star_of_twelve() {
    std::vector<Sphere<double>> spheres{{{0, 0, 0}, 1.5}};
    std::vector<std::array<int, 2>> bones;
    Random rng(12);
    for (int i = 0; i < 12; ++i) {
        spheres.push_back({rng.unit_vector() * rng.uniform(3.0, 6.0), rng.uniform(0.4, 0.9)});
        bones.push_back({0, i + 1});
    }
    return make_skeleton(spheres, bones, {}, "star of twelve", SkeletonRules::Tree);
}

// A spine of eight bones with two teeth at each inner sphere (junctions all along it): 22 bones, most
// far from one another, so each bone's rigid-field neighbour list leaves some out.
Skeleton comb() {
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> bones;
    for (int i = 0; i <= 8; ++i) spheres.push_back({{3.0 * i, 0, 0}, 0.9 - 0.04 * i});
    for (int i = 0; i < 8; ++i) bones.push_back({i, i + 1});
    for (int i = 1; i < 8; ++i)
        for (double side : {-1.0, 1.0}) {
            spheres.push_back({{3.0 * i + 0.5, 2.5 * side, 0.4 * side}, 0.45});
            bones.push_back({i, int(spheres.size()) - 1});
        }
    return make_skeleton(spheres, bones, {}, "comb", SkeletonRules::Tree);
}

// Points, those with at most kFieldCandidates bones weighing, and those with more: every bone that weighs
// is among the candidates the one pass keeps, so more than kFieldCandidates weighing means the engine
// took its pass over every bone.
struct Counts {
    long points = 0, few = 0, many = 0;
};

void expect_field_as_defined(const std::string& name, const Skeleton& s, double reach, Random& rng, Counts& counts) {
    std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    for (int pose_index = 0; pose_index < 8; ++pose_index) {
        std::vector<BaselineBonePose<double>> poses = baseline_pose_table(s, testing::random_bend_pose(s, rng));
        for (int i = 0; i < 500; ++i) {
            // Around a random bone, from its axis out to `reach` times its radius.
            const int near_index = int(rng.uniform(0, double(bones.size()) - 1e-9));
            const BaselineBone<double>& near = bones[std::size_t(near_index)];
            Vec3<double> p = near.cone.parent.centre + rng.uniform(0, 1) * near.cone.length * near.cone.axis +
                             rng.uniform(0, reach) * near.cone.parent.radius * rng.unit_vector();
            int weighing = 0;
            Vec3<double> want = field_over_every_bone(bones, poses, p, weighing);
            // The bone that starts the bound: the one the point was drawn around, and any other.
            const int other_index = int(rng.uniform(0, double(bones.size()) - 1e-9));
            for (int hint : {near_index, other_index}) {
                Vec3<double> got = rigid_motion(bones.data(), poses.data(), int(bones.size()), p, hint);
                ASSERT_EQ(got.x, want.x) << name << " point " << i << " bound from bone " << hint;
                ASSERT_EQ(got.y, want.y) << name << " point " << i << " bound from bone " << hint;
                ASSERT_EQ(got.z, want.z) << name << " point " << i << " bound from bone " << hint;
            }
            ++counts.points;
            (weighing <= kFieldCandidates ? counts.few : counts.many) += 1;
        }
    }
}

// Each bone's motion in the field, R_j(p) = F⁰_j(turn(τ_j c(x_j)) p), as the pose table gives it (the
// Plücker form, and the turns 0 and τ_j held as they are beyond the bone's ends) against the rigid
// transforms composed: at points before, along and beyond every bone of every junction, under random poses.
TEST(BaselineRigidField, EachBonesMotionIsItsFrameAfterItsTwistProfile) {
    Random rng(2027);
    long before = 0, along = 0, beyond = 0;
    for (const auto& junction : testing::all_junctions()) {
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(junction.skeleton);
        for (int pose_index = 0; pose_index < 6; ++pose_index) {
            const std::vector<BaselineBonePose<double>> poses =
                baseline_pose_table(junction.skeleton, testing::random_bend_pose(junction.skeleton, rng));
            for (std::size_t j = 0; j < bones.size(); ++j) {
                const Cone<double>& cone = bones[j].cone;
                for (int i = 0; i < 60; ++i) {
                    const double x = rng.uniform(-0.5, 1.5);
                    const Vec3<double> p = cone.parent.centre + x * cone.length * cone.axis + rng.uniform(0, 2) * cone.parent.radius * rng.unit_vector();
                    const double fraction = axis_fraction(cone, p);
                    (fraction == 0 ? before : fraction == 1 ? beyond : along) += 1;
                    const double turn = poses[j].twist * cubic_profile(fraction);
                    const Rigid<double> want = compose(poses[j].frame, rotation_about(axis_angle(cone.axis, turn), cone.parent.centre));
                    const Vec3<double> got = rigid_transform_of_bone(bones[j], poses[j], p).apply(p), expected = want.apply(p);
                    ASSERT_LT(norm(got - expected), 1e-12 * (1 + norm(expected))) << junction.name << " bone " << j << " at x = " << fraction;
                }
            }
        }
    }
    EXPECT_GT(before, 500);
    EXPECT_GT(along, 500);
    EXPECT_GT(beyond, 500);
}

TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneNearBodiesWithJunctions) {
    Random rng(2026);
    for (const auto& j : testing::all_junctions()) {
        Counts c;
        expect_field_as_defined(j.name, j.skeleton, 3.0, rng, c);
        EXPECT_GT(c.few, 0);
    }
}

// A bridge never weighs, whatever bone starts the bound (the bridge itself included); on the two-chain
// tube its straight bone lies within every point's reach of the first chain.
TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneButABridge) {
    Random rng(79);
    Counts c;
    expect_field_as_defined("two-chain tube", testing::two_chain_tube(), 3.0, rng, c);
    EXPECT_GT(c.few, 100);
}

// A comb's bones list only some of the others as field neighbours; the field is the same as over every
// bone, from points out to three radii (within the lists' reach and beyond).
TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneWhereNeighbourListsLeaveBonesOut) {
    Random rng(78);
    Counts c;
    expect_field_as_defined("comb", comb(), 3.0, rng, c);
    EXPECT_GT(c.few, 100);
}

// The lists' promise: at any point within kFieldNeighbourReach of a bone, every bone that weighs in the
// field is on that bone's list. On the comb most lists are shorter than the bones (else this proves
// nothing), and none overflows.
TEST(BaselineRigidField, NeighbourListsHoldEveryBoneThatWeighsWithinTheirReach) {
    const Skeleton s = comb();
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    int shorter = 0;
    for (const auto& b : bones) {
        ASSERT_GE(b.field_neighbour_count, 1);
        shorter += b.field_neighbour_count < int(bones.size());
    }
    EXPECT_GT(shorter, int(bones.size()) / 2);
    Random rng(79);
    long checked = 0;
    for (int i = 0; i < 20000; ++i) {
        const int k = int(rng.uniform(0, double(bones.size()) - 1e-9));
        const Cone<double>& cone = bones[std::size_t(k)].cone;
        const Vec3<double> p = cone.parent.centre + rng.uniform(-0.3, 1.3) * cone.length * cone.axis +
                               rng.uniform(0, kFieldNeighbourReach) * larger_radius(cone) * rng.unit_vector();
        if (scaled_axis_distance(cone, p) > kFieldNeighbourReach) continue;
        ++checked;
        const std::vector<double> weights = field_weights(bones, p);
        const int* list = bones[std::size_t(k)].field_neighbours;
        const int* end = list + bones[std::size_t(k)].field_neighbour_count;
        for (std::size_t j = 0; j < bones.size(); ++j)
            if (weights[j] > 0) {
                ASSERT_NE(std::find(list, end, int(j)), end) << "bone " << j << " weighs near bone " << k;
            }
    }
    EXPECT_GT(checked, 10000);
}

TEST(BaselineRigidField, EqualsTheFieldOverEveryBoneWhereMoreBonesWeighThanItKeeps) {
    Random rng(77);
    Counts c;
    expect_field_as_defined("star of twelve", star_of_twelve(), 60.0, rng, c);
    std::printf("[ rigid field ] star of twelve: %ld points, %ld with more than %d bones weighing\n", c.points, c.many,
                kFieldCandidates);
    EXPECT_GT(c.many, 100) << "the points must reach the pass over every bone";
    EXPECT_GT(c.few, 100);
}

// The bones that weigh in the field at p.
std::vector<int> weighing_bones(const std::vector<BaselineBone<double>>& bones, Vec3<double> p) {
    const std::vector<double> weights = field_weights(bones, p);
    std::vector<int> weighing;
    for (std::size_t j = 0; j < weights.size(); ++j)
        if (weights[j] > 0) weighing.push_back(int(j));
    return weighing;
}

// The field as it was until 2026-12-03: the moved points R_j(p) averaged with the same weights (LBS-like).
Vec3<double> blend_of_moved_points(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                                   Vec3<double> p) {
    const std::vector<double> weights = field_weights(bones, p);
    Vec3<double> sum{0, 0, 0};
    double total = 0;
    for (std::size_t j = 0; j < bones.size(); ++j) {
        sum += weights[j] * rigid_transform_of_bone(bones[j], poses[j], p).apply(p);
        total += weights[j];
    }
    return sum / total;
}

// The first bone that leaves sphere `sphere` (the one the turning tests twist).
int first_bone_leaving(const Skeleton& s, int sphere) {
    int bone = 0;
    while (s.bones[std::size_t(bone)][0] != sphere) ++bone;
    return bone;
}

// The largest rotation between two of the bones that weigh at p, in radians.
double widest_turn(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                   const std::vector<int>& weighing, Vec3<double> p) {
    double widest = 0;
    for (int i : weighing)
        for (int j : weighing) {
            const Quat<double> a = rigid_transform_of_bone(bones[std::size_t(i)], poses[std::size_t(i)], p).real;
            const Quat<double> b = rigid_transform_of_bone(bones[std::size_t(j)], poses[std::size_t(j)], p).real;
            widest = std::max(widest, 2 * std::acos(std::min(1.0, std::fabs(dot(a, b)))));
        }
    return widest;
}

// Around a junction every bone that weighs turns about the junction's centre, so where both of the
// field's fades are 1 (see deform.hpp) the field is a rigid motion about it, and a point keeps its
// distance from the posed centre. A blend of the moved points, as the field was, draws points toward the
// centre: the same points and poses show it.
struct DistanceKept {
    long checked = 0;
    double worst = 0, linear_worst = 0;  // in junction radii
};

// Points around `junction` (`per_pose` drawn per pose) whose weighing bones are all on it, at most
// `most_bones` of them, turned between `least` and `most` radians from one another, under 40 poses turning
// every joint by up to `swing` radians (and twisting it by up to 0.1 rad).
DistanceKept distance_from_the_centre(const testing::NamedJunction& junction, double swing, double least, double most,
                                      std::size_t most_bones, int per_pose, Random& rng) {
    const Skeleton& s = junction.skeleton;
    const Vec3<double> centre = s.spheres[std::size_t(junction.sphere)].centre;
    const double radius = s.spheres[std::size_t(junction.sphere)].radius;
    std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    auto on_junction = [&](int j) { return s.bones[std::size_t(j)][0] == junction.sphere || s.bones[std::size_t(j)][1] == junction.sphere; };
    int first = 0;
    while (!on_junction(first)) ++first;
    DistanceKept kept;
    for (int pose_index = 0; pose_index < 40; ++pose_index) {
        Pose pose = Pose::rest(s);
        for (auto& joint : pose.joints) {
            joint.swing = axis_angle(rng.unit_vector(), rng.uniform(-swing, swing));
            joint.twist_radians = rng.uniform(-0.1, 0.1);
        }
        std::vector<BaselineBonePose<double>> poses = baseline_pose_table(s, pose);
        const Vec3<double> posed_centre = rigid_transform_of_bone(bones[std::size_t(first)], poses[std::size_t(first)], centre).apply(centre);
        for (const Vec3<double>& p : testing::junction_points(junction, bones, rng, per_pose, -0.5, 0.5, 2.0)) {
            std::vector<int> weighing = weighing_bones(bones, p);
            if (weighing.size() < 2 || weighing.size() > most_bones || !std::all_of(weighing.begin(), weighing.end(), on_junction)) continue;
            const double turn = widest_turn(bones, poses, weighing, p);
            if (turn < least || turn > most) continue;
            ++kept.checked;
            const double want = norm(p - centre);
            const Vec3<double> got = rigid_motion(bones.data(), poses.data(), int(bones.size()), p, weighing[0]);
            kept.worst = std::max(kept.worst, std::fabs(norm(got - posed_centre) - want) / radius);
            kept.linear_worst = std::max(kept.linear_worst, std::fabs(norm(blend_of_moved_points(bones, poses, p) - posed_centre) - want) / radius);
        }
    }
    return kept;
}

// Bones within 46° of one another: the plain blend, without the mean.
TEST(BaselineRigidField, KeepsAJunctionsPointsAtTheirDistanceFromItsPosedCentreWhereItsBonesAgree) {
    Random rng(31);
    for (const auto& junction : testing::all_junctions()) {
        const DistanceKept kept = distance_from_the_centre(junction, testing::radians_of(20.0), 0, testing::radians_of(46.0), 8, 200, rng);
        std::printf("[ rigid field ] %s: %ld points blending junction bones within 46°, distance from the centre kept to %.2g r "
                    "(a blend of the moved points: %.2g r)\n",
                    junction.name.c_str(), kept.checked, kept.worst, kept.linear_worst);
        EXPECT_GT(kept.checked, 500) << junction.name;
        EXPECT_LT(kept.worst, 1e-12) << junction.name;
        EXPECT_GT(kept.linear_worst, 1e-2) << junction.name;
    }
}

// Two bones 46° to 95° apart: the field solves for their mean, and both fades are still 1 (the gap is
// 2 cos(θ/2) ≥ 0.675 of their weight at equal weights, more otherwise; each is within θ/2 of the mean).
TEST(BaselineRigidField, KeepsTheDistanceThroughTheMeanWhereTwoBonesTurn46To95DegreesApart) {
    Random rng(32);
    long checked = 0;
    double linear_worst = 0;
    for (const auto& junction : testing::all_junctions()) {
        const DistanceKept kept = distance_from_the_centre(junction, testing::radians_of(50.0), testing::radians_of(47.0),
                                                           testing::radians_of(95.0), 2, 2000, rng);  // 2,000: since the pose
        // table splits the random swings' turns about their axes into twists, fewer pairs of bones turn 47–95° apart
        std::printf("[ rigid field ] %s: %ld points blending two junction bones 47° to 95° apart, distance from the centre kept "
                    "to %.2g r (a blend of the moved points: %.2g r)\n",
                    junction.name.c_str(), kept.checked, kept.worst, kept.linear_worst);
        EXPECT_LT(kept.worst, 1e-12) << junction.name;
        checked += kept.checked;
        linear_worst = std::max(linear_worst, kept.linear_worst);
    }
    // Few points weigh exactly two of a junction's bones (most weigh three or more near its centre).
    EXPECT_GT(checked, 100);
    EXPECT_GT(linear_worst, 5e-2);
}

// The shortcut (every bone within 46° of the first: the plain blend) and the fades give one field: as
// one bone's twist carries a point's bones across the shortcut's threshold, found by bisection, the field
// does not jump.
TEST(BaselineRigidField, DoesNotJumpWhereItsShortcutStops) {
    Random rng(33);
    for (const auto& junction : testing::all_junctions()) {
        const Skeleton& s = junction.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        const double radius = s.spheres[std::size_t(junction.sphere)].radius;
        const int turning = first_bone_leaving(s, junction.sphere);
        Pose pose = Pose::rest(s);
        auto poses_at = [&](double twist) {
            pose.joints[std::size_t(turning)].twist_radians = twist;
            return baseline_pose_table(s, pose);
        };
        // The shortcut's own test: every weighing bone's rotation within |q · q_first| ≥ kFieldAgreement.
        auto agreement = [&](double twist, Vec3<double> p, const std::vector<int>& weighing) {
            std::vector<BaselineBonePose<double>> poses = poses_at(twist);
            const Quat<double> q1 = rigid_transform_of_bone(bones[std::size_t(weighing[0])], poses[std::size_t(weighing[0])], p).real;
            double least = 1;
            for (int j : weighing)
                least = std::min(least, std::fabs(dot(rigid_transform_of_bone(bones[std::size_t(j)], poses[std::size_t(j)], p).real, q1)));
            return least - kFieldAgreement;
        };
        long crossings = 0;
        double worst = 0;
        for (const Vec3<double>& p : testing::junction_points(junction, bones, rng, 150, -0.5, 1.0, 2.0)) {
            const std::vector<int> weighing = weighing_bones(bones, p);
            if (weighing.size() < 2) continue;
            double lo = 0;
            for (int i = 1; i <= 40; ++i) {
                const double hi = testing::radians_of(180.0) * i / 40;
                if ((agreement(lo, p, weighing) >= 0) == (agreement(hi, p, weighing) >= 0)) {
                    lo = hi;
                    continue;
                }
                double a = lo, b = hi;
                for (int k = 0; k < 60 && b - a > 1e-13; ++k) {
                    const double m = 0.5 * (a + b);
                    ((agreement(m, p, weighing) >= 0) == (agreement(a, p, weighing) >= 0) ? a : b) = m;
                }
                std::vector<BaselineBonePose<double>> before = poses_at(a), after = poses_at(b);
                const Vec3<double> x = rigid_motion(bones.data(), before.data(), int(bones.size()), p, weighing[0]);
                const Vec3<double> y = rigid_motion(bones.data(), after.data(), int(bones.size()), p, weighing[0]);
                worst = std::max(worst, norm(x - y) / radius);
                ++crossings;
                lo = hi;
            }
        }
        std::printf("[ rigid field ] %s: %ld crossings of the shortcut's threshold, worst jump %.2g r\n", junction.name.c_str(),
                    crossings, worst);
        EXPECT_GE(crossings, 5) << junction.name;
        EXPECT_LT(worst, 1e-9) << junction.name;
    }
}

// Rotations from a weight of 0 up to a conflict of more than half a turn: the field moves continuously
// with the pose through the plain blend of rigid transforms (bones within 46°), the two fades and the
// blend of moved points (bones half a turn apart, where the mean is undefined), for points around each
// junction: the move for a step of 1e-4 rad in one joint's twist stays within a bound of that step's size.
TEST(BaselineRigidField, MovesContinuouslyAsOneBoneTurnsThroughHalfATurnAgainstTheOthers) {
    Random rng(8);
    for (const auto& junction : testing::all_junctions()) {
        const Skeleton& s = junction.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        const double radius = s.spheres[std::size_t(junction.sphere)].radius;
        std::vector<Vec3<double>> points = testing::junction_points(junction, bones, rng, 300, -0.5, 1.0, 2.0);
        // The first bone leaving the junction turns about its own axis, from 0 to 400°.
        const int turning = first_bone_leaving(s, junction.sphere);
        Pose pose = Pose::rest(s);
        const double step = 1e-4;
        double worst = 0;
        for (int i = 0; i <= 140; ++i) {
            const double twist = testing::radians_of(400.0) * i / 140;  // and a second pose a step further
            std::vector<Vec3<double>> at[2];
            for (int k = 0; k < 2; ++k) {
                pose.joints[std::size_t(turning)].twist_radians = twist + k * step;
                std::vector<BaselineBonePose<double>> poses = baseline_pose_table(s, pose);
                for (const Vec3<double>& p : points)
                    at[k].push_back(rigid_motion(bones.data(), poses.data(), int(bones.size()), p, weighing_bones(bones, p)[0]));
            }
            for (std::size_t n = 0; n < points.size(); ++n)
                worst = std::max(worst, norm(at[1][n] - at[0][n]) / (step * (radius + norm(points[n] - bones[std::size_t(turning)].cone.parent.centre))));
        }
        std::printf("[ rigid field ] %s: one bone twisted 0 … 400°: worst move %.3g × (step × reach)\n", junction.name.c_str(), worst);
        EXPECT_LT(worst, 20) << junction.name;
    }
}

}  // namespace
}  // namespace bs
