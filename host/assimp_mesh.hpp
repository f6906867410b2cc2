// What the assimp-based readers share (host/mesh_io.cpp, host/model_io.cpp); included only where assimp
// is (BASESKIN_HAVE_ASSIMP), never by public headers.
#pragma once

#include <assimp/scene.h>

#include <assimp/Importer.hpp>

#include <string>
#include <vector>

#include "host/child_process.hpp"
#include "host/mesh_io.hpp"

namespace bs {

// Appends one assimp mesh, its vertices taken to scene coordinates by `to_scene`, its polygons split into
// triangles by triangulate_polygon (assimp's own triangulation asserts on some malformed files). Counts the faces skipped (points
// and lines) and, per vertex, the polygons using it. InputError naming `path` for a non-finite vertex.
void append_assimp_mesh(const aiMesh& in, const aiMatrix4x4& to_scene, const std::string& path, TriangleMesh& out,
                        std::size_t& skipped, std::vector<int>& polygons_using);

// assimp holds vertices in float, so a mesh far from the origin compared with its size comes out rounded
// (a probe's cylinder 1 across at 1e7 collapsed onto 11 points, exit 0). Where that rounding may exceed
// kMostSinglePrecisionRounding of the mesh's bounding-box diagonal (a mesh farther than about 1,700 times
// its size from the origin), InputError naming `path`, the distance, the size and the rounding: the file's
// shape is lost by then (a body 2 m tall rounded by 0.2 mm), and below, kept to within that. Measured on
// the positions as assimp gives them, node transforms applied: a mesh far out in its own coordinates that
// a node's transform brings near is not seen (its rounding happened before the transform).
constexpr double kMostSinglePrecisionRounding = 1e-4;
void refuse_rounding_far_from_origin(const TriangleMesh& mesh, const std::string& path);

// For a file with a skeleton and no mesh (Collada lights and cameras, CSM captures) assimp draws a mesh
// of the skeleton itself, which is not a surface: the readers ask it not to, so that such a file has no
// polygons to sample (it had been rigged as a body of lamps).
void refuse_skeleton_meshes(Assimp::Importer& importer);

// assimp's error string for the file at `path` it could not read (its quoting of the path, which the
// caller's message names already, read as "it"), with two replacements: for its "No suitable reader found
// for the file format of file <path>", "no reader for this file's format" where assimp knows no format of
// the file's extension, and that its reader for the extension does not take the file where it knows one (a
// .gltf cut short); out_of_memory_reason where its allocation failed at the child's cap (it catches
// std::bad_alloc itself and says "std::bad_alloc").
std::string assimp_failure(const Assimp::Importer& importer, const std::string& path);

// assimp runs in a child process (host/child_process.hpp), given this long: BASESKIN_ASSIMP_SECONDS from the
// environment (default kAssimpBaseSeconds) plus one second per MiB of the file at `path`.
constexpr double kAssimpBaseSeconds = 60;
double assimp_seconds(const std::string& path);

// A mesh through run_in_child's pipe.
void put_mesh(ByteWriter& out, const TriangleMesh& mesh);
TriangleMesh get_mesh(ByteReader& in);

}  // namespace bs
