// Baseline skinning of one point from its code (seed 000, last third; DESIGN §2 "Deformation"):
// bends at both ends of its bone, its twist, and every rigid motion above it.
//
// The point's rest baseline is fixed by its generator φ; the bend construction (bend.hpp) gives target
// angles at both ends, the posed section (posed_section.hpp) is the deformed segment completed by posed
// arcs or crease pieces up to the moved anchors, and the base-point keeps its curvilinear ratio t on it.
// The detail direction at the posed base-point is rebuilt from the posed bundle (the sphere-mesh as
// posed, seen from bone k's frame); p' = F⁰_k(b' + h n'), deep codes blended toward their axis foot
// (detail_point). Codes with rigid_blend > 0 blend toward the rigid field of rigid_motion().
#pragma once

#include "engine/baseline/code.hpp"
#include "engine/baseline/posed_section.hpp"
#include "engine/quat_mean.hpp"

namespace bs {

// The pieces of a posed section, in travel order: the parent end's arc or crease, the deformed segment,
// the child end's arc or crease.
enum class SectionPiece : unsigned char { ParentEnd, Segment, ChildEnd };

// The piece that arc length ell (from the parent end) falls on; past the end of a free child end, the
// segment (its last point). A parent end of no length holds nothing: before it (an ell below 0, which a
// combination of table samples with negative cubic weights gives where the whole section is a rounding
// long) is the segment's first point. Taken as the parent end, it was placed at ell / 0 of a free end's or
// a crease's piece: NaN, on equal cylinders 1 apart bent by 100° (2026-12-06).
template <class T>
BS_HD inline SectionPiece section_piece_at(T ell, T parent_length, T segment_length, EndKind child_kind) {
    if (ell < parent_length && parent_length > T(0)) return SectionPiece::ParentEnd;
    if (ell - parent_length - segment_length <= T(0) || child_kind == EndKind::Free) return SectionPiece::Segment;
    return SectionPiece::ChildEnd;
}

template <class T>
struct PosedSection {
    DeformedSegment<T> segment;
    PosedEnd<T> parent, child;

    BS_HD T segment_length() const { return child.sigma - parent.sigma; }
    BS_HD T length() const { return parent.length() + segment_length() + child.length(); }
    BS_HD const PosedEnd<T>& end(bool at_parent) const { return at_parent ? parent : child; }
    BS_HD SectionPiece piece_at(T ell) const { return section_piece_at(ell, parent.length(), segment_length(), child.kind); }
};

template <class T>
BS_HD inline PosedSection<T> make_posed_section(const LocalChain<T>& local, const BaselineBone<T>* bones,
                                                const BaselineBonePose<T>* poses, int k, const Section<T>& rest) {
    const Cone<T>& cone = local.bones[1].cone;
    DeformedSegment<T> segment{cone.parent.centre, cone.axis, rest.U, rest.along, segment_turn(bones, poses, k, rest)};
    PosedSection<T> s{segment, posed_parent_end(local, segment), posed_child_end(local, segment)};
    s.parent.rest_crease = rest.parent.kind == EndKind::Concave ? rest.parent.crease_length : T(0);
    s.child.rest_crease = rest.child.kind == EndKind::Concave ? rest.child.crease_length : T(0);
    if (s.child.sigma < s.parent.sigma) {  // the two crops overlap: collapse the segment between them
        s.parent.sigma = s.child.sigma = (s.parent.sigma + s.child.sigma) / T(2);
        s.parent.flags |= kSectionCollapsed;
        // Re-pin the creases to the moved crop points.
        Vec3<T> crop = segment.at(s.parent.sigma);
        const T omega = generator_length(cone);
        const SegmentTurn<T>& turn = segment.turn;
        if (s.parent.kind == EndKind::Concave)
            s.parent.crease = make_crease(cone, s.parent.crease.at(T(0)), crop, turn.at(s.parent.sigma) - turn.at(T(0)));
        if (s.child.kind == EndKind::Concave)
            s.child.crease = make_crease(cone, crop, s.child.crease.at(T(1)), turn.at(omega) - turn.at(s.child.sigma));
    }
    return s;
}

// The posed base-point of a (non-cap) code in its bone's frame F⁰_k, and its detail direction.
template <class T>
struct PosedBase {
    Vec3<T> base;
    Vec3<T> direction;
};

// Where ℓ falls on a posed section, and what its detail direction is made of. On arcs it is the joint
// sphere's normal. On the deformed segment it is the fan of the posed bundle through the point's own
// generator (`radial`), which the caller evaluates directly (bundle_segment_ends) or from a table
// (engine/baseline/table.hpp) at the point's fraction along the deformed segment: the bundle's
// segment and the deformed one lie on the same generator but their ends need not agree (the bundle's
// collapses to a point where a fold swallows the generator, while the deformed segment keeps its
// length), so each end of the deformed segment takes the direction of the bundle's same end, the one
// its crease or arc continues (docs/ALGORITHM.md step 5). Where the deformed segment is shorter than
// kFanSpan of the bone's smaller radius and a concave end's crease lies beside it, the fan is read over
// the segment and the part of each such crease next to it (fan_reading), so that the turn from n0 to n1,
// up to 100° where a fold collapses the bundle, is not packed into a segment a few thousandths long; and
// where the bundle's segment collapses the fan passes to the plain interpolation of its end directions
// (fan_form_weight), which does not turn with the collapsed segment's plane. On a crease piece it is the
// paper's direction where two segments meet, (b − C)/|b − C| with C the joint centre (every crease
// direction passes through C, so points deep inside stay together however far a twist sweeps the piece round the cone), blended toward the
// segment's fan direction at the crop point over kCreaseBlend joint radii of the piece next to the crop
// (all of a shorter piece): the crop need not lie on the separator plane, where the two agree. The blend
// is taken on the components along the axis, the radial and the tangent of each direction's own meridian,
// put back on the meridian through the point.
constexpr double kCreaseBlend = 0.5;
constexpr double kFanSpan = 0.25;

// Where a point reads the fan: the fraction u along it, and the length `span` of the posed section over
// which u runs from 0 to 1.
template <class T>
struct FanReading {
    T u, span;
};

// The fan's reading for a point `along` past the deformed segment's start (negative on the parent crease,
// beyond `segment` on the child crease), u clamped to [0, 1]. Each concave end lends the fan up to half of
// what the segment lacks of `min_span`, from its crease (`parent_crease`, `child_crease`: what the creases
// may lend, lendable_crease; 0 at a convex or free end). All lengths are continuous in φ and the pose, and
// so is the reading; at rest nothing is lent and u is along / segment, as the encoder reads it.
template <class T>
BS_HD inline FanReading<T> fan_reading(T along, T segment, T parent_crease, T child_crease, T min_span) {
    const T lacking = min_span > segment ? T(0.5) * (min_span - segment) : T(0);
    const T before = parent_crease < lacking ? parent_crease : lacking, after = child_crease < lacking ? child_crease : lacking;
    const T span = before + segment + after;
    return {span > T(0) ? clamp_value((along + before) / span, T(0), T(1)) : T(0), span};
}

template <class T> BS_HD inline T crease_length_of(EndKind kind, T length) { return kind == EndKind::Concave ? length : T(0); }

// What an end's crease may lend the fan: what it has grown beyond its length at rest (rest_crease). A crease
// with a length at rest (its anchor clamped off the generator, kBeltCrossingOffSegments, or a segment
// collapsed at rest) beside a segment shorter than kFanSpan radii lent the fan part of itself at rest too,
// so the rest pose read the fan at another place than the encoder, which reads it over the segment alone:
// points near one such joint of a random chain (a short bone kinked 82°, radius 6.76) came back up to 2.16
// off at rest. Continuous in the lengths.
template <class T, class End> BS_HD inline T lendable_crease(const End& end) {
    const T grown = end.length() - end.rest_crease;
    return crease_length_of(end.kind, grown > T(0) ? grown : T(0));
}

// The same on a posed section or on its tabulated extent (both have the segment's length and each end's
// kind, length and rest crease).
template <class T, class Section> BS_HD inline FanReading<T> fan_reading(const Section& s, const Cone<T>& cone, T along) {
    return fan_reading(along, s.segment_length(), lendable_crease<T>(s.parent), lendable_crease<T>(s.child),
                       T(kFanSpan) * smaller_radius(cone));
}

// The weight of the fan's own form against the plain interpolation of its end directions (FanField):
// 1 while the posed bundle's segment is at least kCollapsedBundle of the scale it is judged by, falling by
// smoothstep to 0 as the bundle's segment collapses; the scale is the larger of the span the point reads
// it over and the bone's smaller radius, or the bundle's own length at rest where that is smaller (below).
// Against the span alone, a fold that
// squeezes the whole posed section squeezed the length the bundle is judged by, and the weight grew steep
// in φ exactly there (a bone folded into a U: 33.8); against the radius alone, a bundle a few hundredths
// long read along a segment of several radii took the form whose plane turns with that short segment
// (21.4). Both are continuous in φ and the pose, and so is their larger (docs/ALGORITHM.md step 5).
// A collapse is also judged against the bundle's own length at rest (`rest_length`, on the same
// generator): a segment already that short at rest has not collapsed, and there the two forms are not one
// (a concave end's direction points from the joint's centre, not along the cone's normal), while the
// encoder places points by the fan's own form (fan_projection). Until 2026-12-05 such points did not come
// back at rest: a chain folded 145–169° at rest, and short segments below a hip sphere nearly inside the
// pelvis's, by up to 3.7% of the body's diagonal. At rest the weight is now 1. What that gives up: on a
// bone whose segment is empty or nearly so at rest, a collapse of the posed bundle is no longer read
// plainly (the scale is that rest length), so there the fan's own form turns with the collapsing segment's
// plane; such sections' codes ride the rigid field (host/baseline_rig.cpp, empty_section_band).
// The scale is at least kRoundingBundle of the bone's smaller radius: a bundle empty at rest and posed has
// a length of 0 or a few roundings (the fan's plane then the rounding's direction), and a twist can carry a
// code whose own section is long onto such a generator; with a scale of 0 the fan's own form was taken,
// and the point jumped by 2.5e-3 of the radius between poses 1e-12 rad apart as the length flickered
// between 0 and 2.2e-16 (a random chain's short bone kinked 82°). Bundles below the floor read plainly.
constexpr double kCollapsedBundle = 0.25;
constexpr double kRoundingBundle = 1e-9;

template <class T>
BS_HD inline T fan_form_weight(const FanField<T>& fan, const FanReading<T>& reading, const Cone<T>& cone, T rest_length) {
    const T radius = smaller_radius(cone), judged = reading.span > radius ? reading.span : radius;
    const T collapsed = T(kCollapsedBundle) * (rest_length < judged ? rest_length : judged), floor = T(kRoundingBundle) * radius;
    const T full = collapsed > floor ? collapsed : floor;
    return full > T(0) ? smoothstep_unit(fan.length / full) : T(1);
}

template <class T>
struct SectionPoint {
    Vec3<T> base;
    Vec3<T> direction;   // the whole direction when fan_weight is 0, else the part blended with the fan's
    T fan_weight;        // weight of the fan's direction
    FanReading<T> fan;   // where the fan is read (fan_reading of the base-point's place; on a crease beyond the
                         // part it lends the fan, the crop's)
    Vec3<T> radial;      // the radial direction of the generator through the base-point, or a crease's crop
    Vec3<T> axis;        // a crease's: the bone's axis and the radial direction of the meridian through base
    Vec3<T> here;

    BS_HD Vec3<T> blended(Vec3<T> fan_direction) const {
        if (fan_weight == T(1)) return fan_direction;
        auto components = [this](Vec3<T> d, Vec3<T> r) { return Vec3<T>{dot(d, axis), dot(d, r), dot(d, cross(axis, r))}; };
        Vec3<T> c = fan_weight * components(fan_direction, radial) + (T(1) - fan_weight) * components(direction, here);
        return normalized(c.x * axis + c.y * here + c.z * cross(axis, here));
    }
};

template <class T> BS_HD inline SectionPoint<T> sphere_point(Vec3<T> centre, Vec3<T> b) {
    return {b, direction_from_centre(centre, b), T(0), {}, {}, {}, {}};
}
template <class T> BS_HD inline SectionPoint<T> segment_point(const Cone<T>& cone, Vec3<T> b, FanReading<T> fan) {
    return {b, {}, T(1), fan, radial_through(cone, b), {}, {}};
}
// At parameter u of a crease whose crop point is at u = crop_end (0 or 1); `joint` is the sphere of the
// joint it meets (its centre is C, its radius sets the blend's span); the fan is read as `fan` says.
template <class T>
BS_HD inline SectionPoint<T> crease_point(const Cone<T>& cone, const Crease<T>& crease, Sphere<T> joint, T u, T crop_end,
                                          FanReading<T> fan) {
    Vec3<T> b = crease.at(u), crop = crease.at(crop_end);
    // The blend spans kCreaseBlend joint radii next to the crop, or the whole piece if it is shorter: the
    // anchor always has the pencil's direction alone, as the neighbour's crease there.
    const T blend = T(kCreaseBlend) * joint.radius;
    T span = blend > T(0) && crease.length > blend ? blend / crease.length : T(1);
    T fan_weight = T(1) - smoothstep_unit(std::fabs(u - crop_end) / span);
    return {b, direction_from_centre(joint.centre, b), fan_weight, fan, radial_through(cone, crop), cone.axis,
            radial_through(cone, b)};
}

template <class T>
BS_HD inline SectionPoint<T> point_on_posed_section(const PosedSection<T>& s, const Cone<T>& cone, T ell) {
    const T parent_part = s.parent.length(), segment = s.segment_length();
    const SectionPiece piece = s.piece_at(ell);
    if (piece == SectionPiece::ParentEnd) {
        if (s.parent.kind == EndKind::Convex)
            return sphere_point(cone.parent.centre, arc_point(s.parent.arc, s.parent.arc_begin + ell / s.parent.arc.radius));
        return crease_point(cone, s.parent.crease, cone.parent, ell / parent_part, T(1), fan_reading(s, cone, ell - parent_part));
    }
    if (piece == SectionPiece::Segment) {
        const T along = clamp_value(ell - parent_part, T(0), segment);
        return segment_point(cone, s.segment.at(s.parent.sigma + along), fan_reading(s, cone, along));
    }
    const T beyond = ell - parent_part - segment;
    const T child_part = s.child.length();
    if (s.child.kind == EndKind::Convex) {
        // An arc of radius 0 (plane tangent to the sphere) has length 0: its start is the point.
        T angle = child_part > T(0) ? s.child.arc_begin + (beyond < child_part ? beyond : child_part) / s.child.arc.radius
                                    : s.child.arc_begin;
        return sphere_point(cone.child.centre, arc_point(s.child.arc, angle));
    }
    return crease_point(cone, s.child.crease, cone.child, child_part > T(0) ? clamp_value(beyond / child_part, T(0), T(1)) : T(1), T(0),
                        fan_reading(s, cone, ell - parent_part));
}

// The ends of the posed bundle's segment through a generator (bone 1 of `local`): the fan between them
// gives the detail direction of every deformed-segment point on that generator.
template <class T>
BS_HD inline void bundle_segment_ends(const LocalChain<T>& local, Vec3<T> radial, SegmentEnd<T>& first, SegmentEnd<T>& second) {
    Section<T> bundle = bone_section(local.bones, 1, radial);
    first = {bundle.at_sigma(bundle.parent.sigma), bundle.parent.direction};
    second = {bundle.at_sigma(bundle.child.sigma), bundle.child.direction};
}

// The bundle's segment length at rest on the generator of `radial` (bone k's rest section), where
// fan_form_weight can need it: where the posed bundle (`posed_length`) is shorter than kCollapsedBundle of
// the longest span it can be read over (a deformed segment is at most the generator, and one shorter than
// kFanSpan radii is read over at most that: so the larger of the generator and the smaller radius). Longer,
// the weight is 1 whatever the rest length, and the posed length, which gives 1 too, stands in for it: the
// rest section costs about what a fan sample does, and building it for every one made a frame's tables
// 25% slower.
template <class T> BS_HD inline T rest_bundle_length(const BaselineBone<T>* bones, int k, Vec3<T> radial, T posed_length) {
    const Cone<T>& cone = bones[k].cone;
    const T omega = generator_length(cone), radius = smaller_radius(cone);
    if (posed_length >= T(kCollapsedBundle) * (omega > radius ? omega : radius)) return posed_length;
    return bone_section(bones, k, radial).segment_length();
}

// `bones`, `k`: the rest bones and the section's bone (for the bundle's rest length).
template <class T>
BS_HD inline PosedBase<T> place_on_posed_section(const PosedSection<T>& s, const LocalChain<T>& local, const BaselineBone<T>* bones, int k,
                                                 T ell) {
    SectionPoint<T> p = point_on_posed_section(s, local.bones[1].cone, ell);
    if (p.fan_weight == T(0)) return {p.base, p.direction};
    SegmentEnd<T> first, second;
    bundle_segment_ends(local, p.radial, first, second);
    const FanField<T> fan = fan_field(first, second);
    const T weight = fan_form_weight(fan, p.fan, local.bones[1].cone, rest_bundle_length(bones, k, p.radial, fan.length));
    return {p.base, p.blended(fan.direction_at(p.fan.u, weight))};
}

template <class T>
BS_HD inline PosedBase<T> posed_base(const BaselineCode& code, const BaselineBone<T>* bones, const BaselineBonePose<T>* poses) {
    const int k = code.bone;
    LocalChain<T> local = posed_neighbourhood(bones, poses, k);
    Section<T> rest = bone_section(bones, k, generator_radial(bones[k], T(code.phi)));
    PosedSection<T> posed = make_posed_section(local, bones, poses, k, rest);
    return place_on_posed_section(posed, local, bones, k, T(code.t) * posed.length());
}

// A cap code's point, given cos and sin of its polar angle t and of its generator φ (`polar`, `around`).
template <class T>
BS_HD inline Vec3<T> deform_cap_point(const BaselineCode& code, const BaselineBone<T>& bone, const BaselineBonePose<T>& pose, CosSin polar,
                                      CosSin around) {
    bool child = (code.flags & kCodeChildCap) != 0;
    Sphere<T> s = child ? bone.cone.child : bone.cone.parent;
    Vec3<T> pole = child ? bone.cone.axis : -bone.cone.axis;
    Vec3<T> u = T(polar.cos) * pole + T(polar.sin) * generator_radial(bone, around);
    Vec3<T> local = s.centre + (s.radius + T(code.h)) * u;
    // The root-end cap rides the frame at the parent end (without the bone's twist), the tip cap the
    // frame at the child end (with it): DESIGN "Anchors at a free extremity". Free ends have no bend.
    return child ? pose.field_twisted.apply(local) : pose.frame.apply(local);
}
template <class T>
BS_HD inline Vec3<T> deform_cap_point(const BaselineCode& code, const BaselineBone<T>& bone, const BaselineBonePose<T>& pose) {
    return deform_cap_point(code, bone, pose, cos_sin(double(code.t)), cos_sin(double(code.phi)));
}

// The fallback's rigid motion (DESIGN "Fallbacks are blended"). Each bone j moves a point rigidly with
// its frame, turned about its axis by the twist profile at the point's axial position:
//     R_j(p) = F⁰_j(turn_j(τ_j c(x_j)) p),   x_j = axial position along bone j, clamped to [0, 1],
// so R_k and R_{k+1} differ at their joint only by the joint's bend, and every bone meeting at a junction
// sphere fixes its centre there (the junction's field, docs/ALGORITHM.md "Junctions"). The field blends the
// R_j of every bone as dual quaternions (DualQuatBlend), with weights that depend on p alone
// (host/weights.hpp's rule: the scaled distance to each axis segment, smoothstep over a band of 0.5,
// widened in proportion beyond one radius; bones farther than the band from the nearest weigh 0, so near
// the body only the nearest bones count), never on the code — the code is what jumps inside a fallback
// band, across the boundary between two bones and across a junction's cells, and far from the body codes
// of bones that are not neighbours meet — so the blended output is continuous everywhere (where the
// bones turn toward half a turn apart, through the fades below). The blend of rigid transforms is rigid,
// so a junction's points keep their distance from its centre under a bend, where a blend of the moved
// points (the field until 2026-12-03) drew them toward it as LBS does (docs/ALGORITHM.md "Junctions").
// At rest every R_j is the identity, and so is the blend. R_j is read from the pose table as a dual
// quaternion linear in the sine and cosine of half the turn (BaselineBonePose::field, TurnedRigid: from
// their series where the half-turn is small, as it nearly always is on the human demo); beyond
// either end of the bone the turn is 0 or the whole twist, whose transforms the table holds as they are
// (on the human demo 45% and 16% of the bones weighing at a junction's points).
template <class T>
BS_HD inline DualQuat<T> rigid_transform_of_bone(const BaselineBone<T>& bone, const BaselineBonePose<T>& pose, Vec3<T> p) {
    const T x = axis_fraction(bone.cone, p);
    if (x == T(0)) return pose.field.fixed;
    if (x == T(1)) return pose.field_twisted;
    return pose.field.at(pose.twist * cubic_profile(x));
}

// Bone j counts in the field while its scaled distance s_j is below nearest + band(nearest); that bound
// only falls as a pass over the bones finds nearer ones, so one pass keeps the few bones that can still
// count (the weights are then computed from the final nearest, in bone order, exactly as a second pass
// over every bone would). Near a body only the bones meeting around the point are within the band; where
// more than kFieldCandidates are at once (far from a body of many bones) the pass over every bone is
// repeated instead.
constexpr int kFieldCandidates = 8;

// The band grows with the distance (a relative band far from the body): the R_j differ by about
// distance × angle there, so the stretch of the blend stays bounded by the angles alone.
template <class T> BS_HD inline T rigid_field_band(T nearest) { return T(0.5) * (nearest > T(1) ? nearest : T(1)); }

// Where the bones that weigh turn far from one another the blend of rigid transforms has no continuous
// answer (two rotations half a turn apart have two midpoints), so the field leaves it for the blend of
// the moved points R_j(p) (LBS-like, always continuous) by two fades, both functions of p:
// - each bone weighs in the rigid part by smoothstep(|q_j · q̄| / kFieldRigidFull) (q̄: the bones' mean
//   rotation, engine/quat_mean.hpp), the rest of its weight on its moved point: a rotation is eased out
//   as it nears half a turn from the mean, where its sign relative to the mean flips;
// - the whole rigid part weighs by smoothstep(gap / (kFieldRigidFull Σw)), the gap between the two largest
//   eigenvalues of the mean's matrix: where the mean itself is ill defined (and jumps) the field is the
//   blend of the moved points. Two bones of equal weight are blended rigidly up to 99° apart, wholly by
//   their moved points at 180°.
// Both fades ramp from 0, not from a threshold: steeper ones stretched pairs across a junction's cells 2.5×
// more under random poses (tests/host/test_baseline_junction.cpp; docs/ALGORITHM.md "Junctions").
// Where every bone's rotation is within 46° of one of them, q_1 (the first in bone order;
// |q_j · q_1| ≥ kFieldAgreement), both fades are surely 1 (the q_j are within 46° of one another as
// quaternions, so |q_j · q̄| ≥ 0.69, and λ₁ ≥ q_1ᵀ A q_1 ≥ 0.92² Σw leaves λ₂ ≤ 0.16 Σw: the gap is at
// least 0.69 Σw), and the field is the plain blend of rigid transforms, without the mean: bit for bit what
// the two fades give there (the same signs, up to one for all), so which bone is q_1 does not matter.
constexpr double kFieldAgreement = 0.92;
constexpr double kFieldRigidFull = 0.65;
static_assert(kFieldRigidFull <= 2 * kFieldAgreement * kFieldAgreement - 1, "the plain blend needs both fades at 1");

// The fades: 0 at 0, 1 from kFieldRigidFull on.
template <class T> BS_HD inline T rigid_fade(T x) { return smoothstep_unit(x / T(kFieldRigidFull)); }

// A weighing bone as the eased blend reads it: its weight, its transform as a dual quaternion (the rotation
// is its real part) and the point it moves `rest` to.
template <class T>
struct FieldBone {
    T weight;
    DualQuat<T> transform;
    Vec3<T> moved;
};

// The bones' mean rotation and its gap (engine/quat_mean.hpp) for 2 or 3 bones, solved in the span of
// their rotations: about 11× and 2.5× faster than the 4×4 solve (87 and 430 ns against ~1 µs), and the
// same to rounding (tests/engine/test_quat_mean.cpp).
template <int N, class T> BS_HD inline QuatMean<T> mean_in_span(const FieldBone<T>* bones) {
    T w[N];
    Quat<T> q[N];
    for (int i = 0; i < N; ++i) w[i] = bones[i].weight, q[i] = bones[i].transform.real;
    return principal_quaternion_in_span(w, q);
}

// The field where the weighing bones do not all agree (the fades above), out of line: a minority of a
// junction's points, and a 4×4 eigen-solve that would crowd the common path's registers on the GPU. Each
// bone's transform is built once here and kept, for up to kFieldCandidates bones; where more weigh at
// once (far from a body of many bones) every one is built again for the fades.
template <class T, class EachBone>
BS_NOINLINE BS_HD Vec3<T> eased_rigid_field(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, Vec3<T> rest,
                                            EachBone each_bone) {
    auto field_bone = [&](int j, T w) {
        const DualQuat<T> g = rigid_transform_of_bone(bones[j], poses[j], rest);
        return FieldBone<T>{w, g, g.apply(rest)};
    };
    FieldBone<T> kept[kFieldCandidates];
    int count = 0;
    QuatOuterSum<T> outer;
    Vec3<T> moved{T(0), T(0), T(0)};
    T total = T(0);
    each_bone([&](int j, T w) {
        const FieldBone<T> b = field_bone(j, w);
        if (count < kFieldCandidates) kept[count] = b;
        ++count;
        outer.add(w, b.transform.real);
        moved += w * b.moved;
        total += w;
    });
    const QuatMean<T> mean = count == 2 ? mean_in_span<2>(kept) : count == 3 ? mean_in_span<3>(kept) : principal_quaternion(outer);
    const T rigid_share = rigid_fade(mean.gap / total);
    if (rigid_share == T(0)) return moved / total;
    DualQuatBlend<T> eased{mean.mean};
    Vec3<T> eased_out{T(0), T(0), T(0)};
    T eased_in = T(0);
    auto ease = [&](const FieldBone<T>& b) {
        const T a = rigid_fade(std::fabs(dot(b.transform.real, mean.mean)));
        if (a > T(0)) eased.add(b.weight * a, b.transform);
        eased_in += b.weight * a;
        if (a < T(1)) eased_out += (b.weight * (T(1) - a)) * b.moved;
    };
    if (count <= kFieldCandidates) {
        for (int i = 0; i < count; ++i) ease(kept[i]);
    } else {
        each_bone([&](int j, T w) { ease(field_bone(j, w)); });
    }
    const Vec3<T> part = eased_in > T(0) ? (eased_in / total) * eased.apply(rest) + eased_out / total : eased_out / total;
    return rigid_share * part + (T(1) - rigid_share) * (moved / total);
}

// The field at `rest` from its weighing bones: `each_bone(fn)` calls fn(j, w_j) for every bone j with a
// positive weight, in bone order (at least one).
template <class T, class EachBone>
BS_HD inline Vec3<T> blend_rigid_field(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, Vec3<T> rest, EachBone each_bone) {
    DualQuatBlend<T> rigid{};
    bool first = true;
    T agreement = T(1);
    each_bone([&](int j, T w) {
        const DualQuat<T> d = rigid_transform_of_bone(bones[j], poses[j], rest);
        if (first) rigid.pivot = d.real, first = false;
        const T alike = std::fabs(dot(d.real, rigid.pivot));
        agreement = alike < agreement ? alike : agreement;
        rigid.add(w, d);
    });
    if (agreement >= T(kFieldAgreement)) return rigid.apply(rest);
    return eased_rigid_field(bones, poses, rest, each_bone);
}

// A ball holding every point within `scaled` scaled axis distances of the bone: about the middle m of its
// axis segment, radius L/2 + R·scaled (L its length, R its larger radius). The foot of such a point on the
// axis segment is within L/2 of m, and the radius there is at most R.
template <class T> BS_HD inline Sphere<T> scaled_reach_ball(const Cone<T>& cone, T scaled) {
    const T half = T(0.5) * cone.length;
    return {cone.parent.centre + half * cone.axis, half + larger_radius(cone) * scaled};
}

// Whether bone `cone`'s scaled axis distance from p is surely above `bound` (p outside the bound's
// scaled_reach_ball), from a test that needs no root and no division. The margin (relative 1e-6) keeps a
// bone whose distance rounds to the bound itself.
template <class T> BS_HD inline bool surely_beyond(const Cone<T>& cone, Vec3<T> p, T bound) {
    const Sphere<T> ball = scaled_reach_ball(cone, bound);
    const Vec3<T> d = p - ball.centre;
    const T reach = ball.radius * T(1 + 1e-6);
    return dot(d, d) > reach * reach;
}

// Whether bone `other` may weigh in the field at some point within `reach` (scaled axis distance) of bone
// `near`. There the nearest bone is at most `reach` away, so a bone weighs only below
// bound = reach + band(reach) (nearest + band(nearest) grows with nearest); such a point lies in near's
// scaled_reach_ball for `reach`, and a bone whose ball for that bound (surely_beyond's) does not meet it
// cannot weigh at any of them. The margins (relative 1e-6) cover rounding.
template <class T> inline bool may_share_field(const Cone<T>& near, const Cone<T>& other, T reach) {
    const Sphere<T> near_ball = scaled_reach_ball(near, reach);
    const Sphere<T> other_ball = scaled_reach_ball(other, reach + rigid_field_band(reach));
    return norm(other_ball.centre - near_ball.centre) <= (near_ball.radius + other_ball.radius) * T(1 + 1e-6);
}

// A bone that weighs in the rigid field at a point, and its weight. The weights are kept in float, as a
// code's rigid_blend is, whether the pass searches them (rigid_motion) or reads them as the host kept
// them per code (FieldBones, host/baseline_rig.hpp keep_field_bones): both routes give the same bones, in
// the same order, with the same weights, so the same point to the bit on one processor (on a GPU, where
// nvcc may contract the search's arithmetic to FMA, a searched weight may differ from the host's in its
// last bit).
struct FieldWeight {
    std::uint32_t bone;
    float weight;
};

// A code's field bones as kept: `count` entries from `weights`; `weights` null where none were kept and
// the pass searches them. The search depends on the rest point alone and was half of a blended point's
// field on the human demo (benchmarks/RESULTS.md, fortieth session).
struct FieldBones {
    const FieldWeight* weights = nullptr;
    int count = 0;
};

// Where a code's kept field bones are, one 32-bit word a code: the first entry's index in the pool times
// 8, plus the count less one (1 to kFieldCandidates entries); kFieldNotKept where the pass searches. The
// pool holds fewer than kMaxFieldPoolEntries (2²⁹ − 1) entries, so no word is kFieldNotKept by chance.
constexpr std::uint32_t kFieldNotKept = 0xFFFFFFFFu;
constexpr int kFieldCountBits = 3;
static_assert((1 << kFieldCountBits) == kFieldCandidates, "a kept code's count fits its bits");
constexpr std::uint32_t kMaxFieldPoolEntries = kFieldNotKept >> kFieldCountBits;  // first index below this

BS_HD inline std::uint32_t field_ref(std::uint32_t first, int count) {
    return (first << kFieldCountBits) | std::uint32_t(count - 1);
}
BS_HD inline FieldBones kept_field_bones(std::uint32_t ref, const FieldWeight* pool) {
    if (ref == kFieldNotKept) return {};
    return {pool + (ref >> kFieldCountBits), int(ref & ((1u << kFieldCountBits) - 1)) + 1};
}

// A bone's weight at scaled axis distance `distance` when the nearest is `nearest`: smoothstep over the
// band, in float (FieldWeight).
template <class T> BS_HD inline T field_weight(T distance, T nearest) {
    return T(float(smoothstep_unit(T(1) - (distance - nearest) / rigid_field_band(nearest))));
}

// The bones that weigh in the field at `rest` (weight > 0), in bone order: up to kFieldCandidates in
// `found`; where more weigh (far from a body of many bones) `overflow`, and each bone's weight is
// field_weight of its distance and `nearest` again.
template <class T>
struct FieldSearch {
    FieldWeight found[kFieldCandidates];
    int count;
    bool overflow;
    T nearest;
};

// The search over the bones that are no bridge. `near_bone` is any bone (the code's: near the point), whose
// distance starts the bound (a bridge's starts none), so that most far bones are passed over by
// surely_beyond, and whose neighbour list, where the point is within its reach, spares the pass over the
// others; the result does not depend on it: the bones that weigh, their weights and their order are those
// of a bound that starts infinite over every bone, whatever route the pass takes
// (tests/engine/test_baseline_rigid_field.cpp).
template <class T>
BS_HD inline FieldSearch<T> search_field_bones(const BaselineBone<T>* bones, int bone_count, Vec3<T> rest, int near_bone) {
    int candidate[kFieldCandidates];
    T scaled[kFieldCandidates];
    int candidates = 0;
    bool overflow = false;
    const BaselineBone<T>& near = bones[near_bone];
    const T near_distance = near.bridge ? T(INFINITY) : scaled_axis_distance(near.cone, rest);
    const bool listed = near.field_neighbour_count >= 0 && near_distance <= T(kFieldNeighbourReach);
    const int scanned = listed ? near.field_neighbour_count : bone_count;
    T nearest = near_distance;
    for (int i = 0; i < scanned; ++i) {
        const int j = listed ? near.field_neighbours[i] : i;
        if (bones[j].bridge) continue;  // never listed; met only in the pass over every bone
        if (j != near_bone && surely_beyond(bones[j].cone, rest, nearest + rigid_field_band(nearest))) continue;
        T s = j == near_bone ? near_distance : scaled_axis_distance(bones[j].cone, rest);
        if (s < nearest) {
            nearest = s;
            // Drop the candidates the lower bound now excludes (their weight would be 0).
            int kept = 0;
            for (int c = 0; c < candidates; ++c)
                if (scaled[c] - nearest < rigid_field_band(nearest)) candidate[kept] = candidate[c], scaled[kept++] = scaled[c];
            candidates = kept;
        }
        if (s - nearest >= rigid_field_band(nearest)) continue;
        if (candidates == kFieldCandidates) overflow = true;
        else candidate[candidates] = j, scaled[candidates++] = s;
    }
    FieldSearch<T> out{};
    out.overflow = overflow;
    out.nearest = nearest;
    for (int c = 0; c < candidates; ++c)
        if (T w = field_weight(scaled[c], nearest); w > T(0)) out.found[out.count++] = {std::uint32_t(candidate[c]), float(w)};
    return out;
}

// The field from kept bones (FieldBones).
template <class T>
BS_HD inline Vec3<T> rigid_motion(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, Vec3<T> rest, FieldBones kept) {
    return blend_rigid_field(bones, poses, rest, [=](auto&& fn) {
        for (int c = 0; c < kept.count; ++c) fn(int(kept.weights[c].bone), T(kept.weights[c].weight));
    });
}

// The field at `rest`, searched (search_field_bones).
template <class T>
BS_HD inline Vec3<T> rigid_motion(const BaselineBone<T>* bones, const BaselineBonePose<T>* poses, int bone_count, Vec3<T> rest,
                                  int near_bone) {
    const FieldSearch<T> search = search_field_bones(bones, bone_count, rest, near_bone);
    // Captured by value: the blend's slow path takes this out of line, and captured by reference (or handed
    // on as FieldBones, a pointer) the found bones would have to live in memory on the common path too (on
    // the GPU, local memory).
    return blend_rigid_field(bones, poses, rest, [=](auto&& fn) {
        if (search.overflow) {
            for (int j = 0; j < bone_count; ++j)
                if (!bones[j].bridge)
                    if (T w = field_weight(scaled_axis_distance(bones[j].cone, rest), search.nearest); w > T(0)) fn(j, w);
        } else {
            for (int c = 0; c < search.count; ++c) fn(int(search.found[c].bone), T(search.found[c].weight));
        }
    });
}

// Deep points (docs/ALGORITHM.md "Deep points"). b' + h n' moves a point at depth |h| by |h| times the
// turn of n', over a rest spacing that shrinks toward the axis: near a crease the posed bundle's direction
// turns ~17 rad per radian of φ, which tore deep pairs (stretch 96). The rest point lies the fraction
// λ = −h / H of the way from its base-point b to the foot a where its detail line meets the axis (H = |b − a|);
// the same fraction of the way from the posed base-point to a (fixed in the bone's frame) moves with b'
// alone, at the base-point's own stretch, and is p at rest. The point blends toward it by
// smoothstep over λ ∈ [kDeepStart, kDeepFull]: on a joint arc, where n' points from the joint's centre,
// the two agree.
template <class T> BS_HD inline T deep_weight(T fraction) {
    return smoothstep_unit((fraction - T(kDeepStart)) / T(kDeepFull - kDeepStart));
}

// λ of a rest point at `foot_distance` from its axis foot (negative beyond the foot) and height h: −h / H
// with the depth H = foot_distance − h; 0 where H is not positive. The encoder (mark_deep) flags a code
// by this same λ, so the flag and the pass's blend cannot disagree.
template <class T> BS_HD inline T deep_fraction(T foot_distance, T h) {
    const T depth = foot_distance - h;
    return depth > T(0) ? -h / depth : T(0);
}

// b' + h n', blended toward the axis foot for deep codes; `rest` is the rest point, `cone` its bone's at
// rest. b and `axes` (bone k's, where the foot lies) are in one frame: bone k's (rest_axes), or posed
// (BaselineBonePose::axes); every step is an affine combination, so either frame gives the same point.
template <class T>
BS_HD inline Vec3<T> detail_point(const BaselineCode& code, Vec3<T> rest, const Cone<T>& cone, const BoneAxes<T>& axes,
                                  const PosedBase<T>& b) {
    const Vec3<T> along_direction = b.base + T(code.h) * b.direction;
    if (!(code.flags & kCodeDeep)) return along_direction;
    const T from_foot = norm(rest - (cone.parent.centre + T(code.axis_foot) * cone.axis));
    const T fraction = deep_fraction((code.flags & kCodePastAxisFoot) ? -from_foot : from_foot, T(code.h));
    if (!(fraction > T(0))) return along_direction;  // no positive depth: the encoder marks no such code; a loaded file might
    const Vec3<T> foot = axes.origin + T(code.axis_foot) * axes.axis;
    const Vec3<T> toward_foot = b.base + fraction * (foot - b.base);
    return along_direction + deep_weight(fraction) * (toward_foot - along_direction);
}

// A posed base-point in bone k's frame moved to posed coordinates by F⁰_k.
template <class T> BS_HD inline PosedBase<T> posed_coordinates(const BaselineBonePose<T>& pose, const PosedBase<T>& b) {
    return {pose.frame.apply(b.base), pose.frame.apply_vector(b.direction)};
}

// A code's posed point `posed` blended toward the rigid field by the code's weight (from its kept field
// bones where it has them).
template <class T>
BS_HD inline Vec3<T> with_rigid_blend(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones, const BaselineBonePose<T>* poses,
                                      int bone_count, Vec3<T> posed, FieldBones kept = {}) {
    if (code.rigid_blend == 0.0f) return posed;
    T w = T(code.rigid_blend);
    const Vec3<T> field = kept.weights ? rigid_motion(bones, poses, rest, kept) : rigid_motion(bones, poses, bone_count, rest, int(code.bone));
    return w * field + (T(1) - w) * posed;
}

// p' = detail_point of a base-point `b` in posed coordinates (posed_coordinates), blended toward the rigid
// field by the code's weight.
template <class T>
BS_HD inline Vec3<T> deform_from_base(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                      const BaselineBonePose<T>* poses, int bone_count, PosedBase<T> b, FieldBones kept = {}) {
    return with_rigid_blend(code, rest, bones, poses, bone_count, detail_point(code, rest, bones[code.bone].cone, poses[code.bone].axes, b), kept);
}

template <class T>
BS_HD inline Vec3<T> deform_baseline_point(const BaselineCode& code, Vec3<T> rest, const BaselineBone<T>* bones,
                                           const BaselineBonePose<T>* poses, int bone_count, FieldBones kept = {}) {
    if (code.flags & (kCodeParentCap | kCodeChildCap))
        return with_rigid_blend(code, rest, bones, poses, bone_count, deform_cap_point(code, bones[code.bone], poses[code.bone]), kept);
    return deform_from_base(code, rest, bones, poses, bone_count, posed_coordinates(poses[code.bone], posed_base(code, bones, poses)), kept);
}

}  // namespace bs
