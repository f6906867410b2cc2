// The one place where the two builds of a pass differ: how "for every point i" is run.
// Included only by pass sources (kernels/*.cu), once per backend.
#pragma once

#include <cstddef>
#include <type_traits>

#include "kernels/passes.hpp"

namespace bs {
// How a pass is launched on the GPU where it says so (`static constexpr LaunchShape kLaunch`): threads per
// block, and the blocks per multiprocessor nvcc must leave registers for (__launch_bounds__). Other passes
// get blocks of 256 threads and no bounds (nvcc's own register choice).
struct LaunchShape {
    unsigned threads_per_block;
    unsigned min_blocks_per_multiprocessor;
};
template <class F, class = void>
struct HasLaunchShape : std::false_type {};
template <class F>
struct HasLaunchShape<F, std::void_t<decltype(F::kLaunch)>> : std::true_type {};
// A base for a pass that runs another: the inner pass's launch shape, where it has one.
template <class Inner, bool = HasLaunchShape<Inner>::value>
struct LaunchShapeOf {};
template <class Inner>
struct LaunchShapeOf<Inner, true> {
    static constexpr LaunchShape kLaunch = Inner::kLaunch;
};
}  // namespace bs

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include "kernels/cuda_check.hpp"

#define BS_BACKEND cuda
namespace bs::cuda {

template <class F>
__device__ void run_point(std::size_t count, const F& f) {
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) f(i);
}

template <class F>
__global__ void per_point_kernel(std::size_t count, F f) {
    run_point(count, f);
}

template <class F>
__global__ void __launch_bounds__(F::kLaunch.threads_per_block, F::kLaunch.min_blocks_per_multiprocessor)
    bounded_per_point_kernel(std::size_t count, F f) {
    run_point(count, f);
}

template <class F>
void for_each_point(std::size_t count, const F& f, Exec exec) {
    if (count == 0) return;
    const auto stream = static_cast<cudaStream_t>(exec.stream);
    if constexpr (HasLaunchShape<F>::value) {
        constexpr unsigned block = F::kLaunch.threads_per_block;
        bounded_per_point_kernel<<<unsigned((count + block - 1) / block), block, 0, stream>>>(count, f);
    } else {
        constexpr unsigned block = 256;
        per_point_kernel<<<unsigned((count + block - 1) / block), block, 0, stream>>>(count, f);
    }
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
