// LBS, DQS, baseline-skinning and metaball per-point passes. This one file is compiled twice: by the host compiler into bs::cpu
// (via cpu_build.cpp) and by nvcc into bs::cuda. The functors below are the per-point work; launch.hpp
// decides how they are run.
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
struct DqsPass {
    DqsJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        store_point(job.out, i, dqs_point(load_point(job.rest, i), job.influences[i], job.bones));
    }
};

template <class T>
struct BaselinePass {
    BaselineJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        Vec3<double> rest(load_point(job.rest, i));
        store_point(job.out, i, Vec3<T>(deform_baseline_point(job.codes[i], rest, job.bones, job.poses)));
    }
};

template <class T>
struct MetaballPass {
    MetaballJob<T> job;
    BS_HD void operator()(std::size_t i) const {
        const std::uint32_t first = job.binding_offsets[i];
        store_point(job.out, i, metaball_point(load_point(job.rest, i), job.binding_joints + first,
                                               job.binding_offsets[i + 1] - first, job.joints));
    }
};

}  // namespace

void deform_lbs(const LbsJob<float>& job, Exec exec) { for_each_point(job.count, LbsPass<float>{job}, exec); }
void deform_dqs(const DqsJob<float>& job, Exec exec) { for_each_point(job.count, DqsPass<float>{job}, exec); }
void deform_baseline(const BaselineJob<float>& job, Exec exec) { for_each_point(job.count, BaselinePass<float>{job}, exec); }
void deform_metaball(const MetaballJob<float>& job, Exec exec) { for_each_point(job.count, MetaballPass<float>{job}, exec); }
#if !defined(__CUDACC__)
void deform_lbs(const LbsJob<double>& job, Exec exec) { for_each_point(job.count, LbsPass<double>{job}, exec); }
void deform_dqs(const DqsJob<double>& job, Exec exec) { for_each_point(job.count, DqsPass<double>{job}, exec); }
void deform_baseline(const BaselineJob<double>& job, Exec exec) { for_each_point(job.count, BaselinePass<double>{job}, exec); }
void deform_metaball(const MetaballJob<double>& job, Exec exec) { for_each_point(job.count, MetaballPass<double>{job}, exec); }
#endif

}  // namespace bs::BS_BACKEND
