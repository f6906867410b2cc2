// Device copies of host vectors for the CUDA-against-CPU tests, and a gate that holds a stream (with
// <cuda_runtime.h> for the rest of the test); empty where the CUDA backend is not built.
#pragma once

#if defined(BASESKIN_HAVE_CUDA)
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
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

// A host function (cudaLaunchHostFunc(stream, StreamGate::hold, &gate)) that holds its stream until the
// test opens the gate, or for 5 s at most (then it says so: whatever waited for the stream meanwhile).
struct StreamGate {
    std::atomic<bool> open{false}, gave_up{false};
    static void CUDART_CB hold(void* self) {
        StreamGate& gate = *static_cast<StreamGate*>(self);
        const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!gate.open.load()) {
            if (std::chrono::steady_clock::now() > limit) {
                gate.gave_up = true;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
};

}  // namespace bs::testing
#endif
