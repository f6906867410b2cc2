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
// A writable file in a folder the process may not write (no temporary can be made beside it) gets its
// temporary in the system's temporary folder, and a file the folder's rules keep from being replaced
// (another user's file in a sticky folder, a file mounted on its own) is not renamed over: in both the
// temporary is copied over the file at commit (copy_over: its space reserved first, so a full disk leaves
// the old content whole; an error part way through the copy itself can leave it mixed). Written in place,
// without that guarantee: a target that exists and is not a regular file (a FIFO), a stream under /dev
// or /proc (/dev/stdout, appended to: it may lead to a file a shell appends to), and a file in a folder
// the process may not write where the temporary folder takes no temporary either. A read-only target is
// refused, as opening it would be. Hard links to a replaced file keep the old content. A file that
// replaces another by a rename is synced to disk (fsync) before it does, so that a crash or a power loss
// leaves the old content or the new under the name (one copied over in place is synced after the copy: a
// crash during the copy can leave a mix); new files are not (a crash then loses only what this run made).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

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
    // Flushes and closes the temporary without putting it in place: files that belong together are all
    // finished before any is committed, so that a full disk or a failed write changes none of them.
    // IoError naming the target where it fails (the temporary is removed then). Nothing may be written after.
    void finish();
    // Finishes (if not yet) and puts the file in place; IoError naming the target where any of it fails
    // (the temporary is removed then).
    void commit();

    const std::string& path() const { return path_; }

private:
    void discard();

    std::string path_;       // the target, as given (for messages)
    std::string target_;     // the target, symbolic links resolved
    std::string temporary_;  // where the bytes go; empty when the target is written in place
    bool copy_over_ = false; // commit copies the temporary over the target instead of renaming it
    bool replaces_ = false;  // an existing file is replaced: the temporary is synced to disk first
    bool finished_ = false, committed_ = false;
    int temporary_slot_ = -1;  // where remove_temporaries_on_signals finds the temporary
    std::FILE* file_ = nullptr;
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporaries of the OutputFiles open
// at that moment, then end the process by the signal as before (a run stopped with Ctrl-C left hidden
// ".NAME.PID-N.part" files of megabytes behind). For programs (the CLI, the bench and the viewer call it first);
// a library embedding the project keeps its own handlers.
void remove_temporaries_on_signals();

// Where writing `path` through an OutputFile lands: its symbolic links followed (a dangling one to the file
// it would create).
std::string output_target(const std::string& path);

// Commits files that belong together (a skeleton and its binding; a rig's skeleton, points and motion):
// every one is finished before any is committed, so that one that cannot be written (read-only, a full
// disk) leaves the earlier set as it was (IoError). Where a replacement itself fails after earlier ones
// took place (rare: a rename refused), the files from the failed one on are removed (the names: a link, not
// the file it leads to; never a folder) and the IoError says which: what was there under their names
// belongs to the set that was just replaced in part, and is read with it by default (drag reads the
// binding beside the skeleton).
void commit_together(const std::vector<OutputFile*>& files);

// Writes the content of file `source` over file `target` in place (the target keeps its inode, owner and
// mode): the target's space for the new content is reserved first (posix_fallocate), so that where it cannot
// be had (a full disk, a file-size limit) the target is left as it was; then the bytes are copied and the
// target cut to their length. IoError naming `target` with the system's reason.
void copy_over(const std::string& source, const std::string& target);

}  // namespace bs
