#include "host/reeb_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "host/errors.hpp"
#include "tests/support/shapes.hpp"

namespace bs {
namespace {

constexpr double kRadius = testing::kCapsuleRadius, kHalfLength = testing::kCapsuleHalfLength;
using testing::capsule;

const std::vector<Vec3<double>>& capsule_samples() {
    static const std::vector<Vec3<double>> points = testing::capsule_points(kRadius, kHalfLength, 6000, 7);
    return points;
}

std::string error_of(const std::function<void()>& extract) {
    try {
        extract();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// The nodes of a chain graph from its end of lowest x to the other; fails the test if not a chain.
std::vector<int> chain_from_low_x(const ReebGraph& g) {
    std::vector<int> degree = g.degrees();
    std::vector<int> ends;
    for (std::size_t n = 0; n < degree.size(); ++n) {
        EXPECT_LE(degree[n], 2) << "node " << n;
        if (degree[n] == 1) ends.push_back(int(n));
    }
    EXPECT_EQ(ends.size(), 2u);
    EXPECT_EQ(g.loops, 0);
    if (ends.size() != 2) return {};
    int node = g.nodes[ends[0]].centroid.x < g.nodes[ends[1]].centroid.x ? ends[0] : ends[1];
    std::vector<int> order{node};
    for (int previous = -1; order.size() < g.nodes.size();) {
        int next = -1;
        for (const auto& e : g.edges)
            if ((e[0] == node || e[1] == node) && e[0] + e[1] - node != previous) next = e[0] + e[1] - node;
        if (next < 0) break;
        previous = node;
        node = next;
        order.push_back(node);
    }
    EXPECT_EQ(order.size(), g.nodes.size());
    return order;
}

TEST(Reeb, CapsuleGivesChainOfNodesAlongItsAxis) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    ASSERT_EQ(g.nodes.size(), 15u);  // μ is lowest at the middle: one band there, two per other interval
    std::vector<int> chain = chain_from_low_x(g);
    ASSERT_EQ(chain.size(), 15u);
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const ReebNode& node = g.nodes[chain[i]];
        EXPECT_EQ(node.interval, std::abs(int(i) - 7)) << "position " << i;
        EXPECT_LT(std::hypot(node.centroid.y, node.centroid.z), 0.01 * kRadius) << "node " << chain[i];
        if (i > 0) {
            EXPECT_GT(node.centroid.x, g.nodes[chain[i - 1]].centroid.x);
        }
    }
}

TEST(Reeb, NodesPartitionTheSurface) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    double area = 0;
    std::size_t bound = 0;
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        area += g.nodes[n].area;
        bound += g.nodes[n].vertices.size();
        for (int v : g.nodes[n].vertices) EXPECT_EQ(g.node_of_vertex[v], int(n));
    }
    EXPECT_EQ(bound, capsule().vertices.size());
    EXPECT_NEAR(area, g.report.area, 1e-9 * g.report.area);
    EXPECT_EQ(*std::min_element(g.mu.begin(), g.mu.end()), 0.0);
    EXPECT_EQ(*std::max_element(g.mu.begin(), g.mu.end()), 1.0);
}

TEST(Reeb, YTubeGivesOneJunctionAndThreeEnds) {
    const TriangleMesh y = testing::y_tube_mesh(0.5, 2.0, 0.1);
    ReebGraph g = extract_reeb_graph(y, {}, "y");
    std::vector<int> degree = g.degrees();
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 3), 1);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 1), 3);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 2), int(g.nodes.size()) - 4);
    EXPECT_EQ(g.loops, 0);
    const int junction = int(std::find(degree.begin(), degree.end(), 3) - degree.begin());
    EXPECT_LT(norm(g.nodes[junction].centroid), 0.25);  // at the centre of the Y
}

TEST(Reeb, TorusReportsOneLoop) {
    ReebGraph g = extract_reeb_graph(testing::torus_mesh(2.0, 0.7, 120, 40), {}, "torus");
    EXPECT_EQ(g.loops, 1);
}

TEST(Reeb, CapsulePointSamplingGivesTheSameChainAsItsMesh) {
    ReebGraph mesh_graph = extract_reeb_graph(capsule(), {}, "mesh");
    ReebGraph point_graph = extract_reeb_graph(capsule_samples(), {}, "points");
    std::vector<int> mesh_chain = chain_from_low_x(mesh_graph), point_chain = chain_from_low_x(point_graph);
    ASSERT_EQ(point_chain.size(), mesh_chain.size());
    for (std::size_t i = 0; i < mesh_chain.size(); ++i) {
        const ReebNode& m = mesh_graph.nodes[mesh_chain[i]];
        const ReebNode& p = point_graph.nodes[point_chain[i]];
        EXPECT_EQ(p.interval, m.interval) << "position " << i;
        // Edge paths over the mesh and neighbour paths over the points approximate geodesics differently,
        // which moves the interval boundaries a little: a quarter of the radius, under half a node's span.
        EXPECT_NEAR(p.centroid.x, m.centroid.x, 0.25 * kRadius) << "position " << i;
        EXPECT_LT(std::hypot(p.centroid.y, p.centroid.z), 0.1 * kRadius) << "position " << i;
    }
}

// Rigid motion plus uniform scale of every position.
std::vector<Vec3<double>> transformed(const std::vector<Vec3<double>>& positions, double scale) {
    const Quat<double> q = normalized(Quat<double>{0.8, 0.3, -0.4, 0.35});
    std::vector<Vec3<double>> out;
    for (const auto& p : positions) out.push_back(scale * rotate(q, p) + Vec3<double>{5.5, -3.25, 12.0});
    return out;
}

// μ is built from edge lengths and areas only: rotation and uniform scaling change it by rounding alone.
constexpr double kMuInvariance = 1e-9;

void expect_same_mu(const ReebGraph& a, const ReebGraph& b) {
    ASSERT_EQ(a.mu.size(), b.mu.size());
    double worst = 0;
    for (std::size_t v = 0; v < a.mu.size(); ++v) worst = std::max(worst, std::fabs(a.mu[v] - b.mu[v]));
    EXPECT_LE(worst, kMuInvariance);
    EXPECT_EQ(a.nodes.size(), b.nodes.size());
    EXPECT_EQ(a.edges, b.edges);
}

TEST(Reeb, MuIsInvariantUnderRotationAndUniformScaling) {
    ReebGraph reference = extract_reeb_graph(capsule(), {}, "capsule");
    for (double scale : {1.0, 3.7, 0.01}) {
        TriangleMesh moved = capsule();
        moved.vertices = transformed(moved.vertices, scale);
        SCOPED_TRACE("scale " + std::to_string(scale));
        expect_same_mu(reference, extract_reeb_graph(moved, {}, "moved"));
    }
}

TEST(Reeb, PointSetMuIsInvariantUnderRotationAndUniformScaling) {
    ReebGraph reference = extract_reeb_graph(capsule_samples(), {}, "points");
    for (double scale : {1.0, 3.7}) {
        SCOPED_TRACE("scale " + std::to_string(scale));
        expect_same_mu(reference, extract_reeb_graph(transformed(capsule_samples(), scale), {}, "moved"));
    }
}

TEST(Reeb, SameResultForAnyThreadCount) {
    ReebOptions one, two;
    one.threads = 1;
    two.threads = 2;
    for (bool points : {false, true}) {
        ReebGraph a = points ? extract_reeb_graph(capsule_samples(), one, "p") : extract_reeb_graph(capsule(), one, "m");
        ReebGraph b = points ? extract_reeb_graph(capsule_samples(), two, "p") : extract_reeb_graph(capsule(), two, "m");
        EXPECT_EQ(a.mu, b.mu);
        EXPECT_EQ(a.node_of_vertex, b.node_of_vertex);
        EXPECT_EQ(a.edges, b.edges);
    }
}

TEST(Reeb, MoreIntervalsGiveMoreNodes) {
    ReebOptions fine;
    fine.intervals = 16;
    EXPECT_EQ(extract_reeb_graph(capsule(), fine, "capsule").nodes.size(), 31u);
}

// --- Bad input: each an error naming the source, or documented behaviour ---------------------------------

TriangleMesh with_extra_triangle(TriangleMesh mesh, const std::array<Vec3<double>, 3>& corners) {
    const int base = int(mesh.vertices.size());
    for (const auto& c : corners) mesh.vertices.push_back(c);
    mesh.triangles.push_back({base, base + 1, base + 2});
    return mesh;
}

TEST(ReebInvalid, NonManifoldEdgeIsAcceptedAndCounted) {
    // A small fin on an edge at the middle: that edge now has three triangles, the fin's other two edges
    // one each. (A fin long enough to hold the highest μ would be a feature of its own.)
    TriangleMesh mesh = capsule();
    const auto middle = std::min_element(mesh.triangles.begin(), mesh.triangles.end(), [&](const auto& a, const auto& b) {
        return std::fabs(mesh.vertices[a[0]].x) < std::fabs(mesh.vertices[b[0]].x);
    });
    const auto edge = std::array<int, 2>{(*middle)[0], (*middle)[1]};
    const Vec3<double> tip = 0.5 * (mesh.vertices[edge[0]] + mesh.vertices[edge[1]]) + Vec3<double>{0, 0, 0.05};
    mesh.vertices.push_back(tip);
    mesh.triangles.push_back({edge[0], edge[1], int(mesh.vertices.size()) - 1});
    ReebGraph g = extract_reeb_graph(mesh, {}, "fin");
    EXPECT_EQ(g.report.non_manifold_edges, 1u);
    EXPECT_EQ(g.report.boundary_edges, 2u);
    EXPECT_EQ(g.nodes.size(), 15u);
}

TEST(ReebInvalid, DisconnectedMeshIsRejected) {
    TriangleMesh mesh = capsule();
    const int base = int(mesh.vertices.size());
    for (const auto& v : capsule().vertices) mesh.vertices.push_back(v + Vec3<double>{0, 10, 0});
    for (const auto& t : capsule().triangles) mesh.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    EXPECT_EQ(error_of([&] { extract_reeb_graph(mesh, {}, "two.obj"); }),
              "two.obj: the surface has 2 disconnected parts of significant area (the two largest hold 50.0% and 50.0% "
              "of it); a skeleton needs one connected body (parts under 1.0% are ignored)");
}

TEST(ReebInvalid, SmallDisconnectedPartIsLeftUnbound) {
    TriangleMesh mesh = with_extra_triangle(capsule(), {{{10, 0, 0}, {10.1, 0, 0}, {10, 0.1, 0}}});
    ReebGraph g = extract_reeb_graph(mesh, {}, "debris");
    EXPECT_EQ(g.report.debris_parts, 1u);
    for (std::size_t v = mesh.vertices.size() - 3; v < mesh.vertices.size(); ++v) {
        EXPECT_EQ(g.node_of_vertex[v], -1);
        EXPECT_TRUE(std::isnan(g.mu[v]));
    }
    EXPECT_EQ(g.nodes.size(), 15u);
}

// A part of no area (one triangle of three collinear points) is debris too: it had been left unbound
// without being counted.
TEST(ReebInvalid, APartOfNoAreaIsCountedAsDebris) {
    TriangleMesh mesh = with_extra_triangle(capsule(), {{{10, 0, 0}, {11, 0, 0}, {12, 0, 0}}});
    ReebGraph g = extract_reeb_graph(mesh, {}, "flat debris");
    EXPECT_EQ(g.report.debris_parts, 1u);
    EXPECT_EQ(g.report.isolated_vertices, 0u);
    for (std::size_t v = mesh.vertices.size() - 3; v < mesh.vertices.size(); ++v) EXPECT_EQ(g.node_of_vertex[v], -1);
}

// The file's points and lines, skipped by the reader, are counted in the report.
TEST(ReebInvalid, AMeshFilesPointsAndLinesAreCounted) {
    TriangleMesh mesh = capsule();
    mesh.faces_skipped = 2;
    EXPECT_EQ(extract_reeb_graph(mesh, {}, "lines").report.faces_skipped, 2u);
}

TEST(ReebInvalid, IsolatedVertexIsLeftUnbound) {
    TriangleMesh mesh = capsule();
    mesh.vertices.push_back({0, 0, 0});
    ReebGraph g = extract_reeb_graph(mesh, {}, "isolated");
    EXPECT_EQ(g.report.isolated_vertices, 1u);
    EXPECT_EQ(g.report.debris_parts, 0u);  // an isolated vertex is not also a part of no area
    EXPECT_EQ(g.node_of_vertex.back(), -1);
    EXPECT_EQ(g.nodes.size(), 15u);
}

// With no part too small to count (debris_fraction 0), a vertex in no triangle is still no part of the
// body: it has no area, so it is not a second "part of significant area".
TEST(ReebInvalid, AnIsolatedVertexIsNoPartEvenWhereNoPartIsDebris) {
    TriangleMesh mesh = capsule();
    mesh.vertices.push_back({10, 0, 0});
    ReebOptions options;
    options.debris_fraction = 0;
    const ReebGraph g = extract_reeb_graph(mesh, options, "isolated");
    EXPECT_EQ(g.report.isolated_vertices, 1u);
    EXPECT_EQ(g.node_of_vertex.back(), -1);
    EXPECT_EQ(g.nodes.size(), 15u);
}

// A stray point far from the sampled body is left unbound, and the body's graph is what it was: its
// neighbour edges had joined it to the body and its area (its disc out to its k-th neighbour) outweighed
// the body's, so the whole body fell into one interval (one node: no skeleton).
TEST(ReebInvalid, AStrayPointFarFromThePointSetIsLeftUnbound) {
    std::vector<Vec3<double>> points = capsule_samples();
    points.push_back({0, 0, 1e4});
    const ReebGraph reference = extract_reeb_graph(capsule_samples(), {}, "points");
    const ReebGraph g = extract_reeb_graph(points, {}, "stray");
    EXPECT_EQ(g.report.isolated_vertices, 1u);
    EXPECT_EQ(g.node_of_vertex.back(), -1);
    EXPECT_EQ(g.edges, reference.edges);
    EXPECT_EQ(g.nodes.size(), reference.nodes.size());
    EXPECT_EQ(reference.report.isolated_vertices, 0u);  // the capsule's own samples are all kept
}

TEST(ReebInvalid, CoincidentMeshVerticesAreOneSample) {
    // Every vertex duplicated and every other triangle moved onto the copies: a mesh cut into a checkerboard
    // of pieces that only positions tie together.
    TriangleMesh split = capsule();
    const int n = int(split.vertices.size());
    for (int v = 0; v < n; ++v) split.vertices.push_back(split.vertices[v]);
    for (std::size_t t = 1; t < split.triangles.size(); t += 2)
        for (int& v : split.triangles[t]) v += n;
    ReebGraph whole = extract_reeb_graph(capsule(), {}, "whole");
    ReebGraph g = extract_reeb_graph(split, {}, "split");
    EXPECT_EQ(g.report.coincident_samples, std::size_t(n));
    EXPECT_EQ(g.edges, whole.edges);
    for (int v = 0; v < n; ++v) {
        EXPECT_EQ(g.node_of_vertex[v], whole.node_of_vertex[v]);
        EXPECT_EQ(g.node_of_vertex[v + n], whole.node_of_vertex[v]);
    }
}

TEST(ReebInvalid, DuplicatePointsAreBoundTogether) {
    std::vector<Vec3<double>> points = capsule_samples();
    const std::size_t n = points.size();
    for (int copy = 0; copy < 30; ++copy) points.push_back(points[0]);  // more copies than neighbours
    for (std::size_t i = 0; i < n; i += 10) points.push_back(points[i]);
    ReebGraph reference = extract_reeb_graph(capsule_samples(), {}, "points");
    ReebGraph g = extract_reeb_graph(points, {}, "duplicates");
    EXPECT_EQ(g.report.coincident_samples, points.size() - n);
    EXPECT_EQ(g.edges, reference.edges);
    for (std::size_t i = n; i < n + 30; ++i) EXPECT_EQ(g.node_of_vertex[i], reference.node_of_vertex[0]);
    for (std::size_t i = 0, copy = n + 30; i < n; i += 10, ++copy) EXPECT_EQ(g.node_of_vertex[copy], reference.node_of_vertex[i]);
}

TEST(ReebInvalid, IntervalsOutOfRange) {
    for (int k : {1, 0, -3, 513}) {
        ReebOptions o;
        o.intervals = k;
        EXPECT_EQ(error_of([&] { extract_reeb_graph(capsule(), o, "capsule.obj"); }),
                  "capsule.obj: intervals (k) must be in [2, 512], got " + std::to_string(k));
    }
}

TEST(ReebInvalid, RadiusCoefficientOutOfRange) {
    for (double c : {0.0, 2.0, std::nan("")}) {
        ReebOptions o;
        o.radius_coefficient = c;
        EXPECT_NE(error_of([&] { extract_reeb_graph(capsule(), o, "capsule.obj"); }).find("radius coefficient (c) must be in"),
                  std::string::npos);
    }
}

TEST(ReebInvalid, NeighboursOutOfRange) {
    ReebOptions o;
    o.neighbours = 2;
    EXPECT_EQ(error_of([&] { extract_reeb_graph(capsule_samples(), o, "p.ply"); }),
              "p.ply: neighbours must be in [3, 64], got 2");
}

TEST(ReebInvalid, MeshWithNoArea) {
    // Collinear triangles: edges, but no area.
    TriangleMesh flat{{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, {{0, 1, 2}, {1, 2, 3}}};
    EXPECT_EQ(error_of([&] { extract_reeb_graph(flat, {}, "flat.off"); }),
              "flat.off: the surface has no area (every triangle is degenerate)");
}

TEST(ReebInvalid, MeshWhoseTrianglesAllRepeatAVertex) {
    TriangleMesh mesh{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}}, {{0, 1, 3}, {2, 2, 0}}};
    EXPECT_EQ(error_of([&] { extract_reeb_graph(mesh, {}, "m.ply"); }),
              "m.ply: the mesh has no area: it has no triangle with three distinct vertices");
}

TEST(ReebInvalid, TooFewDistinctPoints) {
    std::vector<Vec3<double>> same(50, Vec3<double>{1, 2, 3});
    EXPECT_EQ(error_of([&] { extract_reeb_graph(same, {}, "same.ply"); }),
              "same.ply: 1 distinct points; the neighbour graph needs at least 11 (neighbours + 1)");
}

// The bound is exact: `neighbours` distinct points have no k-th neighbour each (one more is needed).
TEST(ReebInvalid, AsManyDistinctPointsAsNeighboursAreTooFew) {
    std::vector<Vec3<double>> ten;
    for (int i = 0; i < 10; ++i) ten.push_back({std::cos(0.6 * i), std::sin(0.6 * i), 0.3 * i});
    EXPECT_EQ(error_of([&] { extract_reeb_graph(ten, {}, "ten.ply"); }),
              "ten.ply: 10 distinct points; the neighbour graph needs at least 11 (neighbours + 1)");
}

TEST(ReebInvalid, TriangleIndexOutOfRange) {
    TriangleMesh mesh = capsule();
    mesh.triangles[3][1] = int(mesh.vertices.size());
    EXPECT_EQ(error_of([&] { extract_reeb_graph(mesh, {}, "API"); }),
              "API: triangle 3: vertex index " + std::to_string(mesh.vertices.size()) + " out of range [0, " +
                  std::to_string(mesh.vertices.size()) + ")");
}

TEST(ReebInvalid, NonFiniteCoordinate) {
    std::vector<Vec3<double>> points = capsule_samples();
    points[4].y = std::nan("");
    EXPECT_EQ(error_of([&] { extract_reeb_graph(points, {}, "nan.ply"); }), "nan.ply: point 4: non-finite coordinate");
}

}  // namespace
}  // namespace bs
