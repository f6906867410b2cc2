// Skinning weights computed from the sphere-mesh, for LBS and DQS when the points carry none.
//
// Rule (docs/ALGORITHM.md, "Automatic weights"): for a point p and each bone k, s_k = (distance from p
// to bone k's axis segment) / (bone k's radius interpolated at p's projection on that segment) — a
// scale-free distance, 1 on a cylinder's surface. With s_min the smallest s_k, bone k's raw weight is
// smoothstep(1 - (s_k - s_min) / blend): 1 for the nearest bone, falling smoothly to 0 for bones more than
// `blend` farther. The four largest raw weights are kept and normalised. Each s_k is continuous in p, so
// the weights blend smoothly across joints (over about 1.1 radii either side of a joint sphere for
// blend = 0.5); a fifth bone within the band is dropped, which only happens where 5+ bones meet.
#pragma once

#include <vector>

#include "engine/skinning_classic.hpp"
#include "host/skeleton.hpp"

namespace bs {

struct AutoWeightOptions {
    double blend = 0.5;  // width of the blend band in units of s (dimensionless), > 0
};

Influences auto_influences(const Skeleton& skeleton, Vec3<double> p, const AutoWeightOptions& options = {});
std::vector<Influences> auto_influences(const Skeleton& skeleton, const std::vector<Vec3<double>>& points,
                                        const AutoWeightOptions& options = {});

// Checks influences against a skeleton: bone indices in range, weights finite, >= 0, summing to 1
// (within 1e-3). Throws InputError naming `source` and the point index.
void validate_influences(const std::vector<Influences>& influences, std::size_t bone_count, const std::string& source);

}  // namespace bs
