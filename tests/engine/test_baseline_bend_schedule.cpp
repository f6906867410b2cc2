// The bend's per-frame schedule (engine/baseline/bend.hpp, BendSchedule): the targets a baseline gets
// with the continuation's uniform steps taken from the schedule are bit for bit those of a continuation
// that builds every step itself (the reference below, the loop as it was before the schedule), on random
// bends up to the method's limit, where some baselines halve their steps and leave the grid.
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
    const double uniform = 1.0 / kBendContinuationSteps;
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
    const double beta_m = beta_uv + difference / 2;
    const Belt<double> target = belt_crossing_at(j, beta_m);
    return {angle_near(angle_about(parent.axis, V - C, target.V - C), tracker.parent_angle),
            angle_near(angle_about(j.child.axis, X_rot - C, target.X - C), tracker.child_angle), target.V, target.X,
            pivot_point(j, beta_m), true};
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec3<double> a, Vec3<double> b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }

TEST(BaselineBendSchedule, UniformStepsAreFoundExactlyOnTheGrid) {
    EXPECT_EQ(uniform_bend_step(1.0 / kBendContinuationSteps), 0);
    EXPECT_EQ(uniform_bend_step(3.0 / kBendContinuationSteps), 2);
    EXPECT_EQ(uniform_bend_step(1.0), kBendContinuationSteps - 1);
    EXPECT_EQ(uniform_bend_step(0.0), -1);
    EXPECT_EQ(uniform_bend_step(0.5 / kBendContinuationSteps), -1);
    EXPECT_EQ(uniform_bend_step(1.5 / kBendContinuationSteps), -1);
    EXPECT_EQ(uniform_bend_step(1.0 / kBendContinuationSteps + kMinBendStep), -1);
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

}  // namespace
}  // namespace bs
