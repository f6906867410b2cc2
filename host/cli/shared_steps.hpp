// Steps several commands take (animate, demo, drag, rig): the memory for --points, output folders, the
// note on normals.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "host/ply.hpp"

namespace bs::cli {

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

}  // namespace bs::cli
