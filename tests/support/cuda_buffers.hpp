// Device copies of host vectors for the CUDA-against-CPU tests (with <cuda_runtime.h> for the rest of the
// test); empty where the CUDA backend is not built.
#pragma once

#if defined(BASESKIN_HAVE_CUDA)
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

namespace bs::testing {

// A device buffer holding a copy of `host`; the caller frees it with cudaFree.
template <class T>
T* to_device(const std::vector<T>& host) {
    T* device = nullptr;
    EXPECT_EQ(cudaMalloc(&device, host.size() * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return device;
}

}  // namespace bs::testing
#endif
