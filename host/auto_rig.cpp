#include "host/auto_rig.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "host/box.hpp"
#include "host/errors.hpp"
#include "host/json_io.hpp"
#include "host/metaball_skinner.hpp"
#include "host/surface_graph.hpp"

namespace bs {

namespace {

// Closest point of triangle abc to p (Ericson, Real-Time Collision Detection §5.1.5).
Vec3<double> closest_point_on_triangle(const Vec3<double>& p, const Vec3<double>& a, const Vec3<double>& b,
                                       const Vec3<double>& c) {
    const Vec3<double> ab = b - a, ac = c - a, ap = p - a;
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    const Vec3<double> bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
    const Vec3<double> cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
    const double sum = va + vb + vc;
    if (!(sum > 0)) return a;  // a degenerate triangle: its edges were tested above
    return a + (vb / sum) * ab + (vc / sum) * ac;
}

std::vector<Vec3<double>> node_centroids(const ReebGraph& graph) {
    std::vector<Vec3<double>> centres;
    for (const ReebNode& node : graph.nodes) centres.push_back(node.centroid);
    return centres;
}

// Where the ray from `from` along unit `way` crosses triangle abc (Möller and Trumbore 1997): its
// parameter, or a negative value where it does not. A ray through an edge or a vertex counts for every
// triangle there, to kEdgeSlack in barycentric coordinates (the exact test can miss it on both sides of an
// edge by a rounding), and the caller counts crossings at one place once.
constexpr double kEdgeSlack = 1e-9;
double ray_crossing(const Vec3<double>& from, const Vec3<double>& way, const Vec3<double>& a, const Vec3<double>& b,
                    const Vec3<double>& c) {
    const Vec3<double> ab = b - a, ac = c - a, h = cross(way, ac);
    const double det = dot(ab, h);
    if (std::fabs(det) < 1e-300) return -1;
    const Vec3<double> s = from - a;
    const double u = dot(s, h) / det;
    if (u < -kEdgeSlack || u > 1 + kEdgeSlack) return -1;
    const Vec3<double> q = cross(s, ab);
    const double v = dot(way, q) / det;
    if (v < -kEdgeSlack || u + v > 1 + kEdgeSlack) return -1;
    return dot(ac, q) / det;
}

// Crossings of a line with the surface closer than this are at one place (an edge or a vertex that several
// triangles share): a billionth of the surface's extent, and above the rounding of coordinates far from the
// origin. Of the vertices the triangles use: a stray vertex 1e9 away had made it as large as the torus's
// hole.
double crossing_resolution(const TriangleMesh& mesh) {
    Box box;
    for (const auto& t : mesh.triangles)
        for (int v : t) box.add(mesh.vertices[v]);
    return 1e-9 * norm(box.diagonal()) + 1e-12 * box.magnitude();
}

// The nearest point of the mesh to each query: brute force, parallel over queries (few: one per node).
std::vector<Vec3<double>> nearest_on_mesh(const TriangleMesh& mesh, const std::vector<Vec3<double>>& queries, int threads) {
    std::vector<Vec3<double>> nearest(queries.size());
#pragma omp parallel for num_threads(extraction_team(threads)) schedule(dynamic, 1)
    for (std::ptrdiff_t q = 0; q < std::ptrdiff_t(queries.size()); ++q) {
        double best = std::numeric_limits<double>::infinity();
        for (const auto& t : mesh.triangles) {
            const Vec3<double> x = closest_point_on_triangle(queries[q], mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]);
            const double distance = norm(queries[q] - x);
            if (distance < best) best = distance, nearest[q] = x;
        }
    }
    return nearest;
}

// The sphere centres of a mesh's nodes: their centroids, except where a centroid lies outside a closed mesh
// (the centroid of a band curved round a bend lies in the empty space it curves round, as a torus's rings'
// centroids lie in its hole): that sphere goes to the middle of the first stretch inside the body of the
// line from the centroid through its nearest surface point. A bend of a tube had put its joints there, out
// of the body (a tube of radius 1 bent 90°: a sphere 1.3 from its core line, of radius 0.09). Inside or
// out is the parity of that line's crossings of the surface (odd: inside), which holds whichever way each
// triangle turns (a winding number did not: a closed mesh of mixed winding read as empty, and inner
// centroids were moved out into the gap between two legs). The nearest point is the first crossing (the
// line enters or leaves the body there, unless it only touches the surface at an edge or a vertex sharper
// than a right angle, where parity fails as it did before), and is counted as one without testing it: it
// lies on an edge or a vertex as often as not, where a test by triangles is least sure (a torus's ring
// centroids read as inside when both triangles beside the inner equator missed it). An open or
// non-manifold mesh has no inside: its centroids stay.
std::vector<Vec3<double>> centres_inside(const TriangleMesh& mesh, const ReebGraph& graph, int threads) {
    std::vector<Vec3<double>> centres = node_centroids(graph);
    if (graph.report.boundary_edges > 0 || graph.report.non_manifold_edges > 0) return centres;
    const std::vector<Vec3<double>> nearest = nearest_on_mesh(mesh, centres, threads);
    const double one_place = crossing_resolution(mesh);
#pragma omp parallel for num_threads(extraction_team(threads)) schedule(dynamic, 1)
    for (std::ptrdiff_t n = 0; n < std::ptrdiff_t(centres.size()); ++n) {
        const Vec3<double> from = centres[n], towards = nearest[n] - from;
        const double reach = norm(towards);
        if (!(reach > one_place)) continue;  // on the surface
        const Vec3<double> way = (1 / reach) * towards;
        std::vector<double> beyond;  // crossings past the nearest point
        for (const auto& t : mesh.triangles) {
            const double at = ray_crossing(from, way, mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]);
            if (at > reach + one_place) beyond.push_back(at);
        }
        std::sort(beyond.begin(), beyond.end());
        beyond.erase(std::unique(beyond.begin(), beyond.end(), [&](double a, double b) { return b - a <= one_place; }), beyond.end());
        const bool outside = beyond.size() % 2 == 1;  // with the nearest point, an even count
        if (outside) centres[n] = from + (0.5 * (reach + beyond[0])) * way;
    }
    return centres;
}

// Distance from each query to the nearest triangle (nearest_on_mesh).
std::vector<double> distances_to_mesh(const TriangleMesh& mesh, const std::vector<Vec3<double>>& queries, int threads) {
    const std::vector<Vec3<double>> nearest = nearest_on_mesh(mesh, queries, threads);
    std::vector<double> distance;
    for (std::size_t q = 0; q < queries.size(); ++q) distance.push_back(norm(queries[q] - nearest[q]));
    return distance;
}

// The bounding-box diagonal of the vertices the graph binds: isolated vertices and debris the graph leaves
// unbound are not the body, and one stray vertex 1e4 away had raised every sphere's radius floor to 10
// (a body of radius 0.5).
double bound_diagonal(const std::vector<Vec3<double>>& positions, const ReebGraph& graph) {
    Box box;
    const bool any_bound = std::any_of(graph.node_of_vertex.begin(), graph.node_of_vertex.end(), [](int node) { return node >= 0; });
    for (std::size_t i = 0; i < positions.size(); ++i)
        if (!any_bound || graph.node_of_vertex[i] >= 0) box.add(positions[i]);  // a graph that binds none: every vertex
    return norm(box.diagonal());
}

void check_options(const AutoRigOptions& o, const std::string& source) {
    if (!(o.nesting_margin > 0 && o.nesting_margin < 1))
        throw InputError(source + ": nesting margin must be in (0, 1), got " + number_text(o.nesting_margin));
    if (!(o.min_radius_fraction > 0 && o.min_radius_fraction < 1))
        throw InputError(source + ": minimum radius fraction must be in (0, 1), got " +
                         number_text(o.min_radius_fraction));
    if (!(o.detached_fraction >= 0 && o.detached_fraction < 0.5))
        throw InputError(source + ": detached fraction must be in [0, 0.5), got " + number_text(o.detached_fraction));
    if (o.threads < 0) throw InputError(source + ": threads must be >= 0, got " + std::to_string(o.threads));
}

void check_matches(const ReebGraph& graph, std::size_t sample_count, const std::string& source) {
    if (graph.node_of_vertex.size() != sample_count)
        throw InputError(source + ": the Reeb graph binds " + std::to_string(graph.node_of_vertex.size()) +
                         " vertices but the surface has " + std::to_string(sample_count));
    if (graph.nodes.empty()) throw InputError(source + ": the Reeb graph has no node");
}

// The working graph of spheres while nested bones collapse: one sphere per live node.
struct SphereGraph {
    std::vector<Sphere<double>> spheres;
    std::vector<std::set<int>> neighbours;
    std::vector<int> carrier;  // per node: the live node whose sphere carries it
    std::vector<int> interval;
    std::vector<double> area;
};

double nesting_ratio(const Sphere<double>& a, const Sphere<double>& b) {
    return (norm(a.centre - b.centre) - std::fabs(a.radius - b.radius)) / std::max(a.radius, b.radius);
}

// The bone whose spheres nest the most, below the margin; {-1, -1} if none.
std::array<int, 2> most_nested_bone(const SphereGraph& g, double margin) {
    std::array<int, 2> worst{-1, -1};
    double worst_ratio = margin;
    for (std::size_t a = 0; a < g.neighbours.size(); ++a)
        for (int b : g.neighbours[a])
            if (int(a) < b) {
                double ratio = nesting_ratio(g.spheres[a], g.spheres[b]);
                if (ratio < worst_ratio) {
                    worst_ratio = ratio;
                    worst = {int(a), b};
                }
            }
    return worst;
}

// Removes the smaller sphere of the bone (the higher index on ties); the larger one takes its node.
void collapse(SphereGraph& g, const std::array<int, 2>& bone) {
    const auto [a, b] = bone;
    const bool a_larger = g.spheres[a].radius > g.spheres[b].radius ||
                          (g.spheres[a].radius == g.spheres[b].radius && a < b);
    const int keep = a_larger ? a : b, drop = a_larger ? b : a;
    for (int m : g.neighbours[drop]) {
        g.neighbours[m].erase(drop);
        if (m != keep) {
            g.neighbours[m].insert(keep);
            g.neighbours[keep].insert(m);
        }
    }
    g.neighbours[drop].clear();
    for (int& c : g.carrier)
        if (c == drop) c = keep;
    g.area[keep] += g.area[drop];
}

SphereGraph sphere_graph(const ReebGraph& graph, const std::vector<Vec3<double>>& centres, const std::vector<double>& clearance,
                         double min_radius) {
    SphereGraph g;
    const std::size_t n = graph.nodes.size();
    g.neighbours.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        g.spheres.push_back({centres[i], std::max(clearance[i], min_radius)});
        g.carrier.push_back(int(i));
        g.interval.push_back(graph.nodes[i].interval);
        g.area.push_back(graph.nodes[i].area);
    }
    for (const auto& e : graph.edges) {
        g.neighbours[e[0]].insert(e[1]);
        g.neighbours[e[1]].insert(e[0]);
    }
    return g;
}

// Spanning tree by increasing level; returns the cut edges (live node pairs).
std::vector<std::array<int, 2>> break_loops(SphereGraph& g) {
    std::vector<std::array<int, 2>> edges;
    for (std::size_t a = 0; a < g.neighbours.size(); ++a)
        for (int b : g.neighbours[a])
            if (int(a) < b) edges.push_back({int(a), b});
    auto level = [&](const std::array<int, 2>& e) {
        return std::make_tuple(std::max(g.interval[e[0]], g.interval[e[1]]), std::min(g.interval[e[0]], g.interval[e[1]]),
                               e[0], e[1]);
    };
    std::sort(edges.begin(), edges.end(), [&](const auto& x, const auto& y) { return level(x) < level(y); });
    DisjointSets sets(g.neighbours.size());
    std::vector<std::array<int, 2>> cut;
    for (const auto& e : edges) {
        if (sets.find(e[0]) == sets.find(e[1])) {
            cut.push_back(e);
            g.neighbours[e[0]].erase(e[1]);
            g.neighbours[e[1]].erase(e[0]);
        } else {
            sets.join(e[0], e[1]);
        }
    }
    std::sort(cut.begin(), cut.end());
    return cut;
}

// The live nodes of the part (connected set, after loops are cut) holding the most area. A point set's
// graph can fall apart where no neighbour edge joins one interval's points to the next (a sparse or noisy
// sampling: a ball of 3,000 points at 8 intervals, 12 random points): the other parts, together under
// `detached_fraction` of the area, are left unbound and counted; more is an error naming them (they had
// built spheres with no bone, refused as "sphere belongs to no bone").
std::vector<int> largest_part(const SphereGraph& g, const std::vector<int>& live, int intervals, double detached_fraction,
                              const std::string& source, std::size_t& detached_parts) {
    std::vector<std::array<int, 2>> edges;
    for (int n : live)
        for (int m : g.neighbours[n])
            if (n < m) edges.push_back({n, m});
    // Numbered in order of their smallest node: a part holding a live node holds the smallest of them.
    const std::vector<int> part = connected_components(g.carrier.size(), edges);
    std::vector<double> part_area(g.carrier.size(), -1.0);  // -1: no live node
    for (int n : live) part_area[std::size_t(part[n])] = std::max(part_area[std::size_t(part[n])], 0.0) + g.area[n];
    const std::size_t parts = std::size_t(std::count_if(part_area.begin(), part_area.end(), [](double a) { return a >= 0; }));
    if (parts < 2) return live;
    const int main = int(std::max_element(part_area.begin(), part_area.end()) - part_area.begin());
    double total = 0;
    for (double a : part_area) total += std::max(a, 0.0);
    const double rest = total - part_area[std::size_t(main)];
    if (rest > detached_fraction * total)
        throw InputError(source + ": the graph falls apart into " + std::to_string(parts) + " parts at " + std::to_string(intervals) +
                         " intervals, the largest holding " + number_text(100 * part_area[main] / total, 3) +
                         "% of the area: its nodes do not join every interval to the next (for a point set, a sampling too sparse or "
                         "noisy for this resolution: fewer --intervals or more points may join them)");
    detached_parts = parts - 1;
    std::vector<int> kept;
    for (int n : live)
        if (part[n] == main) kept.push_back(n);
    return kept;
}

int choose_root(const SphereGraph& g, const std::vector<int>& live) {
    int root = live.front();
    for (int n : live)
        if (std::make_tuple(g.interval[n], -g.area[n], n) < std::make_tuple(g.interval[root], -g.area[root], root)) root = n;
    return root;
}

// The least radius a sphere is given: min_radius_fraction × the diagonal, for a node whose centroid lies
// on the surface (an open, flat patch has no thickness there); but not above the nodes' median clearance
// where that is a thickness: above 1e-4 of the diagonal, beyond a flat patch's rounding (assimp reads in
// float, and a mesh rounded by up to 1e-4 of its size is taken: host/assimp_mesh.hpp; a tilted flat strip
// read as OBJ had clearances of 8e-9 to 5e-8 of the diagonal). A body thinner in the median than that
// fraction of its size had every sphere at the floor (a tube of radius 0.5 and length 1,000: spheres of
// radius 1.0; 4,000 long: 4.0).
double radius_floor(std::vector<double> clearance, double diagonal, const AutoRigOptions& options) {
    const double floor = options.min_radius_fraction * diagonal;
    if (clearance.empty()) return floor;
    const auto middle = clearance.begin() + std::ptrdiff_t(clearance.size() / 2);
    std::nth_element(clearance.begin(), middle, clearance.end());
    return *middle > 1e-4 * diagonal ? std::min(floor, *middle) : floor;
}

// `centres` and `clearance`: per node, its sphere's centre and the body's thickness there.
AutoRig build(const ReebGraph& graph, const std::vector<Vec3<double>>& centres, const std::vector<double>& clearance, double diagonal,
              const std::string& source, const AutoRigOptions& options) {
    SphereGraph g = sphere_graph(graph, centres, clearance, radius_floor(clearance, diagonal, options));
    for (auto bone = most_nested_bone(g, options.nesting_margin); bone[0] >= 0;
         bone = most_nested_bone(g, options.nesting_margin))
        collapse(g, bone);
    AutoRig rig;
    rig.cut_edges = break_loops(g);

    std::vector<int> live;
    for (std::size_t n = 0; n < g.carrier.size(); ++n)
        if (g.carrier[n] == int(n)) live.push_back(int(n));
    live = largest_part(g, live, graph.intervals, options.detached_fraction, source, rig.detached_parts);
    if (live.size() < 2)
        throw InputError(source + ": the skeleton collapses into a single sphere (a ball-like body at " +
                         std::to_string(graph.intervals) + " intervals; more intervals may separate its parts)");
    std::vector<int> sphere_of_live(g.carrier.size(), -1);
    std::vector<Sphere<double>> spheres;
    for (int n : live) {
        sphere_of_live[n] = int(spheres.size());
        spheres.push_back(g.spheres[n]);
    }
    // Bones breadth-first from the root, children in ascending sphere order (neighbour sets are sorted and
    // the renumbering keeps node order).
    const int root = choose_root(g, live);
    std::vector<std::array<int, 2>> bones;
    std::vector<char> visited(g.carrier.size(), 0);
    std::vector<int> queue{root};
    visited[root] = 1;
    for (std::size_t next = 0; next < queue.size(); ++next)
        for (int m : g.neighbours[queue[next]])
            if (!visited[m]) {
                visited[m] = 1;
                queue.push_back(m);
                bones.push_back({sphere_of_live[queue[next]], sphere_of_live[m]});
            }
    rig.skeleton = make_skeleton(std::move(spheres), std::move(bones), {}, source, SkeletonRules::Tree);
    for (int carrier : g.carrier) rig.sphere_of_node.push_back(sphere_of_live[carrier]);  // -1: a detached part's
    for (int node : graph.node_of_vertex) rig.sphere_of_vertex.push_back(node < 0 ? -1 : rig.sphere_of_node[node]);
    return rig;
}

}  // namespace

AutoRig build_auto_rig(const ReebGraph& graph, const TriangleMesh& mesh, const std::string& source,
                       const AutoRigOptions& options) {
    check_options(options, source);
    check_matches(graph, mesh.vertices.size(), source);
    const std::vector<Vec3<double>> centres = centres_inside(mesh, graph, options.threads);
    return build(graph, centres, distances_to_mesh(mesh, centres, options.threads), bound_diagonal(mesh.vertices, graph), source, options);
}

AutoRig build_auto_rig(const ReebGraph& graph, const std::vector<Vec3<double>>& points, const std::string& source,
                       const AutoRigOptions& options) {
    check_options(options, source);
    check_matches(graph, points.size(), source);
    const std::vector<Vec3<double>> centres = node_centroids(graph);
    return build(graph, centres, nearest_point_distances(points, centres, options.threads), bound_diagonal(points, graph), source, options);
}

void save_binding(const std::string& path, const AutoRig& rig, const ReebGraph& graph, const std::vector<Vec3<double>>& vertices) {
    OutputFile out(path);
    write_binding(out, rig, graph, vertices);
    out.commit();
}

void write_binding(OutputFile& out, const AutoRig& rig, const ReebGraph& graph, const std::vector<Vec3<double>>& vertices) {
    using json_io::json;
    json nodes = json::array();
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        const ReebNode& node = graph.nodes[n];
        nodes.push_back({{"interval", node.interval},
                         {"area", node.area},
                         {"centroid", {node.centroid.x, node.centroid.y, node.centroid.z}},
                         {"sphere", rig.sphere_of_node[n]}});
    }
    json doc;
    doc["binding"] = rig.sphere_of_vertex;
    doc["vertices_digest"] = binding_vertex_digest(vertices);
    doc["reeb"] = {{"intervals", graph.intervals},
                   {"loops", graph.loops},
                   {"nodes", nodes},
                   {"edges", graph.edges},
                   {"cut_edges", rig.cut_edges}};
    json_io::write(out, doc);
}

std::string binding_path_for(const std::string& skeleton_path) {
    const std::string suffix = ".json";
    const bool has_suffix = skeleton_path.size() >= suffix.size() &&
                            skeleton_path.compare(skeleton_path.size() - suffix.size(), suffix.size(), suffix) == 0;
    return (has_suffix ? skeleton_path.substr(0, skeleton_path.size() - suffix.size()) : skeleton_path) + ".binding.json";
}

}  // namespace bs
