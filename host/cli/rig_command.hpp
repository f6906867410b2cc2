// `baseskin rig`: a body to animate from a motion capture. Given a BVH capture it builds a sphere-mesh on
// the capture's hierarchy with human proportions (host/bvh_rig.hpp), samples points over its surface with
// a relief of bumps (host/demo_body.hpp), weights them for LBS/DQS, and turns the capture into a motion:
// DIR/skeleton.json, DIR/points.ply (binary, with bone0..3/weight0..3) and DIR/motion.json.
// Rigged models (FBX, Collada, glTF, ...) are not supported yet (exit code 4).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace bs::cli {

struct RigOptions {
    std::string model, out;
    std::size_t points = 200000;
    unsigned seed = 2024;
};

void add_rig_command(CLI::App& app, RigOptions& options);
void run_rig(const RigOptions& options);

}  // namespace bs::cli
