// Comparisons and random directions shared by the geometry, kinematics and skinner tests.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/vec.hpp"

namespace bs::testing {

// Each component of `a` within `tolerance` of `b`'s; `what` names the quantity in a failure.
inline void expect_vec_near(Vec3<double> a, Vec3<double> b, double tolerance, const std::string& what = "") {
    EXPECT_NEAR(a.x, b.x, tolerance) << what;
    EXPECT_NEAR(a.y, b.y, tolerance) << what;
    EXPECT_NEAR(a.z, b.z, tolerance) << what;
}

// A direction uniform on the unit sphere (normalized Gaussian).
inline Vec3<double> random_unit(std::mt19937& rng) {
    std::normal_distribution<double> g;
    return normalized(Vec3<double>{g(rng), g(rng), g(rng)});
}

}  // namespace bs::testing
