// Outputs the caller owns, for the CPU skinners as for GpuSkinner: `count` points written at `out.stride`
// elements apart (x, y, z first; the rest of each stride untouched: float4 with w, interleaved vertex
// attributes). The caller gives room for count × stride elements; the pointer and stride are checked.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "host/errors.hpp"
#include "kernels/passes.hpp"

namespace bs {

// InputError naming `who` for a null pointer, a stride below 3, or count × stride beyond what an address
// can span (the offsets would wrap: every point written over the first) (nothing is checked for no points).
template <class T>
void require_output(PointView<T> out, std::size_t count, const std::string& who) {
    if (count == 0) return;
    if (out.stride < 3) throw InputError(who + ": an output stride of " + std::to_string(out.stride) + " elements; xyz needs at least 3");
    if (!out.data) throw InputError(who + ": the output is a null pointer");
    if (out.stride > std::numeric_limits<std::ptrdiff_t>::max() / sizeof(T) / count)
        throw InputError(who + ": an output stride of " + std::to_string(out.stride) + " elements for " + std::to_string(count) +
                         " points spans more than an address can");
}

// Runs `pass` (a skinner's deform into a PointView<T>, which checks its input before it writes) into
// `out` as `count` packed points: `out` grows before the pass where it is short and shrinks only after
// the pass returns, so a pass that refuses its input leaves the caller's vector as it was, size and
// contents (a vector shrunk first would have lost its tail); a shorter one may have been reallocated on
// the way (its data() and capacity change).
template <class T, class Pass>
void deform_into(std::vector<Vec3<T>>& out, std::size_t count, Pass&& pass) {
    const std::size_t before = out.size();
    if (before < count) out.resize(count);
    try {
        pass(PointView<T>{packed_scalars(out.data()), 3});
    } catch (...) {
        out.resize(before);
        throw;
    }
    out.resize(count);
}

}  // namespace bs
