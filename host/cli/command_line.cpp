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

void CommandLine::parse(int argc, const char* const* argv) {
    // CLI11 reads a word that names no command as a missing command ("A subcommand is required").
    if (argc > 1 && argv[1][0] != '-') {
        std::string commands;
        bool known = false;
        for (const CLI::App* c : app_.get_subcommands([](const CLI::App*) { return true; })) {
            commands += (commands.empty() ? "" : ", ") + c->get_name();
            known = known || c->check_name(argv[1]);
        }
        if (!known) throw CLI::ValidationError(std::string("unknown command \"") + argv[1] + "\" (the commands: " + commands + ")");
    }
    app_.parse(argc, argv);
}

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
