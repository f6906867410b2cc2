// The CLI's animate and demo commands: options, their registration with CLI11, and what each runs (the
// other commands have files of their own: drag_command, rig_command, skeleton_command).
#pragma once

#include <CLI/CLI.hpp>

#include "engine/baseline/table.hpp"
#include "host/demo_body.hpp"
#include "host/ply.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace bs::cli {

// What every deforming command shares: the method, the backend and the baseline method's tables.
struct DeformChoice {
    std::string method;
    std::string backend = "auto";  // "cpu", "cuda", or "auto": the GPU where one is usable, else the CPU
    int threads = 0;
    bool exact = false;            // baseline: the direct construction instead of the per-frame tables
    int table_samples = kDefaultPhiSamples;  // baseline: φ samples per bone of the tables (ψ: fan_samples_for them)
};

struct AnimateOptions {
    std::string skeleton, points, pose, motion, out;
    std::string frames;            // "A:B": the motion's frames [A, B) (either end may be omitted)
    std::string format = "input";  // "input" (same as the points file), "ascii" or "binary"
    bool auto_weights = false;
    DeformChoice deform{"dqs"};
};

struct DemoOptions {
    std::string out = "baseskin-demo";
    std::string body = "human";  // "human": a humanoid on a capture; "chain": the built-in chain
    std::string capture = kDemoCapture;
    std::size_t points = 0;      // 0: 1,000,000 for the human, 200,000 for the chain
    int frames = 0;              // 0: 6 for the human (spread over the capture), 24 for the chain
    DeformChoice deform{"baseline"};
};

void add_animate_command(CLI::App& app, AnimateOptions& options);
void add_demo_command(CLI::App& app, DemoOptions& options);

// --frames "A:B", "A:" or ":B" → [A, B) within [0, count). Malformed text is a bad command line
// (CLI::ValidationError: the option's check, at the parse); a range with no frame of the motion is
// invalid input (InputError: it depends on the motion file).
std::pair<std::size_t, std::size_t> frame_range(const std::string& text, std::size_t count);

void run_animate(const AnimateOptions& options);
void run_demo(const DemoOptions& options);

}  // namespace bs::cli
