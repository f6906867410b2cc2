// Device discovery for the CUDA backend.
#include <cuda_runtime.h>

#include "kernels/passes.hpp"

namespace bs::cuda {

// No GPU or no driver is a normal state (CI, laptops): report 0 rather than throw. cudaGetDeviceCount
// may fail (e.g. error 35, insufficient driver) and leave the count untouched, so check its status.
int device_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error so later calls are not poisoned
        return 0;
    }
    return count;
}

}  // namespace bs::cuda
