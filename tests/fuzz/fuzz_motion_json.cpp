// libFuzzer target: motion files (host/pose.hpp) of fuzz_skeleton(). Every frame of an accepted motion
// must satisfy check_pose, and so must samples between frames (after the twists' unwrapping).
#include <sstream>

#include "host/json_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    static const Skeleton skeleton = fuzz::fuzz_skeleton();
    std::istringstream in(fuzz::bytes_of(data, size));
    json_io::json doc;
    if (!fuzz::accepted([&] { doc = json_io::parse(in, "fuzz.json"); })) return 0;
    std::vector<Motion> motion;  // Motion has no default constructor
    if (!fuzz::accepted([&] { motion.push_back(parse_motion(doc, skeleton, {"fuzz.json", ""})); })) return 0;
    const Motion& m = motion.front();
    fuzz::require(m.frame_count() > 0 && m.fps() > 0, "a motion without frames or with fps <= 0");
    for (std::size_t f = 0; f < m.frame_count(); ++f) fuzz::check_pose(m.frame(f), skeleton);
    const double duration = m.duration_seconds();
    fuzz::require(duration >= 0, "a motion of negative duration");
    for (double seconds : {0.0, 0.37 * duration, 0.5 * duration, duration}) fuzz::check_pose(m.sample(seconds), skeleton);
    return 0;
}
