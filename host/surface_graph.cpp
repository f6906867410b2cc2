#include "host/surface_graph.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <nanoflann.hpp>
#include <numeric>
#include <queue>
#include <tuple>

#include "kernels/passes.hpp"

namespace bs {

namespace {

// nanoflann's view of a point array.
struct PointArray {
    const std::vector<Vec3<double>>& points;
    std::size_t kdtree_get_point_count() const { return points.size(); }
    double kdtree_get_pt(std::size_t i, std::size_t axis) const { return points[i][int(axis)]; }
    template <class Box>
    bool kdtree_get_bbox(Box&) const { return false; }  // let nanoflann compute it
};

using KdTree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, PointArray>, PointArray, 3,
                                                   std::uint32_t>;

void sort_unique(std::vector<std::array<int, 2>>& pairs) {
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
}

}  // namespace

int extraction_team(int threads) { return threads > 0 ? std::min(threads, cpu::kMaxThreads) : omp_get_max_threads(); }

SurfaceGraph make_surface_graph(std::vector<Vec3<double>> positions, std::vector<double> vertex_area,
                                const std::vector<std::array<int, 2>>& edges) {
    SurfaceGraph g;
    const std::size_t n = positions.size();
    g.positions = std::move(positions);
    g.vertex_area = std::move(vertex_area);
    std::vector<std::array<int, 2>> directed;
    directed.reserve(2 * edges.size());
    for (const auto& e : edges) {
        directed.push_back({e[0], e[1]});
        directed.push_back({e[1], e[0]});
    }
    std::sort(directed.begin(), directed.end());
    g.first_edge.assign(n + 1, 0);
    for (const auto& d : directed) ++g.first_edge[d[0] + 1];
    std::partial_sum(g.first_edge.begin(), g.first_edge.end(), g.first_edge.begin());
    g.edge_target.reserve(directed.size());
    g.edge_length.reserve(directed.size());
    for (const auto& d : directed) {
        g.edge_target.push_back(d[1]);
        g.edge_length.push_back(norm(g.positions[d[1]] - g.positions[d[0]]));
    }
    return g;
}

namespace {

// Every third bit of `value`'s low 21 bits, spread to bit 3k (the Morton code's share of one axis).
std::uint64_t spread_bits(std::uint64_t value) {
    value &= 0x1fffff;
    value = (value | value << 32) & 0x1f00000000ffffULL;
    value = (value | value << 16) & 0x1f0000ff0000ffULL;
    value = (value | value << 8) & 0x100f00f00f00f00fULL;
    value = (value | value << 4) & 0x10c30c30c30c30c3ULL;
    value = (value | value << 2) & 0x1249249249249249ULL;
    return value;
}

}  // namespace

std::vector<int> morton_order(const std::vector<Vec3<double>>& positions) {
    Vec3<double> lo{0, 0, 0}, hi{0, 0, 0};
    if (!positions.empty()) lo = hi = positions[0];
    for (const auto& p : positions)
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], p[a]);
            hi[a] = std::max(hi[a], p[a]);
        }
    // Cubic cells, the box's longest side cut in 2²¹: cut each axis by its own extent, a sheet's thickness
    // noise took as many bits as its width, and neighbours on it landed half the vertex count apart.
    const double longest = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    constexpr double kLastCell = double(1 << 21) - 1;
    const double cells_per_unit = longest > 0 ? kLastCell / longest : 0.0;
    std::vector<std::pair<std::uint64_t, int>> keyed(positions.size());
    for (std::size_t v = 0; v < positions.size(); ++v) {
        std::uint64_t code = 0;
        for (int a = 0; a < 3; ++a) {
            const double cell = std::floor((positions[v][a] - lo[a]) * cells_per_unit);
            code |= spread_bits(std::uint64_t(cell >= 0 ? std::min(cell, kLastCell) : 0.0)) << a;  // NaN: cell 0
        }
        keyed[v] = {code, int(v)};
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<int> order(positions.size());
    for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
    return order;
}

std::vector<int> inverse_permutation(const std::vector<int>& order) {
    std::vector<int> number_of(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) number_of[order[i]] = int(i);
    return number_of;
}

SurfaceGraph renumbered(const SurfaceGraph& graph, const std::vector<int>& order) {
    const std::size_t n = graph.vertex_count();
    const std::vector<int> number_of = inverse_permutation(order);
    SurfaceGraph g;
    g.positions.resize(n);
    g.vertex_area.resize(n);
    g.first_edge.assign(n + 1, 0);
    g.edge_target.reserve(graph.edge_target.size());
    g.edge_length.reserve(graph.edge_length.size());
    std::vector<std::pair<int, double>> row;
    for (std::size_t i = 0; i < n; ++i) {
        const int v = order[i];
        g.positions[i] = graph.positions[v];
        g.vertex_area[i] = graph.vertex_area[v];
        row.clear();
        for (int e = graph.first_edge[v]; e < graph.first_edge[v + 1]; ++e)
            row.push_back({number_of[graph.edge_target[e]], graph.edge_length[e]});
        std::sort(row.begin(), row.end());
        for (const auto& [target, length] : row) {
            g.edge_target.push_back(target);
            g.edge_length.push_back(length);
        }
        g.first_edge[i + 1] = int(g.edge_target.size());
    }
    return g;
}

MeshEdges mesh_edges(const std::vector<std::array<int, 3>>& triangles) {
    struct Use {
        int a, b, triangle;
        bool operator<(const Use& o) const { return std::tie(a, b, triangle) < std::tie(o.a, o.b, o.triangle); }
    };
    std::vector<Use> uses;
    uses.reserve(3 * triangles.size());
    for (std::size_t t = 0; t < triangles.size(); ++t)
        for (int c = 0; c < 3; ++c) {
            int a = triangles[t][c], b = triangles[t][(c + 1) % 3];
            uses.push_back({std::min(a, b), std::max(a, b), int(t)});
        }
    std::sort(uses.begin(), uses.end());
    MeshEdges out;
    out.first_triangle.push_back(0);
    for (std::size_t i = 0; i < uses.size(); ++i) {
        if (i == 0 || uses[i].a != uses[i - 1].a || uses[i].b != uses[i - 1].b) {
            if (i > 0) out.first_triangle.push_back(int(i));
            out.edges.push_back({uses[i].a, uses[i].b});
        }
        out.triangle.push_back(uses[i].triangle);
    }
    out.first_triangle.push_back(int(uses.size()));
    if (uses.empty()) out.first_triangle = {0};
    return out;
}

double triangle_area(const Vec3<double>& a, const Vec3<double>& b, const Vec3<double>& c) {
    return 0.5 * norm(cross(b - a, c - a));
}

std::vector<double> mesh_vertex_areas(const std::vector<Vec3<double>>& positions,
                                      const std::vector<std::array<int, 3>>& triangles) {
    std::vector<double> area(positions.size(), 0.0);
    for (const auto& t : triangles) {
        double third = triangle_area(positions[t[0]], positions[t[1]], positions[t[2]]) / 3;
        for (int v : t) area[v] += third;
    }
    return area;
}

NeighbourPairs nearest_neighbour_pairs(const std::vector<Vec3<double>>& points, int k, int threads) {
    const std::size_t n = points.size();
    PointArray cloud{points};
    KdTree tree(3, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(16));
    std::vector<int> neighbour(n * std::size_t(k));
    NeighbourPairs out;
    out.kth_distance.resize(n);
#pragma omp parallel num_threads(extraction_team(threads))
    {
        std::vector<std::uint32_t> index(k + 1);
        std::vector<double> distance2(k + 1);
#pragma omp for schedule(static)
        for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) {
            const double query[3] = {points[i].x, points[i].y, points[i].z};
            std::size_t found = tree.knnSearch(query, k + 1, index.data(), distance2.data());
            int kept = 0;
            for (std::size_t j = 0; j < found && kept < k; ++j) {
                if (index[j] == std::uint32_t(i)) continue;
                neighbour[i * k + kept] = int(index[j]);
                out.kth_distance[i] = std::sqrt(distance2[j]);
                ++kept;
            }
        }
    }
    out.edges.reserve(n * k);
    for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j < k; ++j) {
            int w = neighbour[i * k + j];
            out.edges.push_back({std::min(int(i), w), std::max(int(i), w)});
        }
    sort_unique(out.edges);
    return out;
}

std::vector<double> nearest_point_distances(const std::vector<Vec3<double>>& points,
                                            const std::vector<Vec3<double>>& queries, int threads) {
    PointArray cloud{points};
    KdTree tree(3, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(16));
    std::vector<double> distance(queries.size());
#pragma omp parallel for num_threads(extraction_team(threads)) schedule(static)
    for (std::ptrdiff_t q = 0; q < std::ptrdiff_t(queries.size()); ++q) {
        const double query[3] = {queries[q].x, queries[q].y, queries[q].z};
        std::uint32_t index = 0;
        double distance2 = 0;
        tree.knnSearch(query, 1, &index, &distance2);
        distance[q] = std::sqrt(distance2);
    }
    return distance;
}

DisjointSets::DisjointSets(std::size_t count) : parent_(count), size_(count, 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
}

int DisjointSets::find(int element) {
    while (parent_[element] != element) {
        parent_[element] = parent_[parent_[element]];
        element = parent_[element];
    }
    return element;
}

void DisjointSets::join(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
}

std::vector<int> connected_components(std::size_t vertex_count, const std::vector<std::array<int, 2>>& edges) {
    DisjointSets sets(vertex_count);
    for (const auto& e : edges) sets.join(e[0], e[1]);
    std::vector<int> label_of_root(vertex_count, -1), component(vertex_count);
    int next = 0;
    for (std::size_t v = 0; v < vertex_count; ++v) {
        int root = sets.find(int(v));
        if (label_of_root[root] < 0) label_of_root[root] = next++;
        component[v] = label_of_root[root];
    }
    return component;
}

GeodesicSearch::GeodesicSearch(const SurfaceGraph& graph)
    : graph_(graph),
      distance_(graph.vertex_count(), kUnreached),
      nearest_source_(graph.vertex_count(), -1),
      settled_(graph.vertex_count(), 0) {}

void GeodesicSearch::run(const std::vector<int>& sources, double limit) {
    for (int v : touched_) {
        distance_[v] = kUnreached;
        nearest_source_[v] = -1;
        settled_[v] = 0;
    }
    touched_.clear();
    reached_.clear();
    using Entry = std::pair<double, int>;  // ties settle the lower vertex first: deterministic
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        int v = sources[s];
        if (nearest_source_[v] >= 0) continue;  // a repeated source: the first one owns it
        distance_[v] = 0;
        nearest_source_[v] = int(s);
        touched_.push_back(v);
        queue.push({0.0, v});
    }
    while (!queue.empty()) {
        auto [d, v] = queue.top();
        queue.pop();
        if (settled_[v] || d > distance_[v]) continue;  // superseded entry
        settled_[v] = 1;
        reached_.push_back(v);
        for (int e = graph_.first_edge[v]; e < graph_.first_edge[v + 1]; ++e) {
            int w = graph_.edge_target[e];
            double candidate = d + graph_.edge_length[e];
            if (candidate > limit || settled_[w]) continue;
            const bool tie = std::fabs(candidate - distance_[w]) <= kTieTolerance * candidate;
            if (tie) nearest_source_[w] = std::min(nearest_source_[w], nearest_source_[v]);
            if (candidate >= distance_[w]) continue;
            if (distance_[w] == kUnreached) touched_.push_back(w);
            distance_[w] = candidate;
            if (!tie) nearest_source_[w] = nearest_source_[v];
            queue.push({candidate, w});
        }
    }
}

}  // namespace bs
