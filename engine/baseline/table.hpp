// Per-frame, per-bone tables of the bend (DESIGN §2 "Per-frame, per-bone tables make it fast").
//
// What a pose does to the baselines of bone k depends on the pose and on the generator angle φ alone: the
// posed section (deformed segment, crop points, arcs or crease pieces, lengths) is tabulated at
// `phi_samples` angles φ_j = 2π j / phi_samples. The detail direction at a deformed-segment point depends
// on the pose and on the point's posed generator ψ alone: the ends of the posed bundle's segment are
// tabulated at `fan_samples` angles ψ_j. A point is placed on the two sections bracketing its φ, at its
// ratio t (exactly, on each), and the two posed points are interpolated linearly in φ.
//
// The construction turns much faster in φ near some generators than elsewhere (near the folds of the
// sheaf, where the two generators of a plane nearly coincide). So each cell [φ_j, φ_j+1] is checked when
// the tables are built: the section at its middle is compared with the interpolation of its ends at
// kCellCheckRatios ratios t; a cell that deviates by more than a tolerance (kDefaultCellTolerance) of the
// bone's smaller
// radius is refined into kRefineFactor sub-cells, which cuts the linear interpolation's error by about
// kRefineFactor² where the construction is smooth. Each sub-cell is checked the same way against its own
// middle, and one that still deviates (a kink or a fold of the construction inside it) is marked: its
// points are computed directly. The fan table is refined and checked the same way.
//
// A cell also fails its check where its two samples differ in structure (an end convex on one and concave
// on the other, or a collapsed segment on one: the convex/concave change has a square-root singularity in
// φ) and where their anchors are further apart than kTableJump · spacing · (the bone's larger radius): the
// direct construction jumps there (a clamped anchor, a collapsed crop). So wherever interpolation would cross
// something that is not smooth in φ, the point ends in a marked sub-cell and is computed directly, and the
// tabulated result equals the direct one there. The fan's cells are checked the same way (kinds, end
// points and directions).
//
// All tables are in bone k's frame F⁰_k, in double (the per-point pass's geometry precision). Sizes: a
// section sample is sizeof(PosedSection<double>) (832 bytes), a fan sample 104 bytes, a local chain 936
// bytes, a cell index 4 bytes; per bone and frame.
#pragma once

#include "engine/baseline/deform.hpp"

namespace bs {

// Default grid: the error it leaves is measured in tests/host/test_baseline_table.cpp and
// benchmarks/RESULTS.md.
constexpr int kDefaultPhiSamples = 512;
constexpr int kDefaultFanSamples = 512;
constexpr int kRefineFactor = 16;
constexpr int kSamplesPerRefinedCell = 2 * kRefineFactor + 1;  // sub-cell ends and middles, interleaved
constexpr double kDefaultCellTolerance = 3e-5;  // of the bone's smaller radius, at the cell's middle
constexpr int kCellCheckRatios = 9;      // t = 0, 1/8, ..., 1
// Two samples whose anchors are further apart than this many times spacing · radius are not interpolated.
constexpr double kTableJump = 12.0;
// A cell not refined.
constexpr int kCoarseCell = -1;

// The smaller radius of a bone: the scale of the tables' tolerances.
template <class T> BS_HD inline T smaller_radius(const Cone<T>& cone) {
    return cone.parent.radius < cone.child.radius ? cone.parent.radius : cone.child.radius;
}
template <class T> BS_HD inline T larger_radius(const Cone<T>& cone) {
    return cone.parent.radius > cone.child.radius ? cone.parent.radius : cone.child.radius;
}

template <class T>
struct FanSample {
    SegmentEnd<T> first, second;
    unsigned kinds;  // the bundle's end kinds, packed: interpolation never crosses a change
};

// A view of one frame's tables (device or host pointers, owned by the caller). phi_samples == 0 means no
// tables: the direct construction.
template <class T>
struct BaselineTables {
    int phi_samples;
    int fan_samples;
    const LocalChain<T>* locals;      // bone_count
    const PosedSection<T>* sections;  // bone_count × phi_samples, bone-major
    const FanSample<T>* fans;         // bone_count × fan_samples, bone-major
    // Refined cells: cells[c] is kCoarseCell or the refined cell's ordinal r; its samples are
    // fine[r × kSamplesPerRefinedCell ...], and direct[r × kRefineFactor + m] is 1 where sub-cell m is
    // computed directly.
    const int* cells;              // bone_count × phi_samples
    const PosedSection<T>* fine;
    const unsigned char* direct;
    const int* fan_cells;          // bone_count × fan_samples, likewise
    const FanSample<T>* fine_fans;
    const unsigned char* fan_direct;
};

constexpr double kTwoPi = 6.283185307179586476925286766559;

// Sample j of bone k's section table.
template <class T>
BS_HD inline PosedSection<T> section_sample(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, const LocalChain<T>& local,
                                            int k, int j, int phi_samples) {
    T phi = T(kTwoPi) * T(j) / T(phi_samples);
    Section<T> rest = bone_section(bones, k, generator_radial(bones[k], phi));
    return make_posed_section(local, bones, poses, k, rest);
}

BS_HD inline unsigned end_kinds(EndKind parent, EndKind child) {
    return unsigned(parent) | unsigned(child) << 2;
}

// Sample j of bone k's fan table (its local chain given).
template <class T>
BS_HD inline FanSample<T> fan_sample(const LocalChain<T>& local, int j, int fan_samples) {
    T psi = T(kTwoPi) * T(j) / T(fan_samples);
    Section<T> bundle = bone_section(local.bones, 1, generator_radial(local.bones[1], psi));
    return {{bundle.at_sigma(bundle.parent.sigma), bundle.parent.direction},
            {bundle.at_sigma(bundle.child.sigma), bundle.child.direction},
            end_kinds(bundle.parent.kind, bundle.child.kind)};
}

// What decides whether two bracketing section samples may be interpolated.
template <class T>
BS_HD inline unsigned section_structure(const PosedSection<T>& s) {
    return end_kinds(s.parent.kind, s.child.kind) | (s.parent.flags & kSectionCollapsed) | ((s.child.flags & kSectionCollapsed) << 1);
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

// Whether two samples may be interpolated with each other.
template <class T> BS_HD inline bool same_structure(const PosedSection<T>& x, const PosedSection<T>& y) {
    return section_structure(x) == section_structure(y);
}
template <class T> BS_HD inline bool same_structure(const FanSample<T>& x, const FanSample<T>& y) { return x.kinds == y.kinds; }

// The samples an interpolation combines, with their weights (summing to 1). s[0] and s[1] are the two
// samples bracketing the angle (s[0] is the reference for structure and wrapped angles); a cubic stencil
// adds the samples before and after them.
template <class Sample>
struct Stencil {
    const Sample* s[4];
    double w[4];
    int n;
    double spacing;  // radians between s[0] and s[1]
};

// A linear stencil between two samples (weight w of b).
template <class Sample>
BS_HD inline Stencil<Sample> linear_stencil(const Sample* a, const Sample* b, double w, double spacing) {
    return {{a, b, a, a}, {1 - w, w, 0, 0}, 2, spacing};
}

// Cubic (Lagrange, uniform grid) where the four samples around a coarse cell share one structure, linear
// otherwise: in a smooth stretch the cubic's error is O(Δφ⁴), so the rest pose and slow turns come out
// exact to far below the tolerance.
template <class Sample>
BS_HD inline Stencil<Sample> coarse_stencil(const Sample* bone_samples, int samples, int j, double w) {
    const Sample* a = &bone_samples[j];
    const Sample* b = &bone_samples[(j + 1) % samples];
    const Sample* before = &bone_samples[(j + samples - 1) % samples];
    const Sample* after = &bone_samples[(j + 2) % samples];
    const double spacing = kTwoPi / samples;
    if (same_structure(*before, *a) && same_structure(*a, *b) && same_structure(*b, *after))
        return {{a, b, before, after},
                {(w + 1) * (w - 1) * (w - 2) / 2, -(w + 1) * w * (w - 2) / 2, -w * (w - 1) * (w - 2) / 6, (w + 1) * w * (w - 1) / 6},
                4,
                spacing};
    return linear_stencil(a, b, w, spacing);
}

// The stencil for an angle in a table of `samples` per bone with refined cells (see BaselineTables):
// linear between the two nearest samples of a refined cell. False where the angle falls in a sub-cell
// marked for the direct construction, or the bracketing samples differ in structure.
template <class Sample>
BS_HD inline bool stencil_at(double angle, int k, int samples, const Sample* coarse, const int* cells, const Sample* fine,
                             const unsigned char* direct, Stencil<Sample>& out) {
    Bracket j = bracket(angle, samples);
    const int r = cells[std::size_t(k) * samples + j.a];
    if (r == kCoarseCell) {
        out = coarse_stencil(coarse + std::size_t(k) * samples, samples, j.a, j.weight);
        return same_structure(*out.s[0], *out.s[1]);
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
// the kinks where a fixed ratio t passes from one piece to the next.
template <class T, class Sample, class Get>
BS_HD inline T combine_values(const Stencil<Sample>& st, Get get) {
    T sum = T(0);
    for (int i = 0; i < st.n; ++i) sum += T(st.w[i]) * get(*st.s[i]);
    return sum;
}
// The difference of two angles brought into [−π, π] (rint, not fmod: this runs per point).
template <class T> BS_HD inline T angle_difference(T a, T b) {
    T d = a - b;
    return d - T(kTwoPi) * std::rint(d / T(kTwoPi));
}
template <class T, class Sample, class Get>
BS_HD inline T combine_angles(const Stencil<Sample>& st, Get get) {
    const T reference = get(*st.s[0]);
    T sum = reference;
    for (int i = 1; i < st.n; ++i) sum += T(st.w[i]) * angle_difference(get(*st.s[i]), reference);
    return sum;
}
template <class T, class Sample, class Get>
BS_HD inline Vec3<T> combine_vectors(const Stencil<Sample>& st, Get get) {
    Vec3<T> sum{T(0), T(0), T(0)};
    for (int i = 0; i < st.n; ++i) sum += T(st.w[i]) * get(*st.s[i]);
    return sum;
}

// What an end's length() reads, and its σ: enough to find where a ratio t falls on the combined section.
template <class T>
BS_HD inline PosedEnd<T> combine_end_extent(const Stencil<PosedSection<T>>& st, bool parent) {
    PosedEnd<T> m = st.s[0]->end(parent);
    m.sigma = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).sigma; });
    if (m.kind == EndKind::Convex) {
        m.arc.radius = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc.radius; });
        m.arc_begin = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc_begin; });
        m.arc_end = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).arc_end; });
    } else if (m.kind == EndKind::Concave) {
        m.crease.length = combine_values<T>(st, [&](const PosedSection<T>& s) { return s.end(parent).crease.length; });
    }
    return m;
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

// The combined section's segment and both ends' extents, on the rest generator (U, along) given exactly:
// it is cheap to have, and the combination would cut its circle's chord.
template <class T>
BS_HD inline PosedSection<T> combine_section_extent(const Stencil<PosedSection<T>>& st, Vec3<T> U, Vec3<T> along) {
    PosedSection<T> m = *st.s[0];
    m.segment.U = U;
    m.segment.along = along;
    m.segment.turn.at_parent = combine_angles<T>(st, [](const PosedSection<T>& s) { return s.segment.turn.at_parent; });
    m.segment.turn.at_child = combine_angles<T>(st, [](const PosedSection<T>& s) { return s.segment.turn.at_child; });
    m.segment.turn.sigma_start = combine_values<T>(st, [](const PosedSection<T>& s) { return s.segment.turn.sigma_start; });
    m.segment.turn.sigma_end = combine_values<T>(st, [](const PosedSection<T>& s) { return s.segment.turn.sigma_end; });
    m.parent = combine_end_extent(st, true);
    m.child = combine_end_extent(st, false);
    return m;
}

// The whole combined section.
template <class T>
BS_HD inline PosedSection<T> combine_sections(const Stencil<PosedSection<T>>& st, Vec3<T> U, Vec3<T> along) {
    PosedSection<T> m = combine_section_extent(st, U, along);
    combine_end_geometry(st, true, m.parent);
    combine_end_geometry(st, false, m.child);
    return m;
}

// The combined section as far as a point at ratio t needs it: the geometry of the end that t falls on
// (PosedSection::piece_at, as point_on_posed_section places it), none for a point on the segment. Equal
// there to combine_sections; the per-point pass skips the other end's vectors and normalisations.
template <class T>
BS_HD inline PosedSection<T> combine_section_at(const Stencil<PosedSection<T>>& st, Vec3<T> U, Vec3<T> along, T t) {
    PosedSection<T> m = combine_section_extent(st, U, along);
    const SectionPiece piece = m.piece_at(t * m.length());
    if (piece == SectionPiece::ParentEnd) combine_end_geometry(st, true, m.parent);
    if (piece == SectionPiece::ChildEnd) combine_end_geometry(st, false, m.child);
    return m;
}

template <class T>
BS_HD inline FanSample<T> combine_fans(const Stencil<FanSample<T>>& st) {
    using F = FanSample<T>;
    return {{combine_vectors<T>(st, [](const F& f) { return f.first.point; }),
             normalized(combine_vectors<T>(st, [](const F& f) { return f.first.direction; }))},
            {combine_vectors<T>(st, [](const F& f) { return f.second.point; }),
             normalized(combine_vectors<T>(st, [](const F& f) { return f.second.direction; }))},
            st.s[0]->kinds};
}

// Detail direction at a deformed-segment point from the fan table; false where the table may not be
// interpolated there (the caller computes the bundle directly).
template <class T>
BS_HD inline bool tabulated_segment_direction(const BaselineTables<T>& tables, int k, const BaselineBone<T>& bone, Vec3<T> base,
                                              Vec3<T> radial, Vec3<T>& direction) {
    Stencil<FanSample<T>> st;
    if (!stencil_at(double(generator_angle(bone, radial)), k, tables.fan_samples, tables.fans, tables.fan_cells, tables.fine_fans,
                    tables.fan_direct, st))
        return false;
    FanSample<T> f = combine_fans(st);
    direction = fan_direction(f.first, f.second, base);
    return true;
}

// A point placed on one tabulated section; false where its direction needs the direct bundle.
template <class T>
BS_HD inline bool place_on_tabulated_section(const BaselineTables<T>& tables, int k, const PosedSection<T>& s, T t,
                                             PosedBase<T>& out) {
    const LocalChain<T>& local = tables.locals[k];
    SectionPoint<T> p = point_on_posed_section(s, local.bones[1].cone, t * s.length());
    out.base = p.base;
    if (p.fan_weight == T(0)) {
        out.direction = p.direction;
        return true;
    }
    Vec3<T> fan_direction;
    if (!tabulated_segment_direction(tables, k, local.bones[1], p.fan_point, p.radial, fan_direction)) return false;
    out.direction = p.blended(fan_direction);
    return true;
}

// The posed base-point of a (non-cap) code from the tables, or from the direct construction where the
// tables may not be interpolated (see the top of this file).
template <class T>
BS_HD inline PosedBase<T> tabulated_posed_base(const BaselineCode& code, const BaselineTables<T>& tables,
                                               const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    const int k = code.bone;
    const Cone<T>& cone = bones[k].cone;
    Stencil<PosedSection<T>> st;
    if (stencil_at(double(code.phi), k, tables.phi_samples, tables.sections, tables.cells, tables.fine, tables.direct, st)) {
        Vec3<T> radial = generator_radial(bones[k], T(code.phi));
        Vec3<T> U = tangency_point(cone, BoneEnd::Parent, radial);
        PosedSection<T> mixed = combine_section_at(st, U, normalized(tangency_point(cone, BoneEnd::Child, radial) - U), T(code.t));
        PosedBase<T> p;
        if (place_on_tabulated_section(tables, k, mixed, T(code.t), p)) return p;
    }
    return posed_base(code, bones, poses);
}

// Whether the interpolation `st` at the middle of its cell reproduces the sample there (`middle`) to
// `relative_tolerance` of the bone's smaller radius: the same structure throughout, the two bracketing
// samples' anchors (the section's far ends) no further apart than kTableJump × spacing × the bone's larger
// radius (further, the construction jumps between them), and the posed points at kCellCheckRatios ratios t.
template <class T>
BS_HD inline bool cell_is_smooth(const Stencil<PosedSection<T>>& st, const PosedSection<T>& middle, const BaselineBone<T>& bone,
                                 T relative_tolerance) {
    const Cone<T>& cone = bone.cone;
    if (!same_structure(*st.s[0], middle) || !same_structure(middle, *st.s[1])) return false;
    const PosedSection<T>&a = *st.s[0], &b = *st.s[1];
    const T jump = T(kTableJump) * T(st.spacing) * larger_radius(cone);
    if (norm(point_on_posed_section(a, cone, T(0)).base - point_on_posed_section(b, cone, T(0)).base) > jump ||
        norm(point_on_posed_section(a, cone, a.length()).base - point_on_posed_section(b, cone, b.length()).base) > jump)
        return false;
    const T tolerance = relative_tolerance * smaller_radius(cone);
    PosedSection<T> mixed = combine_sections(st, middle.segment.U, middle.segment.along);
    for (int i = 0; i < kCellCheckRatios; ++i) {
        T t = T(i) / T(kCellCheckRatios - 1);
        Vec3<T> want = point_on_posed_section(middle, cone, t * middle.length()).base;
        Vec3<T> got = point_on_posed_section(mixed, cone, t * mixed.length()).base;
        if (norm(got - want) > tolerance) return false;
    }
    return true;
}

// The same for a fan cell: end points within the tolerance of the bone's smaller radius, directions within
// it in radians.
template <class T>
BS_HD inline bool cell_is_smooth(const Stencil<FanSample<T>>& st, const FanSample<T>& middle, const BaselineBone<T>& bone,
                                 T tolerance) {
    if (!same_structure(*st.s[0], middle) || !same_structure(middle, *st.s[1])) return false;
    const T radius = smaller_radius(bone.cone);
    FanSample<T> mixed = combine_fans(st);
    return norm(mixed.first.point - middle.first.point) <= tolerance * radius &&
           norm(mixed.second.point - middle.second.point) <= tolerance * radius &&
           norm(mixed.first.direction - middle.first.direction) <= tolerance &&
           norm(mixed.second.direction - middle.second.direction) <= tolerance;
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
