// Errors the host reports to users. Every message names the file (or API argument), the element or
// line, and what was expected. The CLI maps each type to a documented exit code (README).
#pragma once

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

}  // namespace bs
