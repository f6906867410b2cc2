// Small order statistics shared by the host's fitting rules (model_rig's radii and end joints, the Reeb
// graph's outlier spacing). The benchmark's medians and quantiles are its own on purpose
// (benchmarks/quality.cpp: a quantile by rank; the throughput median: the mean of the middle two).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace bs {

// The median of `values`, taking the upper middle one of an even count (always one of the values).
// Precondition: `values` is not empty. Takes the values by copy: nth_element reorders them.
inline double upper_median(std::vector<double> values) {
    const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

}  // namespace bs
