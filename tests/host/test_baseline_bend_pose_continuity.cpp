// Baseline skinning, part 2 (bend): the output is continuous in the pose (issue 4). A 1e-4 rad change of one
// joint's swing moves no point by more than 20 · 1e-4 · (its distance to that joint + 3 r), r the joint
// sphere's radius and the distance measured in the unchanged posed state.
//
// The change: bone k's local rotation q = S · twist(τ) becomes R · q, R a turn of 1e-4 rad about a random
// axis ⟂ the bone's posed axis (in its parent's frame); R · S is split again into a swing and a (tiny)
// twist about the rest axis, which is added to τ — so the joint's swing changes by 1e-4 rad and nothing else
// does. Every joint of the four test chains (k ≥ 1) and the first bone's swing (a rigid turn of the whole
// chain), under 8 random bend poses per chain (≤150° between consecutive posed axes, twists ±360°, root
// motion), over 1,500 points around each chain and 500 near its joints, all codes (fallback bands
// included), double. Counts scaled down from the poses × points for the suite's time budget.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/swing_twist.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr double kDelta = 1e-4;
constexpr int kPoses = 8;

Pose nudged(const Skeleton& s, const Pose& pose, int k, Random& rng) {
    Pose out = pose;
    JointRotation<double>& j = out.joints[k];
    Vec3<double> rest_axis = s.rest_axis(k), posed_axis = rotate(j.swing, rest_axis), e = rng.unit_vector();
    Quat<double> turn = axis_angle(normalized(e - dot(e, posed_axis) * posed_axis), kDelta);
    SwingTwist<double> split = split_swing_twist(turn * j.swing, rest_axis);
    j.swing = split.swing;
    j.twist_radians += split.twist_radians;
    return out;
}

std::string describe(const std::string& chain, const Vec3<double>& p, const BaselineCode& c, const Pose& pose, int k) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "chain %s, swing of bone %d nudged: point (%.12g, %.12g, %.12g) bone %d flags %d phi %.9g t %.9g h %.9g "
                  "blend %.3g; pose before:",
                  chain.c_str(), k, p.x, p.y, p.z, c.bone, c.flags, c.phi, c.t, c.h, c.rigid_blend);
    std::string s = text;
    testing::append_pose(s, pose);
    return s;
}

// KNOWN FAILURE (reported by the test engineer against HEAD 3ec70a2; the test is kept as the
// specification). Measured there (worst move / bound): straight 1.50, bent 1.17, sharp elbow 159, flared
// 1.08. The sharp elbow's case is the jump of the bend targets (see test_baseline_bend_continuity.cpp,
// cause 1), this time in the pose: testing::sharp_elbow_chain(), pose = rest but bone 1's swing
// [0.53679266572067486, -0.076166007978303335, -0.43171177310880038, 0.72088648081122764] (no twist), point
// (4.65988287509, 0.299005436266, 0.0509033150726) (bone 0, far band, blend 0.30): changing the swing by
// 1e-4 rad to [0.53675050739363439, -0.076165098379085916, -0.4317251437852892, 0.72090996027600529] turns
// θ_V from -2.340 to 0.196 and moves the point by 1.445 (bound 0.0091). The straight (1.50) and bent (1.17)
// cases are target jumps too (θ at the bone's parent end 0.409 → 0.262 and 0.248 → 0.360 for the 1e-4 rad
// change), only damped by the cubic profile: both points lie near their bone's other end (t ≈ 0.9). The
// flared case (1.08) has continuous targets: a steep but continuous move (bone 0, flags 0, h -0.17 r).
// Each worst case is printed in full.
// DISABLED (open, issue 4): this property does not hold yet under the random bend poses — see
// docs/ALGORITHM.md "Known open problem". It runs with --gtest_also_run_disabled_tests and prints the
// worst case per region; re-enable it when the bend targets are continuous across a baseline's posed
// convex/concave change.
TEST(BaselineBendPoseContinuity, DISABLED_ASmallChangeOfOneJointsSwingMovesPointsLittle) {
    Random rng(6006);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = testing::points_around(s, 1500, 66, -0.8, 2.0);
        testing::add_joint_points(points, bones, rng, 500, 1.2, -0.4, 1.0);
        BaselineSkinner<double> skinner(s, points, chain.name);
        const std::vector<BaselineCode>& codes = skinner.codes();
        double worst = 0;
        long over = 0, checks = 0;
        std::string worst_case;
        std::vector<Vec3<double>> before, after;
        for (int trial = 0; trial < kPoses; ++trial) {
            Pose pose = testing::random_bend_pose(s, rng);
            skinner.deform(pose, before);
            std::vector<Rigid<double>> posed = posed_bones(s, pose);
            for (int k = 0; k < int(s.bone_count()); ++k) {
                const Sphere<double>& joint = bones[k].cone.parent;
                const Vec3<double> centre = posed[k].apply(joint.centre);
                Pose changed = nudged(s, pose, k, rng);
                skinner.deform(changed, after);
                for (std::size_t i = 0; i < points.size(); ++i) {
                    double bound = 20 * kDelta * (norm(before[i] - centre) + 3 * joint.radius);
                    double ratio = norm(after[i] - before[i]) / bound;
                    ++checks;
                    if (ratio > 1) ++over;
                    if (!(ratio <= worst)) {
                        worst = ratio;
                        char text[120];
                        std::snprintf(text, sizeof text, "; moved %.4g, bound %.4g", norm(after[i] - before[i]), bound);
                        worst_case = describe(chain.name, points[i], codes[i], pose, k) + text;
                    }
                }
            }
        }
        EXPECT_LE(worst, 1.0) << over << " of " << checks << " moves over the bound; worst " << worst_case;
        std::printf("[ bend pose continuity ] %-11s %ld checks, %ld over the bound, worst move / bound %.4g\n",
                    chain.name.c_str(), checks, over, worst);
        if (worst > 1) std::printf("    worst: %s\n", worst_case.c_str());
        ::testing::Test::RecordProperty("worst_move_over_bound_" + chain.name, std::to_string(worst));
    }
}

}  // namespace
}  // namespace bs
