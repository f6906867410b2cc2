// The per-frame tables' passes (engine/baseline/table.hpp). Compiled twice like skinning_passes.cu: by the host
// compiler into bs::cpu (cpu_build.cpp) and by nvcc into bs::cuda. Two ways to run them:
//   - with lists (the CPU backend's, host/baseline_skinner.cpp build_frame_tables): the host lists the cells
//     to check at their quarters and the cells to refine between the passes, and the tables hold refined
//     samples for those cells alone; the CPU build only;
//   - in place (BaselineInPlaceTablesJob, both builds): every pass runs over every cell, and the refined
//     cells are numbered on the device into room fixed beforehand, so a GPU builds a frame's tables with
//     nothing going back to the host between its launches (host/gpu_skinner.cpp).
// Both make the same samples, verdicts and marks with the same functions.
#include <stdexcept>

#include "kernels/launch.hpp"

namespace bs::BS_BACKEND {
namespace {

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
            const int k = job.bone_of(t.bone);
            if (!job.tabulates(k)) return;
            (t.check ? job.middles : job.sections)[t.slot] = section_sample(job.bones, job.poses, job.locals[k], k, t.index, t.grid);
            return;
        }
        const TableEntry t =
            table_entry(e - (kSectionFirstChecks + 1) * sections, job.bone_count * std::size_t(job.fan_samples), job.fan_samples, kCellChecks, 0);
        const int k = job.bone_of(t.bone);
        if (!job.tabulates(k)) return;
        (t.check ? job.fan_checks : job.fans)[t.slot] = fan_sample(job.bones, job.locals[k], k, t.index, t.grid);
    }
};

struct BaselineCellCheckPass {
    BaselineCellCheckJob job;
    // A section cell from its middle: refined beyond the tolerance, smooth well inside it (kMiddleMargin),
    // its other quarter points checked in between. `b` is the bone's place in the job's arrays.
    BS_HD int section_verdict(int b, int j) const {
        const int n = job.phi_samples;
        const double miss = cell_deviation(coarse_stencil(job.sections + std::size_t(b) * n, n, j, cell_check_weight(kMiddleCheck)),
                                           job.middles[std::size_t(b) * n + j], job.bones[job.bone_of(b)]);
        if (!deviation_within(miss, job.tolerance)) return kCellRefine;
        return job.tolerance < INFINITY && miss <= kMiddleMargin * job.tolerance ? kCellSmooth : kCellCheckQuarters;
    }
    // A fan cell against its kCellChecks check samples.
    BS_HD int fan_verdict(int b, int j) const {
        const int n = job.fan_samples;
        const FanSample<double>* checks = job.fan_checks + (std::size_t(b) * n + j) * kCellChecks;
        for (int m = 0; m < kCellChecks; ++m)
            if (!cell_is_smooth(coarse_stencil(job.fans + std::size_t(b) * n, n, j, cell_check_weight(m)), checks[m],
                                job.bones[job.bone_of(b)], job.tolerance))
                return kCellRefine;
        return kCellSmooth;
    }
    BS_HD void operator()(std::size_t c) const {
        const std::size_t sections = job.bone_count * std::size_t(job.phi_samples);
        job.verdicts[c] = c < sections ? section_verdict(int(c / job.phi_samples), int(c % job.phi_samples))
                                       : fan_verdict(int((c - sections) / job.fan_samples), int((c - sections) % job.fan_samples));
    }
};

// A section cell's final verdict from its quarter points other than the middle, their samples built here.
BS_HD inline int quarter_verdict(const BaselineBone<double>* bones, const BaselineBonePose<double>* poses, const LocalChain<double>* locals,
                                 int phi_samples, const PosedSection<double>* sections, double tolerance, int cell) {
    const int n = phi_samples, k = cell / n, j = cell % n;
    for (int m = 0; m < kCellChecks; ++m) {
        if (m == kMiddleCheck) continue;
        const PosedSection<double> check = section_sample(bones, poses, locals[k], k, cell_check_index(j, m), cell_check_grid(n));
        if (!cell_is_smooth(coarse_stencil(sections + std::size_t(k) * n, n, j, cell_check_weight(m)), check, bones[k], tolerance))
            return kCellRefine;
    }
    return kCellSmooth;
}

#if !defined(__CUDACC__)  // the list-driven passes: the CPU build only
// One listed section cell at its quarter points.
struct BaselineQuarterCheckPass {
    BaselineQuarterCheckJob job;
    BS_HD void operator()(std::size_t r) const {
        const int cell = job.cells[r];
        job.verdicts[cell] = quarter_verdict(job.bones, job.poses, job.locals, job.phi_samples, job.sections, job.tolerance, cell);
    }
};
#endif

// Sample q of a refined cell's kSamplesPerRefinedCell (sub-cell ends and middles, interleaved), section or fan.
constexpr int kRefinedSteps = 2 * kRefineFactor;
BS_HD inline PosedSection<double> refined_section_sample(const BaselineBone<double>* bones, const BaselineBonePose<double>* poses,
                                                        const LocalChain<double>* locals, int phi_samples, int cell, int q) {
    const int k = cell / phi_samples, j = cell % phi_samples;
    return section_sample(bones, poses, locals[k], k, j * kRefinedSteps + q, phi_samples * kRefinedSteps);
}
BS_HD inline FanSample<double> refined_fan_sample(const BaselineBone<double>* bones, const LocalChain<double>* locals, int fan_samples, int cell,
                                                 int q) {
    const int k = cell / fan_samples;
    return fan_sample(bones, locals[k], k, (cell % fan_samples) * kRefinedSteps + q, fan_samples * kRefinedSteps);
}

// Whether sub-cell m of a refined cell (its samples `fine`, on a grid of `samples` per bone) goes to the direct
// construction: 1 where the interpolation misses its middle sample.
template <class Sample>
BS_HD inline unsigned char subcell_direct(const Sample* fine, int m, int samples, const BaselineBone<double>& bone, double tolerance) {
    const Sample* s = fine + 2 * m;
    return cell_is_smooth(linear_stencil(s, s + 2, 0.5, kTwoPi / samples / kRefineFactor), s[1], bone, tolerance) ? 0 : 1;
}

#if !defined(__CUDACC__)
// Sample q of listed refined cell r: the section cells' samples, then the fan cells'.
struct BaselineRefinePass {
    BaselineRefineJob job;
    BS_HD BS_FLATTEN void operator()(std::size_t e) const {
        constexpr int per_cell = kSamplesPerRefinedCell;
        const std::size_t sections = job.count * per_cell;
        if (e < sections) {
            job.fine[e] = refined_section_sample(job.bones, job.poses, job.locals, job.phi_samples, job.cells[e / per_cell], int(e % per_cell));
            return;
        }
        e -= sections;
        job.fine_fans[e] = refined_fan_sample(job.bones, job.locals, job.fan_samples, job.fan_cells[e / per_cell], int(e % per_cell));
    }
};

// Sub-cell m of listed refined cell r, checked against its middle sample.
struct BaselineSubcellCheckPass {
    BaselineRefineJob job;
    BS_HD void operator()(std::size_t e) const {
        const std::size_t r = e / kRefineFactor;
        const int m = int(e % kRefineFactor);
        if (r < job.count) {
            job.direct[e] = subcell_direct(job.fine + r * kSamplesPerRefinedCell, m, job.phi_samples, job.bones[job.cells[r] / job.phi_samples],
                                           job.tolerance);
            return;
        }
        const std::size_t f = r - job.count;
        job.fan_direct[e - job.count * kRefineFactor] = subcell_direct(job.fine_fans + f * kSamplesPerRefinedCell, m, job.fan_samples,
                                                                       job.bones[job.fan_cells[f] / job.fan_samples], job.tolerance);
    }
};
#endif

// Where a cell lies in the in-place tables: its kind (sections first, then fans), bone and index on its grid.
struct InPlaceCell {
    bool fan;
    std::size_t first;  // the kind's first entry in verdicts and ordinals
    int bone, j, samples;
};
BS_HD inline InPlaceCell in_place_cell(const BaselineTableJob& t, std::size_t c) {
    const std::size_t section_cells = t.bone_count * std::size_t(t.phi_samples);
    if (c < section_cells) return {false, 0, int(c / t.phi_samples), int(c % t.phi_samples), t.phi_samples};
    const std::size_t f = c - section_cells;
    return {true, section_cells, int(f / t.fan_samples), int(f % t.fan_samples), t.fan_samples};
}

// The same tables built in place (BaselineInPlaceTablesJob): every pass runs over every cell, and a cell's
// refined samples, sub-cell checks and extents are made only where its verdict refines it and its ordinal
// has room. A left-out bone's cells take kCellLeftOut here, which no later pass refines.
struct InPlaceCellCheckPass {
    BaselineInPlaceTablesJob job;
    BaselineCellCheckPass check;
    BS_HD void operator()(std::size_t c) const {
        if (job.samples.tabulates(in_place_cell(job.samples, c).bone))
            check(c);
        else
            job.verdicts[c] = kCellLeftOut;
    }
};

struct InPlaceQuarterPass {
    BaselineInPlaceTablesJob job;
    BS_HD void operator()(std::size_t cell) const {
        if (job.verdicts[cell] != kCellCheckQuarters) return;
        const BaselineTableJob& t = job.samples;
        job.verdicts[cell] = quarter_verdict(t.bones, t.poses, t.locals, t.phi_samples, t.sections, job.tolerance, int(cell));
    }
};

// Refined cells numbered in cell order in two passes, so that no thread counts more than one bone's cells
// and the bones before it: each bone's refined cells of each kind, then each refined cell's ordinal, or
// kNoRoom past its kind's room.
struct InPlaceCountPass {
    BaselineInPlaceTablesJob job;
    BS_HD void operator()(std::size_t i) const {
        const BaselineTableJob& t = job.samples;
        const bool fans = i >= t.bone_count;
        const int samples = fans ? t.fan_samples : t.phi_samples;
        const std::size_t bone = fans ? i - t.bone_count : i;
        const int* verdicts = job.verdicts + (fans ? t.bone_count * std::size_t(t.phi_samples) : 0) + bone * samples;
        int refined = 0;
        for (int j = 0; j < samples; ++j) refined += verdicts[j] == kCellRefine;
        job.refined_per_bone[i] = refined;
    }
};

struct InPlaceOrdinalPass {
    BaselineInPlaceTablesJob job;
    BS_HD void operator()(std::size_t c) const {
        if (job.verdicts[c] != kCellRefine) return;
        const BaselineTableJob& t = job.samples;
        const InPlaceCell cell = in_place_cell(t, c);
        const int* bones_before = job.refined_per_bone + (cell.fan ? t.bone_count : 0);
        std::size_t ordinal = 0;
        for (int b = 0; b < cell.bone; ++b) ordinal += std::size_t(bones_before[b]);
        const int* verdicts = job.verdicts + cell.first + std::size_t(cell.bone) * cell.samples;
        for (int j = 0; j < cell.j; ++j) ordinal += verdicts[j] == kCellRefine;
        job.ordinals[c] = ordinal < (cell.fan ? job.fan_room : job.room) ? int(ordinal) : kNoRoom;
    }
};

// Whether cell c is refined with room for its samples, and where they go (its ordinal).
BS_HD inline bool refined_with_room(const BaselineInPlaceTablesJob& job, std::size_t c, std::size_t& ordinal) {
    if (job.verdicts[c] != kCellRefine || job.ordinals[c] == kNoRoom) return false;
    ordinal = std::size_t(job.ordinals[c]);
    return true;
}

struct InPlaceRefinePass {
    BaselineInPlaceTablesJob job;
    BS_HD BS_FLATTEN void operator()(std::size_t e) const {
        constexpr int per_cell = kSamplesPerRefinedCell;
        const BaselineTableJob& t = job.samples;
        const std::size_t c = e / per_cell, section_cells = t.bone_count * std::size_t(t.phi_samples);
        const int q = int(e % per_cell);
        std::size_t r;
        if (!refined_with_room(job, c, r)) return;
        if (c < section_cells)
            job.fine[r * per_cell + q] = refined_section_sample(t.bones, t.poses, t.locals, t.phi_samples, int(c), q);
        else
            job.fine_fans[r * per_cell + q] = refined_fan_sample(t.bones, t.locals, t.fan_samples, int(c - section_cells), q);
    }
};

struct InPlaceSubcellPass {
    BaselineInPlaceTablesJob job;
    BS_HD void operator()(std::size_t e) const {
        const BaselineTableJob& t = job.samples;
        const std::size_t c = e / kRefineFactor;
        const int m = int(e % kRefineFactor);
        std::size_t r;
        if (!refined_with_room(job, c, r)) return;
        const InPlaceCell cell = in_place_cell(t, c);
        if (!cell.fan) {
            job.direct[r * kRefineFactor + m] =
                subcell_direct(job.fine + r * kSamplesPerRefinedCell, m, t.phi_samples, t.bones[cell.bone], job.tolerance);
            return;
        }
        job.fan_direct[r * kRefineFactor + m] =
            subcell_direct(job.fine_fans + r * kSamplesPerRefinedCell, m, t.fan_samples, t.bones[cell.bone], job.tolerance);
    }
};

// Each cell's entry in BaselineTables::cells (a refined cell's ordinal, kUntabulatedCell past the room; a
// coarse cell's stencil kind, as the host's list build marks it), and the section samples' extents. The list
// build also checks that a coarse cell's two samples share their structure (its check refines the cell
// otherwise, so this cannot fail but by a bug) and throws; a device has no one to tell, so this build relies on it.
struct InPlaceCellsPass {
    BaselineInPlaceTablesJob job;
    template <class Sample>
    BS_HD int cell_entry(const Sample* samples, int per_bone, std::size_t cell, std::size_t c) const {
        const int verdict = job.verdicts[c];
        if (verdict == kCellLeftOut) return kUntabulatedCell;
        if (verdict == kCellRefine) return job.ordinals[c] == kNoRoom ? kUntabulatedCell : job.ordinals[c];
        return coarse_cell_kind(samples + cell / per_bone * per_bone, per_bone, int(cell % per_bone));
    }
    BS_HD void operator()(std::size_t c) const {
        const BaselineTableJob& t = job.samples;
        const std::size_t section_cells = t.bone_count * std::size_t(t.phi_samples);
        if (c >= section_cells) {
            job.fan_cells[c - section_cells] = cell_entry(t.fans, t.fan_samples, c - section_cells, c);
            return;
        }
        job.extents[c] = job.verdicts[c] == kCellLeftOut ? SectionExtent<double>{} : section_extent(t.sections[c]);
        job.cells[c] = cell_entry(t.sections, t.phi_samples, c, c);
        std::size_t r;
        if (!refined_with_room(job, c, r)) return;
        for (int q = 0; q < kSamplesPerRefinedCell; ++q) {
            const std::size_t e = r * kSamplesPerRefinedCell + q;
            job.fine_extents[e] = section_extent(job.fine[e]);
        }
    }
};

}  // namespace

void build_baseline_tables_in_place(const BaselineInPlaceTablesJob& job, Exec exec) {
    const BaselineTableJob& t = job.samples;
    if (t.bone_list) throw std::logic_error("build_baseline_tables_in_place: samples.bone_list must be null (its passes number cells over all bones)");
    const std::size_t section_cells = t.bone_count * std::size_t(t.phi_samples), fan_cells = t.bone_count * std::size_t(t.fan_samples);
    const std::size_t entries = (kSectionFirstChecks + 1) * section_cells + (kCellChecks + 1) * fan_cells;
    for_each_sample(entries, BaselineTablePass{t}, exec);
    for_each_sample(section_cells + fan_cells,
                    InPlaceCellCheckPass{job, {{t.bones, t.bone_count, t.phi_samples, t.fan_samples, t.sections, t.middles, t.fans,
                                                t.fan_checks, job.tolerance, job.verdicts}}},
                    exec);
    for_each_sample(section_cells, InPlaceQuarterPass{job}, exec);
    for_each_sample(2 * t.bone_count, InPlaceCountPass{job}, exec);
    for_each_sample(section_cells + fan_cells, InPlaceOrdinalPass{job}, exec);
    for_each_sample((section_cells + fan_cells) * std::size_t(kSamplesPerRefinedCell), InPlaceRefinePass{job}, exec);
    for_each_sample((section_cells + fan_cells) * std::size_t(kRefineFactor), InPlaceSubcellPass{job}, exec);
    for_each_sample(section_cells + fan_cells, InPlaceCellsPass{job}, exec);
}

#if defined(__CUDACC__)  // a device's stack limit (kernels/passes.hpp)
void reserve_table_stack() {
    reserve_per_item_stack<BaselineTablePass>();
    reserve_per_item_stack<InPlaceCellCheckPass>();
    reserve_per_item_stack<InPlaceQuarterPass>();
    reserve_per_item_stack<InPlaceCountPass>();
    reserve_per_item_stack<InPlaceOrdinalPass>();
    reserve_per_item_stack<InPlaceRefinePass>();
    reserve_per_item_stack<InPlaceSubcellPass>();
    reserve_per_item_stack<InPlaceCellsPass>();
}
#endif

#if !defined(__CUDACC__)  // the list-driven passes: the CPU build only
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
#endif

}  // namespace bs::BS_BACKEND
