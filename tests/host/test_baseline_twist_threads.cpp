// Baseline skinning, part 1 (twist): the deformed output is identical, bit for bit, for 1, 2 and 3
// CPU threads (each point is computed alone; kernels/passes.hpp), in float and double.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

template <class T>
void check_threads() {
    testing::Random rng(4242);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<Vec3<double>> points = testing::points_around(s, 3000, 23, -1.0, 2.0);
        BaselineSkinner<T> skinner(s, points, chain.name);
        for (int trial = 0; trial < 2; ++trial) {
            Pose pose = testing::random_twist_pose(s, rng, 2 * testing::kBaselinePi);
            pose.root = {rng.rotation(), rng.in_box(3)};
            std::vector<Vec3<T>> reference;
            skinner.deform(pose, reference, {1});
            for (int threads : {2, 3}) {
                std::vector<Vec3<T>> out;
                skinner.deform(pose, out, {threads});
                ASSERT_EQ(out.size(), reference.size());
                EXPECT_EQ(std::memcmp(out.data(), reference.data(), out.size() * sizeof(Vec3<T>)), 0)
                    << chain.name << ": " << threads << " threads differ from 1, trial " << trial;
            }
        }
    }
}

TEST(BaselineTwistThreads, OutputIsIdenticalForOneTwoAndThreeThreadsInFloat) { check_threads<float>(); }

TEST(BaselineTwistThreads, OutputIsIdenticalForOneTwoAndThreeThreadsInDouble) { check_threads<double>(); }

}  // namespace
}  // namespace bs
