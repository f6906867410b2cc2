#include "host/system_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace bs {

namespace {

// The machine's physical memory in bytes, 0 where it is unknown.
double physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

// The number a control group's limit file holds, +inf where it cannot be read or says "max".
double limit_in_file(const std::string& path) {
    std::ifstream file(path);
    std::string text;
    if (!(file >> text) || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return INFINITY;
    return std::strtod(text.c_str(), nullptr);
}

// The lowest limit in `file` of the group at `path` under `root` and of every group above it (a group's
// memory is bounded by its ancestors' limits too).
double lowest_limit_along(const std::string& root, std::string path, const std::string& file) {
    double lowest = INFINITY;
    for (;;) {
        lowest = std::min(lowest, limit_in_file(root + path + (path.empty() || path.back() == '/' ? "" : "/") + file));
        const std::size_t slash = path.find_last_of('/');
        if (slash == std::string::npos || path.size() <= 1) return lowest;
        path.erase(slash == 0 ? 1 : slash);
    }
}
}  // namespace

double cgroup_memory_limit(const std::string& cgroup_root, const std::string& self_cgroup) {
    double lowest = INFINITY;
    std::istringstream lines(self_cgroup);
    for (std::string line; std::getline(lines, line);) {
        // "hierarchy-id:controllers:path"; the path may itself hold colons.
        const std::size_t first = line.find(':'), second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
        if (path.empty() || path[0] != '/') continue;
        if (line.compare(0, first, "0") == 0 && controllers.empty())
            lowest = std::min(lowest, lowest_limit_along(cgroup_root, path, "memory.max"));
        else if (("," + controllers + ",").find(",memory,") != std::string::npos)
            lowest = std::min(lowest, lowest_limit_along(cgroup_root + "/memory", path, "memory.limit_in_bytes"));
    }
    return lowest;
}

double usable_memory() {
    std::ifstream file("/proc/self/cgroup");
    const std::string self((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    // Inside a container the group's path in /proc/self/cgroup may not be mounted as such: its limit is
    // then the mount's root's, which lowest_limit_along reads too.
    const double group = cgroup_memory_limit("/sys/fs/cgroup", self), machine = physical_memory();
    if (machine <= 0) return group < INFINITY ? group : 0.0;
    return std::min(machine, group);
}

std::string memory_shortfall(double bytes, double usable) {
    if (usable <= 0 || bytes <= usable) return std::string();
    char text[160];
    std::snprintf(text, sizeof text, "about %.1f GB, more than this process may use (%.1f GB: the machine's memory or its container's limit)",
                  bytes / 1e9, usable / 1e9);
    return text;
}

}  // namespace bs
