// Deterministic random inputs for property tests.
#pragma once

#include <cmath>
#include <random>

#include "engine/vec.hpp"

namespace bs::testing {

class Random {
public:
    explicit Random(unsigned seed) : engine_(seed) {}
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine_); }
    Vec3<double> in_box(double half) { return {uniform(-half, half), uniform(-half, half), uniform(-half, half)}; }
    Vec3<double> unit_vector() {
        for (;;) {
            Vec3<double> v = in_box(1);
            double n = norm(v);
            if (n > 0.1 && n <= 1) return v / n;
        }
    }
    Quat<double> rotation() { return axis_angle(unit_vector(), uniform(-3.14159, 3.14159)); }

private:
    std::mt19937 engine_;
};

}  // namespace bs::testing
