// Baseline skinning, part 2 (bend): a bend of 0 gives the twist-only result of part 1 (issue 4), and bends
// of ±ε are continuous through 0.
//
// On the four test chains, 3,000 points around each (heights −0.5 … 2 radii) plus 1,000 hugging the joint
// spheres, under 4 random twist poses (±360° per bone; every other one with a root motion and a
// first-bone swing), the twist-only output (double) is the reference. Against it:
//   - every joint's swing given as the quaternion −identity (the same rotation; a pose file's [-1,0,0,0]
//     gives it), and as a swing of 1e-9 rad about a random axis ⟂ the rest axis (all joints at once):
//     to 1e-6 × the diagonal in double and 1e-5 × the diagonal in float;
//   - one joint at a time bent by ±1e-6 rad: no point moves by more than 20 · ε · (its distance to that
//     joint + 3 r), r the joint's radius (a jump through 0 would move points by a fraction of r).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Random;

std::vector<Vec3<double>> zero_bend_points(const Skeleton& s, const std::vector<BaselineBone<double>>& bones, Random& rng) {
    std::vector<Vec3<double>> points = testing::points_around(s, 3000, 404, -0.5, 2.0);
    for (int i = 0; i < 1000; ++i) {
        testing::Candidate c;
        if (testing::joint_points(bones, 1.2, -0.3, 1.0)(rng, c)) points.push_back(c.p);
    }
    return points;
}

struct Worst {
    double value = 0;
    std::string where;
};

template <class T>
void track(Worst& w, const std::vector<Vec3<T>>& got, const std::vector<Vec3<double>>& want,
           const std::vector<Vec3<double>>& rest, const std::vector<BaselineCode>& codes, const std::string& what) {
    for (std::size_t i = 0; i < got.size(); ++i) {
        double e = norm(Vec3<double>(got[i]) - want[i]);
        if (!(e <= w.value)) {
            w.value = e;
            const BaselineCode& c = codes[i];
            char text[300];
            std::snprintf(text, sizeof text, "%s: point (%.9g, %.9g, %.9g) bone %d flags %d phi %.6g t %.6g h %.6g",
                          what.c_str(), rest[i].x, rest[i].y, rest[i].z, c.bone, c.flags, c.phi, c.t, c.h);
            w.where = text;
        }
    }
}

TEST(BaselineBendZero, ZeroBendGivesTheTwistOnlyResultAndSmallBendsAreContinuousThroughZero) {
    Random rng(4004);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        const double diagonal = testing::diagonal(s);
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = zero_bend_points(s, bones, rng);
        BaselineSkinner<double> skinner(s, points, chain.name);
        BaselineSkinner<float> skinner_float(s, points, chain.name);
        const std::vector<BaselineCode>& codes = skinner.codes();
        Worst identity_double, identity_float, tiny_double, tiny_float;
        double worst_epsilon = 0;  // over all points: |p(±ε) − p(0)| / (20 ε (distance + 3 r))
        std::string worst_epsilon_where;
        std::vector<Vec3<double>> reference, out;
        std::vector<Vec3<float>> out_float;
        for (int trial = 0; trial < 4; ++trial) {
            Pose twist = testing::random_twist_pose(s, rng, 2 * testing::kBaselinePi);
            if (trial % 2) {
                twist.root = {rng.rotation(), diagonal * rng.in_box(1)};
                twist.joints[0].swing = testing::random_swing(s, 0, rng, rng.uniform(-3, 3));
            }
            skinner.deform(twist, reference);
            const std::string pose_name = chain.name + " trial " + std::to_string(trial);

            Pose negated = twist, tiny = twist;
            for (std::size_t k = 1; k < s.bone_count(); ++k) {
                negated.joints[k].swing = Quat<double>{-1, 0, 0, 0};
                tiny.joints[k].swing = testing::random_swing(s, int(k), rng, 1e-9);
            }
            skinner.deform(negated, out);
            track(identity_double, out, reference, points, codes, pose_name + ", swings = -identity, double");
            skinner_float.deform(negated, out_float);
            track(identity_float, out_float, reference, points, codes, pose_name + ", swings = -identity, float");
            skinner.deform(tiny, out);
            track(tiny_double, out, reference, points, codes, pose_name + ", swings of 1e-9 rad, double");
            skinner_float.deform(tiny, out_float);
            track(tiny_float, out_float, reference, points, codes, pose_name + ", swings of 1e-9 rad, float");

            std::vector<Rigid<double>> posed = posed_bones(s, twist);
            for (std::size_t k = 1; k < s.bone_count(); ++k) {
                const Sphere<double>& joint = bones[k].cone.parent;
                Vec3<double> joint_posed = posed[k].apply(joint.centre);
                Quat<double> direction = testing::random_swing(s, int(k), rng, 1.0);
                for (double epsilon : {1e-6, -1e-6}) {
                    Pose bent = twist;
                    bent.joints[k].swing = axis_angle(direction.vec() / norm(direction.vec()), epsilon);
                    skinner.deform(bent, out);
                    for (std::size_t i = 0; i < points.size(); ++i) {
                        double bound = 20 * 1e-6 * (norm(reference[i] - joint_posed) + 3 * joint.radius);
                        double ratio = norm(out[i] - reference[i]) / bound;
                        if (!(ratio <= worst_epsilon)) {
                            worst_epsilon = ratio;
                            const BaselineCode& c = codes[i];
                            char text[300];
                            std::snprintf(text, sizeof text,
                                          "%s, joint of bone %zu bent by %g rad: point (%.9g, %.9g, %.9g) bone %d flags "
                                          "%d moved %.3g (bound %.3g)",
                                          pose_name.c_str(), k, epsilon, points[i].x, points[i].y, points[i].z, c.bone,
                                          c.flags, norm(out[i] - reference[i]), bound);
                            worst_epsilon_where = text;
                        }
                    }
                }
            }
        }
        EXPECT_LT(identity_double.value, 1e-6 * diagonal) << identity_double.where;
        EXPECT_LT(identity_float.value, 1e-5 * diagonal) << identity_float.where;
        EXPECT_LT(tiny_double.value, 1e-6 * diagonal) << tiny_double.where;
        EXPECT_LT(tiny_float.value, 1e-5 * diagonal) << tiny_float.where;
        EXPECT_LE(worst_epsilon, 1.0) << worst_epsilon_where;
        std::printf("[ zero bend ] %-11s %zu points: / diagonal: -identity %.3g (double) %.3g (float), 1e-9 rad %.3g "
                    "(double) %.3g (float); ±1e-6 rad: worst move / bound %.3g\n",
                    chain.name.c_str(), points.size(), identity_double.value / diagonal, identity_float.value / diagonal,
                    tiny_double.value / diagonal, tiny_float.value / diagonal, worst_epsilon);
        ::testing::Test::RecordProperty("worst_tiny_swing_double_" + chain.name, std::to_string(tiny_double.value / diagonal));
        ::testing::Test::RecordProperty("worst_epsilon_ratio_" + chain.name, std::to_string(worst_epsilon));
    }
}

}  // namespace
}  // namespace bs
