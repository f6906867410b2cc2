// Linked instead of the CUDA backend when nvcc was not found at configure time.
#include <stdexcept>

#include "kernels/passes.hpp"

namespace bs::cuda {

int device_count() { return 0; }

namespace {
[[noreturn]] void not_built() {
    throw std::runtime_error("the CUDA backend was not built (nvcc was not found when configuring)");
}
}  // namespace

void deform_lbs(const LbsJob<float>&, Exec) { not_built(); }
void deform_dqs(const DqsJob<float>&, Exec) { not_built(); }
void deform_baseline(const BaselineJob<float>&, Exec) { not_built(); }
void deform_metaball(const MetaballJob<float>&, Exec) { not_built(); }

}  // namespace bs::cuda
