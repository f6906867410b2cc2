// One macro marks every per-point function that must compile for both the host and the GPU.
// Under nvcc it expands to __host__ __device__; under a plain C++ compiler it is empty (DESIGN §4).
#pragma once

#if defined(__CUDACC__)
#define BS_HD __host__ __device__
#else
#define BS_HD
#endif
