// The bend's per-frame schedule (engine/baseline/bend.hpp, BendSchedule): the targets a baseline gets
// with the continuation's uniform steps taken from the schedule are bit for bit those of a continuation
// that builds every step itself (the reference below, the loop as it was before the schedule), on random
// bends up to the method's limit, where some baselines halve their steps and leave the grid. A short path
// takes fewer uniform steps (uniform_bend_steps): its targets are those of kBendContinuationSteps steps to
// rounding, and the path's travel that sets the count bounds how far the child's axis really moves.
#include "engine/baseline/bend.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "tests/support/baseline.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

// bend_targets with every step of the continuation built here: the path point and pose_joint per step.
BendTargets<double> targets_building_every_step(const Cone<double>& parent, const Cone<double>& child_rest, Quat<double> swing,
                                                const Belt<double>& rest, int& halvings) {
    const Vec3<double> C = parent.child.centre, V = rest.V;
    if (bend_is_rest(swing)) return {0, 0, V, rest.X, rest.anchor, true};
    double difference = 0, beta_uv = 0;
    Vec3<double> X_rot = rest.X;
    PosedJoint<double> j{};
    TargetTracker<double> tracker{};
    const BendPath<double> path = bend_path(parent, child_rest, swing);
    const double uniform = 1.0 / uniform_bend_steps(path);
    double done = 0, step = uniform;
    while (done < 1) {
        const double next = std::min(done + step, 1.0);
        const Quat<double> partial = next < 1 ? path.at(next) : swing;
        const PosedJoint<double> trial = pose_joint(parent, child_rest, partial);
        if (!trial.pivot.cuts_sphere) return {0, 0, V, rest.X, rest.anchor, false};
        const Vec3<double> trial_X_rot = C + rotate(partial, rest.X - C);
        const double trial_beta_uv = beta_through(trial, V, ChainBone::Incoming);
        const double change = wrap_angle(beta_through(trial, trial_X_rot, ChainBone::Outgoing) - trial_beta_uv - difference);
        if (std::fabs(change) > kMaxBetaStep && step > kMinBendStep) {
            step /= 2;
            ++halvings;
            continue;
        }
        difference += change;
        beta_uv = trial_beta_uv;
        done = next;
        j = trial;
        X_rot = trial_X_rot;
        if (done < 1) tracker.follow(j, V - C, X_rot - C, beta_uv + difference / 2);
        step = std::min(step * 2, uniform);
    }
    return final_targets(j, beta_uv + difference / 2, C, V, X_rot, tracker);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec3<double> a, Vec3<double> b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }

TEST(BaselineBendSchedule, UniformStepsAreFoundExactlyOnTheGrid) {
    const int n = kBendContinuationSteps;
    EXPECT_EQ(uniform_bend_step(1.0 / n, n), 0);
    EXPECT_EQ(uniform_bend_step(3.0 / n, n), 2);
    EXPECT_EQ(uniform_bend_step(1.0, n), n - 1);
    EXPECT_EQ(uniform_bend_step(0.0, n), -1);
    EXPECT_EQ(uniform_bend_step(0.5 / n, n), -1);
    EXPECT_EQ(uniform_bend_step(1.5 / n, n), -1);
    EXPECT_EQ(uniform_bend_step(1.0 / n + kMinBendStep, n), -1);
    EXPECT_EQ(uniform_bend_step(1.0, 1), 0);
    EXPECT_EQ(uniform_bend_step(0.5, 1), -1);
    EXPECT_EQ(uniform_bend_step(0.5, 2), 0);
    EXPECT_EQ(uniform_bend_step(0.75, 2), -1);
}

TEST(BaselineBendSchedule, TargetsAreThoseOfBuildingEveryStep) {
    testing::Random rng(4242);
    testing::BendPoseOptions options;
    options.max_joint_degrees = 165;
    int baselines = 0, halvings = 0, invalid = 0;
    for (const testing::NamedChain& chain : testing::concave_chains()) {
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(chain.skeleton);
        for (int trial = 0; trial < 12; ++trial) {
            const Pose pose = testing::random_bend_pose(chain.skeleton, rng, options);
            const std::vector<BaselineBonePose<double>> table = baseline_pose_table(chain.skeleton, bones, pose);
            for (std::size_t k = 0; k < bones.size(); ++k) {
                const int previous = bones[k].previous;
                if (previous < 0) continue;
                const Cone<double>& parent = bones[std::size_t(previous)].cone;
                const Cone<double>& child = bones[k].cone;
                for (int g = 0; g < 64; ++g) {
                    const double phi = 2 * testing::kBaselinePi * g / 64 + rng.uniform(0, 0.05);
                    const Vec3<double> radial = generator_radial(bones[std::size_t(previous)], phi);
                    for (ChainBone from : {ChainBone::Incoming, ChainBone::Outgoing}) {
                        const Belt<double> rest = rest_belt_from(parent, child, radial, from);
                        const BendTargets<double> got = bend_targets(parent, child, table[k].bend, rest);
                        const BendTargets<double> want = targets_building_every_step(parent, child, pose.joints[k].swing, rest, halvings);
                        ++baselines;
                        invalid += !want.valid;
                        ASSERT_EQ(got.valid, want.valid) << chain.name << " bone " << k;
                        ASSERT_TRUE(same_bits(got.parent_angle, want.parent_angle) && same_bits(got.child_angle, want.child_angle) &&
                                    same_bits(got.V_prime, want.V_prime) && same_bits(got.X_prime, want.X_prime) &&
                                    same_bits(got.E_m, want.E_m))
                            << chain.name << " bone " << k << " phi " << phi << ": " << got.parent_angle << " vs " << want.parent_angle
                            << ", " << got.child_angle << " vs " << want.child_angle;
                    }
                }
            }
        }
    }
    std::printf("[ schedule ] %d baselines, %d halved steps (off the grid), %d without a pivot circle\n", baselines, halvings, invalid);
    EXPECT_GT(halvings, 0) << "no baseline left the uniform grid: the off-grid steps went untested";
}

// Random swings of every size (a shortest arc turned about the rest axis too) at each joint of the test
// chains: calls `check` with the joint's cones and the swing.
template <class Check>
void for_random_swings(int per_joint, Check check) {
    testing::Random rng(777);
    for (const testing::NamedChain& chain : testing::concave_chains()) {
        const std::vector<BaselineBone<double>> bones = make_baseline_bones(chain.skeleton);
        for (std::size_t k = 0; k < bones.size(); ++k) {
            if (bones[k].previous < 0) continue;
            const Cone<double>& parent = bones[std::size_t(bones[k].previous)].cone;
            const Cone<double>& child = bones[k].cone;
            for (int trial = 0; trial < per_joint; ++trial) {
                const bool small = trial % 3 == 0;
                const double psi = testing::radians_of(small ? rng.uniform(0, 20) : rng.uniform(0, 165));
                const Vec3<double> across = across_axis(child.axis, rng.unit_vector(), 1e-3, any_orthogonal(child.axis));
                const Vec3<double> target = std::cos(psi) * child.axis + std::sin(psi) * across;
                const Quat<double> swing = testing::shortest_arc(child.axis, target) * axis_angle(child.axis, small ? rng.uniform(-0.05, 0.05) : rng.uniform(-0.5, 0.5));
                check(chain.name, parent, child, swing);
            }
        }
    }
}

TEST(BaselineBendSchedule, PathTravelBoundsTheAxisAndSetsTheSteps) {
    int checked = 0;
    for_random_swings(60, [&](const std::string& name, const Cone<double>& parent, const Cone<double>& child, Quat<double> swing) {
        const BendPath<double> path = bend_path(parent, child, swing);
        const double travel = path_travel(path);
        // The axis's length of travel along the path, summed over fine steps.
        double moved = 0;
        Vec3<double> before = child.axis;
        for (int i = 1; i <= 2048; ++i) {
            const Vec3<double> after = rotate(path.at(i / 2048.0), child.axis);
            moved += std::atan2(norm(cross(before, after)), dot(before, after));
            before = after;
        }
        ASSERT_LE(moved, travel - std::fabs(path.own_turn) + 1e-9) << name;
        const int steps = uniform_bend_steps(path);
        EXPECT_TRUE(steps == 1 || steps == 2 || steps == 4 || steps == kBendContinuationSteps) << name << " " << steps;
        if (steps < kBendContinuationSteps) {
            EXPECT_LE(travel / steps, kUniformBendTravel) << name;
        }
        if (steps > 1) {
            EXPECT_GT(travel / (steps / 2), kUniformBendTravel) << name << ": fewer steps would do";
        }
        ++checked;
    });
    EXPECT_GT(checked, 100);
}

TEST(BaselineBendSchedule, FewerUniformStepsGiveTheTargetsOfAllSteps) {
    int baselines = 0, fewer = 0, single = 0;
    testing::Random rng(99);
    for_random_swings(48, [&](const std::string& name, const Cone<double>& parent, const Cone<double>& child, Quat<double> swing) {
        const BendSchedule<double> own = bend_schedule(parent, child, swing);
        const BendSchedule<double> all = bend_schedule(parent, child, swing, kBendContinuationSteps);
        ASSERT_EQ(all.steps, kBendContinuationSteps);
        fewer += own.steps < kBendContinuationSteps;
        single += own.steps == 1;
        const double scale = larger_radius(parent) + larger_radius(child);
        for (int g = 0; g < 32; ++g) {
            const Vec3<double> radial = across_axis(parent.axis, rng.unit_vector(), 1e-3, any_orthogonal(parent.axis));
            for (ChainBone from : {ChainBone::Incoming, ChainBone::Outgoing}) {
                const Belt<double> rest = rest_belt_from(parent, child, radial, from);
                const BendTargets<double> got = bend_targets(parent, child, own, rest), want = bend_targets(parent, child, all, rest);
                ++baselines;
                ASSERT_EQ(got.valid, want.valid) << name;
                ASSERT_NEAR(got.parent_angle, want.parent_angle, 1e-9) << name << " steps " << own.steps;
                ASSERT_NEAR(got.child_angle, want.child_angle, 1e-9) << name << " steps " << own.steps;
                ASSERT_LE(norm(got.V_prime - want.V_prime), 1e-9 * scale) << name;
                ASSERT_LE(norm(got.X_prime - want.X_prime), 1e-9 * scale) << name;
            }
        }
    });
    std::printf("[ schedule ] %d baselines; %d of the swings took fewer uniform steps, %d one\n", baselines, fewer, single);
    EXPECT_GT(single, 30);
}

}  // namespace
}  // namespace bs
