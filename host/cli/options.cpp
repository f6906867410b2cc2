#include "host/cli/options.hpp"

#include <cmath>
#include <cstdlib>

namespace bs::cli {

void add_threads_option(CLI::App* command, int& threads) {
    command->add_option("--threads", threads, "CPU threads (0: all cores); output is the same for any count")
        ->check(CLI::Range(0, kMaxThreads));
}

CLI::Validator finite_number() {
    return CLI::Validator(
        [](std::string& text) {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            const bool finite = end != text.c_str() && *end == '\0' && std::isfinite(value);
            return finite ? std::string() : "expected a finite number, got " + text;
        },
        "FINITE");
}

}  // namespace bs::cli
