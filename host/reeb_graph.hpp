// Multiresolution Reeb graph (MRG) of a surface, from a triangle mesh or a raw point set: the skeleton
// extraction of seed 001 §1.1 (after Hilaga et al. 2001), with the corrections of DESIGN §3.
//
//   1. Geodesics: Dijkstra along mesh edges, or along the symmetrised k-nearest-neighbour graph of a point
//      set (host/surface_graph.hpp).
//   2. Base vertices spread over the surface with radius r = √(c · area): vertices are visited in index
//      order and each one not yet within r of a base becomes a base. area(b_i) is the area of the vertices
//      whose nearest base is b_i (mesh: barycentric vertex areas; points: π d_k² / k, d_k the distance to
//      the k-th neighbour).
//   3. μ(v) = Σ_i g(v, b_i) · area(b_i), normalised by (μ − min) / (max − min) to [0, 1].
//   4. [0, 1] is cut into k equal intervals; interval(v) = min(k − 1, ⌊μ(v) · k⌋).
//   5. Nodes: mesh — every triangle is cut at the interval boundaries (μ is linear on it); each piece is
//      convex, pieces of one interval that share a vertex or an edge portion of that interval are joined,
//      and each connected set of pieces is a node, bound to its vertices. Its area and centroid are the
//      exact area and centroid of its pieces. Points — the connected sets of same-interval points joined
//      by graph edges (edges across a boundary are cut); area and centroid from the points' areas.
//   6. Edges: mesh — the two pieces of a triangle on either side of a boundary touch: their nodes are
//      joined. Points — a graph edge between adjacent intervals joins its end nodes (an edge that skips an
//      interval joins nothing: the interval's own points carry the connection).
//   7. Tiny nodes (area < tiny_node_fraction × total area; noise, and the pieces of a point graph's long
//      edges) are merged, smallest first, into their largest neighbour (ties: lowest index).
//   8. loops = E − N + 1, the graph's independent cycles (genus for a closed orientable surface).
//
// Input rules (InputError beginning with `source`, or documented behaviour):
//   - options out of range (k ∉ [kMinIntervals, kMaxIntervals], c ∉ [kMinRadiusCoefficient,
//     kMaxRadiusCoefficient], neighbours ∉ [kMinNeighbours, kMaxNeighbours], fractions ∉ [0, 0.5)): error;
//   - non-finite coordinates, triangle indices out of range: error;
//   - coincident vertices or points (same position exactly) are one surface sample: all copies are bound to
//     the same node; triangles that collapse onto a repeated vertex are skipped (counted);
//   - vertices no triangle uses (isolated) are left unbound (node -1, μ NaN; counted);
//   - non-manifold edges (3+ triangles) and boundary edges are accepted and counted: the steps above only
//     need edges and areas, but `loops` then no longer measures genus;
//   - disconnected input: connected parts with less than debris_fraction of the total area are left
//     unbound (counted); two or more larger parts are an error (a skeleton is one body);
//   - no area (every triangle degenerate), fewer than neighbours + 1 distinct points, or a constant μ: error.
//
// Costs (N samples, E graph edges, F triangles, B bases (≈ 3 / (π c), about 200 at the default), k intervals): graph O(F log F), or
// O(N k_nn log N) for points; bases and their areas O(E log N); μ O(B · E log N), parallel over bases (the
// dominant term); nodes O(F + N) plus O(F · k) pieces at worst. Memory O(N + E) plus 16 · N doubles.
// Deterministic: the same input gives the same graph for any thread count.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "engine/vec.hpp"
#include "host/mesh_io.hpp"

namespace bs {

constexpr int kMinIntervals = 2, kMaxIntervals = 512;
constexpr double kMinRadiusCoefficient = 1e-4, kMaxRadiusCoefficient = 1.0;
constexpr int kMinNeighbours = 3, kMaxNeighbours = 64;

struct ReebOptions {
    int intervals = 8;                 // k
    double radius_coefficient = 0.005; // c in r = √(c · area)
    int neighbours = 10;               // point sets: neighbours per point in the geodesic graph
    double tiny_node_fraction = 0.002; // nodes with less of the total area are merged into a neighbour
    double debris_fraction = 0.01;     // connected parts with less of the total area are left unbound
    int threads = 0;                   // 0: all cores; above cpu::kMaxThreads taken as that
};

struct ReebNode {
    int interval = 0;             // its μ interval [interval / k, (interval + 1) / k)
    double area = 0;              // area of its region (units²)
    Vec3<double> centroid{};      // area-weighted centroid of its region
    std::vector<int> vertices;    // bound input vertices, ascending (may be empty on a coarse mesh)
};

// What the extraction found in the input besides the graph.
struct SurfaceReport {
    double area = 0;                         // of the body the graph describes (units²)
    std::size_t coincident_samples = 0;      // vertices or points at the position of an earlier one
    std::size_t faces_skipped = 0;           // the mesh file's points and lines (TriangleMesh::faces_skipped)
    std::size_t degenerate_triangles = 0;    // triangles skipped for a repeated vertex
    std::size_t isolated_vertices = 0;       // in no triangle, or (points) 100× the median spacing from any other: unbound
    std::size_t debris_parts = 0;            // small connected parts left unbound
    std::size_t boundary_edges = 0;          // edges of one triangle
    std::size_t non_manifold_edges = 0;      // edges of three or more triangles
    std::size_t merged_tiny_nodes = 0;
};

struct ReebGraph {
    int intervals = 0;
    std::vector<ReebNode> nodes;              // by interval, then by first vertex or triangle
    std::vector<std::array<int, 2>> edges;    // node pairs (a < b), ascending, no repeats
    int loops = 0;                            // independent cycles
    std::vector<int> node_of_vertex;          // per input vertex or point: its node, -1 if unbound
    std::vector<double> mu;                   // per input vertex: normalised μ in [0, 1], NaN if unbound
    std::vector<int> base_vertices;           // input indices of the base vertices
    SurfaceReport report;

    std::vector<int> degrees() const;         // edges per node
};

ReebGraph extract_reeb_graph(const TriangleMesh& mesh, const ReebOptions& options, const std::string& source);
ReebGraph extract_reeb_graph(const std::vector<Vec3<double>>& points, const ReebOptions& options,
                             const std::string& source);

}  // namespace bs
