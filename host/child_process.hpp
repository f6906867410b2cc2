// Running a third-party reader in a child process, so that a malformed file can make it neither hang nor
// crash the program: Debian's assimp 5.2 loops forever on some malformed PLY and SMD files and reads out of
// bounds on others (tests/fuzz/fuzz_model_files.cpp). The child is forked, runs the work, sends back its
// result as bytes through a pipe and exits; the parent waits at most a time limit.
//
// Only the work's result crosses back: whatever the work allocates or breaks stays in the child. The work
// must not need other threads (a forked child has only the calling one), nor a lock another thread of the
// parent may hold when it forks (the child's copy would stay held; glibc's allocator is reset at fork). An
// embedder whose other threads may hold locks the reader takes (assimp's, its own) reads meshes and models
// from one thread, or before starting those threads.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "host/system_memory.hpp"

namespace bs {

// The longest a child may be given (a larger or non-finite `seconds` is cut to it).
constexpr double kMaxChildSeconds = 1e6;
// The share of usable_memory() a child's address space may take beyond its parent's (not in sanitized builds).
constexpr double kChildMemoryShare = 0.5;
// Whether this build caps a child's memory (sanitized builds do not: they reserve terabytes at start).
bool child_memory_capped();
// What run_in_child says, after the source, when the work's allocation fails at the cap; a reader that
// catches its own std::bad_alloc (assimp reports "std::bad_alloc" in its error string) says the same.
std::string out_of_memory_reason(const std::string& reader);

// Runs `work` in a child and returns the bytes it returned. The work's InputError, IoError and
// UnsupportedError are rethrown as the same type and message (messages the work makes start with
// `source`, a file path, as every other message here does); any other exception as std::runtime_error
// "<source>: <reader>: internal error: ..." (the CLI's exit code 5). InputError "<source>: <reader> did not
// finish reading it within N s (a malformed file?)" when the child runs longer than `seconds` (it is
// killed), "... crashed reading it (signal N) ..." when it dies by a signal, "... ended without an answer
// ..." when it exits without one, "... needs more memory than it may take ..." when the work's allocation
// fails at the cap (kChildMemoryShare); IoError if no child can be made. `reader` names the work (e.g. "assimp").
// The child is killed if the calling process dies, and holds no descriptor of the parent's but its pipe's.
std::string run_in_child(const std::string& source, const std::string& reader, double seconds,
                         const std::function<std::string()>& work);

// Flat binary encoding of results for run_in_child (same program on both sides: native layout).
class ByteWriter {
public:
    template <class T>
    void put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    template <class T>
    void put_vector(const std::vector<T>& values) {
        static_assert(std::is_trivially_copyable_v<T>);
        put(values.size());
        bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }
    void put_string(const std::string& text) {
        put(text.size());
        bytes_ += text;
    }
    std::string take() { return std::move(bytes_); }

private:
    std::string bytes_;
};

// Reads what a ByteWriter wrote; InputError naming `source` if the bytes end early (a child cut short).
class ByteReader {
public:
    ByteReader(std::string bytes, std::string source) : bytes_(std::move(bytes)), source_(std::move(source)) {}
    template <class T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        copy_out(&value, sizeof value);
        return value;
    }
    template <class T>
    std::vector<T> get_vector() {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::size_t n = get<std::size_t>();
        require(n <= (bytes_.size() - at_) / sizeof(T));
        std::vector<T> values(n);
        copy_out(values.data(), n * sizeof(T));
        return values;
    }
    // A count of items that take at least `bytes_each` (> 0) bytes each: no more than the bytes left can hold.
    std::size_t get_count(std::size_t bytes_each) {
        const std::size_t n = get<std::size_t>();
        require(bytes_each > 0 && n <= (bytes_.size() - at_) / bytes_each);
        return n;
    }
    std::string get_string() {
        const std::size_t n = get<std::size_t>();
        require(n <= bytes_.size() - at_);
        std::string text = bytes_.substr(at_, n);
        at_ += n;
        return text;
    }

private:
    void require(bool ok) const;
    void copy_out(void* to, std::size_t n);
    std::string bytes_;
    std::string source_;
    std::size_t at_ = 0;
};

}  // namespace bs
