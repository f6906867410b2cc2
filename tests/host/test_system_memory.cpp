// The memory a process may use (host/system_memory.hpp): a container's cgroup limit (v1 or v2, the
// group's own or an ancestor's) where it is below the machine's, read from fake cgroup trees.
#include "host/system_memory.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

// A fake /sys/fs/cgroup tree: each entry a file below `root` and its text.
std::string cgroup_tree(const std::vector<std::pair<std::string, std::string>>& files) {
    const std::string root = testing::temp_path("cgroup");
    for (const auto& [path, text] : files) {
        std::filesystem::create_directories(std::filesystem::path(root + path).parent_path());
        std::ofstream(root + path) << text;
    }
    return root;
}

TEST(SystemMemory, AContainersLimitBoundsWhatTheProcessMayUse) {
    // A container's limit below the machine's memory: half the machine's (the assimp child's cap) could be
    // more than the container has, and its out-of-memory killer would end the program instead of the
    // reader failing.
    const std::string v2 = cgroup_tree({{"/memory.max", "max\n"}, {"/box/memory.max", "4294967296\n"}, {"/box/job/memory.max", "max\n"}});
    EXPECT_EQ(cgroup_memory_limit(v2, "0::/box/job\n"), 4294967296.0);  // an ancestor's limit bounds the group
    EXPECT_EQ(cgroup_memory_limit(v2, "0::/\n"), INFINITY);              // "max": no limit
    const std::string v1 = cgroup_tree({{"/memory/memory.limit_in_bytes", "9223372036854771712\n"},
                                        {"/memory/a:b/memory.limit_in_bytes", "1073741824\n"}});
    EXPECT_EQ(cgroup_memory_limit(v1, "9:pids:/\n4:cpu,memory:/a:b\n0::/\n"), 1073741824.0);  // a colon in the path
    EXPECT_EQ(cgroup_memory_limit(v1, "4:memory:/elsewhere\n"), 9223372036854771712.0);       // the mount's root's
    EXPECT_EQ(cgroup_memory_limit(v1, "4:cpu:/a:b\ngarbage\n"), INFINITY);                  // no memory controller
    EXPECT_EQ(cgroup_memory_limit(testing::temp_path("absent"), "0::/box\n"), INFINITY);
    EXPECT_GT(usable_memory(), 0.0);
    EXPECT_LE(usable_memory(), double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGE_SIZE)));
}

TEST(SystemMemory, ARunBeyondWhatTheProcessMayUseIsSaid) {
    EXPECT_EQ(memory_shortfall(3e9, 2e9), "about 3.0 GB, more than this process may use (2.0 GB: the machine's memory or its container's limit)");
    EXPECT_EQ(memory_shortfall(2e9, 2e9), "");
    EXPECT_EQ(memory_shortfall(3e9, 0), "");  // unknown: not refused
}

}  // namespace
}  // namespace bs
