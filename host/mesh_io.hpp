// Triangle meshes: reading PLY (the project's own reader), OBJ, OFF (and the other formats assimp knows: STL, glTF, FBX, Collada,
// ...) through assimp, and welding coincident positions.
//
// load_triangle_mesh() contract:
//   - Every mesh of the file's scene, with its node transforms applied (aiProcess_PreTransformVertices),
//     is appended in scene order. Units are the file's.
//   - Polygons of 3+ corners are split into triangles (triangulate_polygon); points and lines are skipped.
//   - Vertices are the importer's, in its order. PLY and OFF keep the file's vertex list as is (count and
//     order, unreferenced vertices included), so per-vertex results (e.g. a skeleton binding) line up with
//     the file. OBJ and STL come out of assimp as a triangle soup (one vertex per face corner): a soup —
//     no vertex used by two faces — is welded by exact position (weld_identical_positions), keeping the
//     order of first use.
//   - Errors: IoError if the file cannot be opened or is not a regular file; InputError, beginning with the
//     path, over kMaxModelFileBytes (PLY: kMaxPlyFileBytes), if assimp cannot parse it (its message is
//     quoted), hangs past its time limit or crashes (it runs in a child process: check_model_input below),
//     if its data is invalid (assimp's validation), if a coordinate is not finite, or if it holds no polygon
//     (only points or lines). UnsupportedError for a file other than PLY in a build without assimp.
//   - It forks (host/child_process.hpp): in an application whose other threads may hold a lock the child
//     needs (the allocator's is safe; a library's own may not be), a load could wait out its time limit.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/vec.hpp"

namespace bs {

struct TriangleMesh {
    std::vector<Vec3<double>> vertices;
    std::vector<std::array<int, 3>> triangles;  // indices into vertices
    std::size_t faces_skipped = 0;               // the file's points and lines (faces of 1 or 2 corners), left out
};

TriangleMesh load_triangle_mesh(const std::string& path);

// Splits one polygon — `corners`, 3 or more indices into `vertices`, in order round it — into triangles
// appended to `out`, each turning as the polygon does. A corner repeated in a row (or the first again at
// the end) counts once: it adds no triangle. A polygon convex in the plane of its Newell normal is fanned
// from its first corner. A concave one is cut by ear clipping, so that no triangle covers a notch (fanned,
// a probe's U-shaped face of area 5 came out covering 7, and `drag --mesh` wrote those triangles). Where
// ear clipping finds no ear (a polygon that crosses itself), past kMostClippedCorners corners (clipping
// takes up to the cube of the count), or where the polygon has no area in any plane (fewer than 3
// distinct corners included, then fanned whole), the rest is fanned: no corner is dropped. Indices are
// not checked.
constexpr std::size_t kMostClippedCorners = 1024;
void triangulate_polygon(const std::vector<Vec3<double>>& vertices, const std::vector<int>& corners,
                         std::vector<std::array<int, 3>>& out);

// PLY meshes are read by the project's own reader (host/ply.hpp, strict and fuzzed), not by assimp, whose
// PLY reader in Debian's 5.2 hangs on some malformed files (found by tests/fuzz/fuzz_model_files.cpp):
// the vertex element's x, y, z and the face element's "vertex_indices" (or "vertex_index") lists, split by
// triangulate_polygon;
// faces of fewer than 3 corners are skipped. load_triangle_mesh and load_rigged_model (a model without
// bones) use it for every path ending in .ply (any case). InputError as read_ply's, and for an index out
// of range or a mesh without polygons.
TriangleMesh load_ply_mesh(const std::string& path);
bool is_ply_path(const std::string& path);

// What a file must pass before it goes to assimp (load_triangle_mesh and load_rigged_model check it):
// open_input_file's checks with kMaxModelFileBytes, and for the formats that are text only (by extension:
// OBJ, OFF, SMD, VTA, Collada, glTF) no NUL byte, which no text format has: Debian's assimp 5.2 loops
// forever on one inside an SMD file's node names (found by tests/fuzz/fuzz_model_files.cpp). InputError
// naming the file and the byte; `kind` ("mesh", "model") names the format in messages.
void check_model_input(const std::string& path, const std::string& kind);

// Positions with exact duplicates removed: `positions` holds each distinct position once, in order of
// first occurrence, and index_of[i] is the index in `positions` of input position i. +0 and -0 count as
// equal. O(n) expected (hash map).
struct WeldedPositions {
    std::vector<Vec3<double>> positions;
    std::vector<int> index_of;
};

WeldedPositions weld_identical_positions(const std::vector<Vec3<double>>& positions);

}  // namespace bs
