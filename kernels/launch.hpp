// How "for every point i" is run, in each build of a pass (CPU: an OpenMP loop; CUDA: a thread a point).
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
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>

#include "kernels/cuda_check.hpp"

#define BS_BACKEND cuda
namespace bs::cuda {

// After queuing `kernel` for pass F: CudaError where CUDA reports an error, naming the pass (F's type,
// demangled) — every pass is launched from this file, so its file and line alone did not say which
// pass's launch failed (a pass whose registers outgrow its block fails every launch). CUDA's last error
// may also be an earlier kernel's, surfacing here: the message says so.
template <class F>
void check_launch(const char* kernel) {
    const cudaError_t status = cudaGetLastError();
    if (status == cudaSuccess) return;
    int demangling = 0;
    const std::unique_ptr<char, void (*)(void*)> pass(abi::__cxa_demangle(typeid(F).name(), nullptr, nullptr, &demangling), std::free);
    const std::string call = std::string(kernel) + " of " + (demangling == 0 ? pass.get() : typeid(F).name()) +
                             " (or an earlier kernel's error surfacing at its launch)";
    cuda_check(status, call.c_str(), __FILE__, __LINE__);
}

template <class F>
__global__ void per_point_kernel(std::size_t count, F f) {
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) f(i);
}

// `count` items, one thread each, in blocks of `block` threads.
template <class F>
void launch_per_item(std::size_t count, const F& f, Exec exec, unsigned block) {
    if (count == 0) return;
    const unsigned grid = unsigned((count + block - 1) / block);
    per_point_kernel<<<grid, block, 0, static_cast<cudaStream_t>(exec.stream)>>>(count, f);
    check_launch<F>("per_point_kernel");
}

template <class F>
void for_each_point(std::size_t count, const F& f, Exec exec) {
    launch_per_item(count, f, exec, threads_per_block<F>());
}

// Table samples: one thread each, like points, in blocks of 128: the table passes take all 255 registers a
// thread may have (ptxas, sm_90), and 256 such threads are exactly the 65,536 a block may hold, so any
// growth would fail every launch ("too many resources requested"). Two blocks of 128 a multiprocessor
// keep the occupancy that the registers allow.
constexpr unsigned kSampleThreadsPerBlock = 128;
template <class F>
void for_each_sample(std::size_t count, const F& f, Exec exec) {
    launch_per_item(count, f, exec, kSampleThreadsPerBlock);
}

// A pass F whose points mostly take a short common path, F::common(i) (true where it wrote point i), and
// the rest a long one, F::operator()(i), which gives every point what the short path gives it. A kernel's
// registers are those of its longest path, so one launch would run the short path at the long one's
// occupancy. The common path runs alone, and each warp appends the points it left to `scratch` with one
// atomic; a second launch of as many blocks as fit the device at once runs the long path over those.
// Both launches and the reset of the count are queued on the stream: nothing waits. Without room (a null
// scratch, or more points than a 32-bit index holds) one launch runs every point the long way.
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

// The long path over the listed points (`indices`, as many as *listed says on the device), or, without a
// list, over points 0 … count − 1: one kernel for both, so that nvcc compiles the long path once.
template <class F>
__global__ void long_path_kernel(F f, const std::uint32_t* indices, const std::uint32_t* listed, std::size_t count) {
    const std::size_t n = listed ? std::size_t(*listed) : count, stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n; j += stride) f(indices ? std::size_t(indices[j]) : j);
}

// Blocks of the long path that the current device holds at once (asked again only when the device changes).
template <class F>
std::size_t resident_long_path_blocks(unsigned block) {
    thread_local int device_seen = -1;
    thread_local std::size_t resident = 0;
    int device = 0;
    BS_CUDA_CHECK(cudaGetDevice(&device));
    if (device != device_seen) {
        int multiprocessors = 0, per_multiprocessor = 0;
        BS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
        BS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, long_path_kernel<F>, int(block), 0));
        resident = std::size_t(multiprocessors) * std::size_t(per_multiprocessor > 0 ? per_multiprocessor : 1);
        device_seen = device;
    }
    return resident;
}

// Raises the current device's per-thread stack limit (cudaLimitStackSize) to what `kernel` needs (its local
// memory a thread, cudaFuncAttributes::localSizeBytes: with whole-program compilation, as kernels/CMakeLists.txt
// builds, ptxas folds the non-inlined callees' frames into it), where the limit is below that. CUDA raises the limit itself at a launch that needs more, and setting it waits until the
// device is idle (cuCtxSetLimit); so a caller that promises not to wait (GpuSkinner::deform) reserves it
// beforehand, where it may wait. Under a lock, so that two threads reserving for kernels of different needs
// cannot leave the smaller need set.
inline void reserve_stack_for(const void* kernel) {
    static std::mutex reserving;
    const std::lock_guard<std::mutex> lock(reserving);
    cudaFuncAttributes attributes{};
    BS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    std::size_t limit = 0;
    BS_CUDA_CHECK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
    if (attributes.localSizeBytes > limit) BS_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, attributes.localSizeBytes));
}
// The same for both kernels for_each_point_split launches for F, and for launch_per_item's.
template <class F> void reserve_split_stack() {
    reserve_stack_for(reinterpret_cast<const void*>(&common_path_kernel<F>));
    reserve_stack_for(reinterpret_cast<const void*>(&long_path_kernel<F>));
}
template <class F> void reserve_per_item_stack() { reserve_stack_for(reinterpret_cast<const void*>(&per_point_kernel<F>)); }

template <class F>
void for_each_point_split(std::size_t count, const F& f, SplitScratch scratch, Exec exec) {
    if (count == 0) return;
    constexpr unsigned block = threads_per_block<F>();
    static_assert(block % 32 == 0, "the common path's ballot needs whole warps");
    const auto stream = static_cast<cudaStream_t>(exec.stream);
    const std::size_t blocks = (count + block - 1) / block, most_blocks = 0x7fffffff;
    if (!scratch.indices || !scratch.count || count > 0xffffffffu) {
        long_path_kernel<<<unsigned(blocks < most_blocks ? blocks : most_blocks), block, 0, stream>>>(f, nullptr, nullptr, count);
        check_launch<F>("long_path_kernel");
        return;
    }
    // Asked before anything is queued: a failure there (it makes CUDA calls) left the common path's points
    // written and the others not, a half-written frame.
    const std::size_t resident = resident_long_path_blocks<F>(block);
    BS_CUDA_CHECK(cudaMemsetAsync(scratch.count, 0, sizeof(std::uint32_t), stream));
    common_path_kernel<<<unsigned(blocks), block, 0, stream>>>(count, f, scratch);
    check_launch<F>("common_path_kernel");
    long_path_kernel<<<unsigned(blocks < resident ? blocks : resident), block, 0, stream>>>(f, scratch.indices, scratch.count, 0);
    check_launch<F>("long_path_kernel");
}

}  // namespace bs::cuda
#else
#define BS_BACKEND cpu
namespace bs::cpu {

// Exec::threads for OpenMP's num_threads: at most kMaxThreads.
inline int team_size(Exec exec) { return exec.threads < kMaxThreads ? exec.threads : kMaxThreads; }

// Fewer points than this run on the calling thread: waking a team costs more than they do (a frame of a
// body of one point took 4–12 ms on a machine whose cores were busy, an embedder's probe). The points
// come out the same on any number of threads.
constexpr long long kPointsForATeam = 1024;

template <class F>
void for_each_point(std::size_t count, const F& f, Exec exec) {
    const long long n = static_cast<long long>(count);
    if (exec.threads > 0) {
#pragma omp parallel for schedule(static) num_threads(team_size(exec)) if (n >= kPointsForATeam)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    } else {
#pragma omp parallel for schedule(static) if (n >= kPointsForATeam)
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
#pragma omp parallel for schedule(dynamic, 4) num_threads(team_size(exec))
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    } else {
#pragma omp parallel for schedule(dynamic, 4)
        for (long long i = 0; i < n; ++i) f(std::size_t(i));
    }
}

}  // namespace bs::cpu
#endif
