// Baseline skinning, part 1 (twist): a root motion, and the first bone's swing (which turns the whole
// chain about the root sphere's centre), move every point rigidly: p' = root(C0 + swing (p − C0)),
// to 1e-5 × (diagonal + |translation|), in float and double, on the straight and the bent chain.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

using testing::Random;

// Points around the chain plus the awkward ones: sphere centres and points on the bone axes.
std::vector<Vec3<double>> rigid_test_points(const Skeleton& s, unsigned seed) {
    std::vector<Vec3<double>> points = testing::points_around(s, 2500, seed, -0.9, 2.0);
    for (const auto& sphere : s.spheres) points.push_back(sphere.centre);
    for (const auto& b : s.bones) {
        Vec3<double> c1 = s.spheres[b[0]].centre, c2 = s.spheres[b[1]].centre;
        for (double f : {-0.2, 0.1, 0.5, 0.9, 1.2}) points.push_back(c1 + f * (c2 - c1));
    }
    return points;
}

enum class Motion { Root, FirstSwing, Both };

Pose rigid_pose(const Skeleton& s, Motion motion, Random& rng) {
    Pose pose = Pose::rest(s);
    if (motion != Motion::FirstSwing) {
        pose.root.rotation = rng.rotation();
        pose.root.translation = (2 * testing::diagonal(s)) * rng.in_box(1);
    }
    if (motion != Motion::Root) {
        // A swing: about an axis ⟂ the first bone's rest axis, up to 170°.
        Vec3<double> axis = s.rest_axis(0);
        Vec3<double> e = rng.unit_vector();
        Vec3<double> swing_axis = normalized(e - dot(e, axis) * axis);
        pose.joints[0].swing = axis_angle(swing_axis, rng.uniform(-170, 170) * testing::kBaselinePi / 180);
    }
    return pose;
}

Vec3<double> expected_rigid(const Skeleton& s, const Pose& pose, Vec3<double> p) {
    Vec3<double> c0 = s.spheres[s.bones[0][0]].centre;
    return pose.root.apply(c0 + rotate(pose.joints[0].swing, p - c0));
}

template <class T>
void check_rigid(const char* type) {
    for (const auto& chain : {testing::NamedChain{"straight", testing::straight_chain()},
                              testing::NamedChain{"bent", testing::bent_chain()}}) {
        const Skeleton& s = chain.skeleton;
        std::vector<Vec3<double>> points = rigid_test_points(s, 7);
        BaselineSkinner<T> skinner(s, points, chain.name);
        Random rng(31);
        double worst_relative = 0;
        for (Motion motion : {Motion::Root, Motion::FirstSwing, Motion::Both}) {
            for (int trial = 0; trial < 4; ++trial) {
                Pose pose = rigid_pose(s, motion, rng);
                std::vector<Vec3<T>> out;
                skinner.deform(pose, out);
                ASSERT_EQ(out.size(), points.size());
                double tolerance = 1e-5 * (testing::diagonal(s) + norm(pose.root.translation));
                double worst = 0;
                std::size_t worst_i = 0;
                for (std::size_t i = 0; i < points.size(); ++i) {
                    double e = norm(Vec3<double>(out[i]) - expected_rigid(s, pose, points[i]));
                    if (!(e <= worst)) {
                        worst = e;
                        worst_i = i;
                    }
                }
                worst_relative = std::max(worst_relative, worst / tolerance * 1e-5);
                const BaselineCode& c = skinner.codes()[worst_i];
                EXPECT_LT(worst, tolerance) << type << " chain " << chain.name << " motion " << int(motion) << " trial "
                                            << trial << ": point " << worst_i << " (" << points[worst_i].x << ", "
                                            << points[worst_i].y << ", " << points[worst_i].z << ") bone " << c.bone
                                            << " flags " << c.flags;
            }
        }
        std::printf("[ rigid ] %s %s: worst error / (diagonal + |translation|) = %.3g\n", type, chain.name.c_str(),
                    worst_relative);
        ::testing::Test::RecordProperty(std::string("worst_relative_error_") + type + "_" + chain.name,
                                        std::to_string(worst_relative));
    }
}

TEST(BaselineTwistRigid, RootMotionAndFirstBoneSwingMoveEveryPointRigidlyInDouble) { check_rigid<double>("double"); }

TEST(BaselineTwistRigid, RootMotionAndFirstBoneSwingMoveEveryPointRigidlyInFloat) { check_rigid<float>("float"); }

}  // namespace
}  // namespace bs
