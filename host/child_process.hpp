// Running a third-party reader in a child process, so that a malformed file can make it neither hang nor
// crash the program: Debian's assimp 5.2 loops forever on some malformed PLY and SMD files and reads out of
// bounds on others (tests/fuzz/fuzz_model_files.cpp). The child is forked, runs the work, sends back its
// result as bytes through a pipe and exits; the parent waits at most a time limit.
//
// Only the work's result crosses back: whatever the work allocates or breaks stays in the child. The work
// must not need other threads (a forked child has only the calling one).
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bs {

// Runs `work` in a child and returns the bytes it returned. `source` (a file path) starts every message:
//   - an InputError, IoError or UnsupportedError the work throws is rethrown as the same type and message;
//     any other exception as InputError with its message;
//   - InputError "... did not finish within N s" when the child runs longer than `seconds` (it is killed);
//   - InputError "... crashed (signal N)" when the child dies by a signal; IoError if no child can be made.
// `reader` names the work in those messages (e.g. "assimp").
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
    // A count of items that take at least `bytes_each` bytes each: no more than the bytes left can hold.
    std::size_t get_count(std::size_t bytes_each) {
        const std::size_t n = get<std::size_t>();
        require(n <= (bytes_.size() - at_) / bytes_each);
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
