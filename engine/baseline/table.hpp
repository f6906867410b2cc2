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
// turn, and the σ and length terms of each end: SectionExtent): its meridian coordinates are those of its
// rest generator point (generator_point_in_meridian), its posed generator is ψ = φ + the turn at its σ,
// and its direction is the fan there. So the extent's and the fan's combinations in each coarse cell are
// multiplied out into cubics in the cell's fraction when the tables are built (CellCubic: ExtentCell,
// FanCell), and such a point evaluates one cell of each. Only a point on an arc or a crease piece
// combines that end's geometry from the whole sections.
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
// All tables are in bone k's frame F⁰_k, in double (the per-point pass's geometry precision). Sizes, per
// bone and frame: a section sample is sizeof(PosedSection<double>) (832 bytes), a coarse cell's extent
// sizeof(ExtentCell<double>) (472), a coarse fan cell 424, a refined cell's samples 832 + 136 (its extent)
// and 120 (fan) each, a local chain 1,152, a cell index 4. Besides, the fan grid's cos and sin, 16 bytes
// a sample (the same for every bone).
#pragma once

#include "engine/baseline/deform.hpp"

namespace bs {

// Default grid: the error it leaves is measured in tests/host/test_baseline_table.cpp and
// benchmarks/RESULTS.md.
constexpr int kDefaultPhiSamples = 256;
constexpr int kDefaultFanSamples = 256;
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
enum CellVerdict : int { kCellSmooth = 0, kCellRefine = 1, kCellCheckQuarters = 2 };
constexpr int kCellCheckRatios = 9;      // t = 0, 1/8, ..., 1
// Two samples whose anchors are further apart than this many times spacing · radius are not interpolated.
constexpr double kTableJump = 12.0;
// A cell not refined, and the stencil its points take (coarse_stencil): cubic where the samples before and
// after it share the structure of its own two, linear otherwise. Decided once a frame, when the tables are
// built, instead of by each point. A coarse cell's own two samples always share their structure: its
// check fails otherwise (cell_deviation), and the cell is refined.
constexpr int kCoarseCubicCell = -1;
constexpr int kCoarseLinearCell = -2;
BS_HD constexpr bool is_coarse(int cell) { return cell < 0; }

// The fan of the posed bundle's segment through generator ψ_j (FanField: its two blended end
// directions), in the meridian frame of ψ_j (MeridianFrame: axial, radial, tangential coordinates). The
// fan is a plane construction in its meridian, so samples at neighbouring ψ are combined coordinate by
// coordinate, not as 3D vectors that turn with ψ; a point reads its direction off the combined field at
// its fraction along the deformed segment (FanField::direction_at) without solving the fan again.
template <class T>
struct FanSample {
    FanField<T> field;
    unsigned kinds;  // the bundle's end kinds, packed: interpolation never crosses a change (nor one of field.outward)
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

// cos and sin of an angle.
struct GridAngle {
    double cos, sin;
};

template <class T> struct ExtentCell;  // a cell's extent as cubics in its fraction (below)
template <class T> struct FanCell;     // a cell's fan likewise

// A view of one frame's tables (device or host pointers, owned by the caller). phi_samples == 0 means no
// tables: the direct construction. Coarse cells are read as cubics (ExtentCell, FanCell); refined cells from
// their samples.
template <class T>
struct BaselineTables {
    int phi_samples;
    int fan_samples;
    const LocalChain<T>* locals;        // bone_count
    const PosedSection<T>* sections;    // bone_count × phi_samples, bone-major
    const ExtentCell<T>* cell_extents;  // bone_count × phi_samples: each coarse cell's extent (cell_of its stencil)
    const FanCell<T>* cell_fans;        // bone_count × fan_samples: each coarse fan cell (cell_of its stencil)
    // Refined cells: cells[c] is kCoarseCubicCell, kCoarseLinearCell or the refined cell's ordinal r; its samples are
    // fine[r × kSamplesPerRefinedCell ...], and direct[r × kRefineFactor + m] is 1 where sub-cell m is
    // computed directly.
    const int* cells;              // bone_count × phi_samples
    const PosedSection<T>* fine;
    const SectionExtent<T>* fine_extents;  // section_extent of each of `fine`
    const unsigned char* direct;
    const int* fan_cells;          // bone_count × fan_samples, likewise
    const FanSample<T>* fine_fans;
    const unsigned char* fan_direct;
    const GridAngle* fan_angles;   // fan_samples: cos and sin of grid_angle(j, fan_samples)
};

constexpr double kTwoPi = 6.283185307179586476925286766559;

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
BS_HD inline FanSample<T> fan_sample(const LocalChain<T>& local, int j, int fan_samples) {
    T psi = T(grid_angle(j, fan_samples));
    Vec3<T> radial = generator_radial(local.bones[1], psi);
    Section<T> bundle = bone_section(local.bones, 1, radial);
    MeridianFrame<T> frame = meridian_frame(local.bones[1].cone, radial);
    FanField<T> field = fan_field<T>({frame.local_point(bundle.at_sigma(bundle.parent.sigma)), frame.local_vector(bundle.parent.direction)},
                                     {frame.local_point(bundle.at_sigma(bundle.child.sigma)), frame.local_vector(bundle.child.direction)});
    return {field, end_kinds(bundle.parent.kind, bundle.child.kind)};
}

// What decides whether two bracketing section samples may be interpolated.
template <class T>
BS_HD inline unsigned section_structure(const PosedSection<T>& s) {
    return end_kinds(s.parent.kind, s.child.kind) | (s.parent.flags & kSectionCollapsed) | ((s.child.flags & kSectionCollapsed) << 1);
}

template <class T> BS_HD inline EndExtent<T> end_extent(const PosedEnd<T>& e) {
    return {e.kind, e.sigma, e.arc.radius, e.arc_begin, e.arc_end, e.crease.length};
}
template <class T> BS_HD inline SectionExtent<T> section_extent(const PosedSection<T>& s) {
    return {s.segment.turn, end_extent(s.parent), end_extent(s.child), section_structure(s)};
}

// Bracketing samples of an angle on a periodic grid: a = floor, b = a + 1 (wrapped), weight of b.
struct Bracket {
    int a, b;
    double weight;
};

BS_HD inline Bracket bracket(double angle, int samples) {
    double u = angle / kTwoPi;
    u = (u - std::floor(u)) * samples;  // in [0, samples] for a finite angle
    if (!(u >= 0 && u < samples)) u = 0;  // samples itself, and NaN or ±∞ (never an index out of range)
    int a = int(u);
    return {a, a + 1 == samples ? 0 : a + 1, u - a};
}

// Grids from this many samples on are fine enough for angle_on_grid's series.
constexpr int kSeriesGridSamples = 128;

// cos and sin of `angle`, bracketed by `j` on a grid of `samples` whose angles are `grid` (fan_angles).
// The angle is grid angle j.a plus δ = j.weight · spacing, so angle addition with cos δ and sin δ from
// their Taylor series (through δ⁸ and δ⁷; for δ < 2π / kSeriesGridSamples the first term left out is
// below 5e-18) gives them to a few units in the last place, in a tenth of the instructions of a libm
// sincos (which was 11% of the per-point pass). Coarser grids take the library's.
BS_HD inline GridAngle angle_on_grid(double angle, const Bracket& j, int samples, const GridAngle* grid) {
    if (samples < kSeriesGridSamples) return {std::cos(angle), std::sin(angle)};
    const double d = j.weight * (kTwoPi / samples), d2 = d * d;
    const double cos_d = 1 + d2 * (-1.0 / 2 + d2 * (1.0 / 24 + d2 * (-1.0 / 720 + d2 * (1.0 / 40320))));
    const double sin_d = d * (1 + d2 * (-1.0 / 6 + d2 * (1.0 / 120 + d2 * (-1.0 / 5040))));
    const GridAngle& a = grid[j.a];
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
// adds the samples before and after them, a linear one repeats s[0] there with weight 0. Combinations
// always run over all four: a loop of fixed length is unrolled, its weights and samples held in
// registers, where a loop over a count held in the stencil was not (the combinations were a third of the
// per-point pass), and the zero terms change no sum.
template <class Sample>
struct Stencil {
    const Sample* s[4];
    double w[4];
    double spacing;   // radians between s[0] and s[1]
    double fraction;  // where the angle lies between s[0] (0) and s[1] (1): the weights' argument
    bool cubic;       // Lagrange weights over all four samples; linear (s[0], s[1]) otherwise
};

// A linear stencil between two samples (weight w of b).
template <class Sample>
BS_HD inline Stencil<Sample> linear_stencil(const Sample* a, const Sample* b, double w, double spacing) {
    return {{a, b, a, a}, {1 - w, w, 0, 0}, spacing, w, false};
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

// Whether cell j's stencil may be cubic: the four samples around it share one structure.
template <class Sample> BS_HD inline bool cubic_cell(const Sample* bone_samples, int samples, int j) {
    const CellSamples<Sample> c = cell_samples(bone_samples, samples, j);
    return same_structure(*c.before, *c.a) && same_structure(*c.a, *c.b) && same_structure(*c.b, *c.after);
}

// Cubic (Lagrange, uniform grid) where the four samples around a coarse cell share one structure, linear
// otherwise: in a smooth stretch the cubic's error is O(Δφ⁴), so the rest pose and slow turns come out
// exact to far below the tolerance.
template <class Sample>
BS_HD inline Stencil<Sample> coarse_stencil(const Sample* bone_samples, int samples, int j, double w, bool cubic) {
    const CellSamples<Sample> c = cell_samples(bone_samples, samples, j);
    const double spacing = kTwoPi / samples;
    if (cubic)
        return {{c.a, c.b, c.before, c.after},
                {(w + 1) * (w - 1) * (w - 2) / 2, -(w + 1) * w * (w - 2) / 2, -w * (w - 1) * (w - 2) / 6, (w + 1) * w * (w - 1) / 6},
                spacing, w, true};
    return linear_stencil(c.a, c.b, w, spacing);
}
template <class Sample> BS_HD inline Stencil<Sample> coarse_stencil(const Sample* bone_samples, int samples, int j, double w) {
    return coarse_stencil(bone_samples, samples, j, w, cubic_cell(bone_samples, samples, j));
}

// The linear stencil of the refined cell r's sub-cell that an angle (bracketed by j) falls in, between its
// two nearest samples in `fine` (see BaselineTables). False where that sub-cell is marked for the direct
// construction, or its two samples differ in structure.
template <class Sample>
BS_HD inline bool fine_stencil(const Bracket& j, int r, int samples, const Sample* fine, const unsigned char* direct, Stencil<Sample>& out) {
    double u = j.weight * kRefineFactor;
    int m = int(u);
    m = m < kRefineFactor ? m : kRefineFactor - 1;
    const Sample* a = &fine[std::size_t(r) * kSamplesPerRefinedCell + 2 * m];
    out = linear_stencil(a, a + 2, u - m, kTwoPi / samples / kRefineFactor);
    return direct[std::size_t(r) * kRefineFactor + m] == 0 && same_structure(a[0], a[2]);
}

// The stencil for an angle (bracketed by j) in bone k's table of `samples` per bone with refined cells:
// the coarse cell's kind of stencil, or fine_stencil in a refined cell (false where that says so). A
// coarse cell's two samples always share their structure (kCoarseCubicCell).
template <class Sample>
BS_HD inline bool stencil_at(const Bracket& j, int k, int samples, const Sample* coarse, const int* cells, const Sample* fine,
                             const unsigned char* direct, Stencil<Sample>& out) {
    const int r = cells[std::size_t(k) * samples + j.a];
    if (is_coarse(r)) {
        out = coarse_stencil(coarse + std::size_t(k) * samples, samples, j.a, j.weight, r == kCoarseCubicCell);
        return true;
    }
    return fine_stencil(j, r, samples, fine, direct, out);
}

// Weighted combination of samples of one structure, parameter by parameter: positions and lengths as
// they are, angles relative to the reference sample (wrapped: a turn is periodic), unit vectors
// renormalised, arc frames kept orthonormal. A point is then placed exactly on the combined section, so
// its pieces stay where the construction puts them: interpolating placed points instead would cut across
// the kinks where a fixed ratio t passes from one piece to the next.
template <class T, class Sample, class Get>
BS_HD inline T combine_values(const Stencil<Sample>& st, Get get) {
    T sum = T(0);
    for (int i = 0; i < 4; ++i) sum += T(st.w[i]) * get(*st.s[i]);
    return sum;
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
    T sum = reference;
    for (int i = 1; i < 4; ++i) sum += T(st.w[i]) * angle_difference(get(*st.s[i]), reference);
    return sum;
}
template <class T, class Sample, class Get>
BS_HD inline Vec3<T> combine_vectors(const Stencil<Sample>& st, Get get) {
    Vec3<T> sum{T(0), T(0), T(0)};
    for (int i = 0; i < 4; ++i) sum += T(st.w[i]) * get(*st.s[i]);
    return sum;
}

// A parameter across one cell as a polynomial in the cell's fraction w ∈ [0, 1] (Stencil::fraction):
// the stencil's combination multiplied out once per cell, when the tables are built, instead of weighed
// again by every point. A cubic stencil's four Lagrange weights give c[1..3] from the samples'
// differences to s[0] (in each power the weights' coefficients sum to 0), so that c[0] is s[0]'s value
// exactly and an angle's differences are wrapped once per cell; a linear stencil gives c[0] + w c[1]. The
// per-point pass evaluates it by Horner's rule: 3 products and 3 sums, where the stencil took 4 weights
// (~15 products), then 4 products, 3 sums and a wrap per angle and sample (the combinations were a third
// of the pass).
template <class T>
struct CellCubic {
    T c[4];
    BS_HD T at(T w) const { return c[0] + w * (c[1] + w * (c[2] + w * c[3])); }
};

// From s[0]'s value and the differences to it of s[1], and of s[2] and s[3] (the samples before and after).
template <class T> BS_HD inline CellCubic<T> cell_cubic(T value, T to_b, T to_before, T to_after, bool cubic) {
    if (!cubic) return {{value, to_b, T(0), T(0)}};
    return {{value, to_b - to_before / T(3) - to_after / T(6), (to_b + to_before) / T(2), (to_after - to_before) / T(6) - to_b / T(2)}};
}
template <class T, class Sample, class Get> BS_HD inline CellCubic<T> value_cubic(const Stencil<Sample>& st, Get get) {
    const T v = get(*st.s[0]);
    return cell_cubic<T>(v, get(*st.s[1]) - v, get(*st.s[2]) - v, get(*st.s[3]) - v, st.cubic);
}
template <class T, class Sample, class Get> BS_HD inline CellCubic<T> angle_cubic(const Stencil<Sample>& st, Get get) {
    const T v = get(*st.s[0]);
    return cell_cubic<T>(v, angle_difference(T(get(*st.s[1])), v), angle_difference(T(get(*st.s[2])), v),
                         angle_difference(T(get(*st.s[3])), v), st.cubic);
}

template <class T>
struct Vec3Cubic {
    CellCubic<T> x, y, z;
    BS_HD Vec3<T> at(T w) const { return {x.at(w), y.at(w), z.at(w)}; }
};
template <class T, class Sample, class Get> BS_HD inline Vec3Cubic<T> vector_cubic(const Stencil<Sample>& st, Get get) {
    return {value_cubic<T>(st, [&](const Sample& s) { return get(s).x; }), value_cubic<T>(st, [&](const Sample& s) { return get(s).y; }),
            value_cubic<T>(st, [&](const Sample& s) { return get(s).z; })};
}

// A cell's extent as cubics: the turn's angles and σ range, each end's σ and length terms (only those of
// its kind are evaluated; the others keep s[0]'s value, as a combined section does).
template <class T>
struct EndExtentCell {
    EndKind kind;
    CellCubic<T> sigma, arc_radius, arc_begin, arc_end, crease_length;
};
template <class T>
struct ExtentCell {
    CellCubic<T> turn_at_parent, turn_at_child, sigma_start, sigma_end;
    EndExtentCell<T> parent, child;
    unsigned structure;
};

template <class T> BS_HD inline EndExtentCell<T> end_extent_cell(const Stencil<SectionExtent<T>>& st, bool parent) {
    using E = SectionExtent<T>;
    return {st.s[0]->end(parent).kind, value_cubic<T>(st, [&](const E& s) { return s.end(parent).sigma; }),
            value_cubic<T>(st, [&](const E& s) { return s.end(parent).arc_radius; }),
            value_cubic<T>(st, [&](const E& s) { return s.end(parent).arc_begin; }),
            value_cubic<T>(st, [&](const E& s) { return s.end(parent).arc_end; }),
            value_cubic<T>(st, [&](const E& s) { return s.end(parent).crease_length; })};
}
template <class T> BS_HD inline ExtentCell<T> cell_of(const Stencil<SectionExtent<T>>& st) {
    using E = SectionExtent<T>;
    return {angle_cubic<T>(st, [](const E& s) { return s.turn.at_parent; }), angle_cubic<T>(st, [](const E& s) { return s.turn.at_child; }),
            value_cubic<T>(st, [](const E& s) { return s.turn.sigma_start; }), value_cubic<T>(st, [](const E& s) { return s.turn.sigma_end; }),
            end_extent_cell(st, true), end_extent_cell(st, false), st.s[0]->structure};
}

template <class T> BS_HD inline EndExtent<T> end_extent_at(const EndExtentCell<T>& m, T w) {
    EndExtent<T> e{m.kind, m.sigma.at(w), m.arc_radius.c[0], m.arc_begin.c[0], m.arc_end.c[0], m.crease_length.c[0]};
    if (m.kind == EndKind::Convex) {
        e.arc_radius = m.arc_radius.at(w);
        e.arc_begin = m.arc_begin.at(w);
        e.arc_end = m.arc_end.at(w);
    } else if (m.kind == EndKind::Concave) {
        e.crease_length = m.crease_length.at(w);
    }
    return e;
}
// The combined extent at fraction w of the cell.
template <class T> BS_HD inline SectionExtent<T> extent_at(const ExtentCell<T>& c, T w) {
    return {{c.turn_at_parent.at(w), c.turn_at_child.at(w), c.sigma_start.at(w), c.sigma_end.at(w)}, end_extent_at(c.parent, w),
            end_extent_at(c.child, w), c.structure};
}
template <class T> BS_HD inline SectionExtent<T> combine_extents(const Stencil<SectionExtent<T>>& st) {
    return extent_at(cell_of(st), T(st.fraction));
}

// The extents of a stencil's sections (`storage` holds them), for the checks made while building.
template <class T>
BS_HD inline Stencil<SectionExtent<T>> extent_stencil(const Stencil<PosedSection<T>>& st, SectionExtent<T> (&storage)[4]) {
    for (int i = 0; i < 4; ++i) storage[i] = section_extent(*st.s[i]);
    return {{&storage[0], &storage[1], &storage[2], &storage[3]}, {st.w[0], st.w[1], st.w[2], st.w[3]}, st.spacing, st.fraction, st.cubic};
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

// A cell's fan as cubics (FanField's parameters). The plain end directions come last: a point reads them
// only where the bundle's segment collapses (combined_fan_direction).
template <class T>
struct FanCell {
    Vec3Cubic<T> at_start, at_end;
    CellCubic<T> length;
    bool outward;
    Vec3Cubic<T> start_direction, end_direction;
};

template <class T> BS_HD inline FanCell<T> cell_of(const Stencil<FanSample<T>>& st) {
    using F = FanSample<T>;
    return {vector_cubic<T>(st, [](const F& f) { return f.field.at_start; }), vector_cubic<T>(st, [](const F& f) { return f.field.at_end; }),
            value_cubic<T>(st, [](const F& f) { return f.field.length; }), st.s[0]->field.outward,
            vector_cubic<T>(st, [](const F& f) { return f.field.start_direction; }),
            vector_cubic<T>(st, [](const F& f) { return f.field.end_direction; })};
}
// The combined fan at fraction w of the cell.
template <class T> BS_HD inline FanField<T> fan_at(const FanCell<T>& c, T w) {
    return {c.at_start.at(w), c.at_end.at(w), c.start_direction.at(w), c.end_direction.at(w), c.length.at(w), c.outward};
}
template <class T> BS_HD inline FanField<T> combine_fans(const Stencil<FanSample<T>>& st) { return fan_at(cell_of(st), T(st.fraction)); }

// The direction fan_at(c, w).direction_at(u, its fan_form_weight) gives (bit for bit on the host; nvcc
// may contract either to FMA), without evaluating the plain end directions where they weigh nothing:
// where the bundle's segment has not collapsed (fan_form_weight 1, most points) and the fan's own mix does
// not vanish.
template <class T>
BS_HD inline Vec3<T> combined_fan_direction(const FanCell<T>& c, T w, const FanReading<T>& reading, const Cone<T>& cone) {
    FanField<T> fan{c.at_start.at(w), c.at_end.at(w), {}, {}, c.length.at(w), c.outward};
    const T fan_weight = fan_form_weight(fan, reading, cone);
    if (fan_weight == T(1)) {
        const Vec3<T> mix = (T(1) - reading.u) * fan.at_start + reading.u * fan.at_end;
        if (norm2(mix) > T(0)) return normalized(mix);
    }
    fan.start_direction = c.start_direction.at(w);
    fan.end_direction = c.end_direction.at(w);
    return fan.direction_at(reading.u, fan_weight);
}

// The cell of one bone's table that an angle (bracketed by j) falls in, as cubics, and the fraction to
// evaluate them at: a coarse cell's from `coarse_cells` (built with the tables: bone_count × samples), a
// refined cell's sub-cell's built here from its two samples in `fine` (fine_stencil). Null where the
// sub-cell is computed directly.
template <class Cell, class Sample>
BS_HD inline const Cell* table_cell(const Bracket& j, int k, int samples, const int* cells, const Cell* coarse_cells, const Sample* fine,
                                    const unsigned char* direct, Cell& storage, double& fraction) {
    const std::size_t c = std::size_t(k) * samples + j.a;
    const int r = cells[c];
    fraction = j.weight;
    if (is_coarse(r)) return &coarse_cells[c];
    Stencil<Sample> st;
    if (!fine_stencil(j, r, samples, fine, direct, st)) return nullptr;
    storage = cell_of(st);
    fraction = st.fraction;
    return &storage;
}

// Detail direction, in the meridian frame of generator angle ψ (bracketed on the fan grid by `psi`), read
// as `reading` says, from the fan table; false where the table may not be interpolated there (the caller
// computes the bundle directly).
template <class T>
BS_HD inline bool tabulated_fan_direction(const BaselineTables<T>& tables, int k, const Bracket& psi, FanReading<T> reading,
                                          Vec3<T>& direction) {
    FanCell<T> storage;
    double w;
    const FanCell<T>* cell =
        table_cell(psi, k, tables.fan_samples, tables.fan_cells, tables.cell_fans, tables.fine_fans, tables.fan_direct, storage, w);
    if (!cell) return false;
    direction = combined_fan_direction(*cell, T(w), reading, tables.locals[k].bones[1].cone);
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
    const GridAngle g = angle_on_grid(psi, on_fans, tables.fan_samples, tables.fan_angles);
    const MeridianFrame<T> frame = axes.meridian(T(g.cos), T(g.sin));
    const Vec3<T> local = generator_point_in_meridian(bone.cone, sigma);
    Vec3<T> local_direction;
    if (!tabulated_fan_direction(tables, k, on_fans, fan_reading(extent, bone.cone, sigma - extent.parent.sigma), local_direction))
        return false;
    out = {frame.point(local), frame.vector(local_direction)};
    return true;
}

// A point whose ratio falls on an end piece (`piece`) of the combined sections at φ (bracketed by `phi`),
// whose combined extent is `extent`. False where its direction needs the direct bundle.
template <class T>
BS_NOINLINE BS_HD bool place_on_tabulated_end(const BaselineCode& code, const BaselineTables<T>& tables, const BaselineBone<T>& bone,
                                              const Bracket& phi, const SectionExtent<T>& extent, SectionPiece piece, PosedBase<T>& out) {
    GeneratorLine<T> rest = generator_line(bone.cone, generator_radial(bone, T(code.phi)));
    Stencil<PosedSection<T>> sections;
    // The extent's cell was found, so the sections' stencil is there too (same cells, same sub-cell).
    stencil_at(phi, int(code.bone), tables.phi_samples, tables.sections, tables.cells, tables.fine, tables.direct, sections);
    PosedSection<T> mixed = combine_sections(sections, extent, rest.U, rest.along, piece == SectionPiece::ParentEnd,
                                             piece == SectionPiece::ChildEnd);
    return place_on_tabulated_section(tables, int(code.bone), mixed, T(code.t), out);
}

// posed_base in posed coordinates, out of line: the tables' fallback.
template <class T>
BS_NOINLINE BS_HD PosedBase<T> direct_posed_base(const BaselineCode& code, const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    return posed_coordinates(poses[code.bone], posed_base(code, bones, poses));
}

// The posed base-point of a (non-cap) code in posed coordinates, from the tables, or from the direct
// construction where the tables may not be interpolated (see the top of this file). A point whose t falls
// on the deformed segment needs the combined extent alone, and is placed in posed coordinates at once; one
// on an end piece combines that end's geometry from the sections, in bone k's frame.
template <class T>
BS_HD inline PosedBase<T> tabulated_posed_base(const BaselineCode& code, const BaselineTables<T>& tables,
                                               const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    const int k = code.bone;
    const Bracket phi = bracket(double(code.phi), tables.phi_samples);
    ExtentCell<T> storage;
    double w;
    if (const ExtentCell<T>* cell =
            table_cell(phi, k, tables.phi_samples, tables.cells, tables.cell_extents, tables.fine_extents, tables.direct, storage, w)) {
        const SectionExtent<T> extent = extent_at(*cell, T(w));
        const T ell = T(code.t) * extent.length();
        const SectionPiece piece = extent.piece_at(ell);
        PosedBase<T> p;
        if (piece == SectionPiece::Segment) {
            if (place_on_tabulated_segment(tables, k, extent, T(code.phi), extent.segment_sigma(ell), poses[k].axes, p)) return p;
        } else if (place_on_tabulated_end(code, tables, bones[k], phi, extent, piece, p)) {
            return posed_coordinates(poses[k], p);
        }
    }
    return direct_posed_base(code, bones, poses);
}

// How far the interpolation `st` at a point of its cell misses the sample there (`check`: one of a coarse
// cell's check samples, or a sub-cell's middle), in units of the bone's smaller radius: the largest miss
// of the posed points at kCellCheckRatios ratios t; infinite where the interpolation may not be used at
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
    T worst = T(0);
    for (int i = 0; i < kCellCheckRatios; ++i) {
        T t = T(i) / T(kCellCheckRatios - 1);
        Vec3<T> want = point_on_posed_section(check, cone, t * check.length()).base;
        Vec3<T> got = point_on_posed_section(mixed, cone, t * mixed.length()).base;
        T miss = norm(got - want);
        worst = miss <= worst ? worst : miss;  // a NaN miss is kept: it fails every tolerance
    }
    return worst / smaller_radius(cone);
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
// the weight's slope is at most 6 / (kCollapsedBundle · smaller radius) whatever the span, and the two
// forms differ by at most 2.
template <class T>
BS_HD inline bool cell_is_smooth(const Stencil<FanSample<T>>& st, const FanSample<T>& check, const BaselineBone<T>& bone,
                                 T tolerance) {
    if (!same_structure(*st.s[0], check) || !same_structure(check, *st.s[1])) return false;
    const FanField<T> mixed = combine_fans(st), &want = check.field;
    const T length_tolerance = tolerance * T(kCollapsedBundle / 12) * smaller_radius(bone.cone);
    if (std::fabs(mixed.length - want.length) > length_tolerance) return false;
    for (int i = 0; i <= 2; ++i)
        for (int plain = 0; plain <= 1; ++plain) {
            const T u = T(i) / T(2), fan_weight = T(1 - plain);
            if (norm(mixed.direction_at(u, fan_weight) - want.direction_at(u, fan_weight)) > tolerance) return false;
        }
    return true;
}

// deform_baseline_point with the tables (tables.phi_samples > 0) or directly.
template <class T>
BS_HD inline Vec3<T> deform_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                           const BaselineBonePose<T>* poses, int bone_count, const BaselineTables<T>& tables) {
    if (tables.phi_samples == 0 || (code.flags & (kCodeParentCap | kCodeChildCap)))
        return deform_baseline_point(code, rest, bones, poses, bone_count);
    return deform_from_base(code, rest, bones, poses, bone_count, tabulated_posed_base(code, tables, bones, poses));
}

}  // namespace bs
