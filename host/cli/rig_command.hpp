// `baseskin rig`: a body to animate from a motion capture or a rigged model. Writes DIR/skeleton.json,
// DIR/points.ply (binary, with bone0..3/weight0..3) and DIR/motion.json.
// - A BVH capture: a sphere-mesh on the capture's hierarchy with human proportions (host/bvh_rig.hpp),
//   points over its surface with a relief of bumps (host/demo_body.hpp) and automatic weights.
// - A rigged model (FBX, Collada, glTF, X, SMD, ... through assimp, host/model_io.hpp): a sphere-mesh on
//   its bones with radii fitted to its mesh, points over the mesh with weights interpolated from the
//   model's, and its first animation (host/model_rig.hpp). A model without bones gives points.ply alone;
//   one without animation, no motion.json.
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
