// Baseline skinning, part 1 (twist): at a rest-bent joint, a twisted bone's anchors meet the next bone
// (DESIGN "Curvilinear ratio t": the anchor turns by exactly the target angle). Pairs of points
// straddling the boundary between the two bones' codes (found by bisection on the code's bone along
// paths across the separator plane, at and near the surface, 1e-4 × the joint radius apart) stay
// together: posed distance < 20 × rest distance, on convex and concave sides — no gap at concave joints.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr double kPi = testing::kBaselinePi;

std::vector<Pose> joint_twist_poses(const Skeleton& s, Random& rng) {
    std::vector<Pose> poses;
    for (double tau : {kPi, -kPi, 2 * kPi, 3 * kPi, 0.5 * kPi}) {
        Pose only_first = Pose::rest(s), only_second = Pose::rest(s);
        only_first.joints[0].twist_radians = tau;   // the bone whose child anchors meet bone 1
        only_second.joints[1].twist_radians = tau;  // the bone whose parent anchors must not turn
        poses.push_back(only_first);
        poses.push_back(only_second);
    }
    for (int i = 0; i < 10; ++i) poses.push_back(testing::random_twist_pose(s, rng, 2 * kPi));
    return poses;
}

TEST(BaselineTwistJoint, TwistedAnchorsMeetTheNextBoneAtRestBentJoints) {
    Random rng(77);
    for (const auto& chain : testing::concave_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        const double r = bones[0].cone.child.radius;
        std::vector<testing::PointPair> pairs =
            testing::separator_pairs(bones, 0, 180, {-0.15, 0.0, 0.02, 0.2}, 1e-4 * r, rng);
        ASSERT_GE(pairs.size(), 500u) << chain.name << ": too few pairs across the separator";

        // Both sides of the joint must be represented: pairs whose bone-0 point has a concave child end.
        int concave = 0;
        for (const auto& p : pairs) {
            BaselineCode a = encode_point(bones, p.a), b = encode_point(bones, p.b);
            ASSERT_NE(a.bone, b.bone);
            const BaselineCode& on_first = a.bone == 0 ? a : b;
            if (on_first.flags & (kCodeParentCap | kCodeChildCap)) continue;
            Section<double> sec = bone_section(bones.data(), 0, generator_radial(bones[0], double(on_first.phi)));
            if (sec.child.kind == EndKind::Concave) ++concave;
        }
        EXPECT_GT(concave, 50) << chain.name << ": no pairs on the joint's concave side";

        std::vector<Vec3<double>> points;
        for (const auto& p : pairs) points.insert(points.end(), {p.a, p.b});
        BaselineSkinner<double> skinner(s, points, chain.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        double worst = 0;
        std::string worst_case;
        for (const Pose& pose : joint_twist_poses(s, rng)) {
            std::vector<Vec3<double>> out;
            skinner.deform(pose, out);
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                double rest = norm(pairs[i].a - pairs[i].b);
                double posed = norm(out[2 * i] - out[2 * i + 1]);
                if (posed / rest <= worst) continue;
                worst = posed / rest;
                const BaselineCode &ca = skinner.codes()[2 * i], &cb = skinner.codes()[2 * i + 1];
                char text[400];
                std::snprintf(text, sizeof text,
                              "a = (%.9g, %.9g, %.9g) bone %d flags %d, b = (%.9g, %.9g, %.9g) bone %d flags %d, "
                              "twists %.6g %.6g rad: rest %.3g, posed %.3g",
                              pairs[i].a.x, pairs[i].a.y, pairs[i].a.z, ca.bone, ca.flags, pairs[i].b.x, pairs[i].b.y,
                              pairs[i].b.z, cb.bone, cb.flags, pose.joints[0].twist_radians,
                              pose.joints[1].twist_radians, rest, posed);
                worst_case = text;
            }
        }
        EXPECT_LT(worst, 20) << chain.name << ": gap at the joint; worst pair " << worst_case;
        std::printf("[ joint ] %s: %zu pairs across the separator (%d on the concave side), worst posed/rest %.4g\n",
                    chain.name.c_str(), pairs.size(), concave, worst);
        ::testing::Test::RecordProperty("worst_ratio_" + chain.name, std::to_string(worst));
    }
}

}  // namespace
}  // namespace bs
