// baseskin: the command-line front end. Parses arguments (CLI11), runs one command, and maps errors to
// the exit codes documented in the README (host/errors.hpp).
#include <CLI/CLI.hpp>

#include "host/cli/commands.hpp"
#include "host/cli/drag_command.hpp"
#include "host/cli/rig_command.hpp"
#include "host/cli/skeleton_command.hpp"
#include "host/errors.hpp"

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
        return code == 0 ? bs::kExitOk : bs::kExitUsage;
    }
    return bs::run_reporting_errors("baseskin", [&] {
        if (app.got_subcommand("animate")) bs::cli::run_animate(animate);
        if (app.got_subcommand("demo")) bs::cli::run_demo(demo);
        if (app.got_subcommand("drag")) bs::cli::run_drag(drag);
        if (app.got_subcommand("skeleton")) bs::cli::run_skeleton(skeleton);
        if (app.got_subcommand("rig")) bs::cli::run_rig(rig);
        return int(bs::kExitOk);
    });
}
