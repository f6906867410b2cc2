// LBS, DQS, baseline-skinning and metaball per-point passes. This one file is compiled twice: by the host compiler into bs::cpu
// (via cpu_build.cpp) and by nvcc into bs::cuda, but for the baseline's table passes and the double-precision
// passes, which only the CPU build has. The functors below are the per-point work; launch.hpp decides how
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
        Vec3<double> rest(load_point(job.rest, i));
        store_point(job.out, job.order ? job.order[i] : i,
                    Vec3<T>(deform_baseline_point(job.codes[i], rest, job.bones, job.poses, int(job.bone_count), job.tables)));
    }
    // The common path alone (for_each_point_split): true where it wrote point i.
    BS_HD BS_FLATTEN bool common(std::size_t i) const {
        Vec3<double> posed;
        if (!deform_common_baseline_point(job.codes[i], Vec3<double>(load_point(job.rest, i)), job.bones, job.poses, job.tables, posed))
            return false;
        store_point(job.out, job.order ? job.order[i] : i, Vec3<T>(posed));
        return true;
    }
};

#if !defined(__CUDACC__)
// The per-frame tables' passes (engine/baseline/table.hpp), for the CPU build only: both backends' per-point
// passes read tables built on the host (host/baseline_skinner.cpp; the GPU path uploads them,
// host/gpu_skinner.cpp), so nvcc compiled these for nothing (no device code called them).

// Where entry e of one kind of table sample lies (`cells` = bone_count × samples; entries 0 … cells − 1 are
// the samples themselves, the next `checks` × cells the cells' check samples, checks first_check,
// first_check + 1, …): the array slot, the bone, and the sample's index on its grid (cell_check_index).
struct TableEntry {
    bool check;
    std::size_t slot;  // into the samples or into the check samples
    int bone, index, grid;
};

BS_HD inline TableEntry table_entry(std::size_t e, std::size_t cells, int samples, int checks, int first_check) {
    if (e < cells) return {false, e, int(e / samples), int(e % samples), samples};
    const std::size_t slot = e - cells, c = slot / checks;
    return {true, slot, int(c / samples), cell_check_index(int(c % samples), first_check + int(slot % checks)),
            cell_check_grid(samples)};
}

constexpr int kSectionFirstChecks = 1;  // a section cell's middle, kMiddleCheck (the second stage: BaselineQuarterCheckPass)

// Entry e of a frame's tables: the section samples of every bone and their cells' middles, then the fan
// samples and their cells' check samples.
struct BaselineTablePass {
    BaselineTableJob job;
    BS_HD BS_FLATTEN void operator()(std::size_t e) const {
        const std::size_t sections = job.bone_count * std::size_t(job.phi_samples);
        if (e < (kSectionFirstChecks + 1) * sections) {
            const TableEntry t = table_entry(e, sections, job.phi_samples, kSectionFirstChecks, kMiddleCheck);
            (t.check ? job.middles : job.sections)[t.slot] =
                section_sample(job.bones, job.poses, job.locals[t.bone], t.bone, t.index, t.grid);
            return;
        }
        const TableEntry t =
            table_entry(e - (kSectionFirstChecks + 1) * sections, job.bone_count * std::size_t(job.fan_samples), job.fan_samples, kCellChecks, 0);
        (t.check ? job.fan_checks : job.fans)[t.slot] = fan_sample(job.locals[t.bone], t.index, t.grid);
    }
};

struct BaselineCellCheckPass {
    BaselineCellCheckJob job;
    // A section cell from its middle: refined beyond the tolerance, smooth well inside it (kMiddleMargin),
    // its other quarter points checked in between.
    BS_HD int section_verdict(int k, int j) const {
        const int n = job.phi_samples;
        const double miss = cell_deviation(coarse_stencil(job.sections + std::size_t(k) * n, n, j, cell_check_weight(kMiddleCheck)),
                                           job.middles[std::size_t(k) * n + j], job.bones[k]);
        if (!deviation_within(miss, job.tolerance)) return kCellRefine;
        return job.tolerance < INFINITY && miss <= kMiddleMargin * job.tolerance ? kCellSmooth : kCellCheckQuarters;
    }
    // A fan cell against its kCellChecks check samples.
    BS_HD int fan_verdict(int k, int j) const {
        const int n = job.fan_samples;
        const FanSample<double>* checks = job.fan_checks + (std::size_t(k) * n + j) * kCellChecks;
        for (int m = 0; m < kCellChecks; ++m)
            if (!cell_is_smooth(coarse_stencil(job.fans + std::size_t(k) * n, n, j, cell_check_weight(m)), checks[m], job.bones[k],
                                job.tolerance))
                return kCellRefine;
        return kCellSmooth;
    }
    BS_HD void operator()(std::size_t c) const {
        const std::size_t sections = job.bone_count * std::size_t(job.phi_samples);
        job.verdicts[c] = c < sections ? section_verdict(int(c / job.phi_samples), int(c % job.phi_samples))
                                       : fan_verdict(int((c - sections) / job.fan_samples), int((c - sections) % job.fan_samples));
    }
};

// One listed section cell at its quarter points other than the middle, its samples built here.
struct BaselineQuarterCheckPass {
    BaselineQuarterCheckJob job;
    BS_HD void operator()(std::size_t r) const {
        const int cell = job.cells[r], n = job.phi_samples, k = cell / n, j = cell % n;
        int verdict = kCellSmooth;
        for (int m = 0; m < kCellChecks && verdict == kCellSmooth; ++m) {
            if (m == kMiddleCheck) continue;
            const PosedSection<double> check = section_sample(job.bones, job.poses, job.locals[k], k, cell_check_index(j, m), cell_check_grid(n));
            if (!cell_is_smooth(coarse_stencil(job.sections + std::size_t(k) * n, n, j, cell_check_weight(m)), check, job.bones[k],
                                job.tolerance))
                verdict = kCellRefine;
        }
        job.verdicts[cell] = verdict;
    }
};

// Sample q of refined cell r: the section cells' samples, then the fan cells'.
struct BaselineRefinePass {
    BaselineRefineJob job;
    BS_HD BS_FLATTEN void operator()(std::size_t e) const {
        constexpr int per_cell = kSamplesPerRefinedCell, steps = 2 * kRefineFactor;
        const std::size_t sections = job.count * per_cell;
        if (e < sections) {
            const int cell = job.cells[e / per_cell], q = int(e % per_cell);
            const int k = cell / job.phi_samples, j = cell % job.phi_samples;
            job.fine[e] = section_sample(job.bones, job.poses, job.locals[k], k, j * steps + q, job.phi_samples * steps);
            return;
        }
        e -= sections;
        const int cell = job.fan_cells[e / per_cell], q = int(e % per_cell);
        const int k = cell / job.fan_samples, j = cell % job.fan_samples;
        job.fine_fans[e] = fan_sample(job.locals[k], j * steps + q, job.fan_samples * steps);
    }
};

// Sub-cell m of refined cell r, checked against its middle sample.
struct BaselineSubcellCheckPass {
    BaselineRefineJob job;
    BS_HD void operator()(std::size_t e) const {
        const std::size_t r = e / kRefineFactor, m = e % kRefineFactor;
        if (r < job.count) {
            const PosedSection<double>* s = job.fine + r * kSamplesPerRefinedCell + 2 * m;
            auto st = linear_stencil(s, s + 2, 0.5, kTwoPi / job.phi_samples / kRefineFactor);
            job.direct[e] = cell_is_smooth(st, s[1], job.bones[job.cells[r] / job.phi_samples], job.tolerance) ? 0 : 1;
            return;
        }
        const std::size_t f = r - job.count;
        const FanSample<double>* s = job.fine_fans + f * kSamplesPerRefinedCell + 2 * m;
        auto st = linear_stencil(s, s + 2, 0.5, kTwoPi / job.fan_samples / kRefineFactor);
        job.fan_direct[e - job.count * kRefineFactor] =
            cell_is_smooth(st, s[1], job.bones[job.fan_cells[f] / job.fan_samples], job.tolerance) ? 0 : 1;
    }
};
#endif  // !defined(__CUDACC__)

// One thread per point of all the bodies: the body is found by binary search over `starts` (a few
// bodies: a few steps), then the body's own per-point pass runs on its local index.
template <template <class> class Pass, class Job>
struct BodiesPass {
    static constexpr unsigned kThreadsPerBlock = threads_per_block<Pass<float>>();
    BodiesJob<Job> job;
    BS_HD void operator()(std::size_t i) const {
        int lo = 0, hi = job.body_count;  // invariant: starts[lo] <= i < starts[hi]
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (job.starts[mid] <= i) lo = mid; else hi = mid;
        }
        Pass<float>{job.jobs[lo]}(i - job.starts[lo]);
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
void deform_lbs(const SparseLbsJob<float>& job, Exec exec) { for_each_point(job.count, SparseLbsPass<float>{job}, exec); }
void deform_lbs(const BodiesJob<LbsJob<float>>& job, Exec exec) { for_each_point(job.total, BodiesPass<LbsPass, LbsJob<float>>{job}, exec); }
void deform_baseline(const BodiesJob<BaselineJob<float>>& job, Exec exec) {
    for_each_point(job.total, BodiesPass<BaselinePass, BaselineJob<float>>{job}, exec);
}
void deform_dqs(const DqsJob<float>& job, Exec exec) { for_each_point(job.count, DqsPass<float>{job}, exec); }
void deform_baseline(const BaselineJob<float>& job, Exec exec) {
    if (job.tables.phi_samples > 0) return for_each_point_split(job.count, BaselinePass<float>{job}, job.split, exec);
    for_each_point(job.count, BaselinePass<float>{job}, exec);
}
void deform_metaball(const MetaballJob<float>& job, Exec exec) { for_each_point(job.count, MetaballPass<float>{job}, exec); }
#if !defined(__CUDACC__)  // the CPU build only: the tables' passes and the double-precision ones
void build_baseline_tables(const BaselineTableJob& job, Exec exec) {
    const std::size_t entries = (kSectionFirstChecks + 1) * std::size_t(job.phi_samples) + (kCellChecks + 1) * std::size_t(job.fan_samples);
    for_each_sample(job.bone_count * entries, BaselineTablePass{job}, exec);
}
void check_baseline_cells(const BaselineCellCheckJob& job, Exec exec) {
    for_each_sample(job.bone_count * std::size_t(job.phi_samples + job.fan_samples), BaselineCellCheckPass{job}, exec);
}
void check_baseline_quarters(const BaselineQuarterCheckJob& job, Exec exec) {
    for_each_sample(job.count, BaselineQuarterCheckPass{job}, exec);
}
void refine_baseline_cells(const BaselineRefineJob& job, Exec exec) {
    for_each_sample((job.count + job.fan_count) * std::size_t(kSamplesPerRefinedCell), BaselineRefinePass{job}, exec);
}
void check_baseline_subcells(const BaselineRefineJob& job, Exec exec) {
    for_each_sample((job.count + job.fan_count) * std::size_t(kRefineFactor), BaselineSubcellCheckPass{job}, exec);
}
void deform_lbs(const LbsJob<double>& job, Exec exec) { for_each_point(job.count, LbsPass<double>{job}, exec); }
void deform_lbs(const SparseLbsJob<double>& job, Exec exec) { for_each_point(job.count, SparseLbsPass<double>{job}, exec); }
void deform_dqs(const DqsJob<double>& job, Exec exec) { for_each_point(job.count, DqsPass<double>{job}, exec); }
void deform_baseline(const BaselineJob<double>& job, Exec exec) {
    if (job.tables.phi_samples > 0) return for_each_point_split(job.count, BaselinePass<double>{job}, job.split, exec);
    for_each_point(job.count, BaselinePass<double>{job}, exec);
}
void deform_metaball(const MetaballJob<double>& job, Exec exec) { for_each_point(job.count, MetaballPass<double>{job}, exec); }
#endif

}  // namespace bs::BS_BACKEND
