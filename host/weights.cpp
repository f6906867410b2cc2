#include "host/weights.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "engine/geometry/cone.hpp"
#include "host/errors.hpp"

namespace bs {

namespace {
// Inserts `entry` among the `count` entries of `sorted` after every one it does not go `ahead` of (so equal
// entries keep their order), dropping the last once all N are taken. O(N), no allocation: it runs per
// point and bone.
template <class Entry, std::size_t N, class Ahead>
void insert_bounded(std::array<Entry, N>& sorted, int& count, const Entry& entry, Ahead ahead) {
    int at = count;
    while (at > 0 && ahead(entry, sorted[at - 1])) --at;
    if (at == int(N)) return;
    count = std::min(count + 1, int(N));
    for (int i = count - 1; i > at; --i) sorted[i] = sorted[i - 1];
    sorted[at] = entry;
}

// Where the fifth largest raw weight is within this of the largest (1), the kept four give up only part
// of it (all of it from this gap on): five bones tied exactly (points behind a junction of five, whose
// projections all clamp to its centre) would otherwise leave no weight at all (header). 0.2 of the
// choices measured (0.5, 0.2, 0.1, 0.05) on the human demo (docs/ALGORITHM.md): smaller ones part fewer
// pairs where five bones nearly tie, at the price of weights that change ever faster there.
constexpr double kFifthTieBand = 0.2;

struct RawWeight {
    double raw;
    std::uint32_t bone;
};
}  // namespace

// The kMaxInfluences largest raw weights, largest first, ties to the lower bone (a stable sort's order),
// found in one scan without allocating: this runs per point on every core, and four heap allocations a
// point (the distances, an order, the raw weights, the sort's buffer) serialised the cores on the
// allocator (measured: 2.2e6 points/s on 16 cores).
Influences auto_influences(const Skeleton& skeleton, Vec3<double> p, const AutoWeightOptions& options) {
    const std::size_t n = skeleton.bone_count();
    thread_local std::vector<double> s;  // each bone's scaled distance, reused point after point
    s.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto& bone = skeleton.bones[k];
        s[k] = skeleton.is_bridge(int(k)) ? INFINITY : scaled_axis_distance(make_cone(skeleton.spheres[bone[0]], skeleton.spheres[bone[1]]), p);
    }
    // The kMaxInfluences + 1 smallest scaled distances, ascending (infinite where there are fewer bones).
    std::array<double, kMaxInfluences + 1> least;
    least.fill(INFINITY);
    int least_count = 0;
    for (double x : s) insert_bounded(least, least_count, x, [](double a, double b) { return a < b; });
    const double s_min = least[0];
    // Widened beyond two radii (see the header), but never so far that a fifth bone would weigh: four are
    // kept, and far out a widened band would give many bones nearly equal weights, near the ties where the
    // fifth's weight is only partly given up (below).
    const double band = std::max(options.blend, std::min(options.blend * (s_min - 1), least[kMaxInfluences] - s_min));
    // The kMaxInfluences largest raw weights and the next one, whose weight the kept ones give up.
    std::array<RawWeight, kMaxInfluences + 1> top{};
    int kept = 0;
    for (std::size_t k = 0; k < n; ++k)
        insert_bounded(top, kept, RawWeight{smoothstep_unit(1 - (s[k] - s_min) / band), std::uint32_t(k)},
                       [](const RawWeight& a, const RawWeight& b) { return a.raw > b.raw; });
    const double fifth = kept > kMaxInfluences ? top[kMaxInfluences].raw : 0.0;
    const double given_up = fifth * smoothstep_unit((top[0].raw - fifth) / kFifthTieBand);
    kept = std::min(kept, kMaxInfluences);
    Influences inf{};
    double total = 0;
    for (int i = 0; i < kept; ++i) total += top[i].raw - given_up;
    for (int i = 0; i < kept; ++i) {
        inf.bone[i] = top[i].bone;
        inf.weight[i] = float((top[i].raw - given_up) / total);
    }
    return inf;
}

std::vector<Influences> auto_influences(const Skeleton& skeleton, const std::vector<Vec3<double>>& points,
                                        const AutoWeightOptions& options) {
    if (!(options.blend > 0)) throw InputError("automatic weights: blend must be > 0");
    check_skeleton(skeleton, "automatic weights");
    std::vector<Influences> out(points.size());
    const long long n = static_cast<long long>(points.size());
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) out[i] = auto_influences(skeleton, points[i], options);
    return out;
}

namespace {
// One vertex's pairs: finite weights >= 0 summing to 1 (1e-3), bones in range where the weight is not 0.
void validate_pairs(const std::uint32_t* bones, const float* weights, std::size_t count, std::size_t vertex,
                    std::size_t bone_count, const std::string& source) {
    double total = 0;
    for (std::size_t j = 0; j < count; ++j) {
        // Built only on failure: this runs for every vertex.
        auto slot = [&] { return source + ": vertex " + std::to_string(vertex) + ": influence " + std::to_string(j) + ": "; };
        if (!std::isfinite(weights[j]) || weights[j] < 0)
            throw InputError(slot() + "weight must be finite and >= 0, got " + number_text(weights[j]));
        if (weights[j] > 0 && bones[j] >= bone_count)
            throw InputError(slot() + "bone index " + std::to_string(bones[j]) + " out of range [0, " + std::to_string(bone_count) + ")");
        total += weights[j];
    }
    if (std::fabs(total - 1) > 1e-3)
        throw InputError(source + ": vertex " + std::to_string(vertex) + ": weights sum to " + number_text(total) + ", expected 1");
}
}  // namespace

void validate_influences(const std::vector<Influences>& influences, std::size_t point_count, std::size_t bone_count,
                         const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    if (influences.size() != point_count)
        throw InputError(source + ": " + std::to_string(point_count) + " points but " + std::to_string(influences.size()) + " influence sets");
    for (std::size_t i = 0; i < influences.size(); ++i)
        validate_pairs(influences[i].bone, influences[i].weight, kMaxInfluences, i, bone_count, source);
}

void validate_weights(const std::vector<Influences>& influences, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    const std::size_t any_bone = std::numeric_limits<std::size_t>::max();
    for (std::size_t i = 0; i < influences.size(); ++i)
        validate_pairs(influences[i].bone, influences[i].weight, kMaxInfluences, i, any_bone, source);
}

namespace {
void normalize_pairs(float* weights, std::size_t count) {
    double total = 0;
    for (std::size_t j = 0; j < count; ++j) total += weights[j];
    if (!(total > 0)) return;  // validate_influences refuses such a point
    for (std::size_t j = 0; j < count; ++j) weights[j] = float(double(weights[j]) / total);
}
}  // namespace

void normalize_weights(std::vector<Influences>& influences) {
    for (Influences& inf : influences) normalize_pairs(inf.weight, kMaxInfluences);
}

void normalize_weights(SparseInfluences& influences) {
    for (std::size_t i = 0; i + 1 < influences.offsets.size(); ++i)
        normalize_pairs(influences.weights.data() + influences.offsets[i], influences.offsets[i + 1] - influences.offsets[i]);
}

void point_unused_pairs_at_bone_zero(std::vector<Influences>& influences) {
    for (Influences& inf : influences)
        for (int j = 0; j < kMaxInfluences; ++j)
            if (inf.weight[j] == 0) inf.bone[j] = 0;
}

void point_unused_pairs_at_bone_zero(SparseInfluences& influences) {
    for (std::size_t j = 0; j < influences.weights.size(); ++j)
        if (influences.weights[j] == 0) influences.bones[j] = 0;
}

namespace {
template <class Set>
void prepare_set_for_skinning(Set& influences, std::size_t point_count, std::size_t bone_count, const std::string& source) {
    validate_influences(influences, point_count, bone_count, source);
    normalize_weights(influences);
    point_unused_pairs_at_bone_zero(influences);
}
}  // namespace

void prepare_for_skinning(std::vector<Influences>& influences, std::size_t point_count, std::size_t bone_count, const std::string& source) {
    prepare_set_for_skinning(influences, point_count, bone_count, source);
}

void prepare_for_skinning(SparseInfluences& influences, std::size_t point_count, std::size_t bone_count, const std::string& source) {
    prepare_set_for_skinning(influences, point_count, bone_count, source);
}

void SparseInfluences::add(const std::vector<std::pair<std::uint32_t, float>>& pairs) {
    for (const auto& [bone, weight] : pairs) {
        bones.push_back(bone);
        weights.push_back(weight);
    }
    offsets.push_back(std::uint32_t(bones.size()));
}

SparseInfluences to_sparse(const std::vector<Influences>& influences) {
    SparseInfluences out;
    for (const Influences& inf : influences) {
        std::vector<std::pair<std::uint32_t, float>> pairs;
        for (int j = 0; j < kMaxInfluences; ++j)
            if (inf.weight[j] != 0) pairs.push_back({inf.bone[j], inf.weight[j]});
        out.add(pairs);
    }
    return out;
}

namespace {
// n + 1 as text, where n + 1 may not fit a size_t.
std::string successor_text(std::size_t n) {
    return n < std::numeric_limits<std::size_t>::max() ? std::to_string(n + 1) : std::to_string(n) + " + 1";
}
}  // namespace

void validate_influences(const SparseInfluences& influences, std::size_t point_count, std::size_t bone_count,
                         const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    const auto& offsets = influences.offsets;
    // Compared as offsets.size() - 1, which cannot wrap once offsets holds one: point_count + 1 wrapped to 0
    // for a count of SIZE_MAX, which an empty set then matched, and offsets[0] was read from it.
    if (offsets.empty() || offsets.size() - 1 != point_count)
        throw InputError(source + ": " + std::to_string(point_count) + " points need " + successor_text(point_count) +
                         " influence offsets (a first 0, then one end per point), got " + std::to_string(offsets.size()));
    if (offsets[0] != 0) throw InputError(source + ": influence offsets must start at 0, got " + std::to_string(offsets[0]));
    if (influences.bones.size() != influences.weights.size() || offsets.back() != influences.bones.size())
        throw InputError(source + ": influence offsets end at " + std::to_string(offsets.back()) + " but there are " +
                         std::to_string(influences.bones.size()) + " bones and " + std::to_string(influences.weights.size()) +
                         " weights");
    // Every range first: with offsets non-decreasing up to the pair count, no range reads past the pairs.
    for (std::size_t i = 0; i < point_count; ++i)
        if (offsets[i + 1] < offsets[i])
            throw InputError(source + ": vertex " + std::to_string(i) + ": influence offsets decrease (" +
                             std::to_string(offsets[i]) + " then " + std::to_string(offsets[i + 1]) + ")");
    for (std::size_t i = 0; i < point_count; ++i) {
        validate_pairs(influences.bones.data() + offsets[i], influences.weights.data() + offsets[i], offsets[i + 1] - offsets[i], i,
                       bone_count, source);
    }
}

}  // namespace bs
