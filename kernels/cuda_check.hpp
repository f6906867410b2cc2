// Checked CUDA calls: every runtime call goes through BS_CUDA_CHECK, which throws bs::CudaError naming
// the file, line, call and CUDA's message (launches through check_launch, kernels/launch.hpp, which names
// the pass as well).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "kernels/device_memory.hpp"

namespace bs {

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    // Cleared, as it is thrown: a caller that catches it and goes on (the viewer, an embedder) would have
    // the next launch's check (cudaGetLastError) report it again, for a kernel that was queued. An error
    // that leaves the context unusable is sticky and every later call reports it anyway.
    cudaGetLastError();
    throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                    cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace bs

#define BS_CUDA_CHECK(call) ::bs::cuda_check((call), #call, __FILE__, __LINE__)
