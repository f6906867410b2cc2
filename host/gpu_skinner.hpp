// The CUDA backend of the Skinner front (LBS of up to four or of any number of influences a point, DQS,
// baseline, metaball): the per-point data of an encoded Skinner (rest points, influences or codes, the
// baseline's rest bones; a baseline body's points sorted into the GPU's evaluation order,
// kernels/coherent_order.hpp, with the permutation and room for the points its common path leaves,
// kernels/launch.hpp's for_each_point_split: 44 bytes a point, at most 52 while construction sorts them;
// on a body with junction fields also a word a point and the bones its blended codes keep, device_bytes)
// is uploaded once at construction; per
// frame only the pose's tables go up (LBS, DQS: bones × 48 or 32 bytes; baseline: its per-frame tables,
// by default built on the host's cores by the same passes as the CPU backend's, about 0.2–0.3 MB per bone at
// the default grids, see BaselineFrameTables::bytes: built again only for the bones whose joints moved since the
// frame before, BaselineTableCache, whose host copy the skinner keeps, but uploaded whole; or only the
// poses, set_tables_on_device), and one launch
// writes the caller's device buffer (baseline with tables: two, its common path's and the other points').
//
// deform() is asynchronous on the caller's stream (cuda::Exec::stream; nullptr: the default stream) and
// does not wait for it: the caller waits for its stream when it needs the points. The frame's tables go
// up from page-locked staging memory (kernels/frame_uploads.hpp), which CUDA copies without waiting for
// the stream, as it may from pageable memory; the host blocks only when it runs more than
// FrameUploads::kFramesInFlight frames of this skinner ahead of the device (then until the oldest frame's
// copies are done), and when a frame needs larger buffers than every frame before it (allocating may
// synchronise the device). Page-locked host memory held: up to about twice kFramesInFlight times a frame's
// tables.
// `out` is a device pointer view (float xyz at a stride of 3, or xyzw at 4, ...) with room for size()
// points, owned by the caller: InputError for a null pointer, a stride below 3, or host memory the device
// cannot write (cuda::device_cannot_write), before anything is queued (GpuBodies: before any body's);
// its size cannot be checked. InputError too, before anything is queued, on a stream being captured into a
// CUDA graph (a frame's staging memory is rewritten by later frames: it cannot be replayed).
//
// The frame's table lives in one device buffer reused by every deform(): calls on one stream are ordered;
// a caller alternating streams orders them itself (or keeps one GpuSkinner per stream). One thread at a
// time: deform() is not const (its staging memory, tables and cache are the frame's); threads that deform
// at once keep a GpuSkinner each (of one Skinner, which may be shared: Skinner::deform).
// Construction of a baseline skinner raises the current device's per-thread stack limit to what its passes
// and the table passes need (about 6 kB, cuda::reserve_baseline_stack and reserve_table_stack), which CUDA
// would otherwise do at the first launch that needs it, inside a deform() (whether that launch waits for
// the device is not measured yet). The limit is the CUDA context's and stays raised unless something lowers
// it; the driver backs it for every thread the device holds at once (about 1.6 GB on an H100: 132
// multiprocessors × 2,048 threads × 6 kB), memory device_bytes() does not count. Where that memory is not
// there, construction throws CudaError (not CudaUnavailable: a caller falling back to the CPU catches both).
// Construction throws CudaUnavailable where the CUDA backend is not built or no device is usable (a
// caller choosing the backend "auto" falls back to the CPU then). Metaball uploads its rest points and
// binding once and its joint table (joints × 32 bytes) per frame; LBS of any number of influences a point
// (Skinner's sparse form) its rest points and rows (16 bytes a point and 8 a pair) once and the LBS table
// per frame. The Skinner must outlive the GpuSkinner.
#pragma once

#include "host/skinner.hpp"
#include "kernels/device_memory.hpp"
#include "kernels/frame_uploads.hpp"
#include "kernels/gl_interop.hpp"

namespace bs {

class GpuSkinner {
public:
    explicit GpuSkinner(const Skinner& skinner, cuda::Exec exec = {});

    std::size_t size() const { return count_; }
    // Device memory this skinner holds now: its per-point data, and its frame buffers as large as the
    // largest frame so far (they are reused, growing when a frame needs more).
    std::size_t device_bytes() const;
    Method method() const { return skinner_.method(); }
    void deform(const Pose& pose, PointView<float> out, cuda::Exec exec = {});

    // Baseline: where a frame's tables are built. On the host's cores (the default), uploaded then; or on the
    // device by the same passes, run in place (kernels/table_passes.cu: room for the refined samples of a
    // quarter of the cells, kInPlaceRoomDivisor, about 1.7 MB a bone at the default grids, so nothing goes back
    // to the host between launches; a refined cell past the room takes the direct construction), with only
    // the frame's poses and each bone's posed neighbourhood going up.
    // Other methods and baseline's exact construction have no tables: for them this changes nothing.
    void set_tables_on_device(bool on_device) { tables_on_device_ = on_device; }
    bool tables_on_device() const { return tables_on_device_; }

private:
    // The frame's job, its tables uploaded on `exec`, without launching it: what deform() launches and
    // what GpuBodies gathers into its launch. lbs_job for Method::lbs of up to four influences a point,
    // baseline_job for Method::baseline (InputError otherwise). `out` is not checked here (deform and GpuBodies::deform check it).
    LbsJob<float> lbs_job(const Pose& pose, PointView<float> out, cuda::Exec exec);
    BaselineJob<float> baseline_job(const Pose& pose, PointView<float> out, cuda::Exec exec);
    // InputError where skinner_ no longer holds the method's skinner this one uploaded (moved from, or
    // another assigned in its place): the device data would not match it.
    void require_same_skinner() const;

    const Skinner& skinner_;
    std::uint64_t identity_;  // skinner_.identity() when this was built
    std::size_t count_;
    cuda::DeviceArray<Vec3<float>> rest_;
    cuda::DeviceArray<Influences> influences_;
    cuda::DeviceArray<std::uint32_t> sparse_offsets_, sparse_bones_;  // LBS of any number of influences (Skinner::sparse)
    cuda::DeviceArray<float> sparse_weights_;
    cuda::DeviceArray<BaselineCode> codes_;
    cuda::DeviceArray<std::uint32_t> order_;  // baseline: codes_, rest_ and field_refs_ are in this order (BaselineJob::order)
    cuda::DeviceArray<std::uint32_t> field_refs_;  // baseline: the codes' kept field bones (BaselineJob::field_refs)
    cuda::DeviceArray<FieldWeight> field_pool_;
    cuda::DeviceArray<std::uint32_t> split_;  // baseline: the points its common path leaves, then their count (BaselineJob::split)
    cuda::DeviceArray<BaselineBone<double>> bones_;
    cuda::DeviceArray<Mat34<float>> lbs_frame_;
    cuda::DeviceArray<DualQuat<float>> dqs_frame_;
    cuda::DeviceArray<BaselineBonePose<double>> baseline_frame_;
    cuda::DeviceArray<std::uint32_t> binding_offsets_, binding_joints_;
    cuda::DeviceArray<MetaballJoint<float>> metaball_frame_;
    struct DeviceTables {
        cuda::DeviceArray<LocalChain<double>> locals;
        cuda::DeviceArray<PosedSection<double>> sections, fine;
        cuda::DeviceArray<SectionExtent<double>> extents, fine_extents;
        cuda::DeviceArray<FanSample<double>> fans, fine_fans;
        cuda::DeviceArray<int> cells, fan_cells;
        cuda::DeviceArray<unsigned char> direct, fan_direct;
        cuda::DeviceArray<CosSin> fan_angles;
        // Built on the device only: the passes' scratch.
        cuda::DeviceArray<PosedSection<double>> middles;
        cuda::DeviceArray<FanSample<double>> fan_checks;
        cuda::DeviceArray<int> verdicts, refined_per_bone, ordinals;
        // Per bone, 0 for a bone left out of the tables (BaselineSkinner::tabulated): uploaded at construction.
        cuda::DeviceArray<unsigned char> tabulated;
        // What a per-point pass reads of them.
        BaselineTables<double> view(int phi_samples, int fan_samples) const;
    } tables_;
    bool tables_on_device_ = false;
    BaselineTableCache host_tables_;  // the frame's tables built on the host, bones unchanged since the frame before kept
    cuda::FrameUploads uploads_;  // every per-frame copy goes up through it

    friend class GpuBodies;
    friend void deform_into_gl_buffer(GpuSkinner&, cuda::GlBuffer&, const Pose&, std::size_t, cuda::Exec);
    // InputError unless `out` can take size() points (see the top of this file).
    void require_writable(PointView<float> out) const;
    // deform() without that check, for a buffer CUDA mapped itself (deform_into_gl_buffer).
    void deform_unchecked(const Pose& pose, PointView<float> out, cuda::Exec exec);
    // A baseline body's codes and rest points, in the GPU's evaluation order (kernels/coherent_order.hpp).
    void upload_in_coherent_order(const BaselineSkinner<float>& baseline, cuda::Exec exec);
    // The frame's tables on the device (none, phi_samples 0, for the direct construction).
    BaselineTables<double> upload_tables(const BaselineFrameTables& host, cuda::FrameUploads::Frame& frame);
    // The frame's tables built on the device (set_tables_on_device); `poses` are already in baseline_frame_.
    BaselineTables<double> build_tables_on_device(const std::vector<BaselineBonePose<double>>& poses, cuda::FrameUploads::Frame& frame,
                                                  cuda::Exec exec);
};

// CUDA–OpenGL interop (kernels/gl_interop.hpp): maps `buffer` on exec's stream, deforms into it at `stride`
// floats per point (3: xyz, 4: xyzw with w untouched, ...) and unmaps it on the same stream, so OpenGL
// draws what was written (a frame refused before writing leaves the previous one). InputError, the buffer unmapped again, when the buffer
// is smaller than size() points at that stride or the stride is below 3; InputError before mapping on a
// stream being captured into a CUDA graph.
void deform_into_gl_buffer(GpuSkinner& skinner, cuda::GlBuffer& buffer, const Pose& pose, std::size_t stride = 3,
                           cuda::Exec exec = {});

// Several bodies deformed together: every body a GpuSkinner of one method (LBS of up to four influences a
// point, or baseline; UnsupportedError otherwise, before anything is queued), each
// with its own pose and output buffer. Each body uploads its frame's tables, then one kernel covers all
// their points (a body is found per thread from the bodies' point ranges; baseline with tables: two, the
// bodies' common paths, then the points they leave, as GpuSkinner). A GpuSkinner appears at most once per
// call (its frame tables are its own buffers; InputError otherwise). InputError unless there are as many
// poses and outputs as bodies (none of each: nothing is done), and where two bodies' outputs overlap
// (require_separate_outputs), before anything is queued. Asynchronous on `exec`, as
// GpuSkinner::deform; the jobs array and the baseline's list of left points (4 bytes a point of all the
// bodies) are kept between calls (they grow when more bodies or points come).
// GpuBodies::deform's check that no two bodies write the same memory (`sizes[b]` points at `outs[b]`, each
// already checked by require_output; std::invalid_argument unless there are as many sizes as outputs): InputError naming `who` and both bodies where the spans of two outputs,
// from a body's first x to its last z, meet (the one launch writes all bodies at once: a point of each
// would race for the floats they share). Bodies of no points write nothing; bodies interleaved in one buffer
// (each at a stride past the other's xyz) span each other and are refused too. A function of its own, not a
// member, so that it runs without a device (a GpuSkinner needs one).
void require_separate_outputs(const std::vector<std::size_t>& sizes, const std::vector<PointView<float>>& outs, const std::string& who);

class GpuBodies {
public:
    void deform(const std::vector<GpuSkinner*>& bodies, const std::vector<Pose>& poses, const std::vector<PointView<float>>& outs,
                cuda::Exec exec = {});

private:
    cuda::DeviceArray<LbsJob<float>> lbs_jobs_;
    cuda::DeviceArray<BaselineJob<float>> baseline_jobs_;
    cuda::DeviceArray<std::size_t> starts_;
    cuda::DeviceArray<std::uint32_t> split_;  // baseline: the points the bodies' common paths leave, then their count
    cuda::FrameUploads uploads_;
};

}  // namespace bs
