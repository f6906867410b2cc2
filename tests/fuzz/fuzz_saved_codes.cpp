// libFuzzer target: saved baseline codes (host/code_file.hpp) against fuzz_skeleton(). Each input is
// read twice: as it is, and "repaired" (bone count, fingerprint and checksum set to what this skeleton
// and these bytes give), so that mutations reach the checks behind the checksum too. An accepted file
// must be written back byte for byte by save_codes.
#include <fstream>
#include <iterator>
#include <sstream>

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
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bs::Skeleton skeleton = bs::fuzz::fuzz_skeleton();
    const std::string bytes = bs::fuzz::bytes_of(data, size);
    read_and_write_back(bytes, skeleton);
    read_and_write_back(repaired(bytes, skeleton), skeleton);
    return 0;
}
