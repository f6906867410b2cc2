// Output files written whole or not at all.
//
// Every file the project writes (points, skeletons, motions, saved codes, bindings) goes through an
// OutputFile: the bytes go to a temporary file beside the target (same folder, so that the last step is a
// rename within one file system), which replaces the target only once every byte is written and the
// temporary closed. On any failure, or when the OutputFile is destroyed before commit() (an exception
// while the content is made), the temporary is removed and the target is left as it was: a file that was
// there keeps its old content, even when it was the input of the same run. A target that exists and is
// not a regular file (a device such as /dev/stdout, a FIFO) is written in place instead, and is never
// removed. A target that is a symbolic link is resolved, so that the link keeps pointing at the new file.
#pragma once

#include <cstdio>
#include <string>

namespace bs {

class OutputFile {
public:
    // IoError naming `path` when it cannot be opened for writing.
    explicit OutputFile(const std::string& path);
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    // Not committed: removes the temporary (a target written in place is left as it is).
    ~OutputFile();

    // IoError naming the target (with the system's reason) when the bytes cannot be written.
    void write(const char* data, std::size_t size);
    void write(const std::string& bytes) { write(bytes.data(), bytes.size()); }
    // Flushes, closes and puts the file in place; IoError naming the target where any of it fails (the
    // temporary is removed then). Nothing may be written after.
    void commit();

    const std::string& path() const { return path_; }

private:
    void discard();

    std::string path_;       // the target, as given (for messages)
    std::string target_;     // the target, symbolic links resolved
    std::string temporary_;  // where the bytes go; empty when the target is written in place
    std::FILE* file_ = nullptr;
};

}  // namespace bs
