// libFuzzer target: PLY files (host/ply.hpp), read as a generic PlyFile and as a point set. An accepted
// file must survive the header's promise "read then write loses nothing": written in its own format
// (big-endian as little-endian) and read back, it gives the same model (NaNs compare equal).
#include <cstdio>

#include "host/ply.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

bool same_model(const bs::PlyFile& a, const bs::PlyFile& b) {
    if (a.comments != b.comments || a.obj_info != b.obj_info || a.elements.size() != b.elements.size()) return false;
    for (std::size_t e = 0; e < a.elements.size(); ++e) {
        const bs::PlyElement &x = a.elements[e], &y = b.elements[e];
        if (x.name != y.name || x.count != y.count || x.properties.size() != y.properties.size()) return false;
        for (std::size_t p = 0; p < x.properties.size(); ++p) {
            const bs::PlyProperty &u = x.properties[p], &v = y.properties[p];
            if (u.name != v.name || u.type != v.type || u.is_list != v.is_list || !same_values(u.values, v.values)) return false;
            if (u.is_list && (u.count_type != v.count_type || u.counts != v.counts)) return false;
        }
    }
    return true;
}

void check_round_trip(const bs::PlyFile& file) {
    using namespace bs;
    const PlyFormat format = file.format == PlyFormat::Ascii ? PlyFormat::Ascii : PlyFormat::BinaryLittleEndian;
    const std::string path = fuzz::scratch_path(".ply");
    PlyFile again;
    try {
        write_ply(path, file, format);
        again = read_ply(path);
    } catch (const std::exception& e) {
        std::remove(path.c_str());
        fuzz::finding(std::string("a file that was read cannot be written and read back: ") + e.what());
    }
    std::remove(path.c_str());
    fuzz::require(same_model(file, again), "a file that was read is not the same once written and read back");
}

void check_point_set(const bs::PointSet& set) {
    using bs::fuzz::require;
    const bs::PlyElement* vertex = set.file.find("vertex");
    require(vertex && vertex->count == set.positions.size(), "a point set without one position per vertex");
    require(set.influences.empty() || set.influences.size() == set.positions.size(), "influences not one per vertex");
    for (const bs::Vec3<double>& p : set.positions) require(bs::all_finite(p), "a position that is not finite");
    for (const bs::Influences& inf : set.influences) {
        float sum = 0;
        for (float w : inf.weight) sum += w;
        require(std::fabs(sum - 1.0f) < 1e-5f, "influence weights that do not sum to 1");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    const std::string bytes = fuzz::bytes_of(data, size);
    PlyFile file;
    if (!fuzz::accepted([&] { file = parse_ply(bytes, "fuzz.ply"); })) return 0;
    check_round_trip(file);
    PointSet set;
    if (fuzz::accepted([&] { set = parse_point_set(bytes, "fuzz.ply"); })) check_point_set(set);
    return 0;
}
