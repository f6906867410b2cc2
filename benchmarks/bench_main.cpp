// baseskin-bench: deformation throughput of each method on the CPU backend, at several sizes, with the
// ratio to LBS measured in the same run (absolute times are only meaningful on the target machine).
// Each size: the demo chain's surface points, auto weights, one warm-up, then `repeats` timed frames of
// the demo's half-way pose; the median is reported.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "host/classic_skinner.hpp"
#include "host/demo_body.hpp"
#include "host/weights.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median_seconds(const bs::ClassicSkinner<float>& skinner, const bs::Pose& pose, bs::ClassicMethod method,
                      int repeats, int threads) {
    std::vector<bs::Vec3<float>> out;
    skinner.deform(pose, method, out, {threads});  // warm-up: page-in and first-touch of the output
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        skinner.deform(pose, method, out, {threads});
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + repeats / 2, seconds.end());
    return seconds[repeats / 2];
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"baseskin-bench: CPU deformation throughput per method, as a ratio to LBS"};
    std::vector<std::size_t> sizes{10000, 100000, 1000000};
    int repeats = 9, threads = 0;
    app.add_option("--sizes", sizes, "point counts")->capture_default_str();
    app.add_option("--repeats", repeats, "timed frames per size (median reported)")->check(CLI::Range(1, 1000))->capture_default_str();
    app.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    bs::Skeleton skeleton = bs::demo_chain();
    bs::Pose pose = bs::demo_pose(skeleton, 0.5);
    std::printf("| points | method | ns/point | points/s | ratio to LBS |\n|---:|---|---:|---:|---:|\n");
    for (std::size_t n : sizes) {
        std::vector<bs::Vec3<double>> rest = bs::demo_points(skeleton, n, 7);
        bs::ClassicSkinner<float> skinner(skeleton, rest, bs::auto_influences(skeleton, rest), "bench");
        double lbs = median_seconds(skinner, pose, bs::ClassicMethod::lbs, repeats, threads);
        double dqs = median_seconds(skinner, pose, bs::ClassicMethod::dqs, repeats, threads);
        for (auto [name, s] : {std::pair{"LBS", lbs}, std::pair{"DQS", dqs}})
            std::printf("| %zu | %s | %.2f | %.3g | %.2f |\n", n, name, 1e9 * s / double(n), double(n) / s, s / lbs);
    }
    return 0;
}
