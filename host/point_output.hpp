// Outputs the caller owns, for the CPU skinners as for GpuSkinner: `count` points written at `out.stride`
// elements apart (x, y, z first; the rest of each stride untouched: float4 with w, interleaved vertex
// attributes). The caller gives room for count × stride elements; the pointer and stride are checked.
#pragma once

#include <string>
#include <vector>

#include "host/errors.hpp"
#include "kernels/passes.hpp"

namespace bs {

// InputError naming `who` for a null pointer or a stride below 3 (nothing is checked for no points).
template <class T>
void require_output(PointView<T> out, std::size_t count, const std::string& who) {
    if (count == 0) return;
    if (out.stride < 3) throw InputError(who + ": an output stride of " + std::to_string(out.stride) + " elements; xyz needs at least 3");
    if (!out.data) throw InputError(who + ": the output is a null pointer");
}

// `out` resized to `count` packed points, as a view.
template <class T>
PointView<T> packed_output(std::vector<Vec3<T>>& out, std::size_t count) {
    out.resize(count);
    return {packed_scalars(out.data()), 3};
}

}  // namespace bs
