// `baseskin drag`: the paper's interaction (seed 001 §1.2–1.3), headless. Moves one joint (sphere) of the
// skeleton to a target, propagates the motion along a chain of joints by Bézier propagation
// (host/bezier_chain.hpp), deforms the points by metaballs (host/metaball_skinner.hpp) and writes them as
// a PLY. A --points input keeps its format (ASCII stays ASCII, binary becomes binary little-endian) and
// every other property and element (faces); a --mesh input (host/mesh_io.hpp) is written as binary
// little-endian vertices and triangles.
// Binding of the points to joints: --binding if given; else the extraction's binding beside the skeleton
// (`baseskin skeleton` writes S.json and S.binding.json) if that file exists; else the nearest joint sphere.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace bs::cli {

struct DragOptions {
    std::string skeleton, points, mesh, binding, out;
    std::string out_skeleton;  // where the dragged skeleton goes (empty: not written)
    std::string target;        // "x,y,z"
    int joint = 0;
    int chain = 3;             // joints moved, the dragged one and the held one included
    bool chain_given = false;  // without --chain: 3, or fewer where the joint's chain ends sooner
    bool keep_lengths = false;
    int threads = 0;
};

void add_drag_command(CLI::App& app, DragOptions& options);
void run_drag(const DragOptions& options);

}  // namespace bs::cli
