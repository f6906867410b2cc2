// Output files written whole or not at all.
//
// The files the project writes (points, skeletons, bindings, motions, saved codes, the bench's tables) go
// through an OutputFile: the bytes go to a temporary file beside the target (same folder, created
// exclusively, with the old file's permissions and, where the process may, its owner), which replaces the
// target only once every byte is written and the temporary closed. On any failure, or when the OutputFile
// is destroyed before commit() (an exception while the content is made), the temporary is removed and the
// target is left as it was: a file that was there keeps its old content, even when it was the input of
// the same run. A target that is a symbolic link is followed (the link keeps pointing at the new file;
// a dangling one gets its file).
//
// Written in place instead, without that guarantee: a target that exists and is not a regular file (a
// FIFO), a stream under /dev or /proc (/dev/stdout, appended to: it may lead to a file a shell appends to),
// a writable file in a folder the process may not write (no temporary can be made there), and a file the
// folder's rules keep from being replaced (another user's file in a sticky folder, a file mounted on its
// own: the temporary is copied over it). A read-only target is refused, as opening it would be. Hard links
// to a replaced file keep the old content.
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
