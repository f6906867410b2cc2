// The one place where the two builds of a pass differ: how "for every point i" is run.
// Included only by pass sources (kernels/*.cu), once per backend.
#pragma once

#include <cstddef>
#include <type_traits>

#include "kernels/passes.hpp"

namespace bs {
// A pass's threads per block on the GPU: its `static constexpr unsigned kThreadsPerBlock` where it sets
// one, else 256.
template <class F, class = void>
struct ThreadsPerBlock {
    static constexpr unsigned value = 256;
};
template <class F>
struct ThreadsPerBlock<F, std::void_t<decltype(F::kThreadsPerBlock)>> {
    static constexpr unsigned value = F::kThreadsPerBlock;
};
template <class F> constexpr unsigned threads_per_block() { return ThreadsPerBlock<F>::value; }
}  // namespace bs

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include "kernels/cuda_check.hpp"

#define BS_BACKEND cuda
namespace bs::cuda {

template <class F>
__global__ void per_point_kernel(std::size_t count, F f) {
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) f(i);
}

template <class F>
void for_each_point(std::size_t count, const F& f, Exec exec) {
    if (count == 0) return;
    constexpr unsigned block = threads_per_block<F>();
    unsigned grid = unsigned((count + block - 1) / block);
    per_point_kernel<<<grid, block, 0, static_cast<cudaStream_t>(exec.stream)>>>(count, f);
    BS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace bs::cuda
#else
#define BS_BACKEND cpu
namespace bs::cpu {

template <class F>
void for_each_point(std::size_t count, const F& f, Exec exec) {
    const long long n = static_cast<long long>(count);
    if (exec.threads > 0) {
#pragma omp parallel for schedule(static) num_threads(exec.threads)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    } else {
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    }
}

// Table samples: a few thousand items whose costs differ by 10× between the ranges of one pass (a section
// sample follows the bend from rest, a fan sample does not), so they are handed out dynamically; static
// ranges gave one core all the sections (measured: the demo's tables took 39 ms on 2 threads, 41 on 1).
template <class F>
void for_each_sample(std::size_t count, const F& f, Exec exec) {
    const long long n = static_cast<long long>(count);
    if (exec.threads > 0) {
#pragma omp parallel for schedule(dynamic, 4) num_threads(exec.threads)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    } else {
#pragma omp parallel for schedule(dynamic, 4)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    }
}

}  // namespace bs::cpu
#endif
