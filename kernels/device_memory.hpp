// Device memory for the CUDA backend, usable from host code compiled without CUDA headers.
//
// DeviceArray<T> owns `size` elements of device memory (RAII, move-only). Copies are asynchronous on the
// given stream (cuda::Exec::stream; nullptr is the default stream); only synchronize() waits. Every call
// is checked: a CUDA failure throws CudaError naming the file, line, call and CUDA's message. Where the
// CUDA backend was not built, every call throws CudaUnavailable (device_count() is then 0).
// T must be trivially copyable (it is copied bytewise to the device).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/passes.hpp"

namespace bs {

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The CUDA backend is not built, or there is no usable device or driver.
struct CudaUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

namespace cuda {

// The current device as a benchmark records it: "NAME, compute capability X.Y, N multiprocessors, M GiB";
// empty where there is none (device_count() is 0, kernels/passes.hpp).
std::string device_description();

void* allocate(std::size_t bytes);
void release(void* device) noexcept;
void copy_to_device(void* device, const void* host, std::size_t bytes, Exec exec);
void copy_to_host(void* host, const void* device, std::size_t bytes, Exec exec);
void copy_on_device(void* to, const void* from, std::size_t bytes, Exec exec);
void fill_bytes(void* device, int value, std::size_t bytes, Exec exec);
void synchronize(Exec exec);
// Whether `exec`'s stream is being captured into a CUDA graph (false without the CUDA backend or a device).
bool stream_is_capturing(Exec exec);

// Whether CUDA says `pointer` is host memory that kernels on the current device cannot reach: memory it
// does not know of (pageable host memory, or no memory at all), where the device does not read pageable
// memory (no HMM or ATS). A kernel writing there would fault and end the context. False for device, managed
// and page-locked memory, and where CUDA cannot tell (cudaPointerGetAttributes fails).
bool device_cannot_write(const void* pointer);

// Page-locked host memory (cudaMallocHost): copies from it to the device are fully asynchronous, where copies
// from pageable memory may first wait for the stream (kernels/frame_uploads.hpp).
void* allocate_pinned(std::size_t bytes);
void release_pinned(void* host) noexcept;

// An event marks a place in a stream's queue: wait_for_event blocks the host until the work queued on that
// stream before record_event is done (at once if it is, or if the event was never recorded).
void* create_event();
void destroy_event(void* event) noexcept;
void record_event(void* event, Exec exec);
void wait_for_event(void* event);

template <class T>
class DeviceArray {
    static_assert(std::is_trivially_copyable_v<T>, "device arrays hold plain data");

public:
    DeviceArray() = default;
    explicit DeviceArray(std::size_t size) : data_(static_cast<T*>(allocate(size * sizeof(T)))), size_(size) {}
    // Allocates and uploads `host` on `exec`'s stream (pageable host memory is staged by CUDA before the call
    // returns, on any stream: the vector need not outlive the copy).
    DeviceArray(const std::vector<T>& host, Exec exec) : DeviceArray(host.size()) { upload(host, exec); }
    DeviceArray(DeviceArray&& other) noexcept : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceArray& operator=(DeviceArray&& other) noexcept {
        if (this != &other) {
            release(data_);
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() { release(data_); }

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(T); }

    // Uploads `host` (at most size() elements) to the front of the array.
    void upload(const std::vector<T>& host, Exec exec) {
        if (host.size() > size_) throw std::length_error("DeviceArray::upload: more elements than the array holds");
        copy_to_device(data_, host.data(), host.size() * sizeof(T), exec);
    }
    // Room for at least `size` elements: reallocated (contents lost) only when it grows.
    void reserve_at_least(std::size_t size) {
        if (size > size_) *this = DeviceArray(size);
    }
    std::vector<T> download(Exec exec) const {
        std::vector<T> host(size_);
        copy_to_host(host.data(), data_, bytes(), exec);
        synchronize(exec);
        return host;
    }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace cuda
}  // namespace bs
