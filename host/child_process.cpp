#include "host/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>

#include "host/errors.hpp"

namespace bs {

namespace {

// The first byte of the child's answer says what follows: a result or an error's message.
enum Answer : char { kResult = 'R', kInput = 'I', kIo = 'O', kUnsupported = 'U' };

void write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the parent is gone or gave up
        at += std::size_t(n);
    }
}

[[noreturn]] void child(int fd, const std::function<std::string()>& work) {
    std::string answer;
    try {
        answer = char(kResult) + work();
    } catch (const InputError& e) {
        answer = char(kInput) + std::string(e.what());
    } catch (const IoError& e) {
        answer = char(kIo) + std::string(e.what());
    } catch (const UnsupportedError& e) {
        answer = char(kUnsupported) + std::string(e.what());
    } catch (const std::exception& e) {
        answer = char(kInput) + std::string(e.what());
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

std::string run_in_child(const std::string& source, const std::string& reader, double seconds,
                         const std::function<std::string()>& work) {
    int fds[2];
    if (::pipe(fds) != 0) throw IoError(source + ": cannot start " + reader + " (pipe: " + std::strerror(errno) + ")");
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw IoError(source + ": cannot start " + reader + " (fork: " + std::strerror(errno) + ")");
    }
    if (pid == 0) {
        ::close(fds[0]);
        child(fds[1], work);
    }
    ::close(fds[1]);
    std::string answer;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    const bool finished = read_until(fds[0], deadline, answer);
    ::close(fds[0]);
    if (!finished) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!finished)
    {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", seconds);
        throw InputError(source + ": " + reader + " did not finish reading it within " + limit + " s (a malformed file?)");
    }
    if (WIFSIGNALED(status))
        throw InputError(source + ": " + reader + " crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
                         "): a malformed file?");
    if (answer.empty()) throw InputError(source + ": " + reader + " ended without an answer (exit status " +
                                         std::to_string(WEXITSTATUS(status)) + ")");
    const std::string body = answer.substr(1);
    switch (answer[0]) {
        case kResult: return body;
        case kIo: throw IoError(body);
        case kUnsupported: throw UnsupportedError(body);
        default: throw InputError(body);
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
