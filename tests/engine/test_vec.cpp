// Vector and quaternion helpers (engine/vec.hpp): cos and sin from their series near zero, against the
// library's.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/vec.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

// Within kSeriesAngle the series are the library's to a few units in the last place (of 1), in double
// and in float, at random angles of either sign and at the bound itself.
TEST(Vec, CosAndSinNearZeroAreTheLibrarys) {
    testing::Random rng(4848);
    for (int i = 0; i <= 20000; ++i) {
        const double d = i == 0 ? kSeriesAngle : i == 1 ? -kSeriesAngle : i == 2 ? 0.0 : rng.uniform(-kSeriesAngle, kSeriesAngle);
        double c, s;
        cos_sin_near_zero(d, c, s);
        EXPECT_NEAR(c, std::cos(d), 4e-16) << d;
        EXPECT_NEAR(s, std::sin(d), 4e-16) << d;
        float cf, sf;
        cos_sin_near_zero(float(d), cf, sf);
        EXPECT_NEAR(cf, std::cos(float(d)), 2.5e-7f) << d;
        EXPECT_NEAR(sf, std::sin(float(d)), 2.5e-7f) << d;
    }
}

// Any angle: the series within kSeriesAngle, the library beyond (to the bit there), both sides of the
// switch within a few units in the last place; NaN stays NaN.
TEST(Vec, CosAndSinOfAnyAngleSwitchToTheLibraryBeyondTheSeries) {
    testing::Random rng(4849);
    for (int i = 0; i < 20000; ++i) {
        const double angle = i % 2 ? rng.uniform(-2 * kSeriesAngle, 2 * kSeriesAngle) : rng.uniform(-40.0, 40.0);
        double c, s;
        cos_sin_by_series_near_zero(angle, c, s);
        if (std::fabs(angle) > kSeriesAngle) {
            EXPECT_EQ(c, std::cos(angle)) << angle;
            EXPECT_EQ(s, std::sin(angle)) << angle;
        } else {
            EXPECT_NEAR(c, std::cos(angle), 4e-16) << angle;
            EXPECT_NEAR(s, std::sin(angle), 4e-16) << angle;
        }
    }
    const double below = std::nextafter(kSeriesAngle, 0.0), above = std::nextafter(kSeriesAngle, 1.0);
    double c_below, s_below, c_above, s_above;
    cos_sin_by_series_near_zero(below, c_below, s_below);
    cos_sin_by_series_near_zero(above, c_above, s_above);
    EXPECT_NEAR(c_below, c_above, 4e-16);
    EXPECT_NEAR(s_below, s_above, 4e-16);
    double c_nan, s_nan;
    cos_sin_by_series_near_zero(std::nan(""), c_nan, s_nan);
    EXPECT_TRUE(std::isnan(c_nan) && std::isnan(s_nan));
}

}  // namespace
}  // namespace bs
