// LBS, DQS, baseline-skinning and metaball per-point passes. This one file is compiled twice: by the host compiler into bs::cpu
// (via cpu_build.cpp) and by nvcc into bs::cuda, but for the double-precision passes, which only the CPU build
// has. The baseline's per-frame table passes are in table_passes.cu. The functors below are the per-point work; launch.hpp decides how
// they are run.
#include "kernels/launch.hpp"

namespace bs::BS_BACKEND {
namespace {

template <class T>
BS_HD inline Vec3<T> load_point(ConstPointView<T> v, std::size_t i) {
    const T* p = v.data + i * v.stride;
    return {p[0], p[1], p[2]};
}

template <class T>
BS_HD inline void store_point(PointView<T> v, std::size_t i, Vec3<T> q) {
    T* p = v.data + i * v.stride;
    p[0] = q.x;
    p[1] = q.y;
    p[2] = q.z;
}

template <class T>
struct LbsPass {
    LbsJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        store_point(job.out, i, lbs_point(load_point(job.rest, i), job.influences[i], job.bones));
    }
};

template <class T>
struct SparseLbsPass {
    SparseLbsJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        const std::uint32_t first = job.offsets[i];
        store_point(job.out, i,
                    lbs_point(load_point(job.rest, i), job.bones + first, job.weights + first, job.offsets[i + 1] - first, job.table));
    }
};

template <class T>
struct DqsPass {
    DqsJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        store_point(job.out, i, dqs_point(load_point(job.rest, i), job.influences[i], job.bones));
    }
};

template <class T>
struct BaselinePass {
    // Blocks of 64 threads: with 255 registers a thread (nvcc, sm_90) a block of 256 fills a multiprocessor's
    // register file, which then waits for the block's slowest warp before the next block starts; blocks of
    // two warps let another start as each finishes. Measured on an H200 together with the coherent order
    // (benchmarks/RESULTS.md, 2026-12-04): 8.5% of the warp slots occupied instead of 4.9% (12.5% is what the
    // registers allow). Capping the registers at 128 for twice the warps (__launch_bounds__(64, 8)) made the
    // pass 1.32x slower: it spilled, and L1's hit rate fell from 78% to 55%.
    static constexpr unsigned kThreadsPerBlock = 64;
    BaselineJob<T> job;
    BS_HD BS_FLATTEN void operator()(std::size_t i) const {
        store(i, deform_baseline_point(job.codes[i], rest(i), job.bones, job.poses, int(job.bone_count), job.tables, kept(i)));
    }
    // Code i's kept field bones: read only for a blended code (the only one whose field is evaluated).
    BS_HD FieldBones kept(std::size_t i) const {
        return job.field_refs && job.codes[i].rigid_blend != 0.0f ? kept_field_bones(job.field_refs[i], job.field_pool) : FieldBones{};
    }
    // The common path alone (for_each_point_split): true where it wrote point i.
    BS_HD BS_FLATTEN bool common(std::size_t i) const {
        Vec3<double> posed;
        if (!deform_common_baseline_point(job.codes[i], rest(i), job.bones, job.poses, job.tables, posed)) return false;
        store(i, posed);
        return true;
    }
    BS_HD Vec3<double> rest(std::size_t i) const { return Vec3<double>(load_point(job.rest, i)); }
    // Point i's result, at its place in the caller's order.
    BS_HD void store(std::size_t i, Vec3<double> posed) const { store_point(job.out, job.order ? job.order[i] : i, Vec3<T>(posed)); }
};


// One thread per point of all the bodies: the body is found by binary search over `starts` (a few
// bodies: a few steps), then the body's own per-point pass runs on its local index (and its common path,
// for for_each_point_split, where the pass has one).
template <template <class> class Pass, class Job>
struct BodiesPass {
    static constexpr unsigned kThreadsPerBlock = threads_per_block<Pass<float>>();
    BodiesJob<Job> job;
    BS_HD void operator()(std::size_t i) const {
        const int b = body_of(i);
        Pass<float>{job.jobs[b]}(i - job.starts[b]);
    }
    BS_HD bool common(std::size_t i) const {
        const int b = body_of(i);
        return Pass<float>{job.jobs[b]}.common(i - job.starts[b]);
    }
    BS_HD int body_of(std::size_t i) const {
        int lo = 0, hi = job.body_count;  // invariant: starts[lo] <= i < starts[hi]
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (job.starts[mid] <= i) lo = mid; else hi = mid;
        }
        return lo;
    }
};

// The body's motion is applied only where it moves (a matrix a point took about 1 ns of ~3 on the bench
// chain, for drags and poses whose root is still too).
template <class T>
struct MetaballPass {
    MetaballJob<T> job;
    bool moves_body;
    BS_HD void operator()(std::size_t i) const {
        const std::uint32_t first = job.binding_offsets[i];
        const Vec3<T> moved = metaball_point(load_point(job.rest, i), job.binding_joints + first, job.binding_offsets[i + 1] - first, job.joints);
        store_point(job.out, i, moves_body ? job.body.apply(moved) : moved);
    }
};
template <class T> MetaballPass<T> metaball_pass(const MetaballJob<T>& job) { return {job, !job.body.is_identity()}; }


}  // namespace

void deform_lbs(const LbsJob<float>& job, Exec exec) { for_each_point(job.count, LbsPass<float>{job}, exec); }
void deform_lbs(const SparseLbsJob<float>& job, Exec exec) { for_each_point(job.count, SparseLbsPass<float>{job}, exec); }
void deform_lbs(const BodiesJob<LbsJob<float>>& job, Exec exec) { for_each_point(job.total, BodiesPass<LbsPass, LbsJob<float>>{job}, exec); }
void deform_baseline(const BodiesJob<BaselineJob<float>>& job, Exec exec) {
    for_each_point_split(job.total, BodiesPass<BaselinePass, BaselineJob<float>>{job}, job.split, exec);
}
void deform_dqs(const DqsJob<float>& job, Exec exec) { for_each_point(job.count, DqsPass<float>{job}, exec); }
// Without tables every point takes the long path (the direct construction): the split's launch without room.
void deform_baseline(const BaselineJob<float>& job, Exec exec) {
    for_each_point_split(job.count, BaselinePass<float>{job}, job.tables.phi_samples > 0 ? job.split : SplitScratch{}, exec);
}
void deform_metaball(const MetaballJob<float>& job, Exec exec) { for_each_point(job.count, metaball_pass(job), exec); }
#if defined(__CUDACC__)  // a device's stack limit (kernels/passes.hpp)
void reserve_baseline_stack() {
    reserve_split_stack<BaselinePass<float>>();
    reserve_split_stack<BodiesPass<BaselinePass, BaselineJob<float>>>();
}
#else  // the CPU build only: the double-precision passes
void deform_lbs(const LbsJob<double>& job, Exec exec) { for_each_point(job.count, LbsPass<double>{job}, exec); }
void deform_lbs(const SparseLbsJob<double>& job, Exec exec) { for_each_point(job.count, SparseLbsPass<double>{job}, exec); }
void deform_dqs(const DqsJob<double>& job, Exec exec) { for_each_point(job.count, DqsPass<double>{job}, exec); }
void deform_baseline(const BaselineJob<double>& job, Exec exec) { for_each_point_split(job.count, BaselinePass<double>{job}, job.split, exec); }
void deform_metaball(const MetaballJob<double>& job, Exec exec) { for_each_point(job.count, metaball_pass(job), exec); }
#endif

}  // namespace bs::BS_BACKEND
