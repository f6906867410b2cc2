#include "host/input_limits.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "host/errors.hpp"

namespace bs {

std::ifstream open_input_file(const std::string& path, std::uintmax_t max_bytes, const std::string& kind) {
    // The type first: opening a FIFO for reading would block until something writes to it.
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec) throw IoError(path + ": cannot open for reading (" + ec.message() + ")");
    if (!std::filesystem::is_regular_file(status)) throw IoError(path + ": cannot read: not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw IoError(path + ": cannot read its size (" + ec.message() + ")");
    if (size > max_bytes)
        throw InputError(path + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                         " bytes a " + kind + " file may have (README, \"Input limits\")");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path + ": cannot open for reading (" + std::strerror(errno) + ")");
    return in;
}

std::string motion_size_problem(std::size_t frames, std::size_t bones) {
    if (frames > kMaxMotionFrames)
        return std::to_string(frames) + " frames exceed the limit of " + std::to_string(kMaxMotionFrames) + " a motion may hold";
    if (bones > 0 && frames > kMaxMotionJointRotations / bones)
        return std::to_string(frames) + " frames of " + std::to_string(bones) + " bones exceed the limit of " +
               std::to_string(kMaxMotionJointRotations) + " joint rotations (frames × bones) a motion may hold";
    return "";
}

void check_point_count(std::size_t count, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    if (count > kMaxPoints)
        throw InputError(source + ": " + std::to_string(count) + " points, more than the " + std::to_string(kMaxPoints) +
                         " a point set may have (README, \"Input limits\")");
}

void check_rest_points(const std::vector<Vec3<double>>& rest, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    check_point_count(rest.size(), source);
    for (std::size_t i = 0; i < rest.size(); ++i)
        if (!within_input_magnitude(rest[i]))
            throw InputError(source + ": vertex " + std::to_string(i) + ": a position " + outside_input_magnitude_text() + ": (" + number_text(rest[i].x) + ", " +
                             number_text(rest[i].y) + ", " + number_text(rest[i].z) + ")");
}

template <class T>
std::vector<Vec3<T>> checked_rest_points(const std::vector<Vec3<double>>& rest, const std::string& source) {
    check_rest_points(rest, source);
    std::vector<Vec3<T>> stored;
    stored.reserve(rest.size());
    for (const Vec3<double>& p : rest) stored.push_back(Vec3<T>(p));
    return stored;
}

template std::vector<Vec3<float>> checked_rest_points(const std::vector<Vec3<double>>&, const std::string&);
template std::vector<Vec3<double>> checked_rest_points(const std::vector<Vec3<double>>&, const std::string&);

}  // namespace bs
