// One macro marks every per-point function that must compile for both the host and the GPU.
// Under nvcc it expands to __host__ __device__; under a plain C++ compiler it is empty (DESIGN §4).
#pragma once

#if defined(__CUDACC__)
#define BS_HD __host__ __device__
#else
#define BS_HD
#endif

// Marks a per-point function kept out of line: a rare branch (a fallback, a point on a section's end
// piece) whose body, inlined, would crowd the common path's registers.
#if defined(__CUDACC__)
#define BS_NOINLINE __noinline__
#elif defined(__GNUC__)
#define BS_NOINLINE __attribute__((noinline))
#else
#define BS_NOINLINE
#endif

// Marks a pass's body (per point or per table sample) whose every call is to be inlined into it,
// recursively (BS_NOINLINE branches excepted). The bodies are large, so GCC's growth limits left small
// helpers out of line, and a Vec3<double> (24 bytes) then went through the stack at every call. Measured
// (benchmarks/RESULTS.md, 2026-12-03): the human demo's frame at one thread 7-10% faster, most of it in
// the tables' passes, results identical to the bit. nvcc inlines device functions by itself. Not under
// AddressSanitizer, which checks rather than measures: there the flattened bodies took 5 minutes to
// compile instead of 10 seconds.
#if defined(__SANITIZE_ADDRESS__)
#define BS_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BS_SANITIZED_BUILD 1
#endif
#endif
#if !defined(__CUDACC__) && defined(__GNUC__) && !defined(BS_SANITIZED_BUILD)
#define BS_FLATTEN __attribute__((flatten))
#else
#define BS_FLATTEN
#endif
