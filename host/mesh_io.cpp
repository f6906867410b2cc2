#include "host/mesh_io.hpp"

#if BASESKIN_HAVE_ASSIMP
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/LogStream.hpp>

#include "host/assimp_mesh.hpp"
#include "host/bvh.hpp"
#endif
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <unordered_map>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/ply.hpp"

namespace bs {

namespace {

struct PositionKey {
    double x, y, z;
    bool operator==(const PositionKey& o) const { return x == o.x && y == o.y && z == o.z; }
};

struct PositionHash {
    std::size_t operator()(const PositionKey& k) const {
        std::hash<double> h;  // equal doubles hash equally, +0 and -0 included
        std::size_t seed = h(k.x);
        seed ^= h(k.y) + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
        seed ^= h(k.z) + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
        return seed;
    }
};


// Twice the signed area of the 2D triangle (a, b, c): positive where it turns left.
double turn(const std::array<double, 2>& a, const std::array<double, 2>& b, const std::array<double, 2>& c) {
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
}

// Whether p lies in the left-turning triangle (a, b, c) or on its edges.
bool in_triangle(const std::array<double, 2>& p, const std::array<double, 2>& a, const std::array<double, 2>& b,
                 const std::array<double, 2>& c) {
    return turn(a, b, p) >= 0 && turn(b, c, p) >= 0 && turn(c, a, p) >= 0;
}

// The polygon's corners in its own plane (that of its Newell normal), turning left where it is convex;
// none where it has no area in any plane (or a corner is not finite).
std::vector<std::array<double, 2>> in_polygon_plane(const std::vector<Vec3<double>>& corners) {
    Vec3<double> centre{0, 0, 0};
    for (const Vec3<double>& p : corners) centre = centre + p / double(corners.size());
    Vec3<double> normal{0, 0, 0};
    for (std::size_t i = 0; i < corners.size(); ++i)
        normal = normal + cross(corners[i] - centre, corners[(i + 1) % corners.size()] - centre);
    if (!(norm(normal) > 0) || !all_finite(normal)) return {};
    const Vec3<double> w = normalized(normal), u = any_orthogonal(w), v = cross(w, u);
    std::vector<std::array<double, 2>> plane;
    for (const Vec3<double>& p : corners) plane.push_back({dot(p - centre, u), dot(p - centre, v)});
    return plane;
}

// Ear clipping (the ring of the polygon's corners, `q` their plane positions): appends the ears' corners
// (positions in the ring's numbering) to `ears`; false where no ear is left to clip before the last
// triangle (a polygon that crosses itself), `ring` then holding the corners left.
bool clip_ears(const std::vector<std::array<double, 2>>& q, std::vector<std::size_t>& ring, std::vector<std::array<std::size_t, 3>>& ears) {
    auto blocks = [&](std::size_t r, std::size_t a, std::size_t b, std::size_t c) {
        if (r == a || r == b || r == c || q[r] == q[a] || q[r] == q[b] || q[r] == q[c]) return false;  // a corner repeated (a bridged hole) blocks nothing
        return in_triangle(q[r], q[a], q[b], q[c]);
    };
    for (std::size_t k = 0, tried = 0; ring.size() > 3; k %= ring.size()) {
        if (tried++ == ring.size()) return false;  // a whole round without an ear
        const std::size_t a = ring[(k + ring.size() - 1) % ring.size()], b = ring[k], c = ring[(k + 1) % ring.size()];
        if (turn(q[a], q[b], q[c]) > 0 && std::none_of(ring.begin(), ring.end(), [&](std::size_t r) { return blocks(r, a, b, c); })) {
            ears.push_back({a, b, c});
            ring.erase(ring.begin() + std::ptrdiff_t(k));
            tried = 0;
        } else {
            ++k;
        }
    }
    ears.push_back({ring[0], ring[1], ring[2]});
    return true;
}

// The polygon's corners (their places in `corners`) with each run of one position kept once, the first
// corner's position repeated at the end included (as OBJ writers do): a repeated corner's turns, against
// an edge of no length, are 0, and made a concave polygon look convex (a reviewer's quad of area 0.27,
// fanned, covered 0.51).
std::vector<std::size_t> distinct_corners(const std::vector<Vec3<double>>& vertices, const std::vector<int>& corners) {
    auto place = [&](std::size_t c) { return vertices[std::size_t(corners[c])]; };
    auto same = [&](std::size_t a, std::size_t b) {
        const Vec3<double> p = place(a), q = place(b);
        return p.x == q.x && p.y == q.y && p.z == q.z;  // (a norm of the difference underflows near 1e-170)
    };
    std::vector<std::size_t> ring;
    for (std::size_t c = 0; c < corners.size(); ++c)
        if (ring.empty() || !same(ring.back(), c)) ring.push_back(c);
    while (ring.size() > 1 && same(ring.back(), ring.front())) ring.pop_back();
    return ring;
}

}  // namespace

void triangulate_polygon(const std::vector<Vec3<double>>& vertices, const std::vector<int>& corners,
                         std::vector<std::array<int, 3>>& out) {
    if (corners.size() == 3) {  // most faces: as they are, without the rings below
        out.push_back({corners[0], corners[1], corners[2]});
        return;
    }
    auto fan = [&](const std::vector<std::size_t>& ring) {  // ring: places in `corners`
        for (std::size_t c = 1; c + 1 < ring.size(); ++c) out.push_back({corners[ring[0]], corners[ring[c]], corners[ring[c + 1]]});
    };
    std::vector<std::size_t> every(corners.size());
    std::iota(every.begin(), every.end(), std::size_t(0));
    const std::vector<std::size_t> ring = distinct_corners(vertices, corners);
    if (ring.size() < 3 || corners.size() > kMostClippedCorners) return fan(every);  // no area, or too many to clip
    std::vector<Vec3<double>> positions;
    for (std::size_t c : ring) positions.push_back(vertices[std::size_t(corners[c])]);
    const std::vector<std::array<double, 2>> q = in_polygon_plane(positions);
    if (q.empty()) return fan(every);
    bool convex = true;
    for (std::size_t i = 0; i < q.size() && convex; ++i) convex = turn(q[(i + q.size() - 1) % q.size()], q[i], q[(i + 1) % q.size()]) >= 0;
    if (convex) return fan(ring);
    std::vector<std::size_t> left(ring.size());  // places in `ring`
    std::iota(left.begin(), left.end(), std::size_t(0));
    std::vector<std::array<std::size_t, 3>> ears;
    const bool whole = clip_ears(q, left, ears);
    for (const auto& ear : ears) out.push_back({corners[ring[ear[0]]], corners[ring[ear[1]]], corners[ring[ear[2]]]});
    if (!whole) {
        for (std::size_t& place : left) place = ring[place];
        fan(left);
    }
}

namespace {

#if BASESKIN_HAVE_ASSIMP
void weld(TriangleMesh& mesh) {
    WeldedPositions welded = weld_identical_positions(mesh.vertices);
    for (auto& t : mesh.triangles)
        for (int& v : t) v = welded.index_of[v];
    mesh.vertices = std::move(welded.positions);
}
#endif

}  // namespace

#if BASESKIN_HAVE_ASSIMP
void append_assimp_mesh(const aiMesh& in, const aiMatrix4x4& to_scene, const std::string& path, TriangleMesh& out,
                        std::size_t& skipped, std::vector<int>& polygons_using) {
    const int base = int(out.vertices.size());
    for (unsigned v = 0; v < in.mNumVertices; ++v) {
        const aiVector3D q = to_scene * in.mVertices[v];
        Vec3<double> p{q.x, q.y, q.z};
        if (!within_input_magnitude(p))  // assimp numbers a mesh's vertices its own way (an OBJ's per corner)
            throw InputError(path + ": mesh " + quoted_text(in.mName.C_Str()) + ", vertex " + std::to_string(v) +
                             " as assimp reads it (not the file's numbering): a coordinate " + outside_input_magnitude_text());
        out.vertices.push_back(p);
    }
    polygons_using.resize(out.vertices.size(), 0);
    for (unsigned f = 0; f < in.mNumFaces; ++f) {
        const aiFace& face = in.mFaces[f];
        if (face.mNumIndices < 3) {
            ++skipped;
            continue;
        }
        std::vector<int> corners;
        for (unsigned c = 0; c < face.mNumIndices; ++c) {
            ++polygons_using[base + face.mIndices[c]];
            corners.push_back(base + int(face.mIndices[c]));
        }
        triangulate_polygon(out.vertices, corners, out.triangles);
    }
}

void refuse_rounding_far_from_origin(const TriangleMesh& mesh, const std::string& path) {
    if (mesh.vertices.empty()) return;
    Vec3<double> low = mesh.vertices.front(), high = low;
    double reach = 0;  // the largest coordinate's magnitude: where single precision rounds most
    for (const Vec3<double>& p : mesh.vertices) {
        low = {std::min(low.x, p.x), std::min(low.y, p.y), std::min(low.z, p.z)};
        high = {std::max(high.x, p.x), std::max(high.y, p.y), std::max(high.z, p.z)};
        reach = std::max({reach, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
    }
    const double size = norm(high - low);
    if (!(size > 0)) return;  // a mesh of no size: refused by its users
    const float far = float(reach);
    const double rounding = 0.5 * (double(std::nextafter(far, INFINITY)) - double(far));
    if (!(rounding > kMostSinglePrecisionRounding * size)) return;
    throw InputError(path + ": assimp reads vertices in single precision, and this mesh's lie up to " + number_text(reach, 4) +
                     " from the origin, " + number_text(reach / size, 3) + " times its size (" + number_text(size, 4) +
                     "): rounding moves them by up to " + number_text(rounding, 3) + ", " + number_text(rounding / size, 3) +
                     " of its size (at most " + number_text(kMostSinglePrecisionRounding) +
                     " is taken); move it near the origin (a mesh given as PLY is read in double)");
}
#endif

WeldedPositions weld_identical_positions(const std::vector<Vec3<double>>& positions) {
    WeldedPositions out;
    out.index_of.resize(positions.size());
    std::unordered_map<PositionKey, int, PositionHash> first_index;
    first_index.reserve(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Vec3<double>& p = positions[i];
        auto [it, inserted] = first_index.emplace(PositionKey{p.x, p.y, p.z}, int(out.positions.size()));
        if (inserted) out.positions.push_back(p);
        out.index_of[i] = it->second;
    }
    return out;
}

namespace {
std::string lower_extension(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

[[noreturn]] void no_polygons(const std::string& path, std::size_t vertices, std::size_t skipped) {
    throw InputError(path + ": no polygons: the file holds " + std::to_string(vertices) + " vertices and " +
                     std::to_string(skipped) + " points or lines, a surface is needed");
}
}  // namespace

void check_model_input(const std::string& path, const std::string& kind) {
    std::ifstream in = open_input_file(path, kMaxModelFileBytes, kind);
    const std::string extension = lower_extension(path);
    static const char* const text_only[] = {".obj", ".off", ".smd", ".vta", ".dae", ".gltf"};
    if (std::find(std::begin(text_only), std::end(text_only), extension) == std::end(text_only)) return;
    std::vector<char> chunk(1 << 16);
    for (std::size_t offset = 0; in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0;) {
        const std::size_t got = std::size_t(in.gcount());
        if (const void* nul = std::memchr(chunk.data(), 0, got))
            throw InputError(path + ": byte " + std::to_string(offset + std::size_t(static_cast<const char*>(nul) - chunk.data())) +
                             " is NUL, which a " + extension.substr(1) + " file (text) cannot hold");
        offset += got;
    }
    if (in.bad()) throw IoError(path + ": cannot read (" + std::strerror(errno) + ")");
}

bool is_ply_path(const std::string& path) { return lower_extension(path) == ".ply"; }

TriangleMesh load_ply_mesh(const std::string& path) {
    const PointSet set = read_point_set(path);
    TriangleMesh mesh;
    mesh.vertices = set.positions;
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v)  // as assimp's meshes (append_assimp_mesh)
        if (!within_input_magnitude(mesh.vertices[v]))
            throw InputError(path + ": vertex " + std::to_string(v) + ": a coordinate " + outside_input_magnitude_text());
    const PlyElement* faces = set.file.find("face");
    const PlyProperty* corners = faces ? faces->find("vertex_indices") : nullptr;
    if (faces && !corners) corners = faces->find("vertex_index");
    std::size_t skipped = 0;
    if (corners && corners->is_list) {
        std::size_t item = 0;
        for (std::size_t f = 0; f < corners->counts.size(); item += corners->counts[f], ++f) {
            const std::uint32_t n = corners->counts[f];  // its indices checked by read_point_set
            if (n < 3) {
                ++skipped;
                continue;
            }
            std::vector<int> polygon;
            for (std::uint32_t c = 0; c < n; ++c) polygon.push_back(int(corners->values[item + c]));
            triangulate_polygon(mesh.vertices, polygon, mesh.triangles);
        }
    }
    if (mesh.triangles.empty()) no_polygons(path, mesh.vertices.size(), skipped);
    mesh.faces_skipped = skipped;
    return mesh;
}

#if BASESKIN_HAVE_ASSIMP
void refuse_skeleton_meshes(Assimp::Importer& importer) { importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true); }

std::string assimp_failure(const Assimp::Importer& importer, const std::string& path) {
    std::string error = importer.GetErrorString();
    if (error.find("bad_alloc") != std::string::npos) return out_of_memory_reason("assimp");
    if (error.rfind("No suitable reader found", 0) == 0) {
        // assimp says so too where its reader for the file's extension looked and refused it (a .gltf whose
        // JSON was cut short): the format is known then, and the file is what is wrong.
        const std::string extension = lower_extension(path);
        if (!extension.empty() && importer.IsExtensionSupported(extension))
            return "assimp's reader for " + extension + " files does not take it (malformed or truncated?)";
        return "assimp has no reader for this file's format";
    }
    // The message names the file already (`path: cannot read ...`): assimp's own quoting of it goes.
    const std::string quoted = "\"" + path + "\"";
    for (std::size_t at = error.find(quoted); at != std::string::npos; at = error.find(quoted, at)) error.replace(at, quoted.size(), "it");
    return error;
}

double assimp_seconds(const std::string& path) {
    const char* given = std::getenv("BASESKIN_ASSIMP_SECONDS");
    char* end = nullptr;
    const double asked = given ? std::strtod(given, &end) : 0.0;
    const bool usable = end != given && *end == '\0' && std::isfinite(asked) && asked > 0;
    // A value that is not a time is refused, not replaced by the default behind the user's back.
    if (given && !usable)
        throw InputError("BASESKIN_ASSIMP_SECONDS (environment): expected seconds > 0, got " + quoted_text(given));
    const double base = given ? std::min(asked, kMaxChildSeconds) : kAssimpBaseSeconds;
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    return base + (ec ? 0.0 : double(bytes) / double(kMiB));
}

void put_mesh(ByteWriter& out, const TriangleMesh& mesh) {
    out.put_vector(mesh.vertices);
    out.put_vector(mesh.triangles);
    out.put(mesh.faces_skipped);
}

TriangleMesh get_mesh(ByteReader& in) {
    TriangleMesh mesh;
    mesh.vertices = in.get_vector<Vec3<double>>();
    mesh.triangles = in.get_vector<std::array<int, 3>>();
    mesh.faces_skipped = in.get<std::size_t>();
    return mesh;
}

namespace {
// The errors assimp logs while it reads a file.
class LoggedErrors : public Assimp::LogStream {
public:
    explicit LoggedErrors(std::vector<std::string>& into) : into_(into) {}
    void write(const char* message) override {
        std::string text = message;
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
        const std::size_t own = text.find("OFF: ");  // after the logger's "Error, T0: "
        into_.push_back(own == std::string::npos ? text : text.substr(own));
    }

private:
    std::vector<std::string>& into_;
};

// assimp 5.2's OFF reader reads past errors of the file, logging them and going on: a face index past the
// vertices taken as the last vertex, a face of no corners or more than nine dropped, fewer vertex lines than
// the header's count (the rest left at 0). An OFF file it logs an error for is refused with assimp's words
// (a probe's `3 0 1 7` over 3 vertices had been read as `0 1 2`, exit 0).
const aiScene* read_off_refusing_logged_errors(Assimp::Importer& importer, const std::string& path, unsigned flags) {
    std::vector<std::string> errors;
    Assimp::DefaultLogger::create("", Assimp::Logger::NORMAL, 0);
    Assimp::DefaultLogger::get()->attachStream(new LoggedErrors(errors), Assimp::Logger::Err);  // the logger owns it
    const aiScene* scene = importer.ReadFile(path, flags);
    Assimp::DefaultLogger::kill();
    if (errors.empty()) return scene;
    const std::string error =
        errors.front() + (errors.front().find("zero indices") != std::string::npos ? " (a face of no corners or more than nine)" : "");
    if (!scene) throw InputError(path + ": cannot read as a mesh: " + assimp_failure(importer, path) + " (after " + error + ")");
    throw InputError(path + ": assimp's OFF reader would read past an error of the file: " + error);
}

// load_triangle_mesh's work in the child process.
TriangleMesh read_assimp_mesh(const std::string& path) {
    Assimp::Importer importer;
    refuse_skeleton_meshes(importer);
    // No triangulation step: assimp's asserts abort on some malformed files; triangulate_polygon splits here.
    const unsigned flags = aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure;
    const bool off = lower_extension(path) == ".off";
    const aiScene* scene = off ? read_off_refusing_logged_errors(importer, path, flags) : importer.ReadFile(path, flags);
    if (!scene) throw InputError(path + ": cannot read as a mesh: " + assimp_failure(importer, path));
    TriangleMesh mesh;
    std::size_t skipped = 0;
    std::vector<int> polygons_using;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) append_assimp_mesh(*scene->mMeshes[m], aiMatrix4x4(), path, mesh, skipped, polygons_using);
    if (mesh.triangles.empty()) no_polygons(path, mesh.vertices.size(), skipped);
    mesh.faces_skipped = skipped;
    refuse_rounding_far_from_origin(mesh, path);
    // A soup (no vertex shared by two polygons) is how assimp delivers OBJ and STL: weld it. assimp keeps an
    // OFF file's own vertex list, soup or not, and a binding follows that list (README): left as it is (the
    // surface graph joins coincident vertices; a soup OFF had come back welded, its binding shorter than
    // the file).
    if (!off && std::all_of(polygons_using.begin(), polygons_using.end(), [](int uses) { return uses <= 1; })) weld(mesh);
    return mesh;
}
}  // namespace
#endif

TriangleMesh load_triangle_mesh(const std::string& path) {
    if (is_ply_path(path)) return load_ply_mesh(path);  // its own limits (read_point_set)
    // assimp reads a capture as a scene of no meshes ("aiScene::mNumMeshes is 0"): say what it is instead.
    if (is_bvh_path(path))
        throw InputError(path + ": a motion capture (BVH) holds a skeleton and its motion, no mesh (baseskin rig --model builds a body on it)");
    check_model_input(path, "mesh");
#if !BASESKIN_HAVE_ASSIMP
    throw UnsupportedError(path + ": cannot read meshes: this build has no assimp (install libassimp-dev and rebuild)");
#else
    ByteReader answer(run_in_child(path, "assimp", assimp_seconds(path), [&] {
                          ByteWriter out;
                          put_mesh(out, read_assimp_mesh(path));
                          return out.take();
                      }),
                      path);
    return get_mesh(answer);
#endif
}

}  // namespace bs
