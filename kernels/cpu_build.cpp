// The CPU build of the per-point and per-sample passes: the very sources nvcc compiles, compiled here as C++.
#include "kernels/skinning_passes.cu"
#include "kernels/table_passes.cu"
