// The CPU build of the per-point passes: the very source nvcc compiles, compiled here as C++.
#include "kernels/skinning_passes.cu"
