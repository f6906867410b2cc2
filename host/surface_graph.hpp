// Neighbour graphs over surface samples (mesh vertices or raw points) and geodesic distances along them:
// the geometric ground work of the Reeb-graph extraction (host/reeb_graph.hpp, seed 001 §1.1).
//
// Geodesics are approximated, as in the paper, by shortest paths along graph edges (Dijkstra), each edge
// weighted by its Euclidean length. Over a triangle mesh the edges are the triangles' edges; over a point
// set they are the symmetrised k-nearest-neighbour pairs (nanoflann k-d tree). Units are the input's.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include "engine/vec.hpp"

namespace bs {

// Undirected graph in compressed rows: the edges of vertex v are [first_edge[v], first_edge[v + 1]).
struct SurfaceGraph {
    std::vector<Vec3<double>> positions;
    std::vector<double> vertex_area;  // surface area each sample stands for (units²)
    std::vector<int> first_edge;      // vertex_count() + 1 entries
    std::vector<int> edge_target;
    std::vector<double> edge_length;  // Euclidean (units)

    std::size_t vertex_count() const { return positions.size(); }
};

// Builds the rows from an undirected edge list (each pair once, any order). Edge targets of a vertex come
// in ascending order, so searches over the graph are deterministic.
SurfaceGraph make_surface_graph(std::vector<Vec3<double>> positions, std::vector<double> vertex_area,
                                const std::vector<std::array<int, 2>>& edges);

// The vertices in the order of a Z-order (Morton) curve through cubic cells of their bounding box (its
// longest side cut in 2²¹): order[i] is the vertex to number i. Neighbours on a surface then mostly lie in
// nearby memory, where input order (random samples, merged scans) scatters them. Positions should be
// finite; a coordinate whose cell is not a number (extents beyond the largest double) takes cell 0 (still
// a permutation, only a worse order). Points in one cell keep their input order.
std::vector<int> morton_order(const std::vector<Vec3<double>>& positions);

// number_of[order[i]] = i: where a renumbering by `order` (a permutation of 0 … size − 1) puts each vertex.
std::vector<int> inverse_permutation(const std::vector<int>& order);

// The same graph with vertex order[i] numbered i (order: a permutation of the vertices): positions, areas
// and each row carried over, edge lengths copied as they are, each row's targets ascending again.
SurfaceGraph renumbered(const SurfaceGraph& graph, const std::vector<int>& order);

// Unique edges of a triangle mesh, each with the triangles that use it.
struct MeshEdges {
    std::vector<std::array<int, 2>> edges;  // (a < b), ascending
    std::vector<int> first_triangle;        // edges.size() + 1 entries
    std::vector<int> triangle;              // triangles of edge e: [first_triangle[e], first_triangle[e + 1])

    int triangle_count(std::size_t e) const { return first_triangle[e + 1] - first_triangle[e]; }
};

// Triangles must have three distinct vertices. O(F log F).
MeshEdges mesh_edges(const std::vector<std::array<int, 3>>& triangles);

double triangle_area(const Vec3<double>& a, const Vec3<double>& b, const Vec3<double>& c);

// Barycentric vertex areas: a third of the area of each triangle a vertex belongs to.
std::vector<double> mesh_vertex_areas(const std::vector<Vec3<double>>& positions,
                                      const std::vector<std::array<int, 3>>& triangles);

// k-nearest-neighbour pairs of distinct points (k >= 1, fewer than the point count), symmetrised: (i, j)
// is an edge when j is among i's k nearest or i among j's. `kth_distance[i]` is the distance from i to its
// OpenMP's team for the extraction's `threads` options (here, ReebOptions, AutoRigOptions): all cores
// for 0 or below, else that many, at most cpu::kMaxThreads.
int extraction_team(int threads);

// k-th nearest neighbour. Parallel over points (threads: 0 = all cores); deterministic.
struct NeighbourPairs {
    std::vector<std::array<int, 2>> edges;  // (a < b), ascending
    std::vector<double> kth_distance;
};

NeighbourPairs nearest_neighbour_pairs(const std::vector<Vec3<double>>& points, int k, int threads);

// Distance from each query to the nearest of `points` (non-empty). Parallel over queries; deterministic.
std::vector<double> nearest_point_distances(const std::vector<Vec3<double>>& points,
                                            const std::vector<Vec3<double>>& queries, int threads);

// Union-find with path halving and union by size; the representative is not the smallest member.
class DisjointSets {
public:
    explicit DisjointSets(std::size_t count);
    int find(int element);
    void join(int a, int b);

private:
    std::vector<int> parent_, size_;
};

// Connected components: component[v] numbers them 0, 1, ... in order of their smallest vertex.
std::vector<int> connected_components(std::size_t vertex_count, const std::vector<std::array<int, 2>>& edges);

// Dijkstra over a SurfaceGraph from one or several sources, optionally stopped at a distance. Keeps its
// buffers between runs (a bounded run costs what it reaches, not the graph's size). Not thread-safe: one
// search per thread.
class GeodesicSearch {
public:
    static constexpr double kUnreached = std::numeric_limits<double>::infinity();

    explicit GeodesicSearch(const SurfaceGraph& graph);

    // Distances from the nearest source; vertices farther than `limit` keep kUnreached.
    void run(const std::vector<int>& sources, double limit = kUnreached);

    double distance(int vertex) const { return distance_[vertex]; }
    // Index into the last run's `sources` of the vertex's nearest source, -1 if unreached. Sources whose
    // distances agree to a relative kTieTolerance count as equally near: the lowest index wins, so rounding
    // (e.g. of a rotated copy of the input) does not decide between them.
    int nearest_source(int vertex) const { return nearest_source_[vertex]; }
    static constexpr double kTieTolerance = 1e-10;
    // Vertices reached by the last run, in the order they were settled (nearest first).
    const std::vector<int>& reached() const { return reached_; }

private:
    const SurfaceGraph& graph_;
    std::vector<double> distance_;
    std::vector<int> nearest_source_;
    std::vector<int> reached_;
    std::vector<int> touched_;
    std::vector<char> settled_;
};

}  // namespace bs
