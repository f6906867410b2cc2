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

// Table samples: one thread each, like points.
template <class F>
void for_each_sample(std::size_t count, const F& f, Exec exec) {
    for_each_point(count, f, exec);
}

// A pass F whose points mostly take a short common path, F::common(i) (true where it wrote point i), and
// the rest a long one, F::operator()(i), which gives every point what the short path gives it. A kernel's
// registers are those of its longest path, so one launch would run the short path at the long one's
// occupancy. The common path runs alone, and each warp appends the points it left to `scratch` with one
// atomic; a second launch of as many blocks as fit the device at once runs the long path over those.
// Both launches and the reset of the count are queued on the stream: nothing waits.
template <class F>
__global__ void common_path_kernel(std::size_t count, F f, SplitScratch scratch) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool left = i < count && !f.common(i);  // every lane of a warp reaches the ballot (blocks are whole warps)
    const unsigned lanes = __ballot_sync(0xffffffffu, left);
    if (lanes == 0) return;
    const unsigned lane = threadIdx.x % 32, leader = __ffs(lanes) - 1;
    std::uint32_t first = 0;
    if (lane == leader) first = atomicAdd(scratch.count, std::uint32_t(__popc(lanes)));
    first = __shfl_sync(0xffffffffu, first, leader);
    if (left) scratch.indices[first + __popc(lanes & ((1u << lane) - 1))] = std::uint32_t(i);
}

template <class F>
__global__ void left_points_kernel(F f, SplitScratch scratch) {
    const std::uint32_t count = *scratch.count, stride = gridDim.x * blockDim.x;
    for (std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += stride) f(scratch.indices[j]);
}

template <class F>
void for_each_point_split(std::size_t count, const F& f, SplitScratch scratch, Exec exec) {
    if (!scratch.indices || !scratch.count) return for_each_point(count, f, exec);  // no room: one launch, the long way
    if (count == 0) return;
    constexpr unsigned block = threads_per_block<F>();
    static_assert(block % 32 == 0, "the common path's ballot needs whole warps");
    const auto stream = static_cast<cudaStream_t>(exec.stream);
    BS_CUDA_CHECK(cudaMemsetAsync(scratch.count, 0, sizeof(std::uint32_t), stream));
    common_path_kernel<<<unsigned((count + block - 1) / block), block, 0, stream>>>(count, f, scratch);
    BS_CUDA_CHECK(cudaGetLastError());
    int device = 0, multiprocessors = 0, per_multiprocessor = 0;
    BS_CUDA_CHECK(cudaGetDevice(&device));
    BS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    BS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, left_points_kernel<F>, int(block), 0));
    const std::size_t resident = std::size_t(multiprocessors) * std::size_t(per_multiprocessor > 0 ? per_multiprocessor : 1);
    const std::size_t needed = (count + block - 1) / block;
    left_points_kernel<<<unsigned(needed < resident ? needed : resident), block, 0, stream>>>(f, scratch);
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

// On the CPU each point tries the common path and takes the long one where it must, in one loop: there are
// no warps to hold in step, so no list is needed. It costs what the whole pass did (the bench chain: 262.7M
// instructions against 263.5M, callgrind, benchmarks/RESULTS.md 2026-12-04), and the CPU runs the very
// path the GPU's first launch runs.
template <class F>
void for_each_point_split(std::size_t count, const F& f, SplitScratch, Exec exec) {
    for_each_point(count, [&f](std::size_t i) { if (!f.common(i)) f(i); }, exec);
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
