// libFuzzer target: BVH captures (host/bvh.hpp), then what `baseskin rig` and the viewer's --capture do
// with one (host/bvh_rig.hpp): the rig, which must satisfy check_skeleton, and the capture as a motion
// of it, whose frames must satisfy check_pose.
#include <sstream>

#include "host/bvh.hpp"
#include "host/bvh_rig.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

void check_file(const bs::BvhFile& file) {
    using bs::fuzz::require;
    require(file.frame_count > 0 && file.channel_count > 0, "a capture without frames or channels");
    require(file.values.size() == file.frame_count * file.channel_count, "a capture with a wrong number of values");
    require(file.frame_time >= 1e-6 && file.frame_time <= 3600, "a frame time out of range");
    std::size_t channels = 0;
    for (std::size_t j = 0; j < file.joints.size(); ++j) {
        const bs::BvhJoint& joint = file.joints[j];
        require(joint.parent < int(j) && (joint.parent >= 0) == (j > 0), "a joint before its parent");
        require(joint.first_channel == channels, "a joint whose channels are not where the frames have them");
        channels += joint.channels.size();
    }
    require(channels == file.channel_count, "a channel count that is not the joints' sum");
    for (double v : file.values) require(std::isfinite(v), "a value that is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    std::istringstream in(fuzz::bytes_of(data, size));
    BvhFile file;
    if (!fuzz::accepted([&] { file = parse_bvh(in, "fuzz.bvh"); })) return 0;
    check_file(file);
    fuzz::require(bvh_pose(file, kBvhRest).size() == file.joints.size(), "a rest pose without one entry per joint");
    bvh_pose(file, file.frame_count - 1);
    BvhRig rig;
    if (!fuzz::accepted([&] { rig = rig_bvh(file); })) return 0;
    fuzz::check_skeleton(rig.skeleton);
    std::vector<Motion> motion;  // Motion has no default constructor
    if (!fuzz::accepted([&] { motion.push_back(bvh_motion(rig, file)); })) return 0;
    for (std::size_t f = 0; f < motion.front().frame_count(); ++f) fuzz::check_pose(motion.front().frame(f), rig.skeleton);
    return 0;
}
