// `baseskin skeleton`: automatic sphere-mesh skeleton of a triangle mesh or a point set (seed 001 §1.1):
// multiresolution Reeb graph (host/reeb_graph.hpp), then one sphere per node (host/auto_rig.hpp). Writes
// the skeleton JSON (tree rules: junctions allowed) and the vertex-to-sphere binding, next to it
// (binding_path_for: S.json → S.binding.json) unless --out-binding names its file.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace bs::cli {

struct SkeletonOptions {
    std::string mesh, points, out;
    std::string out_binding;  // empty: binding_path_for(out)
    int intervals = 8;
    double radius_coefficient = 0.005;
    int threads = 0;
};

void add_skeleton_command(CLI::App& app, SkeletonOptions& options);
void run_skeleton(const SkeletonOptions& options);

}  // namespace bs::cli
