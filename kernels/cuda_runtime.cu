// Device discovery and device memory for the CUDA backend (kernels/device_memory.hpp).
#include <cuda_runtime.h>

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
    if (device) cudaFree(device);  // a failure here cannot be reported from a destructor; it is sticky for the next call
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

}  // namespace bs::cuda
