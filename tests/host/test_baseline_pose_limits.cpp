// Limits of the poses the baseline method deforms: a joint folded beyond kMaxJointAngleDegrees between
// consecutive posed bones' generators is refused with UnsupportedError naming the fold; bends under it, twists of any
// size, root motions and the first bone's swing (a rigid motion of the whole chain) are deformed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

constexpr double kPi = testing::kBaselinePi;

std::vector<Vec3<double>> few_points(const Skeleton& s) {
    std::vector<Vec3<double>> points;
    for (const auto& sphere : s.spheres) points.push_back(sphere.centre + Vec3<double>{0, 0, 1.5 * sphere.radius});
    return points;
}

// Swing of bone k by `radians` about an axis ⟂ its rest axis (toward `toward`).
Pose bend(const Skeleton& s, int k, double radians, Vec3<double> toward = {0, 0, 1}) {
    Pose pose = Pose::rest(s);
    Vec3<double> axis = s.rest_axis(k);
    Vec3<double> swing_axis = normalized(cross(axis, toward));
    pose.joints[k].swing = axis_angle(swing_axis, radians);
    return pose;
}

void expect_refused(const BaselineSkinner<float>& skinner, const Pose& pose, const std::string& what,
                    const std::string& fragment) {
    std::vector<Vec3<float>> out;
    try {
        skinner.deform(pose, out);
        ADD_FAILURE() << what << ": expected UnsupportedError";
    } catch (const UnsupportedError& e) {
        std::string message = e.what();
        EXPECT_NE(message.find(fragment), std::string::npos) << what << ": \"" << message << "\" lacks \"" << fragment << "\"";
    }
}

void expect_accepted(const BaselineSkinner<float>& skinner, const Pose& pose, const std::string& what) {
    std::vector<Vec3<float>> out;
    EXPECT_NO_THROW(skinner.deform(pose, out)) << what;
    EXPECT_EQ(out.size(), skinner.size()) << what;
}

TEST(BaselinePoseLimits, AJointFoldedBeyondTheLimitIsRefusedAndBendsUnderItAreDeformed) {
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        BaselineSkinner<float> skinner(s, few_points(s), chain.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        for (int k = 1; k < int(s.bone_count()); ++k) {
            const std::string name = chain.name + " bone " + std::to_string(k);
            // Bone k turns away from its parent's axis, in the plane of the rest bend (any plane for a
            // straight joint).
            Vec3<double> parent_axis = s.rest_axis(s.parent_bone[k]), axis = s.rest_axis(k);
            double rest_angle = std::atan2(norm(cross(parent_axis, axis)), dot(parent_axis, axis));
            Vec3<double> away = axis * dot(parent_axis, axis) - parent_axis;  // ⟂ axis, away from the parent's
            away = norm(away) > 1e-9 ? normalized(away) : any_orthogonal(axis);
            // The limit is on the generators: their axes' angle plus the two cones' slopes' difference.
            const double slopes = testing::slope_degrees(s, k, s.parent_bone[k]);
            Pose folded = bend(s, k, (kMaxJointAngleDegrees + 4 - slopes) * kPi / 180 - rest_angle, away);
            expect_refused(skinner, folded, name + " folded beyond the limit", "folds a joint to 174");
            Pose under = bend(s, k, (kMaxJointAngleDegrees - 10 - slopes) * kPi / 180 - rest_angle, away);
            expect_accepted(skinner, under, name + " bent 10 degrees under the limit");
        }
    }
}

TEST(BaselinePoseLimits, TwistsOfAnySizeRootMotionAndFirstBoneSwingAreAccepted) {
    testing::Random rng(12);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        BaselineSkinner<float> skinner(s, few_points(s), chain.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        for (double tau : {kPi, -kPi, 3 * kPi, 1e3 * kPi, -12345.678}) {
            Pose pose = Pose::rest(s);
            for (auto& j : pose.joints) j.twist_radians = tau;
            expect_accepted(skinner, pose, chain.name + " twist " + std::to_string(tau));
        }
        for (double angle : {1e-3, 1.0, kPi / 2, 3.0}) {
            Pose pose = bend(s, 0, angle);
            pose.root = {rng.rotation(), rng.in_box(10)};
            pose.joints.back().twist_radians = 2.5;
            expect_accepted(skinner, pose, chain.name + " first-bone swing " + std::to_string(angle));
        }
    }
}

}  // namespace
}  // namespace bs
