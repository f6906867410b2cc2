#include "host/surface_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>

#include "tests/support/shapes.hpp"

namespace bs {
namespace {

SurfaceGraph point_graph(const std::vector<Vec3<double>>& points, int neighbours) {
    NeighbourPairs pairs = nearest_neighbour_pairs(points, neighbours, 1);
    std::vector<double> area(points.size());
    for (std::size_t v = 0; v < points.size(); ++v) area[v] = pairs.kth_distance[v];  // any value a vertex's own
    return make_surface_graph(points, area, pairs.edges);
}

std::vector<Vec3<double>> shuffled(std::vector<Vec3<double>> points, unsigned seed) {
    std::shuffle(points.begin(), points.end(), std::mt19937(seed));
    return points;
}

bool is_permutation_of_vertices(std::vector<int> order, std::size_t count) {
    std::sort(order.begin(), order.end());
    std::vector<int> all(count);
    std::iota(all.begin(), all.end(), 0);
    return order == all;
}

// Mean |a − b| over the graph's edges: how far apart in memory a search's neighbours lie.
double mean_edge_span(const SurfaceGraph& graph) {
    double sum = 0;
    for (std::size_t v = 0; v < graph.vertex_count(); ++v)
        for (int e = graph.first_edge[v]; e < graph.first_edge[v + 1]; ++e) sum += std::abs(graph.edge_target[e] - int(v));
    return sum / double(graph.edge_target.size());
}

TEST(MortonOrder, PutsASurfacesNeighboursNearInMemory) {
    const auto points = shuffled(testing::capsule_points(1.0, 2.0, 20000, 3), 11);
    const SurfaceGraph graph = point_graph(points, 8);
    const std::vector<int> order = morton_order(graph.positions);
    ASSERT_TRUE(is_permutation_of_vertices(order, points.size()));
    const double before = mean_edge_span(graph), after = mean_edge_span(renumbered(graph, order));
    EXPECT_GT(before, 5000.0);  // random order: about a third of the vertex count
    EXPECT_LT(after, before / 20) << "before " << before << ", after " << after;
}

// A sheet whose thickness is rounding noise: cells cut each axis by its own extent gave the noise as many
// bits as the width, and neighbours on the sheet landed far apart (a mean span of 24,000 of 30,000).
TEST(MortonOrder, PutsAThinSheetsNeighboursNearInMemory) {
    std::vector<Vec3<double>> sheet;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> noise(-1e-9, 1e-9);
    for (int i = 0; i < 150; ++i)
        for (int j = 0; j < 150; ++j) sheet.push_back({0.01 * i, 0.01 * j, noise(rng)});
    const SurfaceGraph graph = point_graph(shuffled(sheet, 8), 8);
    const double before = mean_edge_span(graph), after = mean_edge_span(renumbered(graph, morton_order(graph.positions)));
    EXPECT_LT(after, before / 20) << "before " << before << ", after " << after;
}

TEST(MortonOrder, PointsInOneCellKeepTheirOrder) {
    std::vector<int> in_order(9);
    std::iota(in_order.begin(), in_order.end(), 0);
    EXPECT_EQ(morton_order(std::vector<Vec3<double>>(9, {1, 2, 3})), in_order);
    const std::vector<Vec3<double>> line{{3, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 0, 0}};  // no extent in y, z
    EXPECT_EQ(morton_order(line), (std::vector<int>{1, 3, 2, 0}));
    EXPECT_TRUE(morton_order({}).empty());
}

TEST(MortonOrder, ExtentsBeyondTheLargestDoubleStillGiveAPermutation) {
    const std::vector<Vec3<double>> wide{{-1e308, 0, 0}, {1e308, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    EXPECT_TRUE(is_permutation_of_vertices(morton_order(wide), wide.size()));
}

// The Reeb graph's μ runs its searches over a renumbered copy and relies on this: the same distances to
// the bit, whatever the numbering (tie-broken paths included: a grid has many of equal length).
TEST(Renumbered, SearchesGiveTheSameDistancesToTheBit) {
    std::vector<Vec3<double>> grid;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 30; ++j) grid.push_back({0.1 * i, 0.1 * j, 0.01 * ((i * j) % 3)});
    for (const auto& points : {shuffled(testing::capsule_points(1.0, 2.0, 3000, 5), 2), shuffled(grid, 4)}) {
        const SurfaceGraph graph = point_graph(points, 6);
        std::vector<int> random_order(points.size());
        std::iota(random_order.begin(), random_order.end(), 0);
        std::shuffle(random_order.begin(), random_order.end(), std::mt19937(9));
        for (const std::vector<int>& order : {morton_order(graph.positions), random_order}) {
            const SurfaceGraph copy = renumbered(graph, order);
            ASSERT_EQ(copy.edge_target.size(), graph.edge_target.size());
            const std::vector<int> number_of = inverse_permutation(order);
            GeodesicSearch original(graph), search(copy);
            for (int source : {0, 17, int(points.size()) - 1}) {
                original.run({source});
                search.run({number_of[source]});
                for (std::size_t v = 0; v < points.size(); ++v)
                    ASSERT_EQ(search.distance(number_of[v]), original.distance(int(v))) << "vertex " << v;
            }
            for (std::size_t i = 0; i < order.size(); ++i) {
                EXPECT_EQ(norm(copy.positions[i] - graph.positions[order[i]]), 0.0);
                EXPECT_EQ(copy.vertex_area[i], graph.vertex_area[order[i]]);
                EXPECT_TRUE(std::is_sorted(copy.edge_target.begin() + copy.first_edge[i],
                                           copy.edge_target.begin() + copy.first_edge[i + 1]));
            }
        }
    }
}

}  // namespace
}  // namespace bs
