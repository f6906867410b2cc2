// The CLI's commands: options, their registration with CLI11, and what each runs.
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
    int table_samples = kDefaultPhiSamples;  // baseline: φ and ψ samples per bone of the tables
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

// Refuses (UnsupportedError, exit code 4) `--points N` where N points at `bytes_per_point` (the command's
// peak, measured: benchmarks/RESULTS.md) need more memory than this process may use (memory_shortfall),
// before anything is made.
void require_memory_for_points(std::size_t points, double bytes_per_point);

// Says when the points carry per-vertex normals (nx, ny, nz): they are passed through as read, not
// deformed (animate, drag), so a renderer reading them would light the posed body by its rest normals.
void note_normals_not_deformed(const PointSet& set);

// Creates `folder` (and its parents) if needed; IoError naming it otherwise.
std::filesystem::path prepare_folder(const std::string& folder);
// IoError naming `folder` where prepare_folder would surely fail (a part of its path is a file, or the
// nearest part that exists is a folder this process may not write), without creating anything: said before
// a long run instead of after it.
void require_folder_can_be_made(const std::string& folder);

// --frames "A:B", "A:" or ":B" → [A, B) within [0, count). Malformed text is a bad command line
// (CLI::ValidationError: the option's check, at the parse); a range with no frame of the motion is
// invalid input (InputError: it depends on the motion file).
std::pair<std::size_t, std::size_t> frame_range(const std::string& text, std::size_t count);

void run_animate(const AnimateOptions& options);
void run_demo(const DemoOptions& options);

}  // namespace bs::cli
