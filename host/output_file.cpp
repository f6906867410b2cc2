#include "host/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

#include "host/errors.hpp"

namespace bs {

namespace {

namespace fs = std::filesystem;

std::string reason(int error) { return std::strerror(error); }

// Whether the file's bytes reached its disk (fsync), or its file system keeps no such promise to make
// (EINVAL, EROFS). A file that replaces another is synced before it does: after a crash or a power loss
// the name holds the old content or the new, never an empty or partly written file, and a write error
// the system reports late (a full quota, a failing disk) keeps the old file instead of replacing it.
bool synced(int fd) {
    while (::fsync(fd) != 0)
        if (errno != EINTR) return errno == EINVAL || errno == EROFS;
    return true;
}

// `error` is read by the caller, before any allocation of the message can change errno.
[[noreturn]] void cannot_open(const std::string& path, int error) {
    throw IoError(path + ": cannot open for writing (" + reason(error) + ")");
}

bool under_system_tree(const fs::path& p) {
    const std::string s = p.string();
    return s.rfind("/dev/", 0) == 0 || s.rfind("/proc/", 0) == 0;
}

// Where `path` leads through its symbolic links (also where the last one dangles: the file a write would
// create), and whether any step lies under /dev or /proc: a stream such as /dev/stdout, whose link ends at
// whatever the process's output is (a file included), which must be written in place, not replaced.
struct Resolved {
    fs::path target;
    bool system = false;
};
Resolved resolve_links(const std::string& path) {
    Resolved r{fs::path(path), under_system_tree(path)};
    std::error_code error;
    for (int hop = 0; hop < 40 && fs::is_symlink(r.target, error); ++hop) {
        const fs::path next = fs::read_symlink(r.target, error);
        if (error) break;
        r.target = next.is_absolute() ? next : r.target.parent_path() / next;
        r.system = r.system || under_system_tree(r.target);
    }
    return r;
}

// The temporaries of the OutputFiles alive now, for remove_temporaries_on_signals' handler: fixed slots
// (a handler may neither allocate nor lock), each claimed by an atomic flag. More at once than slots
// (a program writes one or two files at a time) are simply not removed by the handler.
constexpr int kTemporarySlots = 16;
constexpr std::size_t kTemporaryPathBytes = 4096;
struct TemporarySlot {
    std::atomic<bool> claimed{false};
    std::atomic<bool> filled{false};
    char path[kTemporaryPathBytes];
};
TemporarySlot temporary_slots[kTemporarySlots];

// The slot holding `path` from now on, or -1 where none is free or the path is too long.
int remember_temporary(const std::string& path) {
    if (path.size() >= kTemporaryPathBytes) return -1;
    for (int s = 0; s < kTemporarySlots; ++s) {
        bool free = false;
        if (!temporary_slots[s].claimed.compare_exchange_strong(free, true)) continue;
        std::memcpy(temporary_slots[s].path, path.c_str(), path.size() + 1);
        temporary_slots[s].filled.store(true);
        return s;
    }
    return -1;
}

void forget_temporary(int slot) {
    if (slot < 0) return;
    temporary_slots[slot].filled.store(false);
    temporary_slots[slot].claimed.store(false);
}

// Removes every remembered temporary, then lets the signal end the process as it would have.
extern "C" void remove_temporaries_and_reraise(int signal) {
    for (TemporarySlot& slot : temporary_slots)
        if (slot.filled.load()) ::unlink(slot.path);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

// A temporary beside `target`, created exclusively (never an existing file or a planted link), with a
// short name (a long target name must not push it past the file system's limit) made unique by this
// process's id and a count. The file descriptor, or -1 with errno set.
int create_temporary(const fs::path& target, mode_t mode, std::string& name) {
    static std::atomic<unsigned> count{0};
    const std::string base = target.filename().string().substr(0, 64);
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = (target.parent_path() / ("." + base + "." + std::to_string(::getpid()) + "-" + std::to_string(count++) + ".part")).string();
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

// A temporary in the system's temporary folder (TMPDIR), for a target whose own folder takes none.
int create_temporary_elsewhere(const fs::path& target, std::string& name) {
    std::error_code error;
    const fs::path folder = fs::temp_directory_path(error);
    if (error) {
        errno = error.value();
        return -1;
    }
    return create_temporary(folder / target.filename(), 0600, name);
}

}  // namespace

void remove_temporaries_on_signals() {
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction before {};
        // A signal the run was started to ignore (nohup, a script's background job) stays ignored.
        if (::sigaction(signal, nullptr, &before) != 0 || before.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = remove_temporaries_and_reraise;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal, &action, nullptr);
    }
}

std::string output_target(const std::string& path) { return resolve_links(path).target.string(); }

void copy_over(const std::string& source, const std::string& target) {
    auto failed = [&](int error) { throw IoError(target + ": cannot write the new content over it (" + reason(error) + ")"); };
    const int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) failed(errno);
    struct stat written {};
    if (::fstat(in, &written) != 0) {
        const int error = errno;
        ::close(in);
        failed(error);
    }
    // Read and write where the process may: glibc's posix_fallocate, where a file system has no fallocate
    // of its own (NFSv3, FUSE), emulates it by reading each block (and writing zeros only into blocks that
    // read as zero), which a write-only descriptor cannot.
    int out = ::open(target.c_str(), O_RDWR | O_CLOEXEC);
    if (out < 0) out = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    int error = out < 0 ? errno : 0;
    // The space first: where the disk cannot hold the new content, the old one is left whole. Where it
    // cannot be reserved at all (no fallocate and a write-only descriptor), the copy goes on without.
    if (!error && written.st_size > 0) {
        error = ::posix_fallocate(out, 0, written.st_size);
        if (error == EBADF || error == EOPNOTSUPP || error == EINVAL) error = 0;
    }
    char buffer[1 << 16];
    for (off_t at = 0; !error && at < written.st_size;) {
        const ssize_t n = ::pread(in, buffer, sizeof buffer, at);
        if (n <= 0) {
            error = n < 0 ? errno : EIO;
            break;
        }
        for (ssize_t done = 0; !error && done < n;) {
            const ssize_t w = ::pwrite(out, buffer + done, std::size_t(n - done), at + done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) error = w < 0 ? errno : EIO;
            else done += w;
        }
        at += n;
    }
    if (!error && ::ftruncate(out, written.st_size) != 0) error = errno;
    if (!error && !synced(out)) error = errno;
    if (out >= 0 && ::close(out) != 0 && !error) error = errno;
    ::close(in);
    if (error) failed(error);
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
    const Resolved resolved = resolve_links(path);
    target_ = resolved.target.string();
    struct stat existing {};
    const bool exists = ::stat(target_.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) throw IoError(path_ + ": cannot open for writing (it is a directory)");
    if (exists && ::access(target_.c_str(), W_OK) != 0) cannot_open(path_, errno);
    int fd = -1;
    if (!resolved.system && (!exists || S_ISREG(existing.st_mode))) {
        fd = create_temporary(resolved.target, exists ? existing.st_mode & 07777 : 0666, temporary_);
        const int created = errno;
        if (fd >= 0 && exists) {
            // The new file takes the old one's permissions (the umask may have narrowed them) and, where
            // the process may, its owner.
            (void)::fchmod(fd, existing.st_mode & 07777);
            (void)::fchown(fd, existing.st_uid, existing.st_gid);
        }
        if (fd < 0) {
            // A folder this process may not write (a writable file in it): the bytes go to a temporary
            // elsewhere and are copied over the file at commit (copy_over), so that until then it keeps its
            // content.
            if (!exists || (created != EACCES && created != EPERM && created != EROFS)) cannot_open(path_, created);
            fd = create_temporary_elsewhere(resolved.target, temporary_);
            if (fd >= 0) copy_over_ = true;
            else temporary_.clear();  // nor there: written in place (below)
        }
    }
    if (fd < 0) {
        // A stream under /dev or /proc is appended to: /dev/stdout may lead to the file a shell appends
        // the run's output to (>>), which truncating would empty.
        const int flags = resolved.system ? O_WRONLY | O_APPEND : O_WRONLY | O_CREAT | O_TRUNC;
        fd = ::open(path.c_str(), flags | O_CLOEXEC, 0666);
        if (fd < 0) cannot_open(path_, errno);
    }
    if (!temporary_.empty()) temporary_slot_ = remember_temporary(temporary_);
    replaces_ = exists && !temporary_.empty() && !copy_over_;  // copy_over syncs the target itself
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        const int opened = errno;
        ::close(fd);
        discard();
        cannot_open(path_, opened);
    }
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
    if (file_) std::fclose(std::exchange(file_, nullptr));
    if (!temporary_.empty()) std::remove(std::exchange(temporary_, std::string()).c_str());
    forget_temporary(std::exchange(temporary_slot_, -1));
}

void OutputFile::write(const char* data, std::size_t size) {
    if (!file_ || finished_) throw IoError(path_ + ": written after it was committed or after a failed write");
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        const int failed = errno;
        discard();
        throw IoError(path_ + ": write failed (" + reason(failed) + ")");
    }
}

void OutputFile::finish() {
    if (finished_) return;
    if (!file_) throw IoError(path_ + ": committed twice, or after a failed write");
    bool flushed = std::fflush(file_) == 0;
    int flush_error = errno;
    if (flushed && replaces_ && !synced(::fileno(file_))) {
        flushed = false;
        flush_error = errno;
    }
    const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
    const int close_error = errno;
    if (!flushed || !closed) {
        discard();
        throw IoError(path_ + ": write failed (" + reason(flushed ? close_error : flush_error) + ")");
    }
    finished_ = true;
}

void OutputFile::commit() {
    finish();
    if (committed_) throw IoError(path_ + ": committed twice, or after a failed write");
    committed_ = true;
    if (temporary_.empty()) return;  // written in place
    if (!copy_over_ && std::rename(temporary_.c_str(), target_.c_str()) == 0) {
        temporary_.clear();
        forget_temporary(std::exchange(temporary_slot_, -1));
        return;
    }
    // A target the folder's rules keep from being replaced (another user's file in a sticky folder, a
    // file mounted on its own) is written over instead: the whole file, copied from the temporary.
    const int failed = errno;
    if (!copy_over_ && failed != EPERM && failed != EBUSY && failed != EXDEV) {
        discard();
        throw IoError(path_ + ": cannot replace it with the written file (" + reason(failed) + ")");
    }
    try {
        copy_over(temporary_, target_);
    } catch (const IoError&) {
        discard();
        throw;
    }
    discard();
}

void commit_together(const std::vector<OutputFile*>& files) {
    for (OutputFile* file : files) file->finish();
    for (std::size_t i = 0; i < files.size(); ++i) {
        try {
            files[i]->commit();
        } catch (const IoError& e) {
            if (i == 0) throw;
            // The files from i on belong to the set that was just replaced in part. Their names are removed
            // (a link, not the file it leads to; never a folder), and the message says which.
            std::string removed;
            for (std::size_t j = i; j < files.size(); ++j) {
                const std::string& path = files[j]->path();
                std::error_code error;
                if (!std::filesystem::is_directory(std::filesystem::symlink_status(path, error)) && std::filesystem::remove(path, error))
                    removed += (removed.empty() ? "" : ", ") + path;
            }
            if (removed.empty()) throw;
            throw IoError(std::string(e.what()) + "; removed " + removed + " of the earlier set, which belonged with the files replaced");
        }
    }
}

}  // namespace bs
