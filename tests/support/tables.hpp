// Deform options for the tests of the baseline tables' path. Their bodies carry fewer points a bone than
// the default's threshold for building a bone's tables (BaselineDeformOptions::min_tabulated_points), which
// would send those points to the direct construction; these options tabulate every bone, as a body with
// many points a bone is.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/junctions.hpp"

namespace bs::testing {

inline BaselineDeformOptions tables_for_every_bone(BaselineDeformOptions options = {}) {
    options.min_tabulated_points = 0;
    return options;
}

// `skinner` with every bone tabulated, its other deform options kept.
template <class T> BaselineSkinner<T> with_every_bone_tabulated(BaselineSkinner<T> skinner) {
    skinner.set_deform_options(tables_for_every_bone(skinner.deform_options()));
    return skinner;
}

// A min_tabulated_points that leaves out the bones read by fewer codes than the median bone (table_readers;
// none where every bone has as many).
inline int median_table_readers(const std::vector<BaselineCode>& codes, std::size_t bone_count) {
    std::vector<std::size_t> readers = table_readers(codes, bone_count);
    std::sort(readers.begin(), readers.end());
    return int(readers[readers.size() / 2]);
}

// The bodies the tables' cache and tabulation tests run on: two chains and the three junctions.
struct TableBody {
    std::string name;
    Skeleton skeleton;
};
inline std::vector<TableBody> table_bodies() {
    std::vector<TableBody> out{{"bent chain", bent_chain()}, {"long chain", long_chain()}};
    for (const NamedJunction& j : all_junctions()) out.push_back({j.name, j.skeleton});
    return out;
}

}  // namespace bs::testing
