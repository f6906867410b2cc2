// libFuzzer target: skeleton files (host/skeleton.hpp), under the tree rules (the superset the CLI reads)
// and the chain rules. An accepted skeleton must satisfy check_skeleton.
#include <sstream>

#include "host/json_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    std::istringstream in(fuzz::bytes_of(data, size));
    json_io::json doc;
    if (!fuzz::accepted([&] { doc = json_io::parse(in, "fuzz.json"); })) return 0;
    for (SkeletonRules rules : {SkeletonRules::Tree, SkeletonRules::Chain}) {
        Skeleton skeleton;
        if (fuzz::accepted([&] { skeleton = parse_skeleton(doc, "fuzz.json", rules); })) fuzz::check_skeleton(skeleton);
    }
    return 0;
}
