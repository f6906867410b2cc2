// Errors the host reports to users. Every message names the file (or API argument), the element or
// line, and what was expected. The CLI maps each type to a documented exit code (README).
#pragma once

#include <charconv>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

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

// One character of UTF-8 text: the code point at text[i] and its length in bytes (1 to 4), or length 0
// where the bytes there are not UTF-8 (RFC 3629: no overlong forms, surrogates or code points past
// U+10FFFF; a sequence cut short by the end of the text is not UTF-8 either). i < text.size().
struct Utf8Char {
    std::size_t length;
    char32_t code;
};
inline Utf8Char utf8_char_at(std::string_view text, std::size_t i) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    // The sequence's length and the least code point it may hold (RFC 3629, section 4).
    std::size_t length = 1;
    char32_t least = 0, code = lead;
    if (lead >= 0xF0 && lead <= 0xF4) length = 4, least = 0x10000, code = lead & 0x07;
    else if (lead >= 0xE0 && lead <= 0xEF) length = 3, least = 0x800, code = lead & 0x0F;
    else if (lead >= 0xC2 && lead <= 0xDF) length = 2, least = 0x80, code = lead & 0x1F;
    else if (lead >= 0x80) return {0, 0};  // a continuation byte, or a lead that only overlong forms use
    if (text.size() - i < length) return {0, 0};
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned char next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) return {0, 0};
        code = (code << 6) | (next & 0x3F);
    }
    if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {0, 0};
    return {length, code};
}

// Whether a message shows code point c as its bytes: control characters (C0, DEL and C1: a NUL cut a message
// short, an escape sequence reached the terminal), the marks and embeddings that reorder a line (U+061C,
// U+200E/F, U+202A to U+202E, U+2066 to U+2069), the line and paragraph separators (U+2028/9), and the
// quote and the backslash (so that what lies between the quotes reads back as the text, an escape as one).
inline bool shown_escaped(char32_t c, char quote) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x2028 && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == char32_t(static_cast<unsigned char>(quote)) || c == '\\';
}

// Text from a file or an argument (a name, a word, a line) as a message shows it: between two `quote`s,
// UTF-8 text as it is ("Wirbelsäule", "頭"), but the characters above (shown_escaped) and bytes that are
// not UTF-8 as \xHH, one per byte ("Wirbels\xE4ule" for Latin-1). Cut after the first `shown_characters`
// characters (a character is a code point, or one byte that is not UTF-8), marked with "..." inside the
// quotes, so a long line from a file cannot flood the terminal.
inline std::string quoted_text(std::string_view text, char quote = '"', std::size_t shown_characters = 40) {
    std::string out(1, quote);
    std::size_t i = 0;
    for (std::size_t shown = 0; i < text.size() && shown < shown_characters; ++shown) {
        const Utf8Char c = utf8_char_at(text, i);
        const std::size_t bytes = c.length == 0 ? 1 : c.length;
        if (c.length == 0 || shown_escaped(c.code, quote)) {
            for (std::size_t k = i; k < i + bytes; ++k) {
                static const char hex[] = "0123456789ABCDEF";
                const unsigned char byte = static_cast<unsigned char>(text[k]);
                out += "\\x";
                out += hex[byte >> 4];
                out += hex[byte & 0xF];
            }
        } else {
            out.append(text, i, bytes);
        }
        i += bytes;
    }
    if (i < text.size()) out += "...";
    return out + quote;
}

// The name an embedder gives its data (the API's `source`: "my points"), as the messages that begin with it
// show it: as it is, or as quoted_text shows it where it holds bytes that are not UTF-8 or a character
// shown_escaped names other than the quote and the backslash (a newline or an escape sequence in the name
// had reached the message, and the terminal, as they were). The quote and the backslash pass as they are:
// the name does not stand between quotes there, and so a name already shown is shown the same again (the
// API's functions hand it on to one another: a skinner to its skeleton's check). Never cut: a name is the
// embedder's own, and its end (a path's file name) is what tells one source from another.
inline std::string shown_source(std::string_view source) {
    for (std::size_t i = 0; i < source.size();) {
        const Utf8Char c = utf8_char_at(source, i);
        if (c.length == 0 || (c.code != '"' && c.code != '\\' && shown_escaped(c.code, '"')))
            return quoted_text(source, '"', source.size());
        i += c.length;
    }
    return std::string(source);
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
