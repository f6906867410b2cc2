// Temporary files named after the running test, so tests run in parallel (ctest -j) never share one.
// Every path handed out is removed (files and directories) when its test ends without failing; a failed
// test's files stay under ::testing::TempDir() for a look.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace bs::testing {

namespace detail {

// The paths temp_path gave out during the running test.
inline std::vector<std::string>& paths_of_running_test() {
    static std::vector<std::string> paths;
    return paths;
}

class RemoveTempFilesOfPassedTests : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& info) override {
        if (!info.result()->Failed())
            for (const std::string& path : paths_of_running_test()) {
                std::error_code ignored;  // a path the test never created, or already removed
                std::filesystem::remove_all(path, ignored);
            }
        paths_of_running_test().clear();
    }
};

// Installed once per test program, before main (gtest owns the listener).
inline const bool kTempFilesRemoved =
    (::testing::UnitTest::GetInstance()->listeners().Append(new RemoveTempFilesOfPassedTests), true);

}  // namespace detail

// Path of a temporary file (or directory) unique to the current test, ending in `suffix` (e.g.
// "skeleton.json"); removed when the test ends without failing.
inline std::string temp_path(const std::string& suffix) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string path = ::testing::TempDir() + "baseskin_" + info->test_suite_name() + "_" + info->name() + "_" + suffix;
    detail::paths_of_running_test().push_back(path);
    return path;
}

inline std::string write_temp(const std::string& suffix, const std::string& text) {
    std::string path = temp_path(suffix);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace bs::testing
