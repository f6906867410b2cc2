// Per-frame, per-bone tables of the bend (DESIGN §2 "Per-frame, per-bone tables make it fast").
//
// What a pose does to the baselines of bone k depends on the pose and on the generator angle φ alone: the
// posed section (deformed segment, crop points, arcs or crease pieces, lengths) is tabulated at
// `phi_samples` angles φ_j = 2π j / phi_samples. The detail direction at a deformed-segment point depends
// on the pose and on the point's posed generator ψ alone (and on where along the section the point reads
// it, fan_reading): the fan of the posed bundle's segment (FanField: its weighted and plain end directions
// and its length) is tabulated at `fan_samples` angles ψ_j, in the meridian frame of ψ_j (MeridianFrame). The section
// samples around a point's φ are combined parameter by parameter (cubic in a smooth stretch, see
// coarse_stencil) and the point is placed exactly on the combined section at its ratio t.
//
// Most points lie on the deformed segment, and a segment point needs only the section's extent (its
// turn, and the σ and length terms of each end: SectionExtent, tabulated beside the sections): its
// meridian coordinates are those of its rest generator point (generator_point_in_meridian), its posed
// generator is ψ = φ + the turn at its σ, and its direction is the fan there. Only a point on an arc or a
// crease piece combines that end's geometry from the whole sections.
//
// The construction turns much faster in φ near some generators than elsewhere (near the folds of the
// sheaf, where the two generators of a plane nearly coincide). So each cell [φ_j, φ_j+1] is checked when
// the tables are built: the sections at its quarter points (kCellChecks of them) are compared with the
// interpolation there at kCellCheckRatios ratios t — for a section cell its middle first, and the other
// two only where the middle is not well inside the tolerance (kMiddleMargin: a middle well inside it
// passes the cell) — and a cell that deviates by more than a tolerance
// (kDefaultCellTolerance) of the bone's smaller radius at any checked point is refined into kRefineFactor
// sub-cells, which cuts the linear interpolation's error by about kRefineFactor² where the construction
// is smooth. Each sub-cell is checked the same way against its own
// middle, and one that still deviates (a kink or a fold of the construction inside it) is marked: its
// points are computed directly. The fan table is refined and checked the same way.
//
// A cell also fails its check where its two samples differ in structure (an end convex on one and concave
// on the other, or a collapsed segment on one: the convex/concave change has a square-root singularity in
// φ) and where their anchors are further apart than kTableJump · spacing · (the bone's larger radius): the
// direct construction jumps there (a clamped anchor, a collapsed crop). So wherever interpolation would cross
// something that is not smooth in φ, the point ends in a marked sub-cell and is computed directly, and the
// tabulated result equals the direct one there. The fan's cells are checked the same way (kinds, the
// segment's length and the directions).
//
// All tables are in bone k's frame F⁰_k, in double (the per-point pass's geometry precision). Sizes: a
// section sample is sizeof(PosedSection<double>) (848 bytes) plus its extent (sizeof(SectionExtent<double>),
// 152 bytes), a fan sample 128 bytes, a local chain 1,152 bytes, a cell index 4 bytes; per bone and frame.
// Besides, the fan grid's cos and sin, 16 bytes a sample (the same for every bone).
#pragma once

#include "engine/baseline/deform.hpp"

namespace bs {

// Default grids: the error they leave is measured in tests/host/test_baseline_table.cpp and
// benchmarks/RESULTS.md. The fan grid is twice as fine as the φ grid: a fan sample costs about a ninth of a
// section sample, and at 128 fan samples the human demo's fan cells that still missed after refinement
// sent 3.2% of its points to the direct construction (0.06% at 256), which cost more than the samples
// saved; at 128 φ samples against 256 the human's tables build in a quarter less time (RESULTS, 2026-12-07,
// forty-eighth session).
constexpr int kDefaultPhiSamples = 128;
constexpr int kDefaultFanSamples = 2 * kDefaultPhiSamples;
constexpr int kRefineFactor = 16;
constexpr int kSamplesPerRefinedCell = 2 * kRefineFactor + 1;  // sub-cell ends and middles, interleaved
constexpr double kDefaultCellTolerance = 3e-5;  // of the bone's smaller radius, at each checked point
// A coarse cell is checked at w = 1/4, 1/2, 3/4 of the way across it: a kink of the construction inside a
// cell bends the interpolation's error from linear growth to linear decay at the kink, so a check at the
// middle alone can pass a cell whose error peaks near an end (measured: 256 samples per bone with the middle
// alone missed the direct construction by 2e-4 local radii on the flared chain, the middle's error 1e-5).
constexpr int kCellChecks = 3;
BS_HD constexpr double cell_check_weight(int m) { return double(m + 1) / double(kCellChecks + 1); }
// A section cell is checked in two stages, because a section sample is ~10× a fan sample and the checks
// were three quarters of the build: its middle first, then its other two quarter points only where the
// middle deviates by more than kMiddleMargin × the tolerance. Measured (benchmarks/RESULTS.md, 2026-12-02):
// over 1.1e6 section cells (the CMU capture every 50th frame, the demo chain, 1,200 random bends of the
// four test chains) no cell whose middle was within 0.139 × the tolerance failed at a quarter point, and
// 97% of the cells that pass their middle are within 1/16 of it. Fan cells keep all three checks: a fan
// sample is cheap, and one of the 5 fan cells in the same survey that failed at a quarter point alone had an
// exact middle (a change of structure at w = 3/4 only).
constexpr double kMiddleMargin = 1.0 / 16;
constexpr int kMiddleCheck = 1;  // the check m at a cell's middle
// Where cell j's check m is sampled: sample number cell_check_index(j, m) on a grid of
// kCellChecks + 1 times the cell count (at cell_check_weight(m) across the cell).
BS_HD constexpr int cell_check_index(int j, int m) { return (kCellChecks + 1) * j + m + 1; }
BS_HD constexpr int cell_check_grid(int samples) { return (kCellChecks + 1) * samples; }
static_assert(cell_check_weight(kMiddleCheck) == 0.5, "the first stage checks a section cell at its middle");
// Where a section cell's check stands after its middle. With an infinite tolerance (refine only where the
// structure changes) no middle is "well inside": every cell gets its quarter checks.
// A bone left out of the tables has kCellLeftOut in every cell (the in-place build: BaselineTableJob::tabulated).
enum CellVerdict : int { kCellSmooth = 0, kCellRefine = 1, kCellCheckQuarters = 2, kCellLeftOut = 3 };
constexpr int kCellCheckRatios = 9;      // t = 0, 1/8, ..., 1
// Two samples whose anchors are further apart than this many times spacing · radius are not interpolated.
constexpr double kTableJump = 12.0;
// A cell not refined, and the stencil its points take (coarse_stencil): cubic where the samples before and
// after it share the structure of its own two; quadratic through its own two and the one on the side that
// shares it where only one side does (next to a change of structure); linear where neither does. Decided
// once a frame, when the tables are built, instead of by each point. A coarse cell's own two samples always
// share their structure: its check fails otherwise (cell_deviation), and the cell is refined.
constexpr int kCoarseCubicCell = -1;
constexpr int kCoarseLinearCell = -2;
constexpr int kCoarseQuadraticBeforeCell = -4;  // the sample before the cell, and its own two
constexpr int kCoarseQuadraticAfterCell = -5;   // its own two, and the sample after it
// Every cell of a bone left out of the tables (BaselineDeformOptions::min_tabulated_points): too few points
// read it to repay its samples, and its points take the direct construction.
constexpr int kUntabulatedCell = -3;
BS_HD constexpr bool is_coarse(int cell) {
    return cell == kCoarseCubicCell || cell == kCoarseQuadraticBeforeCell || cell == kCoarseQuadraticAfterCell || cell == kCoarseLinearCell;
}

// The fan of the posed bundle's segment through generator ψ_j (FanField: its two blended end
// directions), in the meridian frame of ψ_j (MeridianFrame: axial, radial, tangential coordinates). The
// fan is a plane construction in its meridian, so samples at neighbouring ψ are combined coordinate by
// coordinate, not as 3D vectors that turn with ψ; a point reads its direction off the combined field at
// its fraction along the deformed segment (FanField::direction_at) without solving the fan again.
template <class T>
struct FanSample {
    FanField<T> field;
    unsigned kinds;  // the bundle's end kinds, packed: interpolation never crosses a change (nor one of field.outward)
    T rest_length;   // the bundle's segment length at rest on this generator where fan_form_weight can need it,
                     // else the posed one (rest_bundle_length)
};

// The parts of a posed section that say which piece a ratio t falls on and where a point on the deformed
// segment lies: the segment's turn and each end's σ and length terms (as PosedEnd holds them: the length
// of a combination is computed from the combined terms, as PosedEnd::length does). A table holds these
// beside the whole sections so that a point on the segment — most points — reads 4 of these and none of
// the sections.
template <class T>
struct EndExtent {
    EndKind kind;
    T sigma, arc_radius, arc_begin, arc_end, crease_length;
    T rest_crease;  // PosedEnd::rest_crease

    BS_HD T length() const { return end_length(kind, arc_radius, arc_begin, arc_end, crease_length); }
};

template <class T>
struct SectionExtent {
    SegmentTurn<T> turn;
    EndExtent<T> parent, child;
    unsigned structure;  // section_structure of the section it summarises

    BS_HD const EndExtent<T>& end(bool at_parent) const { return at_parent ? parent : child; }
    BS_HD T segment_length() const { return child.sigma - parent.sigma; }
    BS_HD T length() const { return parent.length() + segment_length() + child.length(); }
    BS_HD SectionPiece piece_at(T ell) const { return section_piece_at(ell, parent.length(), segment_length(), child.kind); }
    // σ on the deformed segment of arc length ell (clamped to the segment), as point_on_posed_section.
    BS_HD T segment_sigma(T ell) const { return parent.sigma + clamp_value(ell - parent.length(), T(0), segment_length()); }
};

// A view of one frame's tables (device or host pointers, owned by the caller). phi_samples == 0 means no
// tables: the direct construction (what a view declared without initialiser holds).
template <class T>
struct BaselineTables {
    int phi_samples = 0;
    int fan_samples = 0;
    const LocalChain<T>* locals = nullptr;      // bone_count
    const PosedSection<T>* sections = nullptr;  // bone_count × phi_samples, bone-major
    const SectionExtent<T>* extents = nullptr;  // section_extent of each of `sections`
    const FanSample<T>* fans = nullptr;         // bone_count × fan_samples, bone-major
    // Refined cells: cells[c] is a coarse cell's kind of stencil (kCoarseCubicCell, kCoarseQuadraticBeforeCell,
    // kCoarseQuadraticAfterCell, kCoarseLinearCell), kUntabulatedCell (the bone's samples are not built) or
    // the refined cell's ordinal r; its samples are fine[r × kSamplesPerRefinedCell ...], and
    // direct[r × kRefineFactor + m] is 1 where sub-cell m is computed directly.
    const int* cells = nullptr;              // bone_count × phi_samples
    const PosedSection<T>* fine = nullptr;
    const SectionExtent<T>* fine_extents = nullptr;  // section_extent of each of `fine`
    const unsigned char* direct = nullptr;
    const int* fan_cells = nullptr;          // bone_count × fan_samples, likewise
    const FanSample<T>* fine_fans = nullptr;
    const unsigned char* fan_direct = nullptr;
    const CosSin* fan_angles = nullptr;      // fan_samples: cos and sin of grid_angle(j, fan_samples)
};

// Angle j of a periodic grid of `samples` (the tables' samples and, cos and sin, BaselineTables::fan_angles).
BS_HD inline double grid_angle(int j, int samples) { return kTwoPi * double(j) / double(samples); }

// Sample j of bone k's section table.
template <class T>
BS_HD inline PosedSection<T> section_sample(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, const LocalChain<T>& local,
                                            int k, int j, int phi_samples) {
    T phi = T(grid_angle(j, phi_samples));
    Section<T> rest = bone_section(bones, k, generator_radial(bones[k], phi));
    return make_posed_section(local, bones, poses, k, rest);
}

BS_HD inline unsigned end_kinds(EndKind parent, EndKind child) {
    return unsigned(parent) | unsigned(child) << 2;
}

// Sample j of bone k's fan table (its local chain given).
template <class T>
BS_HD inline FanSample<T> fan_sample(const BaselineBone<T>* bones, const LocalChain<T>& local, int k, int j, int fan_samples) {
    T psi = T(grid_angle(j, fan_samples));
    Vec3<T> radial = generator_radial(local.bones[1], psi);
    Section<T> bundle = bone_section(local.bones, 1, radial);
    MeridianFrame<T> frame = meridian_frame(local.bones[1].cone, radial);
    FanField<T> field = fan_field<T>({frame.local_point(bundle.at_sigma(bundle.parent.sigma)), frame.local_vector(bundle.parent.direction)},
                                     {frame.local_point(bundle.at_sigma(bundle.child.sigma)), frame.local_vector(bundle.child.direction)});
    return {field, end_kinds(bundle.parent.kind, bundle.child.kind), rest_bundle_length(bones, k, radial, field.length)};
}

// What decides whether two bracketing section samples may be interpolated.
template <class T>
BS_HD inline unsigned section_structure(const PosedSection<T>& s) {
    return end_kinds(s.parent.kind, s.child.kind) | (s.parent.flags & kSectionCollapsed) | ((s.child.flags & kSectionCollapsed) << 1);
}

template <class T> BS_HD inline EndExtent<T> end_extent(const PosedEnd<T>& e) {
    return {e.kind, e.sigma, e.arc.radius, e.arc_begin, e.arc_end, e.crease.length, e.rest_crease};
}
template <class T> BS_HD inline SectionExtent<T> section_extent(const PosedSection<T>& s) {
    return {s.segment.turn, end_extent(s.parent), end_extent(s.child), section_structure(s)};
}

// Bracketing samples of an angle on a periodic grid: a = floor, b = a + 1 (wrapped), weight of b.
struct Bracket {
    int a, b;
    double weight;
};

// The angle in samples is one product (its factor does not wait for the angle), brought into
// [0, samples) by a turn either way without a branch, which covers φ and every ψ = φ + a turn within one
// turn; only beyond that does it take a floor. The per-point pass is bound by its chain of dependent steps
// (docs/ALGORITHM.md "Per-frame tables"), with two brackets on every point's: taking a division and a floor
// out of them took the bench chain from 114 to 107 ns a point.
BS_HD inline Bracket bracket(double angle, int samples) {
    const double n = double(samples);
    double u = angle * (n / kTwoPi);
    u += u < 0 ? n : 0.0;
    u -= u >= n ? n : 0.0;
    if (!(u >= 0 && u < n)) {  // beyond a turn either way, or NaN or ±∞ (never an index out of range)
        u -= n * std::floor(u / n);
        if (!(u >= 0 && u < n)) u = 0;
    }
    const int a = int(u);
    return {a, a + 1 == samples ? 0 : a + 1, u - a};
}

// Grids from this many samples on are fine enough for angle_on_grid's series (cos_sin_near_zero).
constexpr int kSeriesGridSamples = 128;
static_assert(kTwoPi / kSeriesGridSamples <= kSeriesAngle, "a grid step is within the series' reach");

// cos and sin of `angle`, bracketed by `j` on a grid of `samples` whose angles are `grid` (fan_angles).
// The angle is grid angle j.a plus δ = j.weight · spacing, so angle addition with cos δ and sin δ from
// their Taylor series (cos_sin_near_zero: δ < 2π / kSeriesGridSamples) gives them to a few units in the
// last place, in a tenth of the instructions of a libm sincos (which was 11% of the per-point pass).
// Coarser grids take the library's.
BS_HD inline CosSin angle_on_grid(double angle, const Bracket& j, int samples, const CosSin* grid) {
    if (samples < kSeriesGridSamples) return {std::cos(angle), std::sin(angle)};
    double cos_d, sin_d;
    cos_sin_near_zero(j.weight * (kTwoPi / samples), cos_d, sin_d);
    const CosSin& a = grid[j.a];
    return {a.cos * cos_d - a.sin * sin_d, a.sin * cos_d + a.cos * sin_d};
}

// Whether two samples may be interpolated with each other.
template <class T> BS_HD inline bool same_structure(const PosedSection<T>& x, const PosedSection<T>& y) {
    return section_structure(x) == section_structure(y);
}
template <class T> BS_HD inline bool same_structure(const SectionExtent<T>& x, const SectionExtent<T>& y) {
    return x.structure == y.structure;
}
template <class T> BS_HD inline bool same_structure(const FanSample<T>& x, const FanSample<T>& y) {
    return x.kinds == y.kinds && x.field.outward == y.field.outward;
}

// The samples an interpolation combines, with their weights (summing to 1). s[0] and s[1] are the two
// samples bracketing the angle (s[0] is the reference for structure and wrapped angles); a cubic stencil
// adds the samples before and after them, a quadratic one the sample on its side and s[0] again on the
// other with weight 0, a linear one repeats s[0] in both with weight 0. Combinations
// always take all four terms, written out (summed in pairs), their weights and samples held in registers,
// where a loop over a count held in the stencil was not (the combinations were a third of the per-point
// pass), and the zero terms change no sum.
template <class Sample>
struct Stencil {
    const Sample* s[4];
    double w[4];
    double spacing;  // radians between s[0] and s[1]
};

// A linear stencil between two samples (weight w of b).
template <class Sample>
BS_HD inline Stencil<Sample> linear_stencil(const Sample* a, const Sample* b, double w, double spacing) {
    return {{a, b, a, a}, {1 - w, w, 0, 0}, spacing};
}

// The same stencil on a parallel array: `st` points into `from`, the result at the same offsets into `to`.
template <class To, class From>
BS_HD inline Stencil<To> stencil_on(const Stencil<From>& st, const From* from, const To* to) {
    Stencil<To> out{{}, {st.w[0], st.w[1], st.w[2], st.w[3]}, st.spacing};
    for (int i = 0; i < 4; ++i) out.s[i] = to + (st.s[i] - from);
    return out;
}

// The samples around cell j of one bone's table: a = j, b = j + 1, and the ones before and after them,
// wrapped by comparison, not %: three integer divisions per stencil, two stencils on every point's path.
template <class Sample>
struct CellSamples {
    const Sample *a, *b, *before, *after;
};
template <class Sample> BS_HD inline CellSamples<Sample> cell_samples(const Sample* bone_samples, int samples, int j) {
    return {&bone_samples[j], &bone_samples[j + 1 < samples ? j + 1 : j + 1 - samples], &bone_samples[j > 0 ? j - 1 : samples - 1],
            &bone_samples[j + 2 < samples ? j + 2 : j + 2 - samples]};
}

// A coarse cell's entry in BaselineTables::cells: the kind of stencil its points take (see kCoarseCubicCell),
// from the structure of the samples around it, decided once a frame.
template <class Sample> BS_HD inline int coarse_cell_kind(const Sample* bone_samples, int samples, int j) {
    const CellSamples<Sample> c = cell_samples(bone_samples, samples, j);
    const bool before = same_structure(*c.before, *c.a), after = same_structure(*c.b, *c.after);
    return before && after ? kCoarseCubicCell : before ? kCoarseQuadraticBeforeCell : after ? kCoarseQuadraticAfterCell : kCoarseLinearCell;
}

// Lagrange weights on the uniform grid at w in [0, 1] of the cell: cubic on its four samples in a smooth
// stretch (O(Δφ⁴): the rest pose and slow turns come out exact to far below the tolerance); next to a change
// of structure, quadratic on the three samples of the cell's side (O(Δφ³): linear, O(Δφ²), left the bent
// chain's rest points 1.3e-5 off at 128 samples), or linear.
template <class Sample>
BS_HD inline Stencil<Sample> coarse_stencil(const Sample* bone_samples, int samples, int j, double w, int kind) {
    const CellSamples<Sample> c = cell_samples(bone_samples, samples, j);
    const double spacing = kTwoPi / samples;
    const double plus = w + 1, minus = w - 1, minus2 = w - 2;
    switch (kind) {
        case kCoarseCubicCell:  // each weight a product of two products (no division): two multiplications deep
            return {{c.a, c.b, c.before, c.after},
                    {(plus * minus) * (minus2 * 0.5), (plus * w) * (minus2 * -0.5), (w * minus) * (minus2 * (-1.0 / 6)),
                     (plus * w) * (minus * (1.0 / 6))},
                    spacing};
        case kCoarseQuadraticBeforeCell:  // nodes −1, 0, 1
            return {{c.a, c.b, c.before, c.a}, {-(plus * minus), (plus * w) * 0.5, (w * minus) * 0.5, 0}, spacing};
        case kCoarseQuadraticAfterCell:  // nodes 0, 1, 2
            return {{c.a, c.b, c.a, c.after}, {(minus * minus2) * 0.5, -(w * minus2), 0, (w * minus) * 0.5}, spacing};
        default:
            return linear_stencil(c.a, c.b, w, spacing);
    }
}
template <class Sample> BS_HD inline Stencil<Sample> coarse_stencil(const Sample* bone_samples, int samples, int j, double w) {
    return coarse_stencil(bone_samples, samples, j, w, coarse_cell_kind(bone_samples, samples, j));
}

// The stencil for an angle (bracketed by j) in a table of `samples` per bone with refined cells (see BaselineTables):
// the coarse cell's kind of stencil, or linear between the two nearest samples of a refined cell. False
// where the angle falls in a sub-cell marked for the direct construction, or the sub-cell's two samples
// differ in structure (a coarse cell's never do: kCoarseCubicCell), or on a bone left out (kUntabulatedCell).
// `in_fine` tells which of the two arrays the stencil points into.
template <class Sample>
BS_HD inline bool stencil_at(const Bracket& j, int k, int samples, const Sample* coarse, const int* cells, const Sample* fine,
                             const unsigned char* direct, Stencil<Sample>& out, bool& in_fine) {
    const int r = cells[std::size_t(k) * samples + j.a];
    in_fine = r >= 0;  // a refined cell's ordinal
    if (!in_fine) {
        if (!is_coarse(r)) return false;  // kUntabulatedCell: no other negative entry is written
        out = coarse_stencil(coarse + std::size_t(k) * samples, samples, j.a, j.weight, r);
        return true;
    }
    double u = j.weight * kRefineFactor;
    int m = int(u);
    m = m < kRefineFactor ? m : kRefineFactor - 1;
    const Sample* a = &fine[std::size_t(r) * kSamplesPerRefinedCell + 2 * m];
    out = linear_stencil(a, a + 2, u - m, kTwoPi / samples / kRefineFactor);
    return direct[std::size_t(r) * kRefineFactor + m] == 0 && same_structure(a[0], a[2]);
}

// Weighted combination of samples of one structure, parameter by parameter: positions and lengths as
// they are, angles relative to the reference sample (wrapped: a turn is periodic), unit vectors
// renormalised, arc frames kept orthonormal. A point is then placed exactly on the combined section, so
// its pieces stay where the construction puts them: interpolating placed points instead would cut across
// the kinks where a fixed ratio t passes from one piece to the next. The four terms are summed in pairs:
// the combinations lie on the per-point pass's chain of dependent steps (its extents give the point's
// place, and that its posed generator), where a running sum was four additions deep, a paired one two.
template <class T, class Sample, class Get>
BS_HD inline T combine_values(const Stencil<Sample>& st, Get get) {
    return (T(st.w[0]) * get(*st.s[0]) + T(st.w[1]) * get(*st.s[1])) + (T(st.w[2]) * get(*st.s[2]) + T(st.w[3]) * get(*st.s[3]));
}
// The difference of two angles brought into [−π, π] (rint, not fmod: this runs per point).
template <class T> BS_HD inline T angle_difference(T a, T b) {
    T d = a - b;
    if (std::fabs(d) <= T(kTwoPi / 2)) return d;  // the usual case, and what rint gives there
    return d - T(kTwoPi) * std::rint(d / T(kTwoPi));
}
template <class T, class Sample, class Get>
BS_HD inline T combine_angles(const Stencil<Sample>& st, Get get) {
    const T reference = get(*st.s[0]);
    auto term = [&](int i) { return T(st.w[i]) * angle_difference(T(get(*st.s[i])), reference); };
    return reference + (term(1) + (term(2) + term(3)));
}
template <class T, class Sample, class Get>
BS_HD inline Vec3<T> combine_vectors(const Stencil<Sample>& st, Get get) {
    return (T(st.w[0]) * get(*st.s[0]) + T(st.w[1]) * get(*st.s[1])) + (T(st.w[2]) * get(*st.s[2]) + T(st.w[3]) * get(*st.s[3]));
}

// The combined extent: the turn's angles and σ range, each end's σ and length terms. All of an end's length
// terms are combined, those its kind does not use too (s[0]'s of them are what a combined section keeps
// there; these are as unused): a branch on the kind, which changes with φ across a bent joint, was
// mispredicted for points in no order of φ, and that stall lay on the pass's chain.
template <class T>
BS_HD inline EndExtent<T> combine_end_extent(const Stencil<SectionExtent<T>>& st, bool parent) {
    using E = SectionExtent<T>;
    EndExtent<T> m = st.s[0]->end(parent);
    m.sigma = combine_values<T>(st, [&](const E& s) { return s.end(parent).sigma; });
    m.arc_radius = combine_values<T>(st, [&](const E& s) { return s.end(parent).arc_radius; });
    m.arc_begin = combine_values<T>(st, [&](const E& s) { return s.end(parent).arc_begin; });
    m.arc_end = combine_values<T>(st, [&](const E& s) { return s.end(parent).arc_end; });
    m.crease_length = combine_values<T>(st, [&](const E& s) { return s.end(parent).crease_length; });
    m.rest_crease = combine_values<T>(st, [&](const E& s) { return s.end(parent).rest_crease; });
    return m;
}

template <class T>
BS_HD inline SectionExtent<T> combine_extents(const Stencil<SectionExtent<T>>& st) {
    using E = SectionExtent<T>;
    SegmentTurn<T> turn{combine_angles<T>(st, [](const E& s) { return s.turn.at_parent; }),
                        combine_angles<T>(st, [](const E& s) { return s.turn.at_child; }),
                        combine_values<T>(st, [](const E& s) { return s.turn.sigma_start; }),
                        combine_values<T>(st, [](const E& s) { return s.turn.sigma_end; })};
    return {turn, combine_end_extent(st, true), combine_end_extent(st, false), st.s[0]->structure};
}

// The extents of a stencil's sections (`storage` holds them), for the checks made while building.
template <class T>
BS_HD inline Stencil<SectionExtent<T>> extent_stencil(const Stencil<PosedSection<T>>& st, SectionExtent<T> (&storage)[4]) {
    for (int i = 0; i < 4; ++i) storage[i] = section_extent(*st.s[i]);
    return {{&storage[0], &storage[1], &storage[2], &storage[3]}, {st.w[0], st.w[1], st.w[2], st.w[3]}, st.spacing};
}

// The rest of an end: the arc's frame and sweep, or the crease's coordinates.
template <class T>
BS_HD inline void combine_end_geometry(const Stencil<PosedSection<T>>& st, bool parent, PosedEnd<T>& m) {
    if (m.kind == EndKind::Convex) {
        m.arc.centre = combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc.centre; });
        m.arc.start_dir = normalized(combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc.start_dir; }));
        Vec3<T> tangent = combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc.tangent; });
        m.arc.tangent = normalized(tangent - dot(tangent, m.arc.start_dir) * m.arc.start_dir);
        m.arc.sweep = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc.sweep; });
    } else if (m.kind == EndKind::Concave) {
        m.crease.from_radial = normalized(combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.from_radial; }));
        m.crease.sweep = combine_angles<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.sweep; });
        m.crease.from_sigma = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.from_sigma; });
        m.crease.to_sigma = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.to_sigma; });
        m.crease.from_offset = combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.from_offset; });
        m.crease.to_offset = combine_vectors<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.to_offset; });
    }
}

template <class T> BS_HD inline void set_end_extent(PosedEnd<T>& end, const EndExtent<T>& e) {
    end.sigma = e.sigma;
    end.arc.radius = e.arc_radius;
    end.arc_begin = e.arc_begin;
    end.arc_end = e.arc_end;
    end.crease.length = e.crease_length;
    end.rest_crease = e.rest_crease;
}

// The combined section with its combined extent, on the rest generator (U, along) given exactly (it is
// cheap to have, and the combination would cut its circle's chord), with the geometry of the ends that
// `parent_end` and `child_end` ask for (an end left out keeps the reference sample's).
template <class T>
BS_HD inline PosedSection<T> combine_sections(const Stencil<PosedSection<T>>& st, const SectionExtent<T>& extent, Vec3<T> U,
                                              Vec3<T> along, bool parent_end = true, bool child_end = true) {
    PosedSection<T> m = *st.s[0];
    m.segment.U = U;
    m.segment.along = along;
    m.segment.turn = extent.turn;
    set_end_extent(m.parent, extent.parent);
    set_end_extent(m.child, extent.child);
    if (parent_end) combine_end_geometry(st, true, m.parent);
    if (child_end) combine_end_geometry(st, false, m.child);
    return m;
}

template <class T>
BS_HD inline FanField<T> combine_fans(const Stencil<FanSample<T>>& st) {
    using F = FanSample<T>;
    return {combine_vectors<T>(st, [](const F& f) { return f.field.at_start; }),
            combine_vectors<T>(st, [](const F& f) { return f.field.at_end; }),
            combine_vectors<T>(st, [](const F& f) { return f.field.start_direction; }),
            combine_vectors<T>(st, [](const F& f) { return f.field.end_direction; }),
            combine_values<T>(st, [](const F& f) { return f.field.length; }), st.s[0]->field.outward};
}

// The direction combine_fans(st).direction_at(u, its fan_form_weight) gives (bit for bit on the host;
// nvcc may contract either to FMA), without combining the plain end directions where they weigh nothing:
// where the bundle's segment has not collapsed (fan_form_weight 1, most points) and the fan's own mix does
// not vanish.
template <class T>
BS_HD inline Vec3<T> combined_fan_direction(const Stencil<FanSample<T>>& st, const FanReading<T>& reading, const Cone<T>& cone) {
    using F = FanSample<T>;
    FanField<T> fan{combine_vectors<T>(st, [](const F& f) { return f.field.at_start; }),
                    combine_vectors<T>(st, [](const F& f) { return f.field.at_end; }),
                    {},
                    {},
                    combine_values<T>(st, [](const F& f) { return f.field.length; }),
                    st.s[0]->field.outward};
    const T fan_weight = fan_form_weight(fan, reading, cone, combine_values<T>(st, [](const F& f) { return f.rest_length; }));
    if (fan_weight == T(1)) {
        const Vec3<T> mix = (T(1) - reading.u) * fan.at_start + reading.u * fan.at_end;
        if (norm2(mix) > T(0)) return normalized(mix);
    }
    fan.start_direction = combine_vectors<T>(st, [](const F& f) { return f.field.start_direction; });
    fan.end_direction = combine_vectors<T>(st, [](const F& f) { return f.field.end_direction; });
    return fan.direction_at(reading.u, fan_weight);
}

// Detail direction, in the meridian frame of generator angle ψ (bracketed on the fan grid by `psi`), read
// as `reading` says, from the fan table; false where the table may not be interpolated there (the caller
// computes the bundle directly).
template <class T>
BS_HD inline bool tabulated_fan_direction(const BaselineTables<T>& tables, int k, const Bracket& psi, FanReading<T> reading,
                                          Vec3<T>& direction) {
    Stencil<FanSample<T>> st;
    bool in_fine;
    if (!stencil_at(psi, k, tables.fan_samples, tables.fans, tables.fan_cells, tables.fine_fans, tables.fan_direct, st, in_fine))
        return false;
    direction = combined_fan_direction(st, reading, tables.locals[k].bones[1].cone);
    return true;
}

// A point placed on an end piece of one combined section; false where its direction needs the direct
// bundle.
template <class T>
BS_HD inline bool place_on_tabulated_section(const BaselineTables<T>& tables, int k, const PosedSection<T>& s, T t,
                                             PosedBase<T>& out) {
    const BaselineBone<T>& bone = tables.locals[k].bones[1];
    SectionPoint<T> p = point_on_posed_section(s, bone.cone, t * s.length());
    out.base = p.base;
    if (p.fan_weight == T(0)) {
        out.direction = p.direction;
        return true;
    }
    MeridianFrame<T> frame = meridian_frame(bone.cone, p.radial);
    Vec3<T> local_direction;
    if (!tabulated_fan_direction(tables, k, bracket(double(generator_angle(bone, p.radial)), tables.fan_samples), p.fan, local_direction))
        return false;
    out.direction = p.blended(frame.vector(local_direction));
    return true;
}

// A point on the deformed segment at σ, on the rest generator φ: the segment turns it about the axis by
// the turn at σ, to generator ψ = φ + turn, and keeps its meridian coordinates (DeformedSegment::at); its
// detail direction is the fan there (ψ's place on the fan grid gives both the fan's stencil and cos, sin
// of ψ). The result is in the frame of `axes`: bone k's own (rest_axes) or posed (BaselineBonePose::axes),
// where the pass wants it, without moving it there afterwards. False where the fan table may not be
// interpolated.
template <class T>
BS_HD inline bool place_on_tabulated_segment(const BaselineTables<T>& tables, int k, const SectionExtent<T>& extent, T phi, T sigma,
                                             const BoneAxes<T>& axes, PosedBase<T>& out) {
    const BaselineBone<T>& bone = tables.locals[k].bones[1];
    const double psi = double(phi + extent.turn.at(sigma));
    const Bracket on_fans = bracket(psi, tables.fan_samples);
    const CosSin g = angle_on_grid(psi, on_fans, tables.fan_samples, tables.fan_angles);
    const MeridianFrame<T> frame = axes.meridian(T(g.cos), T(g.sin));
    const Vec3<T> local = generator_point_in_meridian(bone.cone, sigma);
    Vec3<T> local_direction;
    if (!tabulated_fan_direction(tables, k, on_fans, fan_reading(extent, bone.cone, sigma - extent.parent.sigma), local_direction))
        return false;
    out = {frame.point(local), frame.vector(local_direction)};
    return true;
}

// A point whose ratio falls on an end piece (`piece`) of the sections the extent stencil `st` points at.
// False where its direction needs the direct bundle.
template <class T>
BS_NOINLINE BS_HD bool place_on_tabulated_end(const BaselineCode& code, const BaselineTables<T>& tables, const BaselineBone<T>& bone,
                                              const Stencil<SectionExtent<T>>& st, bool in_fine, const SectionExtent<T>& extent,
                                              SectionPiece piece, PosedBase<T>& out) {
    GeneratorLine<T> rest = generator_line(bone.cone, generator_radial(bone, T(code.phi)));
    Stencil<PosedSection<T>> sections =
        in_fine ? stencil_on(st, tables.fine_extents, tables.fine) : stencil_on(st, tables.extents, tables.sections);
    PosedSection<T> mixed = combine_sections(sections, extent, rest.U, rest.along, piece == SectionPiece::ParentEnd,
                                             piece == SectionPiece::ChildEnd);
    return place_on_tabulated_section(tables, int(code.bone), mixed, T(code.t), out);
}

// posed_base in posed coordinates, out of line: the tables' fallback.
template <class T>
BS_NOINLINE BS_HD PosedBase<T> direct_posed_base(const BaselineCode& code, const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    return posed_coordinates(poses[code.bone], posed_base(code, bones, poses));
}

// Where a (non-cap) code's ratio falls on its combined section: the extent stencil at its φ, the combined
// extent, the arc length ell of its ratio and the piece that holds it. False where the φ table may not be
// interpolated there (a sub-cell marked for the direct construction, or one whose samples differ in structure).
template <class T>
struct TabulatedPlace {
    Stencil<SectionExtent<T>> stencil;
    bool in_fine;
    SectionExtent<T> extent;
    T ell;
    SectionPiece piece;
};
template <class T>
BS_HD inline bool tabulated_place(const BaselineCode& code, const BaselineTables<T>& tables, TabulatedPlace<T>& out) {
    if (!stencil_at(bracket(double(code.phi), tables.phi_samples), int(code.bone), tables.phi_samples, tables.extents, tables.cells,
                    tables.fine_extents, tables.direct, out.stencil, out.in_fine))
        return false;
    out.extent = combine_extents(out.stencil);
    out.ell = T(code.t) * out.extent.length();
    out.piece = out.extent.piece_at(out.ell);
    return true;
}

// The posed base-point of a (non-cap) code in posed coordinates, from the tables, or from the direct
// construction where the tables may not be interpolated (see the top of this file). A point whose t falls
// on the deformed segment needs the combined extent alone, and is placed in posed coordinates at once; one
// on an end piece combines that end's geometry from the sections, in bone k's frame.
template <class T>
BS_HD inline PosedBase<T> tabulated_posed_base(const BaselineCode& code, const BaselineTables<T>& tables,
                                               const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    const int k = code.bone;
    TabulatedPlace<T> at;
    if (tabulated_place(code, tables, at)) {
        PosedBase<T> p;
        if (at.piece == SectionPiece::Segment) {
            if (place_on_tabulated_segment(tables, k, at.extent, T(code.phi), at.extent.segment_sigma(at.ell), poses[k].axes, p)) return p;
        } else if (place_on_tabulated_end(code, tables, bones[k], at.stencil, at.in_fine, at.extent, at.piece, p)) {
            return posed_coordinates(poses[k], p);
        }
    }
    return direct_posed_base(code, bones, poses);
}

// How far the interpolation `st` at a point of its cell misses the sample there (`check`: one of a coarse
// cell's check samples, or a sub-cell's middle), in units of the bone's smaller radius: the largest miss
// of the posed points (and, on the segment, of where they read the fan) at kCellCheckRatios ratios t and at
// the pieces' ends and middles; infinite where the interpolation may not be used at
// all: a change of structure, or the two bracketing samples' anchors (the section's far ends) further
// apart than kTableJump × spacing × the bone's larger radius (the construction jumps between them).
template <class T>
BS_HD inline T cell_deviation(const Stencil<PosedSection<T>>& st, const PosedSection<T>& check, const BaselineBone<T>& bone) {
    const T never = T(INFINITY);
    const Cone<T>& cone = bone.cone;
    if (!same_structure(*st.s[0], check) || !same_structure(check, *st.s[1])) return never;
    const PosedSection<T>&a = *st.s[0], &b = *st.s[1];
    const T jump = T(kTableJump) * T(st.spacing) * larger_radius(cone);
    if (norm(point_on_posed_section(a, cone, T(0)).base - point_on_posed_section(b, cone, T(0)).base) > jump ||
        norm(point_on_posed_section(a, cone, a.length()).base - point_on_posed_section(b, cone, b.length()).base) > jump)
        return never;
    SectionExtent<T> extents[4];
    PosedSection<T> mixed = combine_sections(st, combine_extents(extent_stencil(st, extents)), check.segment.U, check.segment.along);
    // Where a point reads the fan counts as well as where it lies: over a segment 1e-4 radii long the fan
    // turns from its start's direction to its end's, and a crop σ within the tolerance moved the reading by
    // 0.03 (rest points 0.08 deep came back 4e-3 radii off). The fan turns by about the angle between the
    // directions from the joint centres at the segment's ends, and a point whose code is not blended lies
    // within about a radius of its base-point: a segment point whose reading misses by Δu moves by about
    // that angle × Δu radii. A segment that short lies between the ratios' steps, so the pieces are checked
    // at their own ends and middles too.
    const Vec3<T> from_parent = check.segment.at(check.parent.sigma) - cone.parent.centre;
    const Vec3<T> from_child = check.segment.at(check.child.sigma) - cone.child.centre;
    const T cosine = dot(from_parent, from_child) / (norm(from_parent) * norm(from_child));
    const T fan_turn = std::acos(cosine < T(-1) ? T(-1) : cosine > T(1) ? T(1) : cosine);
    const T radius = smaller_radius(cone);
    T worst = T(0);
    const auto check_at = [&](T t) {
        const SectionPoint<T> want = point_on_posed_section(check, cone, t * check.length());
        const SectionPoint<T> got = point_on_posed_section(mixed, cone, t * mixed.length());
        const bool on_segments = want.fan_weight == T(1) && got.fan_weight == T(1);
        const T miss = norm(got.base - want.base) + (on_segments ? fan_turn * std::fabs(got.fan.u - want.fan.u) * radius : T(0));
        worst = miss <= worst ? worst : miss;  // a NaN miss is kept: it fails every tolerance
    };
    for (int i = 0; i < kCellCheckRatios; ++i) check_at(T(i) / T(kCellCheckRatios - 1));
    const T length = check.length();
    if (length > T(0)) {
        const T parent = check.parent.length() / length, segment = check.segment_length() / length;
        const T at_pieces[5] = {T(0.5) * parent, parent, parent + T(0.5) * segment, parent + segment,
                                parent + segment + T(0.5) * (T(1) - parent - segment)};
        for (T t : at_pieces) check_at(t);
    }
    return worst / radius;
}

// Whether a cell_deviation is within `relative_tolerance`: never where the interpolation may not be used
// (an infinite deviation, even with an infinite tolerance), nor for NaN.
template <class T> BS_HD inline bool deviation_within(T deviation, T relative_tolerance) {
    return deviation < T(INFINITY) && deviation <= relative_tolerance;
}

// Whether the interpolation reproduces the check sample to `relative_tolerance` of the bone's smaller
// radius.
template <class T>
BS_HD inline bool cell_is_smooth(const Stencil<PosedSection<T>>& st, const PosedSection<T>& check, const BaselineBone<T>& bone,
                                 T relative_tolerance) {
    return deviation_within(cell_deviation(st, check, bone), relative_tolerance);
}

// The same for a fan cell: the directions at the segment's ends and middle, of the fan's own form and of
// the plain interpolation of its end directions, within the tolerance in radians; and the segment's
// length, which sets fan_form_weight, within what keeps that weight's share of the direction within it:
// where the span or the radius sets the weight's scale its slope is at most 6 / (kCollapsedBundle · smaller
// radius), and the two forms differ by at most 2. Where a bundle short at rest sets it (down to
// kRoundingBundle of the radius) the slope is steeper, and only the length check guards the cell.
template <class T>
BS_HD inline bool cell_is_smooth(const Stencil<FanSample<T>>& st, const FanSample<T>& check, const BaselineBone<T>& bone,
                                 T tolerance) {
    if (!same_structure(*st.s[0], check) || !same_structure(check, *st.s[1])) return false;
    const FanField<T> mixed = combine_fans(st), &want = check.field;
    const T length_tolerance = tolerance * T(kCollapsedBundle / 12) * smaller_radius(bone.cone);
    if (std::fabs(mixed.length - want.length) > length_tolerance) return false;
    if (std::fabs(combine_values<T>(st, [](const FanSample<T>& f) { return f.rest_length; }) - check.rest_length) > length_tolerance) return false;
    for (int i = 0; i <= 2; ++i)
        for (int plain = 0; plain <= 1; ++plain) {
            const T u = T(i) / T(2), fan_weight = T(1 - plain);
            if (norm(mixed.direction_at(u, fan_weight) - want.direction_at(u, fan_weight)) > tolerance) return false;
        }
    return true;
}

// deform_baseline_point without tables, out of line: inlined, the whole direct construction made the
// per-point pass with tables (BS_FLATTEN) ~260 kB of code around its short common path.
template <class T>
BS_NOINLINE BS_HD Vec3<T> direct_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                                const BaselineBonePose<T>* poses, int bone_count, FieldBones kept) {
    return deform_baseline_point(code, rest, bones, poses, bone_count, kept);
}

// A cap code's point from the tables: cos and sin of t and φ from the fan grid (angle_on_grid), where two
// library sincos were a cap point's cost and most of its chain of dependent steps.
template <class T>
BS_HD inline Vec3<T> tabulated_cap_point(const BaselineCode& code, const BaselineBone<T>* bones, const BaselineBonePose<T>* poses,
                                         const BaselineTables<T>& tables) {
    auto on_grid = [&](double angle) { return angle_on_grid(angle, bracket(angle, tables.fan_samples), tables.fan_samples, tables.fan_angles); };
    return deform_cap_point(code, bones[code.bone], poses[code.bone], on_grid(code.t), on_grid(code.phi));
}

// deform_baseline_point with the tables (tables.phi_samples > 0) or directly.
template <class T>
BS_HD inline Vec3<T> deform_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                           const BaselineBonePose<T>* poses, int bone_count, const BaselineTables<T>& tables,
                                           FieldBones kept = {}) {
    if (tables.phi_samples == 0) return direct_baseline_point(code, rest, bones, poses, bone_count, kept);
    if (code.flags & (kCodeParentCap | kCodeChildCap))
        return with_rigid_blend(code, rest, bones, poses, bone_count, tabulated_cap_point(code, bones, poses, tables), kept);
    return deform_from_base(code, rest, bones, poses, bone_count, tabulated_posed_base(code, tables, bones, poses), kept);
}

// The common path of deform_baseline_point with tables: a code with no rigid blend whose point lies on a
// cap, or on its deformed segment where the tables may be interpolated (96% of the bench chain's points,
// 62-64% of the human demo's: benchmarks/RESULTS.md). Writes exactly what deform_baseline_point gives and
// returns true there; returns false for every other point (an end piece, the direct construction, the rigid
// field) without writing. The GPU runs this path apart (kernels/launch.hpp, for_each_point_split): with the
// rest of the construction left out it needs 100 registers instead of 255, so more warps share a
// multiprocessor.
template <class T>
BS_HD inline bool deform_common_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                               const BaselineBonePose<T>* poses, const BaselineTables<T>& tables, Vec3<T>& out) {
    if (tables.phi_samples == 0 || code.rigid_blend != 0.0f) return false;
    const int k = code.bone;
    if (code.flags & (kCodeParentCap | kCodeChildCap)) {
        out = tabulated_cap_point(code, bones, poses, tables);
        return true;
    }
    TabulatedPlace<T> at;
    if (!tabulated_place(code, tables, at) || at.piece != SectionPiece::Segment) return false;
    PosedBase<T> p;
    if (!place_on_tabulated_segment(tables, k, at.extent, T(code.phi), at.extent.segment_sigma(at.ell), poses[k].axes, p)) return false;
    out = detail_point(code, rest, bones[k].cone, poses[k].axes, p);
    return true;
}

}  // namespace bs
