#include "host/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <chrono>
#include <cstring>

#include "host/errors.hpp"
#include "host/system_memory.hpp"

namespace bs {

namespace {

// The first byte of the child's answer says what follows: a result or an error's message.
enum Answer : char { kResult = 'R', kInput = 'I', kIo = 'O', kUnsupported = 'U', kInternal = 'X' };

void write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the parent is gone or gave up
        at += std::size_t(n);
    }
}

// Sanitizers reserve terabytes of address space at start: a cap on it would fail their every allocation.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// The address space the process holds now (what a child inherits from its parent), 0 where unknown.
double address_space_now() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm) return 0;
    unsigned long pages = 0;
    const bool read = std::fscanf(statm, "%lu", &pages) == 1;
    std::fclose(statm);
    return read ? double(pages) * double(::sysconf(_SC_PAGE_SIZE)) : 0.0;
}

// Caps the child's address space at what it holds when forked (its parent's: an embedder's CUDA context,
// its arrays) plus kChildMemoryShare of the memory the process may use (usable_memory: a container's
// limit where it is below the machine's), never above a limit already set: a malformed header can make a
// reader ask for all of it (assimp 5.2 took 15 GB of a 23 GB machine for a 309-byte OFF file declaring
// 3.5e9 vertices), and the system's out-of-memory killer may then pick another process. Past the cap the
// reader's allocation fails.
void cap_memory() {
    if (!child_memory_capped()) return;
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0) return;
    const double wanted = address_space_now() + kChildMemoryShare * usable_memory();
    const rlim_t cap = wanted < double(limit.rlim_cur) ? rlim_t(wanted) : limit.rlim_cur;
    limit.rlim_cur = cap;
    ::setrlimit(RLIMIT_AS, &limit);
}

[[noreturn]] void child(int fd, pid_t parent, const std::string& source, const std::string& reader,
                        const std::function<std::string()>& work) {
    // Killed with the parent (a child stuck in a reader's loop must not outlive it), and holding no
    // descriptor but its answer's: another child's pipe kept open here would never reach end of file.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    if (fd > 3) ::close_range(3, unsigned(fd) - 1, 0);
    ::close_range(unsigned(fd) + 1, ~0U, 0);
    cap_memory();
    std::string answer;
    try {
        answer = char(kResult) + work();
    } catch (const std::bad_alloc&) {
        answer = char(kInput) + source + ": " + out_of_memory_reason(reader);
    } catch (const InputError& e) {
        answer = char(kInput) + std::string(e.what());
    } catch (const IoError& e) {
        answer = char(kIo) + std::string(e.what());
    } catch (const UnsupportedError& e) {
        answer = char(kUnsupported) + std::string(e.what());
    } catch (const std::exception& e) {
        answer = char(kInternal) + std::string(e.what());
    }
    write_all(fd, answer);
    ::_exit(0);  // no exit handlers: they belong to the parent
}

// Reads the child's answer until it closes the pipe, or until the deadline (false).
bool read_until(int fd, std::chrono::steady_clock::time_point deadline, std::string& answer) {
    char buffer[1 << 16];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left.count(), 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        answer.append(buffer, std::size_t(n));
    }
}

}  // namespace


bool child_memory_capped() { return !kSanitized && usable_memory() > 0; }

std::string out_of_memory_reason(const std::string& reader) {
    return reader + " needs more memory than it may take to read it (half of what this process may use): a malformed file?";
}

std::string run_in_child(const std::string& source, const std::string& reader, double seconds,
                         const std::function<std::string()>& work) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw IoError(source + ": cannot start " + reader + " (pipe: " + std::strerror(errno) + ")");
    std::fflush(nullptr);  // nothing buffered is written twice
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw IoError(source + ": cannot start " + reader + " (fork: " + std::strerror(errno) + ")");
    }
    if (pid == 0) {
        ::close(fds[0]);
        child(fds[1], parent, source, reader, work);
    }
    ::close(fds[1]);
    // Killed and reaped on every way out, an exception while reading included.
    int status = 0;
    bool reaped = false;
    auto reap = [&](bool kill) {
        if (reaped) return;
        ::close(fds[0]);
        if (kill) ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        reaped = true;
    };
    std::string answer;
    bool finished = false;
    try {
        seconds = std::clamp(std::isfinite(seconds) ? seconds : kMaxChildSeconds, 0.001, kMaxChildSeconds);
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
        finished = read_until(fds[0], deadline, answer);
    } catch (...) {
        reap(true);
        throw;
    }
    reap(!finished);
    if (!finished)
    {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%.3g", seconds);  // a limit computed per MiB: 0.0126 s, not 0.0126417
        throw InputError(source + ": " + reader + " did not finish reading it within " + limit + " s (a malformed file?)");
    }
    if (WIFSIGNALED(status))
        throw InputError(source + ": " + reader + " crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
                         "): a malformed file?");
    if (answer.empty())
        throw InputError(source + ": " + reader + " ended without an answer (exit status " + std::to_string(WEXITSTATUS(status)) +
                         "): a malformed file?");
    const char tag = answer[0];
    answer.erase(0, 1);
    switch (tag) {
        case kResult: return answer;
        case kInput: throw InputError(answer);
        case kIo: throw IoError(answer);
        case kUnsupported: throw UnsupportedError(answer);
        default: throw std::runtime_error(source + ": " + reader + ": internal error: " + answer);
    }
}

void ByteReader::require(bool ok) const {
    if (!ok) throw InputError(source_ + ": the reader's answer is cut short");
}

void ByteReader::copy_out(void* to, std::size_t n) {
    require(n <= bytes_.size() - at_);
    if (n) std::memcpy(to, bytes_.data() + at_, n);
    at_ += n;
}

}  // namespace bs
