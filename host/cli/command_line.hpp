// The baseskin command line: every command's options registered on one CLI11 app, parsed apart from
// running, so the parse can be fuzzed (tests/fuzz/fuzz_cli_args.cpp) without a command touching files.
#pragma once

#include <CLI/CLI.hpp>

#include "host/cli/commands.hpp"
#include "host/cli/drag_command.hpp"
#include "host/cli/rig_command.hpp"
#include "host/cli/skeleton_command.hpp"

namespace bs::cli {

class CommandLine {
public:
    CommandLine();
    CommandLine(const CommandLine&) = delete;  // the app holds pointers into the options below
    CommandLine& operator=(const CommandLine&) = delete;

    // Parses argv; throws CLI::ParseError (help asked for, or a bad command line) as CLI11 does.
    void parse(int argc, const char* const* argv);
    // Prints help or a parse error for `error` and returns the exit code (0 for help, else kExitUsage).
    int exit(const CLI::ParseError& error);
    // Runs the parsed command; throws the host's errors (host/errors.hpp) for the caller to report.
    void run() const;

    const AnimateOptions& animate() const { return animate_; }

private:
    CLI::App app_{"baseskin: skinning of point sets over a sphere-mesh skeleton: baseline skinning (the engine's own method), LBS, "
                  "DQS and metaball deformation, on the CPU or an NVIDIA GPU; skeleton extraction and rigging of captures and models"};
    AnimateOptions animate_;
    DemoOptions demo_;
    DragOptions drag_;
    SkeletonOptions skeleton_;
    RigOptions rig_;
};

}  // namespace bs::cli
