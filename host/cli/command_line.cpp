#include "host/cli/command_line.hpp"

#include "host/errors.hpp"

namespace bs::cli {

CommandLine::CommandLine() {
    app_.require_subcommand(1);
    add_animate_command(app_, animate_);
    add_demo_command(app_, demo_);
    add_drag_command(app_, drag_);
    add_skeleton_command(app_, skeleton_);
    add_rig_command(app_, rig_);
}

void CommandLine::parse(int argc, const char* const* argv) { app_.parse(argc, argv); }

int CommandLine::exit(const CLI::ParseError& error) {
    return app_.exit(error) == 0 ? kExitOk : kExitUsage;
}

void CommandLine::run() const {
    if (app_.got_subcommand("animate")) run_animate(animate_);
    if (app_.got_subcommand("demo")) run_demo(demo_);
    if (app_.got_subcommand("drag")) run_drag(drag_);
    if (app_.got_subcommand("skeleton")) run_skeleton(skeleton_);
    if (app_.got_subcommand("rig")) run_rig(rig_);
}

}  // namespace bs::cli
