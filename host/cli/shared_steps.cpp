#include "host/cli/shared_steps.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>

#include <unistd.h>

#include "host/cli/report.hpp"
#include "host/errors.hpp"
#include "host/system_memory.hpp"

namespace bs::cli {

void require_memory_for_points(std::size_t points, double bytes_per_point) {
    const std::string shortfall = memory_shortfall(double(points) * bytes_per_point, usable_memory());
    if (!shortfall.empty()) throw UnsupportedError("--points " + std::to_string(points) + ": " + shortfall + ": fewer points");
}

void require_folder_can_be_made(const std::string& folder) {
    std::filesystem::path part = std::filesystem::absolute(folder);
    std::error_code error;
    while (!std::filesystem::exists(part, error) && part.has_relative_path()) part = part.parent_path();
    if (!std::filesystem::is_directory(part, error))
        throw IoError(folder + ": cannot create folder: " + part.string() + " is not a folder");
    if (::access(part.c_str(), W_OK | X_OK) != 0)
        throw IoError(folder + ": cannot create or write folder: " + part.string() + " is not writable (" + std::strerror(errno) + ")");
}

std::filesystem::path prepare_folder(const std::string& folder) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) throw IoError(folder + ": cannot create folder: " + error.message());
    return folder;
}

void note_normals_not_deformed(const PointSet& set) {
    const PlyElement* vertex = set.file.find("vertex");
    if (vertex && (vertex->find("nx") || vertex->find("ny") || vertex->find("nz")))
        report("note: the points' normals (nx, ny, nz) are written as read, not deformed: recompute them for the posed body\n");
}

}  // namespace bs::cli
