// libFuzzer target: vertex-to-sphere binding files (host/metaball_skinner.hpp, read by `drag`) for 6
// vertices and the 4 spheres of fuzz_skeleton(). An accepted binding has one entry per vertex, each bound
// to at most one sphere in range.
#include <sstream>

#include "host/json_io.hpp"
#include "host/metaball_skinner.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    constexpr std::size_t kVertices = 6, kSpheres = 4;
    std::istringstream in(fuzz::bytes_of(data, size));
    MetaballBinding binding;
    if (!fuzz::accepted([&] { binding = parse_binding(json_io::parse(in, "fuzz.json"), kVertices, kSpheres, {"fuzz.json", ""}); }))
        return 0;
    fuzz::require(binding.vertex_count() == kVertices && binding.offsets.front() == 0, "a binding without one entry per vertex");
    for (std::size_t i = 0; i < kVertices; ++i)
        fuzz::require(binding.offsets[i + 1] - binding.offsets[i] <= 1, "a vertex bound to several spheres");
    fuzz::require(binding.offsets.back() == binding.joints.size(), "binding offsets that do not end at the joints' count");
    for (std::uint32_t joint : binding.joints) fuzz::require(joint < kSpheres, "a vertex bound to a sphere out of range");
    return 0;
}
