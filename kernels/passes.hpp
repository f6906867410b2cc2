// Per-point deformation passes, declared once for both backends.
//
// bs::cpu:: runs on all host cores (OpenMP); bs::cuda:: launches one GPU thread per point on the caller's
// stream and never synchronises. Both are built from kernels/skinning_passes.cu (per point) and
// kernels/table_passes.cu (per table sample). Pointers in a job are host pointers for bs::cpu and device
// pointers for bs::cuda; the caller owns every buffer.
// Output is identical for any CPU thread count: each point is computed independently.
#pragma once

#include <cstddef>

#include "engine/baseline/table.hpp"
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

// The packed x, y, z scalars of an array of Vec3 (null for an empty one, where `&v.data()->x` would dereference
// that null): Vec3<T> is three T, x first (standard layout, so the two pointers interconvert).
template <class T> BS_HD inline T* packed_scalars(Vec3<T>* points) { return reinterpret_cast<T*>(points); }
template <class T> BS_HD inline const T* packed_scalars(const Vec3<T>* points) { return reinterpret_cast<const T*>(points); }

// One classical-skinning job: `count` points with their influences, and the per-frame bone table
// (`bone_count` entries, finite; every influence index is < bone_count, for LBS that of a slot of weight 0
// too: host/weights.hpp, point_unused_pairs_at_bone_zero).
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

// LBS with any number of influences per point: point i's pairs are (bones[j], weights[j]) for j in
// [offsets[i], offsets[i + 1]) (offsets: count + 1 entries from 0, non-decreasing; every bone index
// < bone_count, a pair of weight 0's too: validate_influences, point_unused_pairs_at_bone_zero).
template <class T>
struct SparseLbsJob {
    ConstPointView<T> rest;
    const std::uint32_t* offsets;
    const std::uint32_t* bones;
    const float* weights;
    std::size_t count;
    const Mat34<T>* table;
    std::size_t bone_count;
    PointView<T> out;
};
template <class T> using DqsJob = ClassicSkinningJob<T, DualQuat<T>>;

// Room for the points a split pass's common path leaves to its second launch (kernels/launch.hpp,
// for_each_point_split): `indices` holds as many entries as the job has points, `count` one; device memory
// owned by the caller, reset and filled by each pass. Null, or a job of more than 2^32 − 1 points (a 32-bit
// index each): one launch runs every point the long way.
struct SplitScratch {
    std::uint32_t* indices = nullptr;
    std::uint32_t* count = nullptr;
};

// One baseline-skinning job: codes from the encoder, the rest bones (BaselineBone, uploaded once) and the
// per-frame bone poses; `rest` feeds only the rigid fallback blend. Points are read and written in T; the
// baseline geometry is evaluated in double whatever T is: where the plane of the sheaf is nearly tangent
// to a joint sphere (between a joint's convex and concave sides) a generator's tangency point has a
// square-root singularity, and float's 6e-8 would become ~2e-4 of the radius (docs/ALGORITHM.md).
// With `tables` (phi_samples > 0, built for the same poses: build_baseline_tables, which the host's
// build_frame_tables runs, or build_baseline_tables_in_place on the device) the bend is looked up instead
// of constructed (engine/baseline/table.hpp); without, it is constructed per point.
// With `order` (count entries, a permutation of [0, count)) the codes and rest points are in the order
// the pass evaluates them and point i's result is written at out[order[i]] (the GPU front's coherent
// order, kernels/coherent_order.hpp); without, at out[i]. With tables, each point tries the common path
// (deform_common_baseline_point) first; given `split` (bs::cuda only; the CPU needs none), the GPU runs that
// path in a launch of its own and the points it leaves in a second one (kernels/launch.hpp). A code blended
// toward the rigid field reads its field's bones from `field_refs` where given, else searches them.
template <class T>
struct BaselineJob {
    ConstPointView<T> rest;
    const BaselineCode* codes;
    std::size_t count;
    const BaselineBone<double>* bones;
    const BaselineBonePose<double>* poses;
    std::size_t bone_count;
    PointView<T> out;
    BaselineTables<double> tables{};
    const std::uint32_t* order = nullptr;
    SplitScratch split{};
    // The codes' kept field bones (engine/baseline/deform.hpp, FieldBones): one word a code, in the codes'
    // order, into `field_pool`; null: every blended code's field searches its bones.
    const std::uint32_t* field_refs = nullptr;
    const FieldWeight* field_pool = nullptr;
};

// One frame's baseline tables, in five passes driven by lists the host makes between them
// (kernels/table_passes.cu, the CPU build only; host/baseline_skinner.cpp's build_frame_tables runs them, and
// the GPU front uploads what they built unless it builds them in place, BaselineInPlaceTablesJob below):
//   1. BaselineTableJob: the section and fan samples of every bone, each section cell's middle and each
//      fan cell's kCellChecks check samples (at its quarter points), from the bones, the frame's poses and
//      each bone's posed neighbourhood (`locals`, one per bone, from posed_neighbourhood; small, built on
//      the host);
//   2. BaselineCellCheckJob: per section cell a CellVerdict from its middle, per fan cell 1 where it must
//      be refined, else 0;
//   3. check_baseline_quarters: the listed section cells (verdict kCellCheckQuarters) at their other two
//      quarter points, their verdict made final (kCellSmooth or kCellRefine);
//   4. refine_baseline_cells: kSamplesPerRefinedCell samples across each listed cell;
//   5. check_baseline_subcells: per sub-cell of each refined cell, 1 where it goes to the direct
//      construction.
// Cells are numbered bone × samples + j. Passes 1 and 2 may build some bones only (`bone_list`, for a frame
// that keeps the others' samples from the frame before: host/baseline_skinner.hpp BaselineTableCache); their
// arrays then hold the listed bones in list order, and the later passes' lists and arrays are over all bones.
struct BaselineTableJob {
    const BaselineBone<double>* bones;       // all bones
    const BaselineBonePose<double>* poses;   // all bones
    const LocalChain<double>* locals;        // all bones
    std::size_t bone_count;                  // bones built: listed, or all
    int phi_samples, fan_samples;
    PosedSection<double>* sections;  // bone_count × phi_samples
    PosedSection<double>* middles;   // bone_count × phi_samples: cell j's at its middle
    FanSample<double>* fans;         // bone_count × fan_samples
    FanSample<double>* fan_checks;   // bone_count × fan_samples × kCellChecks: cell j's at cell_check_weight(m)
    const int* bone_list = nullptr;  // bone_count bones, or nullptr: every bone, in order
    // Per bone (all bones), 0 for a bone left out of the tables (tabulated_bones): its samples are not built.
    // nullptr: every bone's are. The in-place build reads it (BaselineInPlaceTablesJob); the list-driven
    // build lists the bones it builds instead.
    const unsigned char* tabulated = nullptr;
    BS_HD int bone_of(int b) const { return bone_list ? bone_list[b] : b; }
    BS_HD bool tabulates(int k) const { return !tabulated || tabulated[k]; }
};

struct BaselineCellCheckJob {
    const BaselineBone<double>* bones;  // all bones
    std::size_t bone_count;             // bones checked: listed, or all
    int phi_samples, fan_samples;
    const PosedSection<double>* sections;
    const PosedSection<double>* middles;
    const FanSample<double>* fans;
    const FanSample<double>* fan_checks;
    double tolerance;  // of a bone's smaller radius (and radians for fan directions)
    int* verdicts;     // bone_count × (phi_samples + fan_samples): section cells (CellVerdict), then fan cells
    const int* bone_list = nullptr;  // as BaselineTableJob's
    BS_HD int bone_of(int b) const { return bone_list ? bone_list[b] : b; }
};

// Stage two of the section cells' check: each listed cell's sections at w = 1/4 and 3/4 (built here, one
// cell per thread), against the interpolation there.
struct BaselineQuarterCheckJob {
    const BaselineBone<double>* bones;
    const BaselineBonePose<double>* poses;
    const LocalChain<double>* locals;
    int phi_samples;
    const PosedSection<double>* sections;  // bone_count × phi_samples
    const int* cells;                      // the section cells to check
    std::size_t count;
    double tolerance;
    int* verdicts;  // as BaselineCellCheckJob's: the listed cells' entries are overwritten
};

struct BaselineRefineJob {
    const BaselineBone<double>* bones;
    const BaselineBonePose<double>* poses;
    const LocalChain<double>* locals;
    int phi_samples, fan_samples;
    const int* cells;      // section cells to refine, in refined-cell order
    std::size_t count;
    const int* fan_cells;  // fan cells to refine
    std::size_t fan_count;
    PosedSection<double>* fine;     // count × kSamplesPerRefinedCell
    FanSample<double>* fine_fans;   // fan_count × kSamplesPerRefinedCell
    unsigned char* direct;          // count × kRefineFactor
    unsigned char* fan_direct;      // fan_count × kRefineFactor
    double tolerance;               // as BaselineCellCheckJob's
};

// One frame's tables built in place (kernels/table_passes.cu): every pass over every cell, so that a GPU builds
// them with nothing going back to the host. `samples` is the first pass's job (bones, poses, locals, counts,
// and where the samples, the middles, the fans and their checks go). The fine arrays have room for the
// refined samples of `room` section cells and `fan_room` fan cells, fixed before the frame (a device cannot
// size them from a count without waiting for it). Refined cells are numbered in cell order, sections and fans
// apart, as the list-driven build numbers them (with room for every refined cell the two builds' tables are
// the same, entry for entry); a refined cell numbered past the room has no samples and is kUntabulatedCell:
// its points take the direct construction, as a left-out bone's.
// With S = bone_count × phi_samples section cells and F = bone_count × fan_samples fan cells: extents and
// cells hold S entries, fan_cells F, verdicts and ordinals S + F, refined_per_bone 2 × bone_count, fine and
// fine_extents room × kSamplesPerRefinedCell, fine_fans fan_room × kSamplesPerRefinedCell, direct
// room × kRefineFactor, fan_direct fan_room × kRefineFactor (in_place_table_sizes). A bone left out
// (samples.tabulated) keeps its place: its cells and fan cells are kUntabulatedCell, its extents zero, and
// nothing else of it is written, as in the list-driven build's tables. samples.bone_list must be null
// (std::logic_error otherwise): every pass here numbers cells over all bones.
struct BaselineInPlaceTablesJob {
    BaselineTableJob samples;
    double tolerance;  // as BaselineCellCheckJob's
    int* verdicts;
    SectionExtent<double>* extents;
    int* cells;
    int* fan_cells;
    PosedSection<double>* fine;
    SectionExtent<double>* fine_extents;
    FanSample<double>* fine_fans;
    unsigned char* direct;
    unsigned char* fan_direct;
    std::size_t room, fan_room;  // refined cells the fine arrays hold: sections, fans
    // Scratch: each bone's refined section cells, then its refined fan cells; each refined cell's ordinal
    // (kNoRoom past the room), sections then fans.
    int* refined_per_bone;
    int* ordinals;
};
constexpr int kNoRoom = -1;

// The room the GPU's in-place build keeps (GpuSkinner): refined samples for a quarter of each kind's cells.
// Refinement is local (kinks and folds of the construction): at the default grids 3.0% of the human demo's
// section cells and 1.0% of its fan cells a frame (benchmarks/RESULTS.md, 2026-12-07), and at most 18.6% of
// a kind's cells in one frame of the table tests' random bends on the chains and junctions
// (tests/kernels/test_table_passes.cpp, which fails should that pass a quarter); at the default grids a
// quarter takes a bone's device tables from 5.7 MB (room for every cell) to about 1.7 MB.
constexpr std::size_t kInPlaceRoomDivisor = 4;
inline std::size_t in_place_room(std::size_t cells) { return (cells + kInPlaceRoomDivisor - 1) / kInPlaceRoomDivisor; }

// How many entries each array of a BaselineInPlaceTablesJob holds (the list above).
struct InPlaceTableSizes {
    std::size_t sections, fans;  // cells: sections, middles, extents, cells; fans, fan_cells
    std::size_t fan_checks, verdicts, fine, fine_fans, direct, fan_direct, refined_per_bone;
};
inline InPlaceTableSizes in_place_table_sizes(std::size_t bone_count, int phi_samples, int fan_samples, std::size_t room, std::size_t fan_room) {
    const std::size_t s = bone_count * std::size_t(phi_samples), f = bone_count * std::size_t(fan_samples);
    return {s,
            f,
            f * kCellChecks,
            s + f,
            room * kSamplesPerRefinedCell,
            fan_room * kSamplesPerRefinedCell,
            room * kRefineFactor,
            fan_room * kRefineFactor,
            2 * bone_count};
}

// One metaball job (seed 001 §1.3): point i is bound to the joints
// binding_joints[binding_offsets[i] .. binding_offsets[i + 1]) (offsets: count + 1 entries, starting at 0
// and non-decreasing; every joint index < joint_count; checked on the host when binding). The joint table
// holds rest centres, radii of influence and the pose's displacements in the body's frame; `body` carries
// the displaced points (metaball_point).
template <class T>
struct MetaballJob {
    ConstPointView<T> rest;
    const std::uint32_t* binding_offsets;
    const std::uint32_t* binding_joints;
    std::size_t count;
    const MetaballJoint<T>* joints;
    std::size_t joint_count;
    Mat34<T> body;
    PointView<T> out;
};

// Several bodies in one launch: body b is jobs[b], a complete job of its own (its own points, codes or
// influences, tables and output), and covers [starts[b], starts[b + 1]) of the combined point range;
// starts has body_count + 1 entries, starts[0] = 0, non-decreasing, starts[b + 1] − starts[b] = jobs[b].count.
// `jobs` and `starts` are host pointers for bs::cpu and device pointers for bs::cuda (the jobs' own
// pointers likewise).
// Baseline bodies run as one body does (BaselineJob::split): each point tries its body's common path in
// a first launch and the points left take the long path in a second, listed in `split` (total + 1
// entries, combined indices; bs::cuda only); the bodies' own split rooms are not used.
template <class Job>
struct BodiesJob {
    const Job* jobs;
    const std::size_t* starts;
    int body_count;
    std::size_t total;  // starts[body_count]
    SplitScratch split{};
};

namespace cpu {
// The most threads a pass runs on: a larger Exec::threads is taken as this (OpenMP would try to allocate
// a team of any size asked for, and end the process where it cannot).
constexpr int kMaxThreads = 1024;
struct Exec {
    int threads = 0;  // above 0: that many, at most kMaxThreads; 0 or below: OpenMP's default (all cores)
};
void deform_lbs(const LbsJob<float>& job, Exec exec);
void deform_lbs(const LbsJob<double>& job, Exec exec);
void deform_lbs(const SparseLbsJob<float>& job, Exec exec);
void deform_lbs(const SparseLbsJob<double>& job, Exec exec);
void deform_lbs(const BodiesJob<LbsJob<float>>& job, Exec exec);
void deform_baseline(const BodiesJob<BaselineJob<float>>& job, Exec exec);
void deform_dqs(const DqsJob<float>& job, Exec exec);
void deform_dqs(const DqsJob<double>& job, Exec exec);
void deform_baseline(const BaselineJob<float>& job, Exec exec);
void deform_baseline(const BaselineJob<double>& job, Exec exec);
void build_baseline_tables(const BaselineTableJob& job, Exec exec);
void check_baseline_cells(const BaselineCellCheckJob& job, Exec exec);
void check_baseline_quarters(const BaselineQuarterCheckJob& job, Exec exec);
void refine_baseline_cells(const BaselineRefineJob& job, Exec exec);
void check_baseline_subcells(const BaselineRefineJob& job, Exec exec);
void build_baseline_tables_in_place(const BaselineInPlaceTablesJob& job, Exec exec);
void deform_metaball(const MetaballJob<float>& job, Exec exec);
void deform_metaball(const MetaballJob<double>& job, Exec exec);
}  // namespace cpu

namespace cuda {
struct Exec {
    void* stream = nullptr;  // a cudaStream_t; nullptr is the default stream
};
void deform_lbs(const LbsJob<float>& job, Exec exec);
void deform_lbs(const SparseLbsJob<float>& job, Exec exec);
void deform_lbs(const BodiesJob<LbsJob<float>>& job, Exec exec);
void deform_baseline(const BodiesJob<BaselineJob<float>>& job, Exec exec);
void deform_dqs(const DqsJob<float>& job, Exec exec);
void deform_baseline(const BaselineJob<float>& job, Exec exec);
void deform_metaball(const MetaballJob<float>& job, Exec exec);
void build_baseline_tables_in_place(const BaselineInPlaceTablesJob& job, Exec exec);
// Raise the current device's stack limit to what the baseline per-point passes' kernels need (one body and
// several; about 6 kB a thread for the long path, ptxas), and the in-place table passes', where it is below
// that. CUDA would raise it at the first launch that needs it, inside a
// deform(); GpuSkinner reserves both when it is built, where it may wait. Setting the limit waits until the
// device is idle.
void reserve_baseline_stack();
void reserve_table_stack();

// Number of usable CUDA devices; 0 when the backend is not built, or there is no driver or device.
int device_count();
}  // namespace cuda

}  // namespace bs
