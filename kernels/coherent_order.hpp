// The order in which the GPU evaluates a baseline body's points: warps of points that take one path
// through the per-point pass and read neighbouring table cells.
//
// A point's cost in the baseline pass depends on its path (on the deformed segment, on an end piece, over
// a cap, blended toward a rigid motion, or the direct construction where a table cell may not be
// interpolated) and it reads the tables around its own φ. In a caller's order that is not sorted so (the
// bench's points are a random sample of the surface) the 32 threads of a warp take different paths and
// read scattered cells: on an H200 (benchmarks/RESULTS.md, 2026-12-04) 9.5 threads of 32 were active on
// average, and 70% of the pass's global sectors were excess. The CPU backend does not need it (sorted by
// this key the CPU pass was about 5% faster: not worth a permutation).
//
// So the GPU front (host/gpu_skinner.cpp) uploads a baseline body's codes and rest points sorted by
// coherence_key, stable (points of one key keep the caller's order), and the pass writes each point's result
// at the caller's index (BaselineJob::order). The results are the same point for point: each point is
// computed on its own.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/baseline/code.hpp"
#include "engine/hd.hpp"
#include "kernels/passes.hpp"

namespace bs {

// Bands of the key: kTBands of a code's t (of [0, 1] on a section, of [0, π] over a cap: a polar angle)
// and kPhiBands of φ's turn. With 1e6 points on a three-bone body, a warp then spans about a fifth of a
// default table cell in φ (kDefaultPhiSamples = 128).
constexpr int kTBands = 16;
constexpr int kPhiBands = 1024;

// Band of x in [0, 1) among `bands`; 0 for NaN, the end bands beyond.
BS_HD inline std::uint32_t key_band(double x, int bands) {
    const double scaled = x * bands;
    if (!(scaled >= 0)) return 0;
    return scaled >= bands ? std::uint32_t(bands - 1) : std::uint32_t(scaled);
}

// Sort key, most significant first: the bone (16 bits); the region (2 bits: on a section, over a cap, or
// blended toward a rigid motion: rigid_blend > 0, which computes that motion too); t's band (4 bits); φ's
// band (10 bits).
BS_HD inline std::uint32_t coherence_key(const BaselineCode& code) {
    const bool cap = (code.flags & (kCodeParentCap | kCodeChildCap)) != 0;
    const std::uint32_t region = cap ? 1u : code.rigid_blend > 0 ? 2u : 0u;
    const double t = cap ? double(code.t) / (kTwoPi / 2) : double(code.t);
    const double turns = double(code.phi) / kTwoPi;
    return std::uint32_t(code.bone) << 16 | region << 14 | key_band(t, kTBands) << 10 | key_band(turns - std::floor(turns), kPhiBands);
}
static_assert(kTBands == 1 << 4 && kPhiBands == 1 << 10, "coherence_key's bit fields");

namespace cuda {

// order[i] = the caller's index of the point evaluated i-th: [0, count) sorted stably by the codes'
// coherence_key. Device pointers (codes: count entries; order: room for count); count ≤ 2³² − 1.
// Synchronises `exec`'s stream before it returns (it frees its scratch memory): a construction step, not a
// per-frame one.
void coherent_order(const BaselineCode* codes, std::size_t count, std::uint32_t* order, Exec exec);

// to[i] = from[order[i]], i < count (device pointers; `to` must not overlap `from`). Asynchronous on exec's stream.
void gather(const BaselineCode* from, const std::uint32_t* order, std::size_t count, BaselineCode* to, Exec exec);
void gather(const Vec3<float>* from, const std::uint32_t* order, std::size_t count, Vec3<float>* to, Exec exec);
void gather(const std::uint32_t* from, const std::uint32_t* order, std::size_t count, std::uint32_t* to, Exec exec);

}  // namespace cuda
}  // namespace bs
