// Where the commands' summaries and notes go ("wrote …", "note: …"): standard output, unless one of the
// run's outputs is standard output itself (`--out /dev/stdout`, or a file the shell sends it to), where they
// would land inside the file being written (before its header, or after its data): standard error then.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace bs::cli {

inline std::FILE* report_stream = stdout;

// printf to report_stream.
[[gnu::format(printf, 1, 2)]] inline void report(const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    std::vfprintf(report_stream, format, arguments);
    va_end(arguments);
}

// Whether `path` is the file this process's standard output writes to (the same device and inode).
inline bool is_standard_output(const std::string& path) {
    struct stat file {}, out {};
    return !path.empty() && ::stat(path.c_str(), &file) == 0 && ::fstat(STDOUT_FILENO, &out) == 0 && file.st_dev == out.st_dev &&
           file.st_ino == out.st_ino;
}

// Sends the reports to standard error where one of `outputs` is standard output.
inline void report_beside(std::initializer_list<std::string> outputs) {
    for (const std::string& output : outputs)
        if (is_standard_output(output)) report_stream = stderr;
}

}  // namespace bs::cli
