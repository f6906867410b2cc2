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
