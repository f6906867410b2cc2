#include "host/auto_rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "host/errors.hpp"
#include "host/json_io.hpp"
#include "host/mesh_io.hpp"
#include "tests/support/shapes.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

constexpr double kRadius = testing::kCapsuleRadius, kHalfLength = testing::kCapsuleHalfLength;
using testing::capsule;

std::vector<int> sphere_degrees(const Skeleton& s) {
    std::vector<int> degree(s.spheres.size(), 0);
    for (const auto& b : s.bones) {
        ++degree[b[0]];
        ++degree[b[1]];
    }
    return degree;
}

// A chain along the capsule's axis, every sphere inside the capsule (to `inside_tolerance` × radius), and
// the spheres of the cylindrical section (centre between the two hemisphere centres) within 10% of the
// capsule's radius.
void expect_capsule_rig(const Skeleton& s, double axis_tolerance, double inside_tolerance) {
    std::vector<int> degree = sphere_degrees(s);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 1), 2);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 2), int(s.spheres.size()) - 2);
    int cylinder_spheres = 0;
    for (std::size_t i = 0; i < s.spheres.size(); ++i) {
        const Sphere<double>& sphere = s.spheres[i];
        const double off_axis = std::hypot(sphere.centre.y, sphere.centre.z);
        EXPECT_LT(off_axis, axis_tolerance) << "sphere " << i;
        const double to_axis = testing::distance_to_segment(sphere.centre, {-kHalfLength, 0, 0}, {kHalfLength, 0, 0});
        EXPECT_LE(to_axis + sphere.radius, kRadius * (1 + inside_tolerance)) << "sphere " << i << " leaves the capsule";
        if (std::fabs(sphere.centre.x) <= kHalfLength) {
            ++cylinder_spheres;
            EXPECT_NEAR(sphere.radius, kRadius, 0.1 * kRadius) << "sphere " << i;
        }
    }
    EXPECT_GE(cylinder_spheres, 5);
}

TEST(AutoRig, CapsuleGivesChainOfSpheresWithTheTubeRadius) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    AutoRig rig = build_auto_rig(g, capsule(), "capsule");
    expect_capsule_rig(rig.skeleton, 0.01 * kRadius, 1e-9);
    EXPECT_TRUE(rig.cut_edges.empty());
    EXPECT_EQ(rig.skeleton.root_sphere, rig.sphere_of_node[0]);  // the middle band, lowest μ
}

// A tube 4,000 times longer than its radius (0.5, 2,000 long): its spheres have the tube's radius. The
// floor of 1e-3 of the diagonal (2.0) had made every one 4 times too thick.
TEST(AutoRig, ALongThinTubeKeepsItsThickness) {
    std::vector<double> xs, rs;
    for (int i = 0; i <= 500; ++i) {
        xs.push_back(-1000 + 4.0 * i);
        rs.push_back(0.5);
    }
    const TriangleMesh tube = testing::revolution_mesh(xs, rs, -1000.5, 1000.5, 16);
    const AutoRig rig = build_auto_rig(extract_reeb_graph(tube, {}, "tube"), tube, "tube");
    ASSERT_GE(rig.skeleton.spheres.size(), 3u);
    for (const Sphere<double>& sphere : rig.skeleton.spheres) EXPECT_NEAR(sphere.radius, 0.5, 0.05);
}

// A flat strip (4 × 1, tilted) read through assimp: its nodes' clearances are float's rounding, not a
// thickness, so its spheres keep the floor of 1e-3 of the diagonal (a floor of the median clearance above
// 1e-9 of it had made them 1e-8 across).
TEST(AutoRig, AFlatStripReadInFloatKeepsTheRadiusFloor) {
    const Vec3<double> along = normalized(Vec3<double>{3, 1, 2}), across = normalized(cross(along, Vec3<double>{0, 0, 1}));
    std::string obj;
    for (int i = 0; i <= 40; ++i)
        for (int j = 0; j <= 10; ++j) {
            const Vec3<double> v = (0.1 * i) * along + (0.1 * j) * across + Vec3<double>{0.3, -0.2, 0.7};
            obj += "v " + number_text(v.x) + " " + number_text(v.y) + " " + number_text(v.z) + "\n";
        }
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 10; ++j) {
            const int a = 1 + i * 11 + j, b = a + 11;
            obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(b + 1) + " " + std::to_string(a + 1) + "\n";
        }
    const TriangleMesh strip = load_triangle_mesh(testing::write_temp("strip.obj", obj));
    const AutoRig rig = build_auto_rig(extract_reeb_graph(strip, {}, "strip"), strip, "strip");
    const double floor = 1e-3 * std::sqrt(4.0 * 4.0 + 1.0);
    for (const Sphere<double>& sphere : rig.skeleton.spheres) EXPECT_GE(sphere.radius, floor * (1 - 1e-6));
}

TEST(AutoRig, NestedSpheresOfTheRoundedEndsCollapse) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    AutoRigOptions options;
    AutoRig rig = build_auto_rig(g, capsule(), "capsule", options);
    EXPECT_LT(rig.skeleton.spheres.size(), g.nodes.size());
    for (const auto& b : rig.skeleton.bones) {
        const Sphere<double>& a = rig.skeleton.spheres[b[0]];
        const Sphere<double>& c = rig.skeleton.spheres[b[1]];
        EXPECT_GE(norm(a.centre - c.centre) - std::fabs(a.radius - c.radius),
                  options.nesting_margin * std::max(a.radius, c.radius));
    }
    // Every node is carried by a sphere, and the binding follows the nodes.
    for (std::size_t v = 0; v < capsule().vertices.size(); ++v)
        EXPECT_EQ(rig.sphere_of_vertex[v], rig.sphere_of_node[g.node_of_vertex[v]]);
}

// A vertex no triangle uses is left unbound, and does not change the body's rig: it had widened the
// radius floor's bounding box (1e-3 of a diagonal 1e4 long: every sphere radius 10 on a capsule of 0.5).
TEST(AutoRig, AStrayVertexFarAwayLeavesTheRigAsItWas) {
    TriangleMesh stray = capsule();
    stray.vertices.push_back({0, 0, 1e4});
    const ReebGraph g = extract_reeb_graph(stray, {}, "stray");
    ASSERT_EQ(g.node_of_vertex.back(), -1) << "the stray vertex is bound";
    const AutoRig plain = build_auto_rig(extract_reeb_graph(capsule(), {}, "capsule"), capsule(), "capsule");
    const AutoRig rig = build_auto_rig(g, stray, "stray");
    expect_capsule_rig(rig.skeleton, 0.01 * kRadius, 1e-9);
    ASSERT_EQ(rig.skeleton.spheres.size(), plain.skeleton.spheres.size());
    for (std::size_t i = 0; i < rig.skeleton.spheres.size(); ++i)
        EXPECT_NEAR(rig.skeleton.spheres[i].radius, plain.skeleton.spheres[i].radius, 1e-12) << "sphere " << i;
}

TEST(AutoRig, CapsulePointSetGivesTheSameKindOfRig) {
    const std::vector<Vec3<double>> points = testing::capsule_points(kRadius, kHalfLength, 6000, 7);
    AutoRig rig = build_auto_rig(extract_reeb_graph(points, {}, "points"), points, "points");
    // The nearest sample is a little farther than the surface, and centroids of random samples are a little
    // off the axis.
    expect_capsule_rig(rig.skeleton, 0.1 * kRadius, 0.02);
}

TEST(AutoRig, YTubeHasOneJunctionSphere) {
    const TriangleMesh y = testing::y_tube_mesh(0.5, 2.0, 0.1);
    AutoRig rig = build_auto_rig(extract_reeb_graph(y, {}, "y"), y, "y");
    std::vector<int> degree = sphere_degrees(rig.skeleton);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 3), 1);
    EXPECT_EQ(std::count(degree.begin(), degree.end(), 1), 3);
    const int junction = int(std::find(degree.begin(), degree.end(), 3) - degree.begin());
    EXPECT_EQ(rig.skeleton.root_sphere, junction);  // the Y's centre has the lowest μ
    EXPECT_NEAR(rig.skeleton.spheres[junction].radius, 0.5, 0.05);
}

// Every sphere of `mesh`'s rig is inside the body `inside_by` measures (the depth of a point, negative
// outside), at least half its radius deep, also with every other triangle turned the other way.
void expect_spheres_inside(const TriangleMesh& mesh, const std::function<double(const Vec3<double>&)>& inside_by, const char* name,
                           const ReebOptions& options = {}) {
    const ReebGraph g = extract_reeb_graph(mesh, options, name);
    TriangleMesh mixed = mesh;
    for (std::size_t t = 0; t < mixed.triangles.size(); t += 2) std::swap(mixed.triangles[t][1], mixed.triangles[t][2]);
    for (const TriangleMesh* body : {&mesh, static_cast<const TriangleMesh*>(&mixed)}) {
        const AutoRig rig = build_auto_rig(g, *body, name);
        for (std::size_t i = 0; i < rig.skeleton.spheres.size(); ++i) {
            const Sphere<double>& sphere = rig.skeleton.spheres[i];
            EXPECT_GT(inside_by(sphere.centre), 0.5 * sphere.radius) << name << (body == &mesh ? "" : ", mixed winding") << ": sphere " << i
                                                                     << " at " << sphere.centre.x << ", " << sphere.centre.y << ", "
                                                                     << sphere.centre.z << " radius " << sphere.radius;
        }
    }
}

// Tubes of radius 1, bent 90° and bent into a U: the bands round a bend curve round the empty space inside
// it, where their centroids lie, and each such sphere is moved into the body (the bent tube's had sat
// outside, 0.09 in radius, beside its inner crease). Inside or out is the parity of the crossings, which
// holds whichever way the triangles turn: a winding number read a closed mesh of mixed winding as empty,
// and moved the U's legs' spheres out into the gap between them (a reviewer's D-shaped tube).
TEST(AutoRig, BentTubesKeepTheirSpheresInside) {
    const auto bent_depth = [](const Vec3<double>& p) {
        return 1.0 - std::min(testing::distance_to_segment(p, {0, 0, 0}, {0, 0, 6}), testing::distance_to_segment(p, {0, 0, 0}, {6, 0, 0}));
    };
    const TriangleMesh bent = testing::marching_tetrahedra([&](const Vec3<double>& p) { return -bent_depth(p); }, {-1.5, -1.5, -1.5},
                                                           {7.5, 1.5, 7.5}, 0.15);
    bool a_centroid_outside = false;
    for (const ReebNode& node : extract_reeb_graph(bent, {}, "bent tube").nodes) a_centroid_outside |= bent_depth(node.centroid) < 0;
    EXPECT_TRUE(a_centroid_outside) << "the case this test is for";
    expect_spheres_inside(bent, bent_depth, "bent tube");
    // The U's legs are half tubes, flat towards each other: their bands' centroids lie nearest the flat
    // side, so the line through the nearest surface point crosses the gap into the other leg.
    const auto u_depth = [](const Vec3<double>& p) {
        const double left = std::min(1.0 - testing::distance_to_segment(p, {-3, 0, 0}, {-3, 0, 6}), -3 - p.x),
                     right = std::min(1.0 - testing::distance_to_segment(p, {3, 0, 0}, {3, 0, 6}), p.x - 3),
                     bottom = 1.0 - testing::distance_to_segment(p, {-3, 0, 0}, {3, 0, 0});
        return std::max({left, right, bottom});
    };
    expect_spheres_inside(testing::marching_tetrahedra([&](const Vec3<double>& p) { return -u_depth(p); }, {-4.5, -1.5, -1.5}, {4.5, 1.5, 7.5}, 0.15),
                          u_depth, "U tube");
}

TEST(AutoRig, TorusLoopIsCutIntoATree) {
    const TriangleMesh torus = testing::torus_mesh(2.0, 0.7, 120, 40);
    ReebGraph g = extract_reeb_graph(torus, {}, "torus");
    AutoRig rig = build_auto_rig(g, torus, "torus");
    EXPECT_EQ(rig.cut_edges.size(), 1u);
    EXPECT_EQ(rig.skeleton.bones.size(), rig.skeleton.spheres.size() - 1);
}

// A torus's rings' centroids lie in its hole, on its axis, and the line from one to its nearest surface
// point meets the surface on an edge of the inner equator (and again of the outer one): both triangles
// beside such an edge missed the exact Möller–Trumbore test, the entry was not counted, and the centroid
// read as inside (a user's torus of tube 0.3 kept two spheres of radius 2.7 in its hole).
TEST(AutoRig, TorusSpheresStayInTheTube) {
    for (const double tube : {0.3, 1.0}) {
        const auto depth = [tube](const Vec3<double>& p) { return tube - std::hypot(std::hypot(p.x, p.y) - 3.0, p.z); };
        const TriangleMesh torus = testing::torus_mesh(3.0, tube, 64, 24);
        for (const int intervals : {8, 32}) {
            ReebOptions options;
            options.intervals = intervals;
            const ReebGraph g = extract_reeb_graph(torus, options, "torus");
            bool a_centroid_on_the_axis = false;
            for (const ReebNode& node : g.nodes) a_centroid_on_the_axis |= std::hypot(node.centroid.x, node.centroid.y) < 0.1 * tube;
            EXPECT_TRUE(a_centroid_on_the_axis) << "the case this test is for";
            expect_spheres_inside(torus, depth, "torus", options);
        }
    }
    // A vertex no triangle uses, 1e9 away, changes nothing (it had set the crossings' resolution).
    TriangleMesh strayed = testing::torus_mesh(3.0, 0.3, 64, 24);
    strayed.vertices.push_back({0, 0, 1e9});
    expect_spheres_inside(strayed, [](const Vec3<double>& p) { return 0.3 - std::hypot(std::hypot(p.x, p.y) - 3.0, p.z); }, "torus and a stray vertex");
}

TEST(AutoRig, SkeletonAndBindingFilesRoundTrip) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    AutoRig rig = build_auto_rig(g, capsule(), "capsule");
    const std::string skeleton_path = testing::temp_path("rig.json");
    const std::string binding_path = binding_path_for(skeleton_path);
    EXPECT_EQ(binding_path, testing::temp_path("rig.binding.json"));  // so that it is removed too
    save_skeleton(skeleton_path, rig.skeleton);
    save_binding(binding_path, rig, g, capsule().vertices);
    Skeleton loaded = load_skeleton(skeleton_path, SkeletonRules::Tree);
    EXPECT_EQ(loaded.bones, rig.skeleton.bones);
    json_io::json doc = json_io::load(binding_path);
    EXPECT_EQ(doc["binding"].get<std::vector<int>>(), rig.sphere_of_vertex);
    EXPECT_EQ(doc["reeb"]["nodes"].size(), g.nodes.size());
    EXPECT_EQ(doc["reeb"]["loops"].get<int>(), 0);
}

TEST(AutoRig, BindingPathSitsNextToTheSkeleton) {
    EXPECT_EQ(binding_path_for("out/body.json"), "out/body.binding.json");
    EXPECT_EQ(binding_path_for("body"), "body.binding.json");
}

// A tube of radius 1 along x from -4 to 4, sampled in rings, every point (x, y, z) with its mirror
// (x, -y, z): two node centres mirrored in y are equally far from the nearest point to the bit.
std::vector<Vec3<double>> mirrored_tube() {
    std::vector<Vec3<double>> points;
    for (int i = 0; i <= 80; ++i)
        for (int j = 0; j < 24; ++j) {
            const double x = -4 + 0.1 * i, angle = 2 * testing::kPi * j / 24;
            points.push_back({x, std::cos(angle), std::sin(angle)});
            points.push_back({x, -std::cos(angle), std::sin(angle)});
        }
    return points;
}

// A chain of hand-made nodes on the mirrored tube: node n at `centroids[n]`, of `intervals[n]` and
// `areas[n]`, joined in order; vertex v bound to node v % n.
ReebGraph chain_graph(const std::vector<Vec3<double>>& centroids, const std::vector<int>& intervals, const std::vector<double>& areas,
                      std::size_t vertex_count) {
    ReebGraph g;
    g.intervals = *std::max_element(intervals.begin(), intervals.end()) + 1;
    for (std::size_t n = 0; n < centroids.size(); ++n) {
        g.nodes.push_back({intervals[n], areas[n], centroids[n], {}});
        if (n > 0) g.edges.push_back({int(n) - 1, int(n)});
    }
    for (std::size_t v = 0; v < vertex_count; ++v) g.node_of_vertex.push_back(int(v % centroids.size()));
    return g;
}

TEST(AutoRig, TheRootIsTheLargestNodeOfTheLowestInterval) {
    // Two nodes share the lowest interval (the body's geodesic centre falls between them); the one of larger
    // area roots the skeleton whichever index it has, and bones point away from it (breadth-first: the first
    // bone starts at the root). On equal areas the lower index roots it.
    const std::vector<Vec3<double>> tube = mirrored_tube();
    const std::vector<Vec3<double>> centroids{{-3, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {3, 0, 0}};
    for (const auto& [areas, root_node] : std::vector<std::pair<std::vector<double>, int>>{
             {{1, 1, 2, 1}, 2}, {{1, 2, 1, 1}, 1}, {{1, 1.5, 1.5, 1}, 1}}) {
        const AutoRig rig = build_auto_rig(chain_graph(centroids, {1, 0, 0, 1}, areas, tube.size()), tube, "tube");
        ASSERT_EQ(rig.skeleton.bone_count(), 3u);
        EXPECT_EQ(rig.skeleton.bones[0][0], rig.sphere_of_node[std::size_t(root_node)]) << "areas " << areas[1] << ", " << areas[2];
        for (const auto& bone : rig.skeleton.bones) EXPECT_NE(bone[1], rig.sphere_of_node[std::size_t(root_node)]);
    }
}

TEST(AutoRig, OfTwoNestedSpheresOfEqualRadiusTheLowerNodeKeepsItsSphere) {
    // Nodes 1 and 2 mirror each other across the tube's axis, 0.02 apart: their spheres are equal to the bit
    // and nest (0.02 < the margin's 0.05 radii). One goes; the lower node's is kept with its own centre, and
    // both nodes' vertices are bound to it.
    const std::vector<Vec3<double>> tube = mirrored_tube();
    const AutoRig rig = build_auto_rig(
        chain_graph({{-3, 0, 0}, {0, 0.01, 0}, {0, -0.01, 0}, {3, 0, 0}}, {1, 0, 0, 1}, {1, 1, 1, 1}, tube.size()), tube, "tube");
    ASSERT_EQ(rig.skeleton.spheres.size(), 3u);
    const int kept = rig.sphere_of_node[1];
    EXPECT_EQ(rig.sphere_of_node[2], kept);
    EXPECT_EQ(rig.skeleton.spheres[std::size_t(kept)].centre.y, 0.01);
}

TEST(AutoRigInvalid, BallLikeBodyCollapsesIntoOneSphere) {
    // Three nodes on the axis of a ball, at heights 0, 0.3 and 0.6: their largest empty balls (radii 1, 0.7,
    // 0.4) all touch the ball's surface at its pole, nested: everything collapses into the first.
    const std::vector<Vec3<double>> surface = testing::capsule_points(1.0, 0.0, 4000, 3);
    ReebGraph g;
    g.intervals = 3;
    for (int i = 0; i < 3; ++i) g.nodes.push_back({i, 1.0, {0.3 * i, 0, 0}, {}});
    g.edges = {{0, 1}, {1, 2}};
    g.node_of_vertex.assign(surface.size(), 0);
    try {
        build_auto_rig(g, surface, "ball.obj");
        FAIL() << "expected an error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("ball.obj: the skeleton collapses into a single sphere", 0), 0u) << e.what();
    }
}

// A graph in two parts, as a point set's can fall (no neighbour edge joins one interval's points to the
// next): a chain of four nodes along a capsule and `far_area` more beyond, unjoined. Vertex i is bound to
// node i % 6.
ReebGraph two_part_graph(double far_area, std::size_t vertex_count) {
    ReebGraph g;
    g.intervals = 4;
    for (int i = 0; i < 4; ++i) g.nodes.push_back({i, 1.0, {-3 + 2.0 * i, 0, 0}, {}});
    for (int i = 0; i < 2; ++i) g.nodes.push_back({i, far_area / 2, {-2.0 + 4.0 * i, 0, 0}, {}});
    g.edges = {{0, 1}, {1, 2}, {2, 3}, {4, 5}};
    for (std::size_t v = 0; v < vertex_count; ++v) g.node_of_vertex.push_back(int(v % 6));
    return g;
}

TEST(AutoRig, ASmallDetachedPartOfTheGraphIsLeftUnbound) {
    // Until 2026-12-05 the part the root was not in kept its spheres without bones, and the skeleton was
    // refused as "sphere belongs to no bone" (a ball of 3,000 points at 8 intervals, below).
    const std::vector<Vec3<double>> surface = testing::capsule_points(1.0, 4.0, 3000, 5);
    const AutoRig rig = build_auto_rig(two_part_graph(0.02, surface.size()), surface, "points");
    EXPECT_EQ(rig.detached_parts, 1u);
    EXPECT_EQ(rig.skeleton.spheres.size(), 4u);
    for (std::size_t v = 0; v < surface.size(); ++v) EXPECT_EQ(rig.sphere_of_vertex[v] < 0, v % 6 >= 4) << v;
}

TEST(AutoRig, ABallOfPointsGivesASkeleton) {
    testing::Random rng(1);
    std::vector<Vec3<double>> ball;
    for (int i = 0; i < 3000; ++i) ball.push_back(rng.unit_vector());
    const AutoRig rig = build_auto_rig(extract_reeb_graph(ball, {}, "ball"), ball, "ball");
    EXPECT_GE(rig.skeleton.bone_count(), 1u);
    EXPECT_GT(rig.detached_parts, 0u);  // what had made the extraction fail
}

TEST(AutoRigInvalid, ALargeDetachedPartOfTheGraph) {
    const std::vector<Vec3<double>> surface = testing::capsule_points(1.0, 4.0, 3000, 5);
    try {
        build_auto_rig(two_part_graph(1.0, surface.size()), surface, "points.ply");
        FAIL() << "expected an error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("points.ply: the graph falls apart into 2 parts at 4 intervals, the largest holding 80% of the area", 0), 0u)
            << e.what();
    }
}

TEST(AutoRigInvalid, OptionsOutOfRange) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    AutoRigOptions no_margin;
    no_margin.nesting_margin = 0;
    EXPECT_THROW(build_auto_rig(g, capsule(), "capsule", no_margin), InputError);
    AutoRigOptions no_floor;
    no_floor.min_radius_fraction = -1;
    EXPECT_THROW(build_auto_rig(g, capsule(), "capsule", no_floor), InputError);
}

TEST(AutoRigInvalid, SurfaceThatIsNotTheGraphs) {
    ReebGraph g = extract_reeb_graph(capsule(), {}, "capsule");
    std::vector<Vec3<double>> too_few(capsule().vertices.begin(), capsule().vertices.end() - 1);
    EXPECT_THROW(build_auto_rig(g, too_few, "points"), InputError);
}

}  // namespace
}  // namespace bs
