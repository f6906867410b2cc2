// The sign-blind mean of rotations (engine/quat_mean.hpp): the principal eigenvector of Σ w q qᵀ and the
// gap to the second eigenvalue.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/quat_mean.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

using testing::Random;

// A q = λ q for the mean, λ the largest eigenvalue (the Rayleigh quotient), for random sets of 1 to 8
// rotations with random weights, some close together and some spread.
TEST(QuatMean, MeanIsThePrincipalEigenvectorOfTheWeightedOuterSum) {
    Random rng(5);
    for (int trial = 0; trial < 2000; ++trial) {
        const int n = 1 + trial % 8;
        const double spread = trial % 2 ? 0.3 : 3.14;
        const Quat<double> centre = rng.rotation();
        QuatOuterSum<double> sum;
        for (int i = 0; i < n; ++i) sum.add(rng.uniform(0.01, 1.0), axis_angle(rng.unit_vector(), rng.uniform(-spread, spread)) * centre);
        const QuatMean<double> m = principal_quaternion(sum);
        const double q[4] = {m.mean.w, m.mean.x, m.mean.y, m.mean.z};
        double aq[4] = {0, 0, 0, 0}, lambda = 0;
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) aq[r] += sum.a[r][k] * q[k];
        for (int r = 0; r < 4; ++r) lambda += q[r] * aq[r];
        ASSERT_NEAR(norm(m.mean), 1.0, 1e-14) << trial;
        for (int r = 0; r < 4; ++r) ASSERT_NEAR(aq[r], lambda * q[r], 1e-12) << trial;
        // No unit vector gives a larger quotient: the four axes and the inputs' own centre.
        const Quat<double> probes[5] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, centre};
        for (const Quat<double>& p : probes) {
            const double c[4] = {p.w, p.x, p.y, p.z};
            double quotient = 0;
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < 4; ++k) quotient += c[r] * sum.a[r][k] * c[k];
            ASSERT_LE(quotient, lambda + 1e-12) << trial;
        }
        ASSERT_GE(m.gap, -1e-12) << trial;
    }
}

// Two rotations of equal weight w: A = w (q₁q₁ᵀ + q₂q₂ᵀ) has eigenvalues w (1 ± |q₁·q₂|), so the gap is
// 2w |q₁·q₂| and the mean is the bisector q₁ + sign(q₁·q₂) q₂ — whatever their axes (every Jacobi plane
// turns), their order and their signs.
TEST(QuatMean, TwoRotationsOfEqualWeightHaveTheirBisectorAsMeanAndTwiceTheirCosineAsGap) {
    Random rng(6);
    int checked = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const Quat<double> q1 = rng.rotation(), q2 = rng.rotation();
        const double w = rng.uniform(0.1, 2.0), c = dot(q1, q2);
        if (std::fabs(c) < 0.05) continue;  // nearly no mean: the bisector is ill conditioned
        ++checked;
        const Quat<double> bisector = normalized(q1 + (c > 0 ? 1.0 : -1.0) * q2);
        for (int order = 0; order < 2; ++order) {
            QuatOuterSum<double> sum;
            sum.add(w, order ? q2 : -1.0 * q1);
            sum.add(w, order ? q1 : q2);
            const QuatMean<double> m = principal_quaternion(sum);
            ASSERT_NEAR(std::fabs(dot(m.mean, bisector)), 1.0, 1e-12) << trial;
            ASSERT_NEAR(m.gap, 2 * w * std::fabs(c), 1e-12) << trial;
        }
    }
    EXPECT_GT(checked, 1800);
}

// Solved in the span of 1, 2 or 3 rotations, the mean and the gap are the 4×4 solve's to rounding (the
// mean compared where it is defined: a gap above 1e-6 of the weights), for random weights and rotations,
// some nearly alike, some nearly opposed.
template <int N> void expect_span_solve_is_the_whole_one(Random& rng, int trials) {
    for (int trial = 0; trial < trials; ++trial) {
        const double spread = trial % 3 == 0 ? 0.01 : (trial % 3 == 1 ? 1.0 : 3.14);
        const Quat<double> centre = rng.rotation();
        double w[N], total = 0;
        Quat<double> q[N];
        QuatOuterSum<double> sum;
        for (int i = 0; i < N; ++i) {
            w[i] = rng.uniform(0.01, 1.0);
            q[i] = (trial % 2 ? 1.0 : -1.0) * (axis_angle(rng.unit_vector(), rng.uniform(-spread, spread)) * centre);
            sum.add(w[i], q[i]);
            total += w[i];
        }
        const QuatMean<double> whole = principal_quaternion(sum), span = principal_quaternion_in_span(w, q);
        ASSERT_NEAR(span.gap, whole.gap, 1e-13 * total) << N << " rotations, trial " << trial;
        ASSERT_NEAR(norm(span.mean), 1.0, 1e-14);
        if (whole.gap > 1e-6 * total) {
            ASSERT_NEAR(std::fabs(dot(span.mean, whole.mean)), 1.0, 1e-12) << N << " rotations, trial " << trial;
        }
    }
}

TEST(QuatMean, SolvedInTheSpanOfFewRotationsItIsTheWholeSolve) {
    Random rng(7);
    expect_span_solve_is_the_whole_one<1>(rng, 300);
    expect_span_solve_is_the_whole_one<2>(rng, 3000);
    expect_span_solve_is_the_whole_one<3>(rng, 3000);
    // Two of equal weight half a turn apart: no mean, gap 0 (not negative), as the whole solve says.
    const double w[2] = {1.0, 1.0};
    const Quat<double> q[2] = {Quat<double>::identity(), axis_angle(Vec3<double>{0, 0, 1}, 3.14159265358979323846)};
    const QuatMean<double> opposed = principal_quaternion_in_span(w, q);
    EXPECT_GE(opposed.gap, 0.0);
    EXPECT_NEAR(opposed.gap, 0.0, 1e-14);
}

// Known cases: one rotation is its own mean with the whole weight as gap; two of equal weight half a turn
// apart have no mean (gap 0); two a quarter turn apart about z have the eighth turn between them as mean.
TEST(QuatMean, KnownMeansAndGaps) {
    const Vec3<double> z{0, 0, 1};
    QuatOuterSum<double> one;
    one.add(2.0, axis_angle(z, 0.7));
    QuatMean<double> m = principal_quaternion(one);
    EXPECT_NEAR(std::fabs(dot(m.mean, axis_angle(z, 0.7))), 1.0, 1e-15);
    EXPECT_NEAR(m.gap, 2.0, 1e-14);

    QuatOuterSum<double> opposed;
    opposed.add(1.0, Quat<double>::identity());
    opposed.add(1.0, axis_angle(z, 3.14159265358979323846));
    EXPECT_NEAR(principal_quaternion(opposed).gap, 0.0, 1e-14);

    QuatOuterSum<double> quarter;
    quarter.add(1.0, Quat<double>::identity());
    quarter.add(1.0, axis_angle(z, 3.14159265358979323846 / 2));
    m = principal_quaternion(quarter);
    EXPECT_NEAR(std::fabs(dot(m.mean, axis_angle(z, 3.14159265358979323846 / 4))), 1.0, 1e-14);
    // Eigenvalues 1 ± cos 45°, so the gap is 2 cos 45° = √2.
    EXPECT_NEAR(m.gap, std::sqrt(2.0), 1e-13);
}

}  // namespace
}  // namespace bs
