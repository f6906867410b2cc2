// Deformation quality of baseline skinning, LBS and DQS on standard scenarios (DESIGN §6), for
// `baseskin-bench --quality`. Each scenario is a skeleton, a point set over its surface with a known
// relief height h, and one pose; each metric is computed from the posed points and the posed sphere-mesh
// (the rest cones moved by the bones' posed transforms):
//   rest error     max |deform(rest pose) − p| / the skeleton's diagonal;
//   height p99/max |sd(p', posed body) − h| / the point's bone's smaller radius (h = sd(p, rest body));
//   section        the twist scenario: mean distance to the chain's axis of the points within half a
//                  radius of the twisted joint, posed / rest (1 = kept; LBS's candy wrapper pinches it);
//   penetration    share of points ending more than 0.02 radii inside a bone other than their own (the
//                  nearest at rest): the inside of a bend folding into the other bone;
//   stretch p99    of |p'_a − p'_b| / |p_a − p_b| over pairs 1e-3 radii apart on the surface;
//   squeeze p01    the 1st percentile of the same ratio: where the surface is crushed (LBS's candy wrapper,
//                  the inside of a bend), which the p99 of stretching does not see;
//   NaN            points with a non-finite coordinate (counted apart: no other metric judges them, and a
//                  non-finite point at rest makes the rest error infinite).
#pragma once

#include <string>
#include <vector>

namespace bs::bench {

struct QualityRow {
    std::string scenario, method;
    double rest_error, height_p99, height_max, section, penetration, stretch_p99, squeeze_p01;
    std::size_t nan_count;
};

// The scenarios' deformations on `threads` CPU threads (0: all cores; the figures do not depend on it).
std::vector<QualityRow> measure_quality(std::size_t points_per_scenario, int threads);

void print_quality(const std::vector<QualityRow>& rows);

}  // namespace bs::bench
