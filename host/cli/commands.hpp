// The CLI's commands: options, their registration with CLI11, and what each runs.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace bs::cli {

struct AnimateOptions {
    std::string skeleton, points, pose, motion, out;
    std::string method = "dqs";
    std::string format = "input";  // "input" (same as the points file), "ascii" or "binary"
    bool auto_weights = false;
    int threads = 0;
};

struct DemoOptions {
    std::string out = "baseskin-demo";
    std::size_t points = 200000;
    int frames = 24;
    std::string method = "baseline";
    int threads = 0;
};

void add_animate_command(CLI::App& app, AnimateOptions& options);
void add_demo_command(CLI::App& app, DemoOptions& options);

void run_animate(const AnimateOptions& options);
void run_demo(const DemoOptions& options);

}  // namespace bs::cli
