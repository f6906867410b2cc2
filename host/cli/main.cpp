// baseskin: the command-line front end. Parses arguments (CLI11), runs one command, and maps errors to
// the exit codes documented in the README:
//   0 success · 1 bad command line · 2 invalid input · 3 file I/O · 4 unsupported request · 5 internal error
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "host/cli/commands.hpp"
#include "host/cli/drag_command.hpp"
#include "host/cli/rig_command.hpp"
#include "host/cli/skeleton_command.hpp"
#include "host/errors.hpp"

namespace {

enum ExitCode { kOk = 0, kUsage = 1, kInput = 2, kIo = 3, kUnsupported = 4, kInternal = 5 };

int report(const char* kind, const std::exception& e, int code) {
    std::fprintf(stderr, "baseskin: %s: %s\n", kind, e.what());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"baseskin: skinning of point sets over a sphere-mesh skeleton (LBS, DQS on the CPU)"};
    app.require_subcommand(1);
    bs::cli::AnimateOptions animate;
    bs::cli::DemoOptions demo;
    bs::cli::add_animate_command(app, animate);
    bs::cli::add_demo_command(app, demo);
    bs::cli::DragOptions drag;
    bs::cli::add_drag_command(app, drag);
    bs::cli::SkeletonOptions skeleton;
    bs::cli::add_skeleton_command(app, skeleton);
    bs::cli::RigOptions rig;
    bs::cli::add_rig_command(app, rig);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);  // prints help or the parse error
        return code == 0 ? kOk : kUsage;
    }
    try {
        if (app.got_subcommand("animate")) bs::cli::run_animate(animate);
        if (app.got_subcommand("demo")) bs::cli::run_demo(demo);
        if (app.got_subcommand("drag")) bs::cli::run_drag(drag);
        if (app.got_subcommand("skeleton")) bs::cli::run_skeleton(skeleton);
        if (app.got_subcommand("rig")) bs::cli::run_rig(rig);
        return kOk;
    } catch (const bs::InputError& e) {
        return report("invalid input", e, kInput);
    } catch (const bs::IoError& e) {
        return report("I/O error", e, kIo);
    } catch (const bs::UnsupportedError& e) {
        return report("unsupported", e, kUnsupported);
    } catch (const std::exception& e) {
        return report("internal error", e, kInternal);
    }
}
