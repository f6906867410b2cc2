// libFuzzer target: saved baseline codes (host/code_file.hpp) against fuzz_skeleton(). Each input is
// read twice: as it is, and "repaired" (bone count, fingerprint and checksum set to what this skeleton
// and these bytes give), so that mutations reach the checks behind the checksum too. An accepted file
// must be written back byte for byte by save_codes, and its codes must deform under a bent and twisted
// pose, by the per-point pass with tables and without, to finite points wherever the rest points, heights
// and axis feet are of a body's size (a loaded file's codes need not be ones the encoder would write), the
// same with their rigid field's bones kept as without.
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "host/code_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

constexpr std::size_t kHeaderBytes = 32;  // magic, version, bone count, point count, fingerprint

template <class T>
void put_at(std::string& bytes, std::size_t at, T value) {
    bytes.replace(at, sizeof value, reinterpret_cast<const char*>(&value), sizeof value);
}

std::string repaired(std::string bytes, const bs::Skeleton& skeleton) {
    if (bytes.size() < kHeaderBytes + 8) return bytes;
    put_at(bytes, 12, std::uint32_t(skeleton.bone_count()));
    put_at(bytes, 24, bs::skeleton_fingerprint(skeleton));
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, as the file format states
    for (std::size_t i = 0; i + 8 < bytes.size(); ++i) hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
    put_at(bytes, bytes.size() - 8, hash);
    return bytes;
}

// One frame of the fuzz skeleton, the knee bent 100° out of the rest bend's plane and the ankle twisted
// 170°: its bones, bone table and per-frame tables (coarse: fuzz::coarse_deform_options), built once,
// since they do not depend on the codes.
struct BentFrame {
    std::vector<bs::BaselineBone<double>> bones;
    std::vector<bs::BaselineBonePose<double>> poses;
    bs::BaselineFrameTables tables;

    explicit BentFrame(const bs::Skeleton& skeleton) : bones(bs::make_baseline_bones(skeleton)) {
        bs::Pose pose = bs::Pose::rest(skeleton);
        // A swing's axis lies across its bone: (-2, 2.5, 3.2) is orthogonal to the knee bone's (2.5, 2, 0).
        pose.joints[1].swing = bs::axis_angle(bs::normalized(bs::Vec3<double>{-2, 2.5, 3.2}), 100 * bs::pi_value<double>() / 180);
        pose.joints[2].twist_radians = 170 * bs::pi_value<double>() / 180;
        poses = bs::baseline_pose_table(skeleton, bones, pose);
        tables = bs::build_frame_tables(bones, poses, bs::fuzz::coarse_deform_options(), bs::cpu::Exec{1});
    }
};

// Whether the point's rest position, height and axis foot are all within `bound` (input units).
bool of_body_size(const bs::Vec3<float>& rest, const bs::BaselineCode& code, float bound) {
    return std::fabs(rest.x) < bound && std::fabs(rest.y) < bound && std::fabs(rest.z) < bound && std::fabs(code.h) < bound &&
           std::fabs(code.axis_foot) < bound;
}

// Deforms accepted codes by the tables and by the direct construction, with their rigid field's bones kept
// (keep_field_bones, as a skinner loading them does) and searched: every point of a body's size must come
// out finite, and both routes must give the same point to the bit.
void deform_accepted(const bs::SavedCodes& saved, const bs::Skeleton& skeleton) {
    using namespace bs;
    static const BentFrame frame(skeleton);
    const KeptFieldBones kept = keep_field_bones(frame.bones, saved.codes, saved.rest);
    std::vector<Vec3<float>> out(saved.codes.size()), searched(saved.codes.size());
    for (bool exact : {false, true}) {
        BaselineJob<float> job{{packed_scalars(saved.rest.data()), 3}, saved.codes.data(), saved.codes.size(), frame.bones.data(),
                               frame.poses.data(), frame.poses.size(), {packed_scalars(searched.data()), 3}};
        if (!exact) job.tables = frame.tables.view();
        cpu::deform_baseline(job, cpu::Exec{1});
        job.out = {packed_scalars(out.data()), 3};
        job.field_refs = kept.refs.data();
        job.field_pool = kept.pool.data();
        cpu::deform_baseline(job, cpu::Exec{1});
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (of_body_size(saved.rest[i], saved.codes[i], 1e4f))
                fuzz::require(all_finite(out[i]), "a loaded code of a body's size deformed to a point that is not finite");
            fuzz::require(std::memcmp(&out[i], &searched[i], sizeof out[i]) == 0, "a code's kept field bones moved its point");
        }
    }
}

void read_and_write_back(const std::string& bytes, const bs::Skeleton& skeleton) {
    using namespace bs;
    std::istringstream in(bytes);
    SavedCodes saved;
    if (!fuzz::accepted([&] { saved = parse_codes(in, skeleton, "fuzz.bsk"); })) return;
    fuzz::require(saved.rest.size() == saved.codes.size(), "as many rest points as codes");
    const std::string path = fuzz::scratch_path(".bsk");
    save_codes(path, skeleton, saved);
    std::ifstream written(path, std::ios::binary);
    const std::string again((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    fuzz::require(again == bytes, "an accepted file that save_codes does not write back byte for byte");
    deform_accepted(saved, skeleton);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bs::Skeleton skeleton = bs::fuzz::fuzz_skeleton();
    const std::string bytes = bs::fuzz::bytes_of(data, size);
    read_and_write_back(bytes, skeleton);
    read_and_write_back(repaired(bytes, skeleton), skeleton);
    return 0;
}
