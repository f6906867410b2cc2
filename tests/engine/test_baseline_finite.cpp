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
#include "tests/support/awkward.hpp"
#include "tests/support/points.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

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
        std::vector<Vec3<double>> points = testing::awkward_points(s, bones, rng);
        BaselineSkinner<T> skinner(s, points, chain.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
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
