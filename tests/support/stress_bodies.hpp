// The stress test's five bodies (tests/host/test_baseline_stress.cpp), shared with the tests of properties
// that must hold on extreme shapes too (tests/host/test_baseline_scale.cpp): a chain of unequal cones,
// neighbouring spheres of radius ratio 1:100, a nearly degenerate cone, a 3-bone junction and a root
// junction.
#pragma once

#include <vector>

#include "tests/support/baseline.hpp"
#include "tests/support/junctions.hpp"

namespace bs::testing {

inline std::vector<NamedChain> stress_bodies() {
    return {{"cones", straight_chain()},
            {"ratio_1_100", ratio_1_100_chain()},
            {"near_degenerate", near_degenerate_chain()},
            {"junction", three_bone_junction().skeleton},
            {"root_junction", root_junction().skeleton}};
}

}  // namespace bs::testing
