// Options and checks several programs share (baseskin's commands, baseskin-bench, baseskin-view); header-only, so that a
// program links no command to use them.
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "engine/vec.hpp"
#include "host/errors.hpp"
#include "host/output_file.hpp"
#include "kernels/passes.hpp"

namespace bs::cli {

// Whether `text` is a real number written in decimal: an optional sign, digits with an optional point (or
// a point and digits), an optional exponent ("-1.5", "+2", ".5", "3e-2"). strtod alone also reads
// hexadecimal ("0x1p3" as 8), "inf", "nan" and leading spaces, which a coordinate or coefficient given on
// the command line is not written with (a probe's --to 0x1p3,0,9 dragged to (8, 0, 9)).
// (Scanned by hand: libstdc++'s std::regex recurses once a character, and an argument of 130,000 digits
// overflowed the stack.)
inline bool decimal_real(const std::string& text) {
    std::size_t i = 0;
    auto sign = [&] { i += i < text.size() && (text[i] == '+' || text[i] == '-'); };
    auto digits = [&] {
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        return i - start;
    };
    sign();
    std::size_t mantissa = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        sign();
        if (digits() == 0) return false;
    }
    return i == text.size();
}

// "x,y,z" as three decimal numbers (decimal_real); CLI::ValidationError naming `option` where malformed
// (whether they are finite, or within a bound, is the caller's check).
inline Vec3<double> parse_xyz(const char* option, const std::string& text) {
    double xyz[3];
    std::size_t start = 0;
    for (int i = 0; i < 3; ++i) {
        const std::size_t comma = text.find(',', start);
        const std::string part = text.substr(start, i < 2 ? comma - start : std::string::npos);
        if ((i < 2 && comma == std::string::npos) || !decimal_real(part))
            throw CLI::ValidationError(option, "expected x,y,z (three decimal numbers), got \"" + text + "\"");
        xyz[i] = std::strtod(part.c_str(), nullptr);
        start = comma + 1;
    }
    return {xyz[0], xyz[1], xyz[2]};
}

// A check that an option's number is a decimal number (decimal_real) from `low` to `high`, in one message:
// CLI::Range alone lets NaN through (no comparison fails for it), and the two checks joined by & had said
// "(expected a finite number, got ) AND (Value  not in range …)" for an empty value.
inline CLI::Validator finite_in_range(double low, double high) {
    return CLI::Validator(
        [low, high](std::string& text) {
            const double value = decimal_real(text) ? std::strtod(text.c_str(), nullptr) : std::nan("");
            if (value >= low && value <= high) return std::string();
            return "expected a finite number from " + number_text(low) + " to " + number_text(high) + ", got " +
                   (text.empty() ? std::string("an empty value") : text);
        },
        "FINITE in [" + number_text(low) + ", " + number_text(high) + "]");
}

// Whether `text` is a count's decimal writing: a decimal_real with a digit first (after a minus, which the
// range then refuses by name): "1e6", "2.5e5"; not "+3" or ".5e1".
inline bool decimal_notation(const std::string& text) {
    const std::size_t first = !text.empty() && text[0] == '-' ? 1 : 0;
    return decimal_real(text) && text[first] >= '0' && text[first] <= '9';
}

// A count from `low` to `high`, written as a whole number or in scientific notation ("1e6", "2.5e5"):
// the README and the programs' own messages write point counts so. The text is rewritten as the whole
// number, for CLI11's integer conversion, which takes no exponent. Use with transform(), in place of
// CLI::Range, whose message for "1e6" ("not in range") blamed the value's size: every count the programs
// take (points, threads, table samples, demo's and the viewer's frames, the viewer's sheet, intervals, the
// bench's repeats and sizes) goes through it, and so do drag's --joint and --chain and rig's --seed (CLI11's
// own integer reading took an empty value as 0, and "0x3" or " 3" as 3); `animate --frames A:B` reads a
// range of its own.
inline CLI::Validator count_in_range(std::size_t low, std::size_t high) {
    const std::string range = std::to_string(low) + " to " + std::to_string(high);
    return CLI::Validator(
        [low, high, range](std::string& text) {
            const double value = std::strtod(text.c_str(), nullptr);
            const bool number = decimal_notation(text) && std::isfinite(value);
            if (!number || value != std::floor(value))
                return "expected a whole number (1e6 notation allowed), got " + (text.empty() ? "an empty value" : text);
            if (!(value >= double(low) && value <= double(high))) return "expected " + range + ", got " + text;
            text = std::to_string(static_cast<unsigned long long>(value));
            return std::string();
        },
        "COUNT in [" + range + "]");
}

// --threads N on `command`: 0 (all cores) to kMaxThreads (the passes' own bound), as a count.
constexpr int kMaxThreads = cpu::kMaxThreads;
inline void add_threads_option(CLI::App* command, int& threads,
                               const char* help = "CPU threads (0: all cores); output is the same for any count") {
    command->add_option("--threads", threads, help)->transform(count_in_range(0, std::size_t(kMaxThreads)));
}

// A check that an output path is not empty (an empty --out has no file or folder to name in an error), nor
// "-", which names standard output to most tools: the commands print their summaries there, which would mix
// with the file's bytes (it made a file named "-").
inline CLI::Validator non_empty_path() {
    return CLI::Validator(
        [](std::string& text) {
            if (text.empty()) return std::string("expected a path, got an empty one");
            if (text == "-") return std::string("expected a path; \"-\" (standard output) is not one: the command prints its summary there (./- names a file of that name)");
            return std::string();
        },
        "PATH");
}

// An input of a run, as a command line names it: the option and the path ("--points", "body.ply").
using NamedInput = std::pair<std::string, std::string>;

// Empty where the file `output` is none of `inputs`, else what to say: the output names one of the run's
// input files (by the same name, through a symbolic link or as a hard link) and would replace it.
inline std::string output_over_input(const std::string& output, const std::vector<NamedInput>& inputs) {
    for (const auto& [option, path] : inputs) {
        std::error_code error;  // either missing: not the same file
        if (!path.empty() && std::filesystem::equivalent(output, path, error))
            return output + " is the " + option + " file" + (path == output ? "" : " " + path) + ": writing it would replace that input";
    }
    return std::string();
}

// Whether two outputs name one file: the same text, one existing file (through a link, or a hard link), or
// one place once their links are followed as writing them would (a dangling link to the file it would
// create) and ".", ".." and the links of the part that exists are resolved (a file not made yet).
inline bool same_output_file(const std::string& a, const std::string& b) {
    std::error_code missing, a_error, b_error;
    if (a == b || std::filesystem::equivalent(a, b, missing)) return true;
    const std::filesystem::path a_place = std::filesystem::weakly_canonical(output_target(a), a_error),
                                b_place = std::filesystem::weakly_canonical(output_target(b), b_error);
    return !a_error && !b_error && a_place == b_place;
}

// CLI::ValidationError for `option` where output_over_input has something to say.
inline void refuse_output_over_input(const char* option, const std::string& output, const std::vector<NamedInput>& inputs) {
    const std::string why = output_over_input(output, inputs);
    if (!why.empty()) throw CLI::ValidationError(option, why);
}

}  // namespace bs::cli
