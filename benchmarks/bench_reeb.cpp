// baseskin-bench-reeb: time of the skeleton extraction (seed 001 §1.1) — Reeb graph, then automatic rig —
// for a triangle mesh and for a point set of about each requested size.
// Input: a Y-shaped tube (three arms of length 3 and radius 0.5, marching tetrahedra, the step chosen for
// the vertex count); the point set is the same vertices without the triangles, in the mesh's order (which
// marching keeps spatially coherent) and shuffled (as a random sampler or a merged scan hands them over).
// Each case runs once after one warm-up on the smallest size; times are wall-clock seconds.
#include <CLI/CLI.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "host/auto_rig.hpp"
#include "host/reeb_graph.hpp"
#include "host/stopwatch.hpp"
#include "tests/support/shapes.hpp"

namespace {

using bs::seconds_since;
using bs::SteadyClock;

// A Y tube with about `vertices` vertices (marching tetrahedra: the count goes as 1 / step²).
bs::TriangleMesh y_tube_with(std::size_t vertices) {
    double step = 0.1;
    bs::TriangleMesh mesh = bs::testing::y_tube_mesh(0.5, 3.0, step);
    step *= std::sqrt(double(mesh.vertices.size()) / double(vertices));
    return bs::testing::y_tube_mesh(0.5, 3.0, step);
}

struct Timing {
    double graph_seconds = 0, rig_seconds = 0;
    std::size_t bases = 0, nodes = 0, spheres = 0;
};

template <class Surface>
Timing time_extraction(const Surface& surface, const bs::ReebOptions& options) {
    Timing t;
    auto start = SteadyClock::now();
    bs::ReebGraph graph = bs::extract_reeb_graph(surface, options, "bench");
    t.graph_seconds = seconds_since(start);
    start = SteadyClock::now();
    bs::AutoRigOptions rig_options;
    rig_options.threads = options.threads;
    bs::AutoRig rig = bs::build_auto_rig(graph, surface, "bench", rig_options);
    t.rig_seconds = seconds_since(start);
    t.bases = graph.base_vertices.size();
    t.nodes = graph.nodes.size();
    t.spheres = rig.skeleton.spheres.size();
    return t;
}

void print_row(std::size_t samples, const char* input, int threads, const Timing& t) {
    std::printf("| %zu | %s | %d | %.3f | %.3f | %.3f | %zu | %zu | %zu |\n", samples, input, threads, t.graph_seconds,
                t.rig_seconds, t.graph_seconds + t.rig_seconds, t.bases, t.nodes, t.spheres);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"baseskin-bench-reeb: skeleton extraction time (Reeb graph + automatic rig), mesh and point set"};
    std::vector<std::size_t> sizes{10000, 100000};
    std::vector<int> threads{1, 0};
    bs::ReebOptions options;
    app.add_option("--sizes", sizes, "approximate vertex counts")->capture_default_str();
    app.add_option("--threads", threads, "thread counts to run (0: all cores)")->capture_default_str();
    app.add_option("--intervals", options.intervals, "k")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    (void)time_extraction(y_tube_with(2000), options);  // warm-up
    std::printf("| vertices | input | threads | Reeb graph s | rig s | total s | bases | nodes | spheres |\n");
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (std::size_t size : sizes) {
        const bs::TriangleMesh mesh = y_tube_with(size);
        std::vector<bs::Vec3<double>> shuffled = mesh.vertices;
        std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(1));
        for (int t : threads) {
            options.threads = t;
            const int shown = t > 0 ? t : omp_get_max_threads();
            print_row(mesh.vertices.size(), "mesh", shown, time_extraction(mesh, options));
            print_row(mesh.vertices.size(), "points", shown, time_extraction(mesh.vertices, options));
            print_row(mesh.vertices.size(), "points, shuffled", shown, time_extraction(shuffled, options));
        }
    }
}
