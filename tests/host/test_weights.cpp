#include "host/weights.hpp"

#include <gtest/gtest.h>

#include "host/errors.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

// Weight of `bone` in a point's influences (0 if absent).
double weight_of(const Influences& inf, int bone) {
    double w = 0;
    for (int i = 0; i < kMaxInfluences; ++i)
        if (inf.bone[i] == std::uint32_t(bone)) w += inf.weight[i];
    return w;
}

TEST(AutoWeights, SumToOneAndPassValidation) {
    Skeleton s = testing::straight_chain();
    testing::Random rng(5);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < 5000; ++i) points.push_back(Vec3<double>{4.5, 0, 0} + rng.in_box(6));
    std::vector<Influences> w = auto_influences(s, points);
    EXPECT_NO_THROW(validate_influences(w, s.bone_count(), "auto"));
    for (const Influences& inf : w) {
        double total = 0;
        for (float x : inf.weight) total += x;
        EXPECT_NEAR(total, 1.0, 1e-6);
    }
}

TEST(AutoWeights, MidBonePointsBelongToTheirBoneAlone) {
    Skeleton s = testing::straight_chain();
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{2, 1, 0}), 0), 1.0);   // middle of the cylinder
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{5.5, 0, -0.8}), 1), 1.0);
    EXPECT_EQ(weight_of(auto_influences(s, Vec3<double>{8.3, 0.5, 0}), 2), 1.0);
}

TEST(AutoWeights, BlendAcrossAJointIsSymmetricAndMonotone) {
    // Bones 0 and 1 meet at x = 4 with equal radius 1 there: the surface point over the joint is shared
    // equally, and bone 1's weight grows along x through the joint. Just past the joint bone 1 narrows
    // (radius 1 -> 0.7) while bone 0's projection stays clamped at radius 1, which lowers bone 1's weight
    // by ~1e-4 before it rises: monotone up to 1e-3.
    Skeleton s = testing::straight_chain();
    EXPECT_NEAR(weight_of(auto_influences(s, Vec3<double>{4, 1, 0}), 1), 0.5, 1e-6);
    double previous = -1;
    for (double x = 2.5; x <= 5.5; x += 0.05) {
        double w = weight_of(auto_influences(s, Vec3<double>{x, 0, 1}), 1);
        EXPECT_GE(w, previous - 1e-3) << x;
        previous = w;
    }
    EXPECT_EQ(previous, 1.0);
}

TEST(AutoWeights, ContinuousInThePoint) {
    // Pairs of points 1e-5 apart around a bent joint: weights differ by a small multiple of the step.
    Skeleton s = testing::bent_chain();
    testing::Random rng(9);
    for (int i = 0; i < 20000; ++i) {
        Vec3<double> p = Vec3<double>{5, 0, 0} + rng.in_box(2.5);
        Vec3<double> q = p + 1e-5 * rng.unit_vector();
        Influences a = auto_influences(s, p), b = auto_influences(s, q);
        for (int bone = 0; bone < 2; ++bone) EXPECT_LT(std::fabs(weight_of(a, bone) - weight_of(b, bone)), 1e-3) << i;
    }
}

TEST(AutoWeights, RejectsNonPositiveBlend) {
    Skeleton s = testing::straight_chain();
    EXPECT_THROW(auto_influences(s, std::vector<Vec3<double>>{{0, 0, 0}}, AutoWeightOptions{0.0}), InputError);
}

}  // namespace
}  // namespace bs
