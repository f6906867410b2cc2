// Options and checks several commands share.
#pragma once

#include <CLI/CLI.hpp>

namespace bs::cli {

// --threads N on `command`: 0 (all cores) to kMaxThreads.
constexpr int kMaxThreads = 1024;
void add_threads_option(CLI::App* command, int& threads);

// A check that an option's number is finite (CLI::Range lets NaN through: no comparison fails for it).
CLI::Validator finite_number();

}  // namespace bs::cli
