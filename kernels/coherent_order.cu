// The GPU's evaluation order of a baseline body (kernels/coherent_order.hpp): keys on the device, CUB's radix
// sort of (key, index) pairs, and the gathers that lay codes and rest points out in that order.
#include <cub/device/device_radix_sort.cuh>

#include <limits>
#include <string>

#include "kernels/coherent_order.hpp"
#include "kernels/device_memory.hpp"
#include "kernels/launch.hpp"

namespace bs::cuda {
namespace {

struct KeyPass {
    const BaselineCode* codes;
    std::uint32_t* keys;
    std::uint32_t* indices;
    BS_HD void operator()(std::size_t i) const {
        keys[i] = coherence_key(codes[i]);
        indices[i] = std::uint32_t(i);
    }
};

template <class T>
struct GatherPass {
    const T* from;
    const std::uint32_t* order;
    T* to;
    BS_HD void operator()(std::size_t i) const { to[i] = from[order[i]]; }
};

}  // namespace

void coherent_order(const BaselineCode* codes, std::size_t count, std::uint32_t* order, Exec exec) {
    if (count == 0) return;
    if (count > std::numeric_limits<std::uint32_t>::max())
        throw CudaError("coherent_order: " + std::to_string(count) + " points; at most 2^32 - 1 can be ordered");
    DeviceArray<std::uint32_t> keys(count), sorted_keys(count), indices(count);
    for_each_point(count, KeyPass{codes, keys.data(), indices.data()}, exec);
    const auto stream = static_cast<cudaStream_t>(exec.stream);
    std::size_t scratch_bytes = 0;
    BS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, keys.data(), sorted_keys.data(), indices.data(), order,
                                                  count, 0, 32, stream));
    DeviceArray<unsigned char> scratch(scratch_bytes);
    BS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratch_bytes, keys.data(), sorted_keys.data(), indices.data(),
                                                  order, count, 0, 32, stream));
    synchronize(exec);  // before the scratch arrays go
}

void gather(const BaselineCode* from, const std::uint32_t* order, std::size_t count, BaselineCode* to, Exec exec) {
    for_each_point(count, GatherPass<BaselineCode>{from, order, to}, exec);
}

void gather(const Vec3<float>* from, const std::uint32_t* order, std::size_t count, Vec3<float>* to, Exec exec) {
    for_each_point(count, GatherPass<Vec3<float>>{from, order, to}, exec);
}

void gather(const std::uint32_t* from, const std::uint32_t* order, std::size_t count, std::uint32_t* to, Exec exec) {
    for_each_point(count, GatherPass<std::uint32_t>{from, order, to}, exec);
}

}  // namespace bs::cuda
