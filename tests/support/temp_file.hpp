// Temporary files named after the running test, so tests run in parallel (ctest -j) never share one.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace bs::testing {

// Path of a temporary file unique to the current test, ending in `suffix` (e.g. "skeleton.json").
inline std::string temp_path(const std::string& suffix) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return ::testing::TempDir() + "baseskin_" + info->test_suite_name() + "_" + info->name() + "_" + suffix;
}

inline std::string write_temp(const std::string& suffix, const std::string& text) {
    std::string path = temp_path(suffix);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace bs::testing
