#include "host/reeb_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <set>

#include "host/errors.hpp"
#include "host/statistics.hpp"
#include "host/surface_graph.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

std::vector<int> ReebGraph::degrees() const {
    std::vector<int> degree(nodes.size(), 0);
    for (const auto& e : edges) {
        ++degree[e[0]];
        ++degree[e[1]];
    }
    return degree;
}

namespace {

constexpr double kPi = pi_value<double>();

[[noreturn]] void fail(const std::string& source, const std::string& problem) { throw InputError(source + ": " + problem); }

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}


void check_options(const ReebOptions& o, const std::string& source) {
    auto require = [&](bool ok, const char* name, const std::string& range, double value) {
        if (!ok) fail(source, std::string(name) + " must be in " + range + ", got " + number(value));
    };
    require(o.intervals >= kMinIntervals && o.intervals <= kMaxIntervals, "intervals (k)",
            "[" + number(kMinIntervals) + ", " + number(kMaxIntervals) + "]", o.intervals);
    require(o.radius_coefficient >= kMinRadiusCoefficient && o.radius_coefficient <= kMaxRadiusCoefficient,
            "radius coefficient (c)", "[" + number(kMinRadiusCoefficient) + ", " + number(kMaxRadiusCoefficient) + "]",
            o.radius_coefficient);
    require(o.neighbours >= kMinNeighbours && o.neighbours <= kMaxNeighbours, "neighbours",
            "[" + number(kMinNeighbours) + ", " + number(kMaxNeighbours) + "]", o.neighbours);
    require(o.tiny_node_fraction >= 0 && o.tiny_node_fraction < 0.5, "tiny node fraction", "[0, 0.5)",
            o.tiny_node_fraction);
    require(o.debris_fraction >= 0 && o.debris_fraction < 0.5, "debris fraction", "[0, 0.5)", o.debris_fraction);
    require(o.threads >= 0, "threads", "[0, ∞)", o.threads);
}

void check_finite(const std::vector<Vec3<double>>& positions, const char* what, const std::string& source) {
    for (std::size_t i = 0; i < positions.size(); ++i)
        if (!all_finite(positions[i])) fail(source, std::string(what) + " " + std::to_string(i) + ": non-finite coordinate");
}

// ---------------------------------------------------------------------------------------------------------
// The body: the one connected part of the input the graph describes, renumbered compactly.

struct Body {
    SurfaceGraph graph;
    std::vector<std::array<int, 3>> triangles;  // mesh only
    MeshEdges mesh_edges;                       // mesh only: edges of `triangles`
    std::vector<int> body_vertex_of_input;      // -1 where unbound
};

// Picks the connected part holding the area: parts below debris_fraction of the total are dropped; two
// or more above it are an error. Returns the kept component's label.
int choose_body_component(const std::vector<int>& component, const std::vector<double>& area,
                          const ReebOptions& options, const std::string& source, SurfaceReport& report) {
    const int count = component.empty() ? 0 : *std::max_element(component.begin(), component.end()) + 1;
    std::vector<double> part_area(count, 0.0);
    std::vector<std::size_t> part_size(count, 0);
    for (std::size_t v = 0; v < component.size(); ++v) {
        part_area[component[v]] += area[v];
        ++part_size[component[v]];
    }
    const double total = std::accumulate(part_area.begin(), part_area.end(), 0.0);
    if (!(total > 0) || !std::isfinite(total)) fail(source, "the surface has no area (every triangle is degenerate)");
    std::vector<int> significant;
    for (int c = 0; c < count; ++c)
        if (part_area[c] > 0 && part_area[c] >= options.debris_fraction * total) significant.push_back(c);
    if (significant.empty())
        fail(source, "the surface falls into " + std::to_string(count) + " disconnected parts, none holding " +
                         percent(options.debris_fraction) + " of its area; a skeleton needs one connected body");
    if (significant.size() > 1) {
        std::sort(significant.begin(), significant.end(), [&](int a, int b) { return part_area[a] > part_area[b]; });
        fail(source, "the surface has " + std::to_string(significant.size()) +
                         " disconnected parts of significant area (the two largest hold " +
                         percent(part_area[significant[0]] / total) + " and " + percent(part_area[significant[1]] / total) +
                         " of it); a skeleton needs one connected body (parts under " + percent(options.debris_fraction) +
                         " are ignored)");
    }
    // A part of one vertex is an isolated vertex (counted as such); one of more has edges, whatever its
    // area (a triangle of three collinear points beside the body had been left unbound without a word).
    for (int c = 0; c < count; ++c)
        if (c != significant[0] && (part_area[c] > 0 || part_size[c] > 1)) ++report.debris_parts;
    return significant[0];
}

// Renumbers the samples of one component; `welded_of_input` maps input samples to welded ones.
Body compact_body(std::vector<Vec3<double>> positions, std::vector<double> area,
                  const std::vector<std::array<int, 2>>& edges, const std::vector<int>& component, int kept,
                  const std::vector<int>& welded_of_input) {
    std::vector<int> body_index(positions.size(), -1);
    std::vector<Vec3<double>> body_positions;
    std::vector<double> body_area;
    for (std::size_t v = 0; v < positions.size(); ++v)
        if (component[v] == kept) {
            body_index[v] = int(body_positions.size());
            body_positions.push_back(positions[v]);
            body_area.push_back(area[v]);
        }
    std::vector<std::array<int, 2>> body_edges;
    for (const auto& e : edges)
        if (body_index[e[0]] >= 0) body_edges.push_back({body_index[e[0]], body_index[e[1]]});
    Body body;
    body.graph = make_surface_graph(std::move(body_positions), std::move(body_area), body_edges);
    body.body_vertex_of_input.resize(welded_of_input.size());
    for (std::size_t i = 0; i < welded_of_input.size(); ++i) body.body_vertex_of_input[i] = body_index[welded_of_input[i]];
    return body;
}

void check_triangle_indices(const TriangleMesh& mesh, const std::string& source) {
    const int count = int(mesh.vertices.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (int v : mesh.triangles[t])
            if (v < 0 || v >= count)
                fail(source, "triangle " + std::to_string(t) + ": vertex index " + std::to_string(v) +
                                 " out of range [0, " + std::to_string(count) + ")");
}

// The triangles over welded vertices, without those that repeat a vertex (counted).
std::vector<std::array<int, 3>> welded_triangles(const TriangleMesh& mesh, const std::vector<int>& welded_of_input,
                                                 SurfaceReport& report) {
    std::vector<std::array<int, 3>> triangles;
    for (const auto& t : mesh.triangles) {
        std::array<int, 3> w{welded_of_input[t[0]], welded_of_input[t[1]], welded_of_input[t[2]]};
        if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2])
            ++report.degenerate_triangles;
        else
            triangles.push_back(w);
    }
    return triangles;
}

void count_mesh_defects(std::size_t vertex_count, const std::vector<std::array<int, 3>>& triangles,
                        const MeshEdges& edges, SurfaceReport& report) {
    std::vector<char> in_triangle(vertex_count, 0);
    for (const auto& t : triangles)
        for (int v : t) in_triangle[v] = 1;
    report.isolated_vertices = std::count(in_triangle.begin(), in_triangle.end(), 0);
    for (std::size_t e = 0; e < edges.edges.size(); ++e) {
        report.boundary_edges += edges.triangle_count(e) == 1;
        report.non_manifold_edges += edges.triangle_count(e) >= 3;
    }
}

Body mesh_body(const TriangleMesh& mesh, const ReebOptions& options, const std::string& source, SurfaceReport& report) {
    check_finite(mesh.vertices, "vertex", source);
    check_triangle_indices(mesh, source);
    WeldedPositions welded = weld_identical_positions(mesh.vertices);
    report.coincident_samples = mesh.vertices.size() - welded.positions.size();
    report.faces_skipped = mesh.faces_skipped;
    std::vector<std::array<int, 3>> triangles = welded_triangles(mesh, welded.index_of, report);
    if (triangles.empty()) fail(source, "the mesh has no area: it has no triangle with three distinct vertices");
    const MeshEdges edges = mesh_edges(triangles);
    count_mesh_defects(welded.positions.size(), triangles, edges, report);

    std::vector<double> area = mesh_vertex_areas(welded.positions, triangles);
    std::vector<int> component = connected_components(welded.positions.size(), edges.edges);
    const int kept = choose_body_component(component, area, options, source, report);
    Body body = compact_body(welded.positions, area, edges.edges, component, kept, welded.index_of);
    std::vector<int> body_index(welded.positions.size(), -1);
    for (std::size_t i = 0; i < welded.index_of.size(); ++i)
        if (body.body_vertex_of_input[i] >= 0) body_index[welded.index_of[i]] = body.body_vertex_of_input[i];
    for (const auto& t : triangles)
        if (component[t[0]] == kept) body.triangles.push_back({body_index[t[0]], body_index[t[1]], body_index[t[2]]});
    body.mesh_edges = mesh_edges(body.triangles);
    return body;
}

// A point whose k-th neighbour lies more than kOutlierSpacing × the median k-th neighbour distance away is
// no sample of the body: its neighbour edges would join it to the body, and its disc out to that neighbour
// (its area) would outweigh the body's (a stray point 1e4 away from a cylinder of radius 0.5 held 3e7 of
// the 3e7 + 13 units², and the whole body fell into one interval of μ: no skeleton). It keeps no edge and
// no area, so it is a part of its own that is left unbound; returns how many there are. Sparse regions of
// a body sampled up to 100 times more thinly than its median (1e4 times less area per sample) are kept.
constexpr double kOutlierSpacing = 100;
std::size_t drop_outliers(NeighbourPairs& pairs, std::vector<double>& area) {
    const double limit = kOutlierSpacing * upper_median(pairs.kth_distance);
    std::vector<char> outlier(area.size(), 0);
    std::size_t count = 0;
    for (std::size_t v = 0; v < area.size(); ++v)
        if (pairs.kth_distance[v] > limit) {
            outlier[v] = 1;
            area[v] = 0;
            ++count;
        }
    if (count > 0)
        pairs.edges.erase(std::remove_if(pairs.edges.begin(), pairs.edges.end(),
                                         [&](const std::array<int, 2>& e) { return outlier[std::size_t(e[0])] || outlier[std::size_t(e[1])]; }),
                          pairs.edges.end());
    return count;
}

Body point_body(const std::vector<Vec3<double>>& points, const ReebOptions& options, const std::string& source,
                SurfaceReport& report) {
    check_finite(points, "point", source);
    WeldedPositions welded = weld_identical_positions(points);
    report.coincident_samples = points.size() - welded.positions.size();
    const std::size_t n = welded.positions.size();
    if (n < std::size_t(options.neighbours) + 1)
        fail(source, std::to_string(n) + " distinct points; the neighbour graph needs at least " +
                         std::to_string(options.neighbours + 1) + " (neighbours + 1)");
    NeighbourPairs pairs = nearest_neighbour_pairs(welded.positions, options.neighbours, options.threads);
    // Sampling density: the disc out to the k-th neighbour holds about k samples.
    std::vector<double> area(n);
    for (std::size_t v = 0; v < n; ++v) area[v] = kPi * pairs.kth_distance[v] * pairs.kth_distance[v] / options.neighbours;
    report.isolated_vertices = drop_outliers(pairs, area);
    std::vector<int> component = connected_components(n, pairs.edges);
    const int kept = choose_body_component(component, area, options, source, report);
    return compact_body(welded.positions, area, pairs.edges, component, kept, welded.index_of);
}

// ---------------------------------------------------------------------------------------------------------
// μ (seed 001 §1.1: MRG's integral of geodesic distances over base vertices).

struct Bases {
    std::vector<int> vertices;
    std::vector<double> area;
};

// Greedy spreading in index order: a vertex farther than `radius` from every base so far becomes one.
// area(b_i): the area of the vertices nearer to b_i than to any other base.
Bases spread_bases(const SurfaceGraph& graph, double radius) {
    Bases bases;
    GeodesicSearch search(graph);
    std::vector<char> covered(graph.vertex_count(), 0);
    for (std::size_t v = 0; v < graph.vertex_count(); ++v) {
        if (covered[v]) continue;
        bases.vertices.push_back(int(v));
        search.run({int(v)}, radius);
        for (int u : search.reached()) covered[u] = 1;
    }
    search.run(bases.vertices);
    bases.area.assign(bases.vertices.size(), 0.0);
    for (std::size_t v = 0; v < graph.vertex_count(); ++v) bases.area[search.nearest_source(int(v))] += graph.vertex_area[v];
    return bases;
}

// μ(v) = Σ_i g(v, b_i) · area(b_i). Bases run in parallel, 16 at a time; each vertex sums them in base
// order, so the result does not depend on the thread count.
//
// The searches run over a copy of the graph renumbered along a Morton curve: on 10⁵–10⁶ samples in input
// order nearly every edge a search relaxes lands in another cache line, and the μ pass took 2.5× its time
// a doubling of the samples. Dijkstra's distance to a vertex is the least, over the paths to it, of the
// path's edge lengths summed from the source in floating point (rounded addition never decreases, so a
// path's prefix is never longer than the whole); neither the paths nor those sums depend on how vertices
// are numbered, so μ is the same to the bit (Renumbered.SearchesGiveTheSameDistancesToTheBit in
// tests/host/test_surface_graph.cpp). The copy costs about 36 + 12 × degree bytes a vertex while μ runs.
std::vector<double> integrated_geodesics(const SurfaceGraph& input_graph, const Bases& bases, int threads) {
    constexpr int kChunk = 16;
    const std::vector<int> order = morton_order(input_graph.positions);
    const SurfaceGraph graph = renumbered(input_graph, order);
    const std::ptrdiff_t n = std::ptrdiff_t(graph.vertex_count());
    const std::vector<int> number_of = inverse_permutation(order);
    const int base_count = int(bases.vertices.size());
    std::vector<double> mu_in_order(n, 0.0), rows(std::size_t(kChunk) * n);
#pragma omp parallel num_threads(extraction_team(threads))
    {
        GeodesicSearch search(graph);
        for (int start = 0; start < base_count; start += kChunk) {
            const int count = std::min(kChunk, base_count - start);
#pragma omp for schedule(dynamic, 1)
            for (int j = 0; j < count; ++j) {
                search.run({number_of[bases.vertices[start + j]]});
                for (std::ptrdiff_t v = 0; v < n; ++v) rows[j * n + v] = search.distance(int(v));
            }
#pragma omp for schedule(static)
            for (std::ptrdiff_t v = 0; v < n; ++v)
                for (int j = 0; j < count; ++j) mu_in_order[v] += bases.area[start + j] * rows[j * n + v];
        }
    }
    std::vector<double> mu(n);
    for (std::ptrdiff_t i = 0; i < n; ++i) mu[order[i]] = mu_in_order[i];
    return mu;
}

void normalise(std::vector<double>& mu, const std::string& source) {
    auto [lo, hi] = std::minmax_element(mu.begin(), mu.end());
    const double min = *lo, range = *hi - *lo;
    if (!(range > 0)) fail(source, "μ is constant over the surface (every vertex as far, on average, from the rest: a shape that symmetric, "
                                  "like a regular polyhedron, has no extent along which to cut it)");
    for (double& m : mu) m = (m - min) / range;
}

std::vector<int> intervals_of(const std::vector<double>& mu, int k) {
    std::vector<int> interval(mu.size());
    for (std::size_t v = 0; v < mu.size(); ++v) interval[v] = std::min(k - 1, int(mu[v] * k));
    return interval;
}

// ---------------------------------------------------------------------------------------------------------
// Nodes (without their vertices, bound at the end) and edges before filtering.

struct Partition {
    std::vector<ReebNode> nodes;
    std::vector<std::array<int, 2>> edges;
    std::vector<int> node_of_body_vertex;
};

// Numbers the disjoint sets of `items` by (interval, first item), items scanned in index order.
std::vector<int> label_sets(DisjointSets& sets, const std::vector<int>& interval_of_item, int& label_count) {
    const std::size_t n = interval_of_item.size();
    std::vector<int> first_of_root(n, -1), roots_in_order;
    for (std::size_t i = 0; i < n; ++i) {
        int root = sets.find(int(i));
        if (first_of_root[root] < 0) {
            first_of_root[root] = int(i);
            roots_in_order.push_back(root);
        }
    }
    std::stable_sort(roots_in_order.begin(), roots_in_order.end(),
                     [&](int a, int b) { return interval_of_item[first_of_root[a]] < interval_of_item[first_of_root[b]]; });
    std::vector<int> label_of_root(n, -1);
    for (std::size_t l = 0; l < roots_in_order.size(); ++l) label_of_root[roots_in_order[l]] = int(l);
    std::vector<int> label(n);
    for (std::size_t i = 0; i < n; ++i) label[i] = label_of_root[sets.find(int(i))];
    label_count = int(roots_in_order.size());
    return label;
}

std::vector<std::array<int, 2>> unique_pairs(std::vector<std::array<int, 2>> pairs) {
    for (auto& p : pairs)
        if (p[0] > p[1]) std::swap(p[0], p[1]);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    return pairs;
}

// Area and centroid of the part of a triangle whose linear μ lies in [lo, hi] (a convex polygon).
struct Moment {
    double area = 0;
    Vec3<double> weighted_centroid{0, 0, 0};  // area · centroid
    Vec3<double> corner_sum{0, 0, 0};         // the clipped polygon's corners, for zero-area pieces
    int corner_count = 0;

    void add(const Moment& m) {
        area += m.area;
        weighted_centroid += m.weighted_centroid;
        corner_sum += m.corner_sum;
        corner_count += m.corner_count;
    }
    Vec3<double> centroid() const {
        return area > 0 ? weighted_centroid / area : corner_sum / double(std::max(corner_count, 1));
    }
};

Moment clipped_triangle_moment(const std::array<Vec3<double>, 3>& corner, const std::array<double, 3>& mu, double lo,
                               double hi) {
    struct Point {
        Vec3<double> p;
        double mu;
    };
    std::vector<Point> polygon{{corner[0], mu[0]}, {corner[1], mu[1]}, {corner[2], mu[2]}};
    // Sutherland–Hodgman against one half-space of μ: keep where sign · (μ − level) >= 0.
    auto clip = [](const std::vector<Point>& in, double level, double sign) {
        std::vector<Point> out;
        for (std::size_t i = 0; i < in.size(); ++i) {
            const Point& a = in[i];
            const Point& b = in[(i + 1) % in.size()];
            double da = sign * (a.mu - level), db = sign * (b.mu - level);
            if (da >= 0) out.push_back(a);
            if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
                double t = da / (da - db);
                out.push_back({a.p + t * (b.p - a.p), level});
            }
        }
        return out;
    };
    polygon = clip(clip(polygon, lo, 1), hi, -1);
    Moment m;
    for (const Point& q : polygon) m.corner_sum += q.p;
    m.corner_count = int(polygon.size());
    for (std::size_t j = 1; j + 1 < polygon.size(); ++j) {
        double a = triangle_area(polygon[0].p, polygon[j].p, polygon[j + 1].p);
        m.area += a;
        m.weighted_centroid += (a / 3) * (polygon[0].p + polygon[j].p + polygon[j + 1].p);
    }
    return m;
}

// The pieces of the triangles cut at the interval boundaries: triangle t has one piece per interval in
// [lowest[t], lowest[t] + count), numbered consecutively from first[t].
struct TrianglePieces {
    std::vector<int> first, lowest, interval;  // interval: per piece

    int of(int triangle, int i) const { return first[triangle] + i - lowest[triangle]; }
};

TrianglePieces cut_triangles(const std::vector<std::array<int, 3>>& tris, const std::vector<int>& interval) {
    TrianglePieces pieces;
    pieces.first.assign(tris.size() + 1, 0);
    pieces.lowest.resize(tris.size());
    for (std::size_t t = 0; t < tris.size(); ++t) {
        auto [lo, hi] = std::minmax({interval[tris[t][0]], interval[tris[t][1]], interval[tris[t][2]]});
        pieces.lowest[t] = lo;
        pieces.first[t + 1] = pieces.first[t] + (hi - lo + 1);
        for (int i = lo; i <= hi; ++i) pieces.interval.push_back(i);
    }
    return pieces;
}

// Joins the pieces of one interval that share an edge portion or a vertex of that interval. Returns, per
// vertex, a piece holding it.
std::vector<int> join_pieces(const Body& body, const TrianglePieces& pieces, const std::vector<int>& interval,
                             DisjointSets& sets) {
    const MeshEdges& edges = body.mesh_edges;
    for (std::size_t e = 0; e < edges.edges.size(); ++e) {
        auto [lo, hi] = std::minmax(interval[edges.edges[e][0]], interval[edges.edges[e][1]]);
        const int first = edges.triangle[edges.first_triangle[e]];
        for (int j = edges.first_triangle[e] + 1; j < edges.first_triangle[e + 1]; ++j)
            for (int i = lo; i <= hi; ++i) sets.join(pieces.of(first, i), pieces.of(edges.triangle[j], i));
    }
    std::vector<int> anchor(body.graph.vertex_count(), -1);
    for (std::size_t t = 0; t < body.triangles.size(); ++t)
        for (int v : body.triangles[t]) {
            const int p = pieces.of(int(t), interval[v]);
            if (anchor[v] < 0)
                anchor[v] = p;
            else
                sets.join(anchor[v], p);  // also joins fans that touch only at v (non-manifold vertices)
        }
    return anchor;
}

// Exact area and centroid of each node's pieces; the pieces of a triangle on either side of a boundary
// touch, which joins their nodes.
void measure_and_join_nodes(const Body& body, const TrianglePieces& pieces, const std::vector<int>& node_of_piece,
                            const std::vector<double>& mu, int k, Partition& part) {
    std::vector<Moment> moment(part.nodes.size());
    for (std::size_t t = 0; t < body.triangles.size(); ++t) {
        const auto& tri = body.triangles[t];
        const std::array<Vec3<double>, 3> corner{body.graph.positions[tri[0]], body.graph.positions[tri[1]],
                                                 body.graph.positions[tri[2]]};
        const std::array<double, 3> corner_mu{mu[tri[0]], mu[tri[1]], mu[tri[2]]};
        for (int p = pieces.first[t]; p < pieces.first[t + 1]; ++p) {
            const int i = pieces.interval[p];
            moment[node_of_piece[p]].add(clipped_triangle_moment(corner, corner_mu, double(i) / k, double(i + 1) / k));
            if (p + 1 < pieces.first[t + 1]) part.edges.push_back({node_of_piece[p], node_of_piece[p + 1]});
        }
    }
    for (std::size_t n = 0; n < part.nodes.size(); ++n) {
        part.nodes[n].area = moment[n].area;
        part.nodes[n].centroid = moment[n].centroid();
    }
    part.edges = unique_pairs(std::move(part.edges));
}

// Mesh nodes (step 5) and edges (step 6).
Partition partition_mesh(const Body& body, const std::vector<double>& mu, const std::vector<int>& interval, int k) {
    const TrianglePieces pieces = cut_triangles(body.triangles, interval);
    DisjointSets sets(pieces.interval.size());
    const std::vector<int> anchor = join_pieces(body, pieces, interval, sets);
    Partition part;
    int node_count = 0;
    const std::vector<int> node_of_piece = label_sets(sets, pieces.interval, node_count);
    part.nodes.resize(node_count);
    for (std::size_t p = 0; p < node_of_piece.size(); ++p) part.nodes[node_of_piece[p]].interval = pieces.interval[p];
    measure_and_join_nodes(body, pieces, node_of_piece, mu, k, part);
    for (int piece : anchor) part.node_of_body_vertex.push_back(node_of_piece[piece]);
    return part;
}

// Point-set nodes (step 5) and edges (step 6): same-interval points joined by graph edges; an edge
// between adjacent intervals joins their nodes.
Partition partition_points(const SurfaceGraph& graph, const std::vector<int>& interval) {
    const std::size_t n = graph.vertex_count();
    DisjointSets sets(n);
    for (std::size_t v = 0; v < n; ++v)
        for (int e = graph.first_edge[v]; e < graph.first_edge[v + 1]; ++e)
            if (interval[graph.edge_target[e]] == interval[v]) sets.join(int(v), graph.edge_target[e]);
    Partition part;
    int node_count = 0;
    part.node_of_body_vertex = label_sets(sets, interval, node_count);
    part.nodes.resize(node_count);
    std::vector<Vec3<double>> moment(node_count, {0, 0, 0});
    for (std::size_t v = 0; v < n; ++v) {
        ReebNode& node = part.nodes[part.node_of_body_vertex[v]];
        node.interval = interval[v];
        node.area += graph.vertex_area[v];
        moment[part.node_of_body_vertex[v]] += graph.vertex_area[v] * graph.positions[v];
        for (int e = graph.first_edge[v]; e < graph.first_edge[v + 1]; ++e) {
            int w = graph.edge_target[e];
            if (int(v) < w && std::abs(interval[w] - interval[v]) == 1)
                part.edges.push_back({part.node_of_body_vertex[v], part.node_of_body_vertex[w]});
        }
    }
    for (int k = 0; k < node_count; ++k) part.nodes[k].centroid = moment[k] / part.nodes[k].area;
    part.edges = unique_pairs(std::move(part.edges));
    return part;
}

// ---------------------------------------------------------------------------------------------------------
// Step 7: tiny nodes merged into their largest neighbour, smallest first.

void merge_node_into(ReebNode& target, const ReebNode& tiny) {
    const double area = target.area + tiny.area;
    if (area > 0) target.centroid = (target.area * target.centroid + tiny.area * tiny.centroid) / area;
    target.area = area;
}

// Renumbers the surviving nodes in their order and rebinds vertices to them.
void merge_tiny_nodes(Partition& part, double min_area, std::size_t& merged) {
    const int n = int(part.nodes.size());
    std::vector<std::set<int>> neighbours(n);
    for (const auto& e : part.edges) {
        neighbours[e[0]].insert(e[1]);
        neighbours[e[1]].insert(e[0]);
    }
    std::vector<int> survivor(n);
    std::iota(survivor.begin(), survivor.end(), 0);
    std::vector<char> alive(n, 1);
    for (;;) {
        int tiny = -1;
        for (int i = 0; i < n; ++i)
            if (alive[i] && part.nodes[i].area < min_area && !neighbours[i].empty() &&
                (tiny < 0 || part.nodes[i].area < part.nodes[tiny].area))
                tiny = i;
        if (tiny < 0) break;
        int target = -1;
        for (int m : neighbours[tiny])
            if (target < 0 || part.nodes[m].area > part.nodes[target].area) target = m;
        merge_node_into(part.nodes[target], part.nodes[tiny]);
        for (int m : neighbours[tiny]) {
            neighbours[m].erase(tiny);
            if (m != target) {
                neighbours[m].insert(target);
                neighbours[target].insert(m);
            }
        }
        neighbours[tiny].clear();
        alive[tiny] = 0;
        survivor[tiny] = target;
        ++merged;
    }
    std::vector<int> new_index(n, -1);
    std::vector<ReebNode> nodes;
    for (int i = 0; i < n; ++i)
        if (alive[i]) {
            new_index[i] = int(nodes.size());
            nodes.push_back(part.nodes[i]);
        }
    std::vector<std::array<int, 2>> edges;
    for (int i = 0; i < n; ++i)
        for (int m : neighbours[i])
            if (i < m) edges.push_back({new_index[i], new_index[m]});
    part.nodes = std::move(nodes);
    part.edges = unique_pairs(std::move(edges));
    std::vector<int> final_node(n);
    for (int i = 0; i < n; ++i) {
        int s = i;
        while (!alive[s]) s = survivor[s];
        final_node[i] = new_index[s];
    }
    for (int& node : part.node_of_body_vertex) node = final_node[node];
}

int independent_cycles(std::size_t node_count, const std::vector<std::array<int, 2>>& edges) {
    std::vector<int> component = connected_components(node_count, edges);
    int components = component.empty() ? 0 : *std::max_element(component.begin(), component.end()) + 1;
    return int(edges.size()) - int(node_count) + components;
}

// ---------------------------------------------------------------------------------------------------------

ReebGraph assemble(const Body& body, Partition part, const std::vector<double>& body_mu, const Bases& bases,
                   const ReebOptions& options, SurfaceReport report) {
    const double total_area = std::accumulate(body.graph.vertex_area.begin(), body.graph.vertex_area.end(), 0.0);
    merge_tiny_nodes(part, options.tiny_node_fraction * total_area, report.merged_tiny_nodes);
    report.area = total_area;

    ReebGraph g;
    g.intervals = options.intervals;
    g.edges = part.edges;
    g.loops = independent_cycles(part.nodes.size(), part.edges);
    const std::size_t input_count = body.body_vertex_of_input.size();
    g.node_of_vertex.assign(input_count, -1);
    g.mu.assign(input_count, std::numeric_limits<double>::quiet_NaN());
    std::vector<int> first_input(body.graph.vertex_count(), -1);
    for (std::size_t i = 0; i < input_count; ++i) {
        const int b = body.body_vertex_of_input[i];
        if (b < 0) continue;
        g.node_of_vertex[i] = part.node_of_body_vertex[b];
        g.mu[i] = body_mu[b];
        if (first_input[b] < 0) first_input[b] = int(i);
    }
    g.nodes = std::move(part.nodes);
    for (std::size_t i = 0; i < input_count; ++i)
        if (g.node_of_vertex[i] >= 0) g.nodes[g.node_of_vertex[i]].vertices.push_back(int(i));
    for (int b : bases.vertices) g.base_vertices.push_back(first_input[b]);
    g.report = report;
    return g;
}

// Steps 2–4: bases, normalised μ, intervals.
struct Levels {
    Bases bases;
    std::vector<double> mu;  // normalised
    std::vector<int> interval;
};

Levels compute_levels(const Body& body, const ReebOptions& options, const std::string& source) {
    const double area = std::accumulate(body.graph.vertex_area.begin(), body.graph.vertex_area.end(), 0.0);
    Levels levels;
    levels.bases = spread_bases(body.graph, std::sqrt(options.radius_coefficient * area));
    levels.mu = integrated_geodesics(body.graph, levels.bases, options.threads);
    normalise(levels.mu, source);
    levels.interval = intervals_of(levels.mu, options.intervals);
    return levels;
}

}  // namespace

ReebGraph extract_reeb_graph(const TriangleMesh& mesh, const ReebOptions& options, const std::string& source) {
    check_options(options, source);
    SurfaceReport report;
    Body body = mesh_body(mesh, options, source, report);
    Levels levels = compute_levels(body, options, source);
    Partition part = partition_mesh(body, levels.mu, levels.interval, options.intervals);
    return assemble(body, std::move(part), levels.mu, levels.bases, options, report);
}

ReebGraph extract_reeb_graph(const std::vector<Vec3<double>>& points, const ReebOptions& options,
                             const std::string& source) {
    check_options(options, source);
    SurfaceReport report;
    Body body = point_body(points, options, source, report);
    Levels levels = compute_levels(body, options, source);
    Partition part = partition_points(body.graph, levels.interval);
    return assemble(body, std::move(part), levels.mu, levels.bases, options, report);
}

}  // namespace bs
