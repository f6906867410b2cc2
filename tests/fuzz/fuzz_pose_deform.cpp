// libFuzzer target: pose files (host/pose.hpp) of fuzz_skeleton(), applied. An accepted pose deforms a
// fixed set of awkward points (tests/support/awkward.hpp) by baseline skinning, through the per-frame tables and
// by the direct construction; the skinner may refuse the pose with a documented error (a chain joint
// folded beyond what the method accepts), and otherwise every point must come out finite wherever the
// root's translation is of a body's size. Its seeds are pose_json's (corpus/pose_deform links there).
#include <sstream>

#include "host/baseline_skinner.hpp"
#include "host/json_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/support/awkward.hpp"

namespace {

bs::BaselineSkinner<float> make_skinner(const bs::Skeleton& skeleton) {
    // The stress test's awkward points (on axes, on every boundary, at centres, far outside and deep inside),
    // fewer of the random ones.
    bs::testing::Random rng(7);
    const auto points = bs::testing::awkward_points(skeleton, bs::make_baseline_bones(skeleton), rng, {200, 40, 2});
    bs::BaselineSkinner<float> skinner(skeleton, points, "fuzz points");
    skinner.set_deform_options(bs::fuzz::coarse_deform_options());  // tables are built per input
    return skinner;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    static const Skeleton skeleton = fuzz::fuzz_skeleton();
    static BaselineSkinner<float> skinner = make_skinner(skeleton);
    std::istringstream in(fuzz::bytes_of(data, size));
    Pose pose;
    if (!fuzz::accepted([&] { pose = parse_pose(json_io::parse(in, "fuzz.json"), skeleton, {"fuzz.json", ""}); })) return 0;
    const bool body_sized = norm(pose.root.translation) < 1e6;
    std::vector<Vec3<float>> out;
    for (bool exact : {false, true}) {
        BaselineDeformOptions options = skinner.deform_options();
        options.exact = exact;
        skinner.set_deform_options(options);
        if (!fuzz::accepted([&] { skinner.deform(pose, out, cpu::Exec{1}); })) return 0;
        fuzz::require(out.size() == skinner.size(), "a deformation without one point per rest point");
        for (const Vec3<float>& p : out) fuzz::require(!body_sized || all_finite(p), "a pose of a body's size deformed a point to one that is not finite");
    }
    return 0;
}
