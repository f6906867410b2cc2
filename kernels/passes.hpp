// Per-point deformation passes, declared once for both backends.
//
// bs::cpu:: runs on all host cores (OpenMP); bs::cuda:: launches one GPU thread per point on the caller's
// stream and never synchronises. Both are built from kernels/skinning_passes.cu. Pointers in a job are
// host pointers for bs::cpu and device pointers for bs::cuda; the caller owns every buffer.
// Output is identical for any CPU thread count: each point is computed independently.
#pragma once

#include <cstddef>

#include "engine/baseline/deform.hpp"
#include "engine/metaball.hpp"
#include "engine/skinning_classic.hpp"

namespace bs {

// Strided view of points: point i is {data[i*stride], data[i*stride+1], data[i*stride+2]};
// stride is in scalars, >= 3 (3 for packed xyz, 4 for xyzw).
template <class T>
struct PointView {
    T* data;
    std::size_t stride;
};

template <class T>
struct ConstPointView {
    const T* data;
    std::size_t stride;
};

// One classical-skinning job: `count` points with their influences, and the per-frame bone table
// (`bone_count` entries; every influence index is < bone_count, checked on the host when loading).
template <class T, class BoneTable>
struct ClassicSkinningJob {
    ConstPointView<T> rest;
    const Influences* influences;
    std::size_t count;
    const BoneTable* bones;
    std::size_t bone_count;
    PointView<T> out;
};

template <class T> using LbsJob = ClassicSkinningJob<T, Mat34<T>>;
template <class T> using DqsJob = ClassicSkinningJob<T, DualQuat<T>>;

// One baseline-skinning job: codes from the encoder, the rest bones (BaselineBone, uploaded once) and the
// per-frame bone poses; `rest` feeds only the rigid fallback blend. Points are read and written in T; the
// baseline geometry is evaluated in double whatever T is: where the plane of the sheaf is nearly tangent
// to a joint sphere (between a joint's convex and concave sides) a generator's tangency point has a
// square-root singularity, and float's 6e-8 would become ~2e-4 of the radius (docs/ALGORITHM.md).
template <class T>
struct BaselineJob {
    ConstPointView<T> rest;
    const BaselineCode* codes;
    std::size_t count;
    const BaselineBone<double>* bones;
    const BaselineBonePose<double>* poses;
    std::size_t bone_count;
    PointView<T> out;
};

// One metaball job (seed 001 §1.3): point i is bound to the joints
// binding_joints[binding_offsets[i] .. binding_offsets[i + 1]) (offsets: count + 1 entries, starting at 0
// and non-decreasing; every joint index < joint_count; checked on the host when binding). The joint table
// holds rest centres, radii of influence and the pose's displacements.
template <class T>
struct MetaballJob {
    ConstPointView<T> rest;
    const std::uint32_t* binding_offsets;
    const std::uint32_t* binding_joints;
    std::size_t count;
    const MetaballJoint<T>* joints;
    std::size_t joint_count;
    PointView<T> out;
};

namespace cpu {
struct Exec {
    int threads = 0;  // 0: OpenMP's default (all cores)
};
void deform_lbs(const LbsJob<float>& job, Exec exec);
void deform_lbs(const LbsJob<double>& job, Exec exec);
void deform_dqs(const DqsJob<float>& job, Exec exec);
void deform_dqs(const DqsJob<double>& job, Exec exec);
void deform_baseline(const BaselineJob<float>& job, Exec exec);
void deform_baseline(const BaselineJob<double>& job, Exec exec);
void deform_metaball(const MetaballJob<float>& job, Exec exec);
void deform_metaball(const MetaballJob<double>& job, Exec exec);
}  // namespace cpu

namespace cuda {
struct Exec {
    void* stream = nullptr;  // a cudaStream_t; nullptr is the default stream
};
void deform_lbs(const LbsJob<float>& job, Exec exec);
void deform_dqs(const DqsJob<float>& job, Exec exec);
void deform_baseline(const BaselineJob<float>& job, Exec exec);
void deform_metaball(const MetaballJob<float>& job, Exec exec);

// Number of usable CUDA devices; 0 when the backend is not built, or there is no driver or device.
int device_count();
}  // namespace cuda

}  // namespace bs
