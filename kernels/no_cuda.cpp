// Linked instead of the CUDA backend when it is not built (BASESKIN_WITH_CUDA=OFF, or no nvcc at configure time): no device, and every
// call that needs one throws CudaUnavailable.
#include "kernels/coherent_order.hpp"
#include "kernels/device_memory.hpp"
#include "kernels/passes.hpp"

namespace bs::cuda {

int device_count() { return 0; }
std::string device_description() { return std::string(); }

namespace {
[[noreturn]] void not_built() {
    throw CudaUnavailable("the CUDA backend was not built (configured with BASESKIN_WITH_CUDA=OFF, or nvcc was not found)");
}
}  // namespace

void deform_lbs(const LbsJob<float>&, Exec) { not_built(); }
void deform_lbs(const SparseLbsJob<float>&, Exec) { not_built(); }
void deform_lbs(const BodiesJob<LbsJob<float>>&, Exec) { not_built(); }
void deform_baseline(const BodiesJob<BaselineJob<float>>&, Exec) { not_built(); }
void deform_dqs(const DqsJob<float>&, Exec) { not_built(); }
void deform_baseline(const BaselineJob<float>&, Exec) { not_built(); }
void deform_metaball(const MetaballJob<float>&, Exec) { not_built(); }
void build_baseline_tables_in_place(const BaselineInPlaceTablesJob&, Exec) { not_built(); }
void reserve_baseline_stack() { not_built(); }
void reserve_table_stack() { not_built(); }

void coherent_order(const BaselineCode*, std::size_t, std::uint32_t*, Exec) { not_built(); }
void gather(const BaselineCode*, const std::uint32_t*, std::size_t, BaselineCode*, Exec) { not_built(); }
void gather(const Vec3<float>*, const std::uint32_t*, std::size_t, Vec3<float>*, Exec) { not_built(); }
void gather(const std::uint32_t*, const std::uint32_t*, std::size_t, std::uint32_t*, Exec) { not_built(); }

void* allocate(std::size_t) { not_built(); }
void release(void*) noexcept {}
void copy_to_device(void*, const void*, std::size_t, Exec) { not_built(); }
void copy_to_host(void*, const void*, std::size_t, Exec) { not_built(); }
void copy_on_device(void*, const void*, std::size_t, Exec) { not_built(); }
void fill_bytes(void*, int, std::size_t, Exec) { not_built(); }
void synchronize(Exec) { not_built(); }
bool stream_is_capturing(Exec) { return false; }
bool device_cannot_write(const void*) { not_built(); }
void* allocate_pinned(std::size_t) { not_built(); }
void release_pinned(void*) noexcept {}
void* create_event() { not_built(); }
void destroy_event(void*) noexcept {}
void record_event(void*, Exec) { not_built(); }
void wait_for_event(void*) { not_built(); }

}  // namespace bs::cuda
