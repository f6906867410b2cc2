#include "host/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <unistd.h>

#include "host/errors.hpp"

namespace bs {

namespace {

namespace fs = std::filesystem;

std::string reason(int error) { return std::strerror(error); }

// The temporary beside `target`: its name with this process's id (two programs writing one target at once
// do not share a temporary) and a count (nor do two OutputFiles of one program).
std::string temporary_beside(const std::string& target) {
    static int count = 0;
    return target + ".part-" + std::to_string(::getpid()) + "-" + std::to_string(count++);
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path), target_(path) {
    std::error_code error;
    if (fs::is_symlink(path, error)) {
        const fs::path resolved = fs::weakly_canonical(path, error);
        if (!error) target_ = resolved.string();
    }
    const fs::file_status status = fs::status(target_, error);
    if (fs::is_directory(status)) throw IoError(path_ + ": cannot open for writing (it is a directory)");
    const bool in_place = fs::exists(status) && !fs::is_regular_file(status);
    if (!in_place) temporary_ = temporary_beside(target_);
    file_ = std::fopen(in_place ? target_.c_str() : temporary_.c_str(), "wb");
    if (!file_) {
        temporary_.clear();  // not created
        throw IoError(path_ + ": cannot open for writing (" + reason(errno) + ")");
    }
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
    if (file_) std::fclose(std::exchange(file_, nullptr));
    if (!temporary_.empty()) std::remove(std::exchange(temporary_, std::string()).c_str());
}

void OutputFile::write(const char* data, std::size_t size) {
    if (!file_) throw IoError(path_ + ": written after it was committed");
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        const int failed = errno;
        discard();
        throw IoError(path_ + ": write failed (" + reason(failed) + ")");
    }
}

void OutputFile::commit() {
    if (!file_) throw IoError(path_ + ": committed twice");
    const bool flushed = std::fflush(file_) == 0;
    const int flush_error = errno;
    const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
    const int close_error = errno;
    if (!flushed || !closed) {
        discard();
        throw IoError(path_ + ": write failed (" + reason(flushed ? close_error : flush_error) + ")");
    }
    if (temporary_.empty()) return;  // written in place
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
        const int failed = errno;
        discard();
        throw IoError(path_ + ": cannot replace it with the written file (" + reason(failed) + ")");
    }
    temporary_.clear();
}

}  // namespace bs
