// Errors the host reports to users. Every message names the file (or API argument), the element or
// line, and what was expected. The CLI maps each type to a documented exit code (README).
#pragma once

#include <cstdio>
#include <exception>
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

// The programs' exit codes (README): 0 success · 1 bad command line · 2 invalid input · 3 file I/O ·
// 4 unsupported request · 5 internal error.
enum ExitCode { kExitOk = 0, kExitUsage = 1, kExitInput = 2, kExitIo = 3, kExitUnsupported = 4, kExitInternal = 5 };

// Runs `run` (returning an exit code) and maps the errors above to their exit codes, printing
// "<program>: <kind>: <message>" on stderr.
template <class Run>
int run_reporting_errors(const char* program, Run run) {
    auto report = [program](const char* kind, const std::exception& e, int code) {
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
    } catch (const std::exception& e) {
        return report("internal error", e, kExitInternal);
    }
}

}  // namespace bs
