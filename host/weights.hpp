// Skinning weights computed from the sphere-mesh, for LBS and DQS when the points carry none.
//
// Rule (docs/ALGORITHM.md, "Automatic weights"): for a point p and each bone k, s_k = (distance from p
// to bone k's axis segment) / (bone k's radius interpolated at p's projection on that segment) — a
// scale-free distance, 1 on a cylinder's surface. With s_min the smallest s_k, bone k's raw weight is
// smoothstep(1 - (s_k - s_min) / band): 1 for the nearest bone, falling smoothly to 0 for bones more than
// the band farther. band = max(blend, min(blend · (s_min - 1), s_5 - s_min)), s_5 the fifth smallest s_k:
// `blend` within two radii of a bone (every body's own points), and beyond, widened in proportion to the
// distance (as the baseline rigid field's band) so that far from the body the weights pass from bone to
// bone over a distance that grows with the point's and LBS's stretch stays bounded by the joints' angles —
// but never so wide that a fifth bone weighs. The four largest raw weights are kept, less the fifth largest
// r_5 times smoothstep((1 - r_5) / 0.2), and normalised: a bone passing from fourth to fifth place weighs
// 0 as it does, so the weights stay continuous where five or more bones weigh (dropping it whole made them
// jump there), except where the fifth is within 0.2 of the nearest (five bones nearly tied), where less is
// given up so that an exact tie of five still leaves weight to share. Each s_k, s_5 and so the band are
// continuous in p, so the weights blend smoothly across joints (over about 1.1 radii either side of a joint
// sphere for blend = 0.5). A bridge (host/skeleton.hpp) takes no weight: its s_k is infinite.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/skinning_classic.hpp"
#include "host/skeleton.hpp"

namespace bs {

struct AutoWeightOptions {
    double blend = 0.5;  // width of the blend band in units of s (dimensionless), > 0
};

// For one point, of a skeleton check_skeleton accepts (not checked here: it runs per point); for many,
// InputError where check_skeleton refuses the skeleton or the blend is not > 0.
Influences auto_influences(const Skeleton& skeleton, Vec3<double> p, const AutoWeightOptions& options = {});
std::vector<Influences> auto_influences(const Skeleton& skeleton, const std::vector<Vec3<double>>& points,
                                        const AutoWeightOptions& options = {});

// Checks influences against points and a skeleton: one set per point (`point_count`), bone indices in
// range, weights finite, >= 0, summing to 1 (within 1e-3). Throws InputError naming `source` and the point
// index.
void validate_influences(const std::vector<Influences>& influences, std::size_t point_count, std::size_t bone_count,
                         const std::string& source);
// The same without a skeleton (a points file as it is read): weights finite, >= 0, summing to 1 (within
// 1e-3); bones unchecked.
void validate_weights(const std::vector<Influences>& influences, const std::string& source);

// Each point's weights divided by their sum, in place (after validate_influences, which accepts sums within
// 1e-3 of 1): LBS applies its blend of matrices as it is, so a sum of 1.001 scaled the rest pose about the
// world origin by 1.001. The skinners scale what they are given.
void normalize_weights(std::vector<Influences>& influences);

// Any number of influences per point, compressed: point i's pairs are (bones[j], weights[j]) for j in
// [offsets[i], offsets[i + 1]). offsets has point_count() + 1 entries and starts at 0.
struct SparseInfluences {
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> bones;
    std::vector<float> weights;

    std::size_t point_count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    // Appends one point's pairs.
    void add(const std::vector<std::pair<std::uint32_t, float>>& pairs);
};

SparseInfluences to_sparse(const std::vector<Influences>& influences);

// The same checks as above for any number of pairs, and the layout's own: offsets start at 0, never
// decrease and end at the pair count; bones and weights have one entry per pair; `point_count` points.
// InputError naming `source`, the vertex and what was expected.
void validate_influences(const SparseInfluences& influences, std::size_t point_count, std::size_t bone_count,
                         const std::string& source);
// The same scaling for any number of pairs a point (the layout already checked).
void normalize_weights(SparseInfluences& influences);

// Points every unused pair (weight 0) at bone 0, in place. validate_influences checks the bone indices of
// weighing pairs alone (files write unused slots as they like: 255, -1 as unsigned), while the CPU's LBS
// reads every pair's matrix, weight 0 included (engine/skinning_classic.hpp): the skinners call this after
// the checks, so that every index their passes read is in range (kernels/passes.hpp). The points are the
// same: a pair of weight 0 adds nothing whatever bone it names. In the pass instead (bone 0 chosen per
// slot) it compiled to a branch and cost LBS-4 its gain: 6.2 -> 15.5 ns a point on the human, one thread.
void point_unused_pairs_at_bone_zero(std::vector<Influences>& influences);
void point_unused_pairs_at_bone_zero(SparseInfluences& influences);

// What an LBS skinner runs on, in place: the influences checked (validate_influences: InputError naming
// `source`), their weights scaled to sum to 1 (normalize_weights) and their unused pairs pointed at bone 0
// (point_unused_pairs_at_bone_zero), in that order (the checks read the weights as given).
void prepare_for_skinning(std::vector<Influences>& influences, std::size_t point_count, std::size_t bone_count, const std::string& source);
void prepare_for_skinning(SparseInfluences& influences, std::size_t point_count, std::size_t bone_count, const std::string& source);

}  // namespace bs
