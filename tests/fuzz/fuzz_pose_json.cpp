// libFuzzer target: pose files (host/pose.hpp) of fuzz_skeleton(). An accepted pose must satisfy
// check_pose, and forward kinematics on it must stay finite.
#include <sstream>

#include "host/json_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    static const Skeleton skeleton = fuzz::fuzz_skeleton();
    std::istringstream in(fuzz::bytes_of(data, size));
    Pose pose;
    if (!fuzz::accepted([&] { pose = parse_pose(json_io::parse(in, "fuzz.json"), skeleton, {"fuzz.json", ""}); })) return 0;
    fuzz::check_pose(pose, skeleton);
    for (const Rigid<double>& bone : posed_bones(skeleton, pose)) {
        fuzz::require(fuzz::unit(bone.rotation), "a posed bone whose rotation is not a unit quaternion");
        // Translations may overflow only if the pose's own translation is near the double range.
        fuzz::require(all_finite(bone.translation) || norm(pose.root.translation) > 1e300, "a posed bone that is not finite");
    }
    return 0;
}
