// Errors the host reports to users. Every message names the file (or API argument), the element or
// line, and what was expected. The CLI maps each type to a documented exit code (README).
#pragma once

#include <charconv>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace bs {

// Malformed or invalid input: a file, or an argument of the API (exit code 2).
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A file that cannot be opened, read or written (exit code 3).
struct IoError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A valid request the engine does not support (yet): e.g. a pose the chosen method refuses (exit code 4).
struct UnsupportedError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A number as a message shows it: the shortest text that reads back as the same double (171, 1e+300,
// 0.1, 1e-200, nan), or with `significant` digits (%g), not std::to_string's six decimals (171.000000,
// 0.000000 for 1e-200).
inline std::string number_text(double v, int significant = 0) {
    char text[40];
    if (significant > 0) return std::string(text, std::size_t(std::snprintf(text, sizeof text, "%.*g", significant < 17 ? significant : 17, v)));
    return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

// The programs' exit codes (README): 0 success · 1 bad command line · 2 invalid input · 3 file I/O ·
// 4 unsupported request · 5 internal error.
enum ExitCode { kExitOk = 0, kExitUsage = 1, kExitInput = 2, kExitIo = 3, kExitUnsupported = 4, kExitInternal = 5 };

// Runs `run` (returning an exit code) and maps the errors above to their exit codes, printing
// "<program>: <kind>: <message>" on stderr.
template <class Run>
int run_reporting_errors(const char* program, Run run) {
    auto report = [program](const char* kind, const std::exception& e, int code) {
        std::fflush(stdout);  // what the run printed before it failed comes first, also where stdout is a pipe
        std::fprintf(stderr, "%s: %s: %s\n", program, kind, e.what());
        return code;
    };
    try {
        return run();
    } catch (const InputError& e) {
        return report("invalid input", e, kExitInput);
    } catch (const IoError& e) {
        return report("I/O error", e, kExitIo);
    } catch (const UnsupportedError& e) {
        return report("unsupported", e, kExitUnsupported);
    } catch (const std::bad_alloc&) {
        // Said as what it is, not as "internal error: std::bad_alloc".
        return report("out of memory", std::runtime_error("the run needs more memory than this process may use (fewer points?)"), kExitInternal);
    } catch (const std::exception& e) {
        return report("internal error", e, kExitInternal);
    }
}

}  // namespace bs
