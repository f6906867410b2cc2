#include "host/weights.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "engine/geometry/cone.hpp"
#include "host/errors.hpp"

namespace bs {

Influences auto_influences(const Skeleton& skeleton, Vec3<double> p, const AutoWeightOptions& options) {
    const std::size_t n = skeleton.bone_count();
    std::vector<double> s(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto& bone = skeleton.bones[k];
        s[k] = scaled_axis_distance(make_cone(skeleton.spheres[bone[0]], skeleton.spheres[bone[1]]), p);
    }
    double s_min = *std::min_element(s.begin(), s.end());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> raw(n);
    for (std::size_t k = 0; k < n; ++k) raw[k] = smoothstep_unit(1 - (s[k] - s_min) / options.blend);
    std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return raw[i] > raw[j]; });

    Influences inf{};
    double total = 0;
    for (int i = 0; i < kMaxInfluences && i < int(n); ++i) total += raw[order[i]];
    for (int i = 0; i < kMaxInfluences && i < int(n); ++i) {
        inf.bone[i] = std::uint32_t(order[i]);
        inf.weight[i] = float(raw[order[i]] / total);
    }
    return inf;
}

std::vector<Influences> auto_influences(const Skeleton& skeleton, const std::vector<Vec3<double>>& points,
                                        const AutoWeightOptions& options) {
    if (!(options.blend > 0)) throw InputError("automatic weights: blend must be > 0");
    std::vector<Influences> out(points.size());
    const long long n = static_cast<long long>(points.size());
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) out[i] = auto_influences(skeleton, points[i], options);
    return out;
}

void validate_influences(const std::vector<Influences>& influences, std::size_t bone_count, const std::string& source) {
    for (std::size_t i = 0; i < influences.size(); ++i) {
        const Influences& inf = influences[i];
        double total = 0;
        for (int j = 0; j < kMaxInfluences; ++j) {
            std::string slot = source + ": vertex " + std::to_string(i) + ": influence " + std::to_string(j) + ": ";
            if (!std::isfinite(inf.weight[j]) || inf.weight[j] < 0)
                throw InputError(slot + "weight must be finite and >= 0, got " + std::to_string(inf.weight[j]));
            if (inf.weight[j] > 0 && inf.bone[j] >= bone_count)
                throw InputError(slot + "bone index " + std::to_string(inf.bone[j]) + " out of range [0, " +
                                 std::to_string(bone_count) + ")");
            total += inf.weight[j];
        }
        if (std::fabs(total - 1) > 1e-3)
            throw InputError(source + ": vertex " + std::to_string(i) + ": weights sum to " + std::to_string(total) +
                             ", expected 1");
    }
}

}  // namespace bs
