// Device discovery and device memory for the CUDA backend (kernels/device_memory.hpp).
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/device_memory.hpp"

namespace bs::cuda {

// No GPU or no driver is a normal state (CI, laptops): report 0 rather than throw. cudaGetDeviceCount
// may fail (e.g. error 35, insufficient driver) and leave the count untouched, so check its status.
int device_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error so later calls are not poisoned
        return 0;
    }
    return count;
}

std::string device_description() {
    if (device_count() == 0) return std::string();
    int device = 0;
    BS_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    BS_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    char text[384];
    std::snprintf(text, sizeof text, "%s, compute capability %d.%d, %d multiprocessors, %.1f GiB", properties.name, properties.major,
                  properties.minor, properties.multiProcessorCount, double(properties.totalGlobalMem) / double(1ull << 30));
    return text;
}

namespace {
cudaStream_t stream_of(Exec exec) { return static_cast<cudaStream_t>(exec.stream); }

void require_device() {
    if (device_count() == 0) throw CudaUnavailable("no CUDA device or driver is usable on this machine");
}
}  // namespace

void* allocate(std::size_t bytes) {
    require_device();
    void* device = nullptr;
    if (bytes > 0) BS_CUDA_CHECK(cudaMalloc(&device, bytes));
    return device;
}

void release(void* device) noexcept {
    // A failure here cannot be reported from a destructor: cleared, so that no later check reports it as its
    // own (a sticky one, which leaves the context unusable, is reported by every later call anyway).
    if (device && cudaFree(device) != cudaSuccess) cudaGetLastError();
}

void copy_to_device(void* device, const void* host, std::size_t bytes, Exec exec) {
    if (bytes > 0) BS_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_of(exec)));
}

void copy_to_host(void* host, const void* device, std::size_t bytes, Exec exec) {
    if (bytes > 0) BS_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_of(exec)));
}

void copy_on_device(void* to, const void* from, std::size_t bytes, Exec exec) {
    if (bytes > 0) BS_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream_of(exec)));
}

void fill_bytes(void* device, int value, std::size_t bytes, Exec exec) {
    if (bytes > 0) BS_CUDA_CHECK(cudaMemsetAsync(device, value, bytes, stream_of(exec)));
}

void synchronize(Exec exec) { BS_CUDA_CHECK(cudaStreamSynchronize(stream_of(exec))); }

bool stream_is_capturing(Exec exec) {
    if (device_count() == 0) return false;  // no device or driver: nothing is captured (and CUDA would say why not)
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    BS_CUDA_CHECK(cudaStreamIsCapturing(stream_of(exec), &status));
    return status != cudaStreamCaptureStatusNone;
}

bool device_cannot_write(const void* pointer) {
    require_device();
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
        cudaGetLastError();  // not sticky; cleared so that the next checked call does not report it
        return false;
    }
    if (attributes.type != cudaMemoryTypeUnregistered) return false;
    int device = 0, pageable = 0;
    BS_CUDA_CHECK(cudaGetDevice(&device));
    BS_CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
    return pageable == 0;
}

void* allocate_pinned(std::size_t bytes) {
    require_device();
    void* host = nullptr;
    if (bytes > 0) BS_CUDA_CHECK(cudaMallocHost(&host, bytes));
    return host;
}

void release_pinned(void* host) noexcept {
    if (host && cudaFreeHost(host) != cudaSuccess) cudaGetLastError();  // as release()
}

void* create_event() {
    require_device();
    cudaEvent_t event = nullptr;
    // Blocking: a host waiting for a frame three back (FrameUploads) sleeps instead of spinning a core.
    BS_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming | cudaEventBlockingSync));
    return event;
}

void destroy_event(void* event) noexcept {
    if (event && cudaEventDestroy(static_cast<cudaEvent_t>(event)) != cudaSuccess) cudaGetLastError();  // as release()
}

void record_event(void* event, Exec exec) { BS_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event), stream_of(exec))); }

void wait_for_event(void* event) { BS_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event))); }

}  // namespace bs::cuda
