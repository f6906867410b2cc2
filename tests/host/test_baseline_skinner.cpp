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

TEST(BaselineSkinner, RestPoseReproducesEveryPointInDouble) {
    for (const Skeleton& s : chains()) {
        auto points = testing::points_around(s, 20000, 21);
        BaselineSkinner<double> skinner(s, points, "test");
        std::vector<Vec3<double>> out;
        skinner.deform(Pose::rest(s), out);
        std::size_t worst = 0;
        double error = max_error(out, points, &worst);
        EXPECT_LT(error, 1e-6 * testing::diagonal(s)) << "point " << worst << " flags " << skinner.codes()[worst].flags;
    }
}

TEST(BaselineSkinner, RestPoseReproducesEveryPointInFloat) {
    for (const Skeleton& s : chains()) {
        auto points = testing::points_around(s, 20000, 22);
        BaselineSkinner<float> skinner(s, points, "test");
        std::vector<Vec3<float>> out;
        skinner.deform(Pose::rest(s), out);
        std::size_t worst = 0;
        double error = max_error(out, points, &worst);
        EXPECT_LT(error, 1e-5 * testing::diagonal(s)) << "point " << worst << " flags " << skinner.codes()[worst].flags;
    }
}

}  // namespace
}  // namespace bs
