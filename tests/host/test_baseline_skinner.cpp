#include "host/baseline_skinner.hpp"

#include <gtest/gtest.h>

#include "host/errors.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

template <class T>
double max_error(const std::vector<Vec3<T>>& got, const std::vector<Vec3<double>>& expected, std::size_t* worst = nullptr) {
    double e = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        double d = norm(Vec3<double>(got[i]) - expected[i]);
        if (!(d <= e)) {
            e = d;
            if (worst) *worst = i;
        }
    }
    return e;
}

std::vector<Skeleton> chains() { return {testing::straight_chain(), testing::bent_chain()}; }

// Rest pose gives back every point around every bone, cap and joint, to `relative` × the diagonal.
template <class T>
void expect_rest_reproduced(double relative, unsigned seed) {
    for (const Skeleton& s : chains()) {
        auto points = testing::points_around(s, 20000, seed);
        BaselineSkinner<T> skinner(s, points, "test");
        std::vector<Vec3<T>> out;
        skinner.deform(Pose::rest(s), out);
        std::size_t worst = 0;
        double error = max_error(out, points, &worst);
        EXPECT_LT(error, relative * testing::diagonal(s)) << "point " << worst << " flags " << skinner.codes()[worst].flags;
    }
}

TEST(BaselineSkinner, RestPoseReproducesEveryPointInDouble) { expect_rest_reproduced<double>(1e-6, 21); }
TEST(BaselineSkinner, RestPoseReproducesEveryPointInFloat) { expect_rest_reproduced<float>(1e-5, 22); }

}  // namespace
}  // namespace bs
