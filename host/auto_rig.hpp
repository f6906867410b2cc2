// Automatic sphere-mesh rig from a Reeb graph (host/reeb_graph.hpp): one sphere per node, bones along the
// graph's edges, loops broken — so any mesh or point set gets a skeleton without a hand-made rig.
//
// Rules (docs/ALGORITHM.md, "Skeleton extraction (seed 001)"):
//   - Sphere of a node: centre = the node's area-weighted centroid (inside the body for the bands around a
//     limb, the caps and the junction regions a Reeb graph is made of); radius = the distance from that
//     centre to the nearest point of the surface (mesh: any triangle; points: any point), i.e. the largest
//     ball there that holds no surface: the local thickness. Floor: min_radius_fraction × the bounding-box
//     diagonal of the vertices the graph binds (an open, flat patch has its centroid on the surface;
//     isolated vertices and debris left unbound do not widen it), or the nodes' median clearance where that
//     is smaller and above 1e-4 of the diagonal (a body longer than a thousand times its thickness).
//   - Nesting: a bone whose spheres (nearly) nest, |C1 − C2| − |r1 − r2| < nesting_margin × max(r1, r2),
//     has no usable tangent cone: the smaller sphere is removed and its node (vertices) given to the larger,
//     which keeps its centre and radius (the union of the two balls is about the larger one). Bones are
//     collapsed one at a time, the smallest ratio first (ties: lowest node pair), until none is left. This is
//     what turns the nested spheres of a rounded end (all tangent at its tip) into one.
//   - Loops: the remaining edges are taken by increasing level (higher interval of their two nodes, then the
//     lower, then the node pair) into a spanning tree; an edge that would close a cycle is cut. So every loop
//     is cut at its highest level, the point farthest (geodesically) from the body's centre.
//   - Parts: the graph of a point set can fall apart where no neighbour edge joins one interval's points to
//     the next. The part holding the most area is kept; the others, together under detached_fraction of
//     the area, are left unbound (their vertices and nodes -1, counted); more is an error.
//   - Root: the sphere of lowest interval (the body's geodesic centre), largest area on ties, then lowest
//     index. Bones point away from it; spheres are numbered in node order, bones breadth-first from the root
//     (children in ascending sphere order). The skeleton is checked with SkeletonRules::Tree.
// Errors: InputError (beginning with `source`) for options out of range (margin and floor in (0, 1)), a
// surface that does not match the graph (vertex count), or everything collapsing into one sphere (a
// ball-like body at this resolution: more intervals help).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "host/mesh_io.hpp"
#include "host/reeb_graph.hpp"
#include "host/skeleton.hpp"

namespace bs {

struct AutoRigOptions {
    double nesting_margin = 0.05;       // see "Nesting" above (fraction of the larger radius)
    double min_radius_fraction = 1e-3;  // radius floor (fraction of the bound vertices' bounding-box diagonal)
    int threads = 0;                    // 0: all cores, at most cpu::kMaxThreads (the result does not depend on it)
    double detached_fraction = 0.01;    // the graph's parts beside the largest, together under this share of the
                                        // area, are left unbound (see "Parts")
};

struct AutoRig {
    Skeleton skeleton;                         // SkeletonRules::Tree
    std::vector<int> sphere_of_node;           // per Reeb node: the sphere carrying it, -1 in a detached part
    std::vector<int> sphere_of_vertex;         // per input vertex or point: its sphere, -1 if unbound
    std::vector<std::array<int, 2>> cut_edges; // edges cut to break loops, as pairs of carrying nodes (ascending)
    std::size_t detached_parts = 0;            // parts of the graph left unbound (see "Parts")
};

// `mesh` / `points` must be the input the graph was extracted from.
AutoRig build_auto_rig(const ReebGraph& graph, const TriangleMesh& mesh, const std::string& source,
                       const AutoRigOptions& options = {});
AutoRig build_auto_rig(const ReebGraph& graph, const std::vector<Vec3<double>>& points, const std::string& source,
                       const AutoRigOptions& options = {});

// Writes the vertex-to-sphere binding of `vertices` (the input the rig was built from; README "Binding"):
// {"binding": [sphere per vertex, -1 unbound], "vertices_digest": binding_vertex_digest(vertices), "reeb":
// {"intervals", "loops", "nodes": [{"interval", "area", "centroid", "sphere"}], "edges", "cut_edges"}}.
// IoError if the file cannot be written.
void save_binding(const std::string& path, const AutoRig& rig, const ReebGraph& graph, const std::vector<Vec3<double>>& vertices);
// The binding file's text into `out`, not committed (the skeleton command commits it with its skeleton).
void write_binding(OutputFile& out, const AutoRig& rig, const ReebGraph& graph, const std::vector<Vec3<double>>& vertices);

// The binding's file name for a skeleton file: "S.json" → "S.binding.json", other names get ".binding.json"
// appended.
std::string binding_path_for(const std::string& skeleton_path);

}  // namespace bs
