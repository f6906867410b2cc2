// baseskin-bench: encoding and deformation throughput of each method on the CPU backend, at several
// sizes, with the ratio to LBS measured in the same run (absolute times are only meaningful on the
// machine they were taken on).
// Each size: the demo chain's surface points with relief; the demo's half-way pose (joint 1 bent 67.5°,
// bone 2 twisted 90°) plus a root motion, which every method deforms; one warm-up, then `repeats` timed
// frames; the median is reported. "encode" is the one-off rest-time work: automatic weights for LBS and
// DQS, the per-point codes for baseline, the nearest-sphere binding and radii for metaball.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "host/demo_body.hpp"
#include "host/skinner.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median_deform_seconds(const bs::Skinner& skinner, const bs::Pose& pose, int repeats, int threads) {
    std::vector<bs::Vec3<float>> out;
    skinner.deform(pose, out, {threads});  // warm-up: page-in and first touch of the output
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        skinner.deform(pose, out, {threads});
        seconds.push_back(seconds_since(start));
    }
    std::nth_element(seconds.begin(), seconds.begin() + repeats / 2, seconds.end());
    return seconds[repeats / 2];
}

bs::Pose bench_pose(const bs::Skeleton& skeleton) {
    bs::Pose pose = bs::demo_pose(skeleton, 0.5);
    pose.root.translation = {0.5, -0.25, 1.0};
    return pose;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"baseskin-bench: CPU encoding and deformation throughput per method, as ratios to LBS"};
    std::vector<std::size_t> sizes{10000, 100000, 1000000};
    int repeats = 7, threads = 0;
    app.add_option("--sizes", sizes, "point counts")->capture_default_str();
    app.add_option("--repeats", repeats, "timed frames per size (median reported)")->check(CLI::Range(1, 1000))->capture_default_str();
    app.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    bs::Skeleton skeleton = bs::demo_chain();
    bs::Pose pose = bench_pose(skeleton);
    std::printf("| points | method | encode points/s | deform ns/point | deform points/s | deform time / LBS |\n");
    std::printf("|---:|---|---:|---:|---:|---:|\n");
    for (std::size_t n : sizes) {
        std::vector<bs::Vec3<double>> rest = bs::demo_points(skeleton, n, 7);
        double lbs_seconds = 0;
        for (bs::Method method : {bs::Method::lbs, bs::Method::dqs, bs::Method::baseline, bs::Method::metaball}) {
            auto start = Clock::now();
            bs::Skinner skinner(method, skeleton, rest, {}, "bench");
            double encode = seconds_since(start);
            double deform = median_deform_seconds(skinner, pose, repeats, threads);
            if (method == bs::Method::lbs) lbs_seconds = deform;
            std::printf("| %zu | %s | %.3g | %.2f | %.3g | %.2f |\n", n, bs::method_name(method), double(n) / encode,
                        1e9 * deform / double(n), double(n) / deform, deform / lbs_seconds);
        }
    }
    return 0;
}
