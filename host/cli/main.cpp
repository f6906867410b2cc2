// baseskin: the command-line front end. Parses arguments (CLI11), runs one command, and maps errors to
// the exit codes documented in the README (host/errors.hpp).
#include "host/cli/command_line.hpp"
#include "host/errors.hpp"
#include "host/output_file.hpp"

int main(int argc, char** argv) {
    bs::remove_temporaries_on_signals();
    bs::cli::CommandLine command_line;
    try {
        command_line.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return command_line.exit(e);  // prints help or the parse error
    }
    return bs::run_reporting_errors("baseskin", [&] {
        command_line.run();
        return int(bs::kExitOk);
    });
}
