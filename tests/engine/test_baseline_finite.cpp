// Baseline skinning, part 1 (twist): no NaN or Inf, ever (DESIGN §2 "Properties"). Codes and outputs
// stay finite for points far away (1e3 × the skeleton's size), deep inside, exactly on the bone axes
// (and their extensions), exactly at sphere centres, on the separator planes (through the joint centre,
// on the pivot circle, far along the plane), and the origin, under random twist poses with root motion
// and the first bone's swing, in float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

using testing::Random;

std::vector<Vec3<double>> awkward_points(const Skeleton& s, const std::vector<BaselineBone<double>>& bones, Random& rng) {
    const double size = testing::diagonal(s);
    std::vector<Vec3<double>> points = testing::points_around(s, 1000, 3, -1.0, 3.0);  // includes deep inside
    points.push_back({0, 0, 0});
    for (int i = 0; i < 500; ++i) points.push_back((1e3 * size * rng.uniform(0.5, 1.0)) * rng.unit_vector());
    for (const auto& sphere : s.spheres) {
        points.push_back(sphere.centre);
        for (int i = 0; i < 20; ++i) points.push_back(sphere.centre + (sphere.radius * 1e-9) * rng.unit_vector());
    }
    for (const auto& bone : bones) {
        const Cone<double>& c = bone.cone;
        // Exactly on the axis (and its extensions past both ends), and on it far away.
        for (double f : {-3.0, -1.0, -0.25, -1e-12, 0.0, 1e-12, 0.1, 0.5, 0.9, 1.0, 1.0 + 1e-12, 1.25, 2.0, 1e3})
            points.push_back(c.parent.centre + (f * c.length) * c.axis);
        // Exactly on the tangency circles and the caps' poles.
        for (int i = 0; i < 12; ++i) {
            Vec3<double> radial = generator_radial(bone, 2 * testing::kBaselinePi * i / 12);
            points.push_back(tangency_point(c, BoneEnd::Parent, radial));
            points.push_back(tangency_point(c, BoneEnd::Child, radial));
        }
        points.push_back(c.parent.centre - c.parent.radius * c.axis);
        points.push_back(c.child.centre + c.child.radius * c.axis);
        if (bone.next < 0) continue;
        // On the separator plane: its point nearest the joint centre, the pivot circle, inside and
        // outside it, and far along the plane.
        const SeparatorPlane<double>& plane = bone.child_separator;
        PivotCircle<double> pivot = pivot_circle(plane, c.child.radius);
        Vec3<double> e1, e2;
        testing::orthonormal_basis(plane.normal, e1, e2);
        points.push_back(pivot.circle.centre);
        for (int i = 0; i < 24; ++i) {
            double a = 2 * testing::kBaselinePi * i / 24;
            Vec3<double> u = std::cos(a) * e1 + std::sin(a) * e2;
            for (double scale : {1e-9, 0.5, 1.0, 1.0 + 1e-12, 1.5, 3.0, 1e3})
                points.push_back(pivot.circle.centre + (scale * pivot.circle.radius) * u);
        }
    }
    return points;
}

Pose wild_pose(const Skeleton& s, Random& rng, int trial) {
    Pose pose = testing::random_twist_pose(s, rng, trial % 2 ? 20 * testing::kBaselinePi : testing::kBaselinePi);
    if (trial % 3 == 1) {
        pose.root = {rng.rotation(), (1e2 * testing::diagonal(s)) * rng.in_box(1)};
        Vec3<double> axis = s.rest_axis(0), e = rng.unit_vector();
        pose.joints[0].swing = axis_angle(normalized(e - dot(e, axis) * axis), rng.uniform(-3.1, 3.1));
    }
    return pose;
}

template <class T>
void check_finite(const char* type) {
    Random rng(808);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = awkward_points(s, bones, rng);
        BaselineSkinner<T> skinner(s, points, chain.name);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const BaselineCode& c = skinner.codes()[i];
            ASSERT_TRUE(std::isfinite(c.phi) && std::isfinite(c.t) && std::isfinite(c.h) && std::isfinite(c.rigid_blend))
                << chain.name << ": non-finite code for point " << i << " (" << points[i].x << ", " << points[i].y
                << ", " << points[i].z << ")";
            ASSERT_LT(c.bone, s.bone_count());
            ASSERT_TRUE(c.rigid_blend >= 0 && c.rigid_blend <= 1) << "point " << i;
        }
        std::vector<Vec3<T>> out;
        for (int trial = 0; trial < 8; ++trial) {
            Pose pose = trial == 0 ? Pose::rest(s) : wild_pose(s, rng, trial);
            skinner.deform(pose, out);
            ASSERT_EQ(out.size(), points.size());
            int bad = 0;
            std::size_t first_bad = 0;
            for (std::size_t i = 0; i < out.size(); ++i)
                if (!all_finite(out[i]) && bad++ == 0) first_bad = i;
            const BaselineCode& c = skinner.codes()[first_bad];
            EXPECT_EQ(bad, 0) << type << " " << chain.name << " trial " << trial << ": first at point " << first_bad << " ("
                              << points[first_bad].x << ", " << points[first_bad].y << ", " << points[first_bad].z
                              << ") bone " << c.bone << " flags " << c.flags << " phi " << c.phi << " t " << c.t
                              << " h " << c.h;
        }
    }
}

TEST(BaselineFinite, AwkwardPointsStayFiniteInDouble) { check_finite<double>("double"); }

TEST(BaselineFinite, AwkwardPointsStayFiniteInFloat) { check_finite<float>("float"); }

}  // namespace
}  // namespace bs
