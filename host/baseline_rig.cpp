#include "host/baseline_rig.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "engine/baseline/deform.hpp"
#include "engine/baseline/posed_section.hpp"
#include "engine/baseline/section.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"

namespace bs {

namespace {

using Bone = BaselineBone<double>;
constexpr int kStay = -1;

// An encoding on one bone, or the neighbour the point belongs to instead.
struct Attempt {
    BaselineCode code;
    int moves_to;
};

BaselineCode make_code(int bone, std::uint16_t flags, double phi, double t, double h, double rigid_blend) {
    return {std::uint16_t(bone), flags, float(phi), float(t), float(h), float(rigid_blend), 0.0f};
}

// Marks a deep code of rest point p (docs/ALGORITHM.md "Deep points"): its rest detail line from
// base-point b along −n meets the axis at the foot a = b − H n, and p is more than kDeepStart of the way
// there (λ = −h / H). λ is the pass's own (deep_fraction), from p, h and the foot as stored (H = ±|p − a| − h,
// negative beyond the foot), so that a code whose p is off its detail line (a clamped base-point) gets the
// flag where the pass's λ passes kDeepStart. A line that does not reach the axis going inward
// (n · radial ≤ 0) has no foot; as n · radial falls to 0 the foot runs off along the axis and λ falls to 0,
// so the flag does not switch on abruptly there.
void mark_deep(const Cone<double>& cone, Vec3<double> p, Vec3<double> b, Vec3<double> n, BaselineCode& code) {
    const Vec3<double> radial = radial_through(cone, b);
    const double rho = dot(b - cone.parent.centre, radial), inward = dot(n, radial);
    if (!(inward > 0) || !(rho > 0)) return;
    const float foot = float(dot(b - (rho / inward) * n - cone.parent.centre, cone.axis));
    const Vec3<double> from_foot = p - (cone.parent.centre + double(foot) * cone.axis);
    const bool past = dot(from_foot, n) < 0;
    if (!(deep_fraction(past ? -norm(from_foot) : norm(from_foot), double(code.h)) > kDeepStart)) return;
    code.flags |= past ? kCodeDeep | kCodePastAxisFoot : kCodeDeep;
    code.axis_foot = foot;
}

std::uint16_t clamp_flag(unsigned section_flags) { return section_flags ? std::uint16_t(kCodeClamped) : std::uint16_t(0); }

// Blend toward the rigid motion of a point `height` over a surface of local radius `radius`.
double far_from_surface_blend(double height, double radius, const EncodeOptions& options) {
    return smoothstep_unit((std::fabs(height) / radius - options.far_band_start) / options.far_band_width);
}

// Radial encoding over a free extremity's cap (DESIGN "Anchors at a free extremity"). Far over the cap it
// blends toward the rigid field as a segment's codes do, with the cap sphere's radius, which is the
// segment's local radius where the two meet: else far from the surface a segment code riding the rigid
// field (which weighs the other bones there) and a cap code riding its bone alone tear apart.
BaselineCode cap_code(const Bone& bone, int k, BoneEnd end, Vec3<double> p, const EncodeOptions& options) {
    Sphere<double> s = end_sphere(bone.cone, end);
    Vec3<double> pole = end == BoneEnd::Child ? bone.cone.axis : -bone.cone.axis;
    Vec3<double> v = p - s.centre;
    double distance = norm(v);
    Vec3<double> u = distance > 0 ? v / distance : pole;
    Vec3<double> off_axis = u - dot(u, bone.cone.axis) * bone.cone.axis;
    double polar = std::atan2(norm(off_axis), dot(u, pole));
    double azimuth = norm(off_axis) > 0 ? generator_angle(bone, normalized(off_axis)) : 0.0;
    const double far_blend = far_from_surface_blend(distance - s.radius, s.radius, options);
    std::uint16_t flags = end == BoneEnd::Child ? kCodeChildCap : kCodeParentCap;
    if (far_blend > 0) flags |= kCodeFarFromSurface;
    return make_code(k, flags, azimuth, polar, distance - s.radius, far_blend);
}

// Angle of q (a point of the arc's circle) along the arc from its start.
double angle_on_arc(const Arc<double>& arc, Vec3<double> q) {
    Vec3<double> d = q - arc.centre;
    return std::atan2(dot(d, arc.tangent), dot(d, arc.start_dir));
}

// A point whose base-point lies on the segment of the generator through its meridian (or through the
// given radial): the fan of the section's end directions gives base-point, direction and height.
// `may_move` false pins the base-point to the section's ends instead of handing p to a neighbour.
Attempt segment_code(const std::vector<Bone>& bones, int k, Vec3<double> p, Vec3<double> radial, bool may_move,
                     const EncodeOptions& options) {
    const Bone& bone = bones[k];
    Section<double> s = bone_section(bones.data(), k, radial);
    SegmentEnd<double> first{s.at_sigma(s.parent.sigma), s.parent.direction};
    SegmentEnd<double> second{s.at_sigma(s.child.sigma), s.child.direction};
    FanProjection<double> fan = fan_projection(first, second, p);
    double x = fan.segment_parameter;
    const double slack = 1e-9;
    // Past a concave end's crossing the point is the neighbour's — unless that end's construction was
    // clamped (its belt flagged) and the neighbour's surface lies more than a radius farther from p than
    // this bone's. There the crossing says little: a cylinder starting inside a nearly degenerate cone (a
    // sphere all but swallowed by its parent's) has its crease on the cone's tiny generators, half a radius
    // off its surface, its fan nearly along the segment, and handed points on its own surface, three radii
    // from the joint, to the parent's far cap (h = 1.1), where its twists left them.
    auto hands_over = [&](int neighbour, unsigned end_flags) {
        if (end_flags == 0) return true;
        const double own = closest_point_on_bone(bone.cone, p).signed_distance;
        return closest_point_on_bone(bones[neighbour].cone, p).signed_distance - own <= smaller_radius(bone.cone);
    };
    if (may_move && x > 1 + slack && s.child.kind == EndKind::Concave && hands_over(bone.next, s.child.flags)) return {{}, bone.next};
    if (may_move && x < -slack && s.parent.kind == EndKind::Concave && hands_over(bone.previous, s.parent.flags))
        return {{}, bone.previous};
    const double on_segment = std::clamp(x, 0.0, 1.0);  // the base-point's fraction, clamped to the segment
    double along = on_segment * s.segment_length();
    double t = s.length() > 0 ? (s.parent_length() + along) / s.length() : 0.0;

    // Fallback bands (near the axis, where the generator is undefined: near_axis_weight, in encode_with);
    // near (or past) I the fan folds.
    std::uint16_t flags = clamp_flag(s.parent.flags | s.child.flags);
    // The fan map p -> b stretches by |b - I| / |p - I| across the fan: blend where p nears I, on either
    // side of the surface (I lies inside where the end directions diverge, outside where they converge).
    double fan_blend = 1;
    if (fan.valid) {
        double reach = fan.centre.w != 0 ? norm(fan.base_point - fan.centre.xyz / fan.centre.w) : INFINITY;
        double to_centre = fan.centre.w != 0 ? norm(p - fan.centre.xyz / fan.centre.w) : INFINITY;
        fan_blend = std::isfinite(reach) ? 1 - smoothstep_unit(to_centre / (options.fan_centre_band * reach)) : 0.0;
    }
    if (fan_blend > 0) flags |= kCodeNearFanCentre;
    double height = fan.valid ? fan.height : dot(p - fan.base_point, cone_normal(bone.cone, radial));
    // Far from the surface the fan's tilt, which the paper wants near it, turns a small change of the
    // point into a large one of the posed point (by |h| / |b - I|): such points blend to the rigid motion.
    // The local radius runs between the end spheres' with the base-point along the segment, so that it is
    // the joint's radius where the segment meets an arc (joint_arc_code's) or a neighbour's segment.
    const double local_radius = radius_at_fraction(bone.cone, on_segment);
    double far_blend = far_from_surface_blend(height, local_radius, options);
    if (far_blend > 0) flags |= kCodeFarFromSurface;
    // A section cropped to nothing at rest (both crops at one point and no arc or crease beside it: a steep
    // cone at a sharp rest bend, as a pelvis's toward a hip sphere nearly inside it) puts its points at one
    // base-point whatever their t, and its fan has no plane: they came back up to 0.76 radii away at rest.
    // They ride the rigid field, blended in over sections shorter than empty_section_band local radii
    // (continuous in the section's length), flagged as clamped — or than that fraction of the bone's
    // generator, where the bone is shorter than its radius: a bone 1e-4 radii long has whole sections that
    // short, its points at distinct t, and the field (its bone and the parent blended half and half) took
    // them onto the axis under a twist of 180°.
    const double empty_scale = std::min(local_radius, generator_length(bone.cone));
    const double empty_blend = 1 - smoothstep_unit(s.length() / (options.empty_section_band * empty_scale));
    if (empty_blend > 0) flags |= kCodeClamped;
    BaselineCode code = make_code(k, flags, generator_angle(bone, radial), t, height, std::max({fan_blend, far_blend, empty_blend}));
    const Vec3<double> base = first.point + on_segment * (second.point - first.point);
    mark_deep(bone.cone, p, base, fan_field(first, second).direction_at(on_segment), code);
    return {code, kStay};
}

// A point over a joint sphere (its closest point q on bone k is on that sphere): its base-point is q, on
// the arc of the baseline whose plane of the sheaf passes through q (DESIGN "Points over a joint sphere").
Attempt joint_arc_code(const std::vector<Bone>& bones, int k, BoneEnd end, Vec3<double> p, const SurfacePoint<double>& q,
                       bool may_move, const EncodeOptions& options) {
    const Bone& bone = bones[k];
    bool at_child = end == BoneEnd::Child;
    const Cone<double>& incoming = at_child ? bone.cone : bones[bone.previous].cone;
    const Cone<double>& outgoing = at_child ? bones[bone.next].cone : bone.cone;
    const SheafPlane<double> plane = sheaf_plane(incoming, outgoing, q.point);
    const double side = side_of_axis(bone.cone, plane.normal, q.point);
    auto section_on = [&](double on_side) {
        Belt<double> belt;
        place_generators_on(incoming, outgoing, plane, on_side, belt);
        return bone_section(bones.data(), k, at_child ? belt.radial_incoming : belt.radial_outgoing);
    };
    const double slack = 1e-9;
    Section<double> s = section_on(side);
    if ((at_child ? s.child : s.parent).kind != EndKind::Convex) {
        // The plane's generator on q's side of the axis ends in a crease, where q would be hidden. But at a
        // sharp bend the convex arc of the plane's other generator wraps past the sphere's pole onto this
        // side, and q may lie on it, in the open: a chain bent 141° whose child cone narrows steeply put the
        // joint's outer points on the crease's fan, pinned off their segment, and its rest pose 37 body
        // diagonals off.
        const Section<double> other = section_on(-side);
        const SectionEnd<double>& o = at_child ? other.child : other.parent;
        const double on_other = o.kind == EndKind::Convex ? angle_on_arc(o.arc, q.point) : 0.0;
        // Anywhere on the joint's arc (V to X): the part past the anchor is the neighbour's, as below.
        const bool on_its_arc = o.kind == EndKind::Convex && on_other >= -slack && on_other <= o.arc.sweep + slack;
        if (!on_its_arc) return segment_code(bones, k, p, s.radial, may_move, options);  // q: hidden crease
        s = other;
    }
    const SectionEnd<double>& e = at_child ? s.child : s.parent;
    const Vec3<double> radial = s.radial;

    double angle = angle_on_arc(e.arc, q.point);
    if (may_move && at_child && angle > e.arc_end + slack) return {{}, bone.next};
    if (may_move && !at_child && angle < e.arc_begin - slack) return {{}, bone.previous};
    angle = std::clamp(angle, e.arc_begin, e.arc_end);
    double ell = at_child ? s.parent_length() + s.segment_length() + (angle - e.arc_begin) * e.arc.radius
                          : (angle - e.arc_begin) * e.arc.radius;
    double t = s.length() > 0 ? ell / s.length() : 0.0;
    // Near the joint sphere's centre the plane of the sheaf through q turns fast with p (every direction
    // from the centre is a different baseline): near_axis_weight covers it, the centre being an end of
    // both bones' axes.
    const Sphere<double>& joint = at_child ? bone.cone.child : bone.cone.parent;
    std::uint16_t flags = clamp_flag(s.parent.flags | s.child.flags);
    // Far over the sphere too: where the arc's codes meet codes of other bones far from the body (a
    // junction's field ends at the band's full height), both must ride the rigid field.
    double far_blend = far_from_surface_blend(q.signed_distance, joint.radius, options);
    if (far_blend > 0) flags |= kCodeFarFromSurface;
    BaselineCode code = make_code(k, flags, generator_angle(bone, radial), t, q.signed_distance, far_blend);
    const Vec3<double> base = arc_point(e.arc, angle);
    mark_deep(bone.cone, p, base, direction_from_centre(joint.centre, base), code);
    return {code, kStay};
}

Attempt encode_on_bone(const std::vector<Bone>& bones, int k, Vec3<double> p, bool may_move, const EncodeOptions& options) {
    const Bone& bone = bones[k];
    SurfacePoint<double> q = closest_point_on_bone(bone.cone, p);
    if (q.part == BonePart::ParentCap) {
        if (bone.previous < 0) return {cap_code(bone, k, BoneEnd::Parent, p, options), kStay};
        if (may_move && signed_distance(bone.parent_separator, q.point) < 0) return {{}, bone.previous};
        return joint_arc_code(bones, k, BoneEnd::Parent, p, q, may_move, options);
    }
    if (q.part == BonePart::ChildCap) {
        if (bone.next < 0) return {cap_code(bone, k, BoneEnd::Child, p, options), kStay};
        if (may_move && signed_distance(bone.child_separator, q.point) > 0) return {{}, bone.next};
        return joint_arc_code(bones, k, BoneEnd::Child, p, q, may_move, options);
    }
    Vec3<double> off_axis = (p - bone.cone.parent.centre) - dot(p - bone.cone.parent.centre, bone.cone.axis) * bone.cone.axis;
    Vec3<double> radial = q.on_axis ? bone.reference : normalized(off_axis);
    return segment_code(bones, k, p, radial, may_move, options);
}

// Signed distance of p to every bone's surface (infinite for a bridge, which codes no point), and the
// smallest of them.
double bone_distances(const std::vector<Bone>& bones, Vec3<double> p, std::vector<double>& distance) {
    distance.resize(bones.size());
    double nearest = INFINITY;
    for (std::size_t k = 0; k < bones.size(); ++k) {
        distance[k] = bones[k].bridge ? INFINITY : closest_point_on_bone(bones[k].cone, p).signed_distance;
        nearest = std::min(nearest, distance[k]);
    }
    return nearest;
}

// The bone whose surface is nearest (signed: inside two bones, the one whose surface is farther, as
// the paper asks for points in the intersection of two bones); the first of equals.
int nearest_bone(const std::vector<double>& distance) {
    return int(std::min_element(distance.begin(), distance.end()) - distance.begin());
}

}  // namespace

namespace {

// The bones meeting at each sphere, with the end of each that lies there; bridges are no member of any
// (a bone beside a bridge's end ends freely there).
using SphereMembers = std::vector<std::vector<std::pair<int, BoneEnd>>>;

SphereMembers sphere_members(const Skeleton& skeleton) {
    SphereMembers members(skeleton.spheres.size());
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        if (skeleton.is_bridge(int(k))) continue;
        members[skeleton.bones[k][0]].push_back({int(k), BoneEnd::Parent});
        members[skeleton.bones[k][1]].push_back({int(k), BoneEnd::Child});
    }
    return members;
}

}  // namespace

namespace {

// A junction: 3+ bones on one sphere, or a root carrying 2 (two bones that both start there have no
// chain joint between them).
bool is_junction(const std::vector<std::pair<int, BoneEnd>>& members) {
    return members.size() >= 3 || (members.size() == 2 && members[0].second == members[1].second);
}

// The other bone at a chain joint, or -1 at a free extremity or a junction.
int chain_neighbour(const std::vector<std::pair<int, BoneEnd>>& members, int k) {
    if (members.size() != 2 || is_junction(members)) return -1;
    return members[0].first == k ? members[1].first : members[0].first;
}

// Each bone's rigid-field neighbours (BaselineBone::field_neighbours), from the rest cones alone.
void list_field_neighbours(std::vector<Bone>& bones) {
    for (Bone& bone : bones) {
        int count = 0;
        for (std::size_t j = 0; j < bones.size() && count <= kMaxFieldNeighbours; ++j) {
            if (bones[j].bridge || !may_share_field(bone.cone, bones[j].cone, kFieldNeighbourReach)) continue;
            if (count < kMaxFieldNeighbours) bone.field_neighbours[count] = int(j);
            ++count;
        }
        bone.field_neighbour_count = count <= kMaxFieldNeighbours ? count : -1;
    }
}

}  // namespace

std::vector<Bone> make_baseline_bones(const Skeleton& skeleton) {
    const std::size_t n = skeleton.bone_count();
    const SphereMembers members = sphere_members(skeleton);
    std::vector<Bone> bones(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto& at_parent = members[skeleton.bones[k][0]];
        const auto& at_child = members[skeleton.bones[k][1]];
        Bone& bone = bones[k];
        bone.cone = make_cone(skeleton.spheres[skeleton.bones[k][0]], skeleton.spheres[skeleton.bones[k][1]]);
        bone.reference = any_orthogonal(bone.cone.axis);
        bone.reference_side = cross(bone.cone.axis, bone.reference);
        bone.bridge = skeleton.is_bridge(int(k));
        bone.previous = bone.bridge ? -1 : chain_neighbour(at_parent, int(k));
        bone.next = bone.bridge ? -1 : chain_neighbour(at_child, int(k));
        bone.parent_junction = !bone.bridge && is_junction(at_parent) ? skeleton.bones[k][0] : -1;
        bone.child_junction = !bone.bridge && is_junction(at_child) ? skeleton.bones[k][1] : -1;
    }
    for (std::size_t k = 0; k < n; ++k) {
        Bone& bone = bones[k];
        if (bone.previous >= 0) bone.parent_separator = separator_plane(bones[bone.previous].cone, bone.cone);
        if (bone.next >= 0) bone.child_separator = separator_plane(bone.cone, bones[bone.next].cone);
    }
    list_field_neighbours(bones);
    return bones;
}

namespace {

// Two bones meeting by their free ends, and the width of their band (options.junction_band × the smaller
// end sphere's radius).
struct FreeEndPair {
    int first, second;
    double band;
};

// The bone's axis pointing out of the bone at `end`.
Vec3<double> outward_axis(const Cone<double>& cone, BoneEnd end) { return end == BoneEnd::Child ? cone.axis : -cone.axis; }

bool ends_freely(const Bone& bone, BoneEnd end) {
    return !bone.bridge && (end == BoneEnd::Parent ? bone.previous < 0 && bone.parent_junction < 0 : bone.next < 0 && bone.child_junction < 0);
}

// Pairs of bones whose free ends meet: their end spheres overlap and the ends face each other (their
// outward axes more than 90° apart). Nothing links two such bones, so their codes meet there as two of a
// junction's do, and they tear apart as the bones move apart (FBX/animation_with_skeleton.fbx: two chains
// of one tube that meet end to end at its middle, the second hung from the armature node at the far end
// by a bridge). Ends side by side (a face's eyelids, 0.0035 apart in X/BCN_Epileptic.X) move on their own.
void add_free_ends_meeting(const std::vector<Bone>& bones, const EncodeOptions& options, std::vector<FreeEndPair>& pairs) {
    for (std::size_t i = 0; i < bones.size(); ++i)
        for (BoneEnd end_i : {BoneEnd::Parent, BoneEnd::Child}) {
            if (!ends_freely(bones[i], end_i)) continue;
            const Sphere<double> a = end_sphere(bones[i].cone, end_i);
            for (std::size_t j = i + 1; j < bones.size(); ++j)
                for (BoneEnd end_j : {BoneEnd::Parent, BoneEnd::Child}) {
                    if (!ends_freely(bones[j], end_j)) continue;
                    const Sphere<double> b = end_sphere(bones[j].cone, end_j);
                    const bool facing = dot(outward_axis(bones[i].cone, end_i), outward_axis(bones[j].cone, end_j)) < 0;
                    if (facing && norm(b.centre - a.centre) < a.radius + b.radius)
                        pairs.push_back({int(i), int(j), options.junction_band * std::min(a.radius, b.radius)});
                }
        }
}

// The bones that meet at one junction (every two of them are a pair) and their pairs' band:
// options.junction_band × the junction sphere's radius.
struct JunctionMembers {
    std::vector<int> bones;
    double band;
};

// Every junction's members (a function of the bones alone, listed once for a whole point set).
std::vector<JunctionMembers> junction_members(const std::vector<Bone>& bones, const EncodeOptions& options) {
    std::vector<JunctionMembers> junctions;
    std::vector<int> index_of_sphere;  // junction sphere -> its entry in `junctions`
    for (std::size_t k = 0; k < bones.size(); ++k)
        for (BoneEnd end : {BoneEnd::Parent, BoneEnd::Child}) {
            const int sphere = end == BoneEnd::Parent ? bones[k].parent_junction : bones[k].child_junction;
            if (sphere < 0) continue;
            if (std::size_t(sphere) >= index_of_sphere.size()) index_of_sphere.resize(std::size_t(sphere) + 1, -1);
            int& at = index_of_sphere[std::size_t(sphere)];
            if (at < 0) {
                at = int(junctions.size());
                junctions.push_back({{}, options.junction_band * end_sphere(bones[k].cone, end).radius});
            }
            junctions[std::size_t(at)].bones.push_back(int(k));
        }
    return junctions;
}

// The weight of a pair whose bones lie at signed distances a and b from their surfaces, `nearest` the
// least of every bone's. Codes of two bones of a junction meet exactly where the point is as far from one
// bone's surface as from the other's (the encoder's bone is the one with the smallest signed distance;
// bones of a junction hand nothing over to each other) and both are the nearest bones: there the weight
// is 1, falling to 0 as either difference grows to the band.
double pair_weight(double a, double b, double nearest, double band) {
    const double apart = std::fabs(a - b) / band, above_nearest = (std::min(a, b) - nearest) / band;
    return (1 - smoothstep_unit(apart)) * (1 - smoothstep_unit(above_nearest));
}

// The largest pair weight over every junction's pairs and the free ends' pairs. Among one junction's
// bones, the pair with the least difference for a given nearer bone is that bone and the next in order
// of distance, and the weight falls with the difference: so the largest is over neighbours in that order
// (a sort, not every pair: a root of 1,000 bones had cost each point its 500,000 pairs). Only bones within
// three bands of the nearest are sorted: a pair weighs only where both lie within two (were one beyond,
// either the nearer is a band above the nearest or the two are a band apart: a factor is exactly 0; the
// third band keeps rounding out of it). The same weight as over every pair, to the bit (tested).
double junction_weight_from(const std::vector<JunctionMembers>& junctions, const std::vector<FreeEndPair>& free_ends,
                            const std::vector<double>& distance, double nearest, std::vector<double>& near) {
    double weight = 0;
    for (const JunctionMembers& junction : junctions) {
        near.clear();
        for (int k : junction.bones)
            if (distance[std::size_t(k)] - nearest < 3 * junction.band) near.push_back(distance[std::size_t(k)]);
        std::sort(near.begin(), near.end());
        for (std::size_t i = 0; i + 1 < near.size(); ++i) weight = std::max(weight, pair_weight(near[i], near[i + 1], nearest, junction.band));
    }
    for (const FreeEndPair& pair : free_ends)
        weight = std::max(weight, pair_weight(distance[std::size_t(pair.first)], distance[std::size_t(pair.second)], nearest, pair.band));
    return weight;
}

// The scale of a bone's band where its codes meet an unlinked bone's: the mean of its two radii.
double mean_radius(const Cone<double>& cone) { return 0.5 * (cone.parent.radius + cone.child.radius); }

// Each bone's chain: the first bone reached by following `previous` (a chain runs between junctions and
// free ends; a bridge is a chain of its own).
std::vector<int> chain_starts(const std::vector<Bone>& bones) {
    std::vector<int> start(bones.size());
    for (std::size_t k = 0; k < bones.size(); ++k) {
        int first = int(k);
        while (bones[std::size_t(first)].previous >= 0) first = bones[std::size_t(first)].previous;
        start[k] = first;
    }
    return start;
}

bool share_a_junction(const Bone& a, const Bone& b) {
    auto on = [](const Bone& bone, int junction) { return junction >= 0 && (bone.parent_junction == junction || bone.child_junction == junction); };
    return on(b, a.parent_junction) || on(b, a.child_junction);
}

// Whether every one of `near` bones meets at one junction.
bool all_on_one_junction(const std::vector<Bone>& bones, const std::vector<std::size_t>& near) {
    for (int junction : {bones[near[0]].parent_junction, bones[near[0]].child_junction}) {
        if (junction < 0) continue;
        if (std::all_of(near.begin(), near.end(), [&](std::size_t k) {
                return bones[k].parent_junction == junction || bones[k].child_junction == junction;
            }))
            return true;
    }
    return false;
}

// Whether the codes of bones a and b may meet as two unlinked bones' do: not of one chain (the chain hands
// points over) and not of one junction (junction_weight blends those).
bool unlinked(const std::vector<Bone>& bones, const std::vector<int>& chain, std::size_t a, std::size_t b) {
    return chain[a] != chain[b] && !share_a_junction(bones[a], bones[b]);
}

// The gap between two bones' volumes where they are apart, a value <= 0 where they overlap or touch (how
// deep does not matter, and the search stops there). A bone's volume, the convex hull of its two spheres,
// is exactly the union of the spheres whose centre and radius are interpolated along its axis (a point of
// the hull, λ y1 + (1 − λ) y2 with y1, y2 in the spheres, lies within λ r1 + (1 − λ) r2 of λ C1 + (1 − λ) C2):
// so the gap is the least of b's signed distance at those centres less their radii, a convex function of
// the axis fraction (a convex volume's signed distance at an affine point, less an affine radius), which a
// ternary search finds.
double gap_between(const Cone<double>& a, const Cone<double>& b) {
    auto gap_at = [&](double along) {
        const Vec3<double> centre = a.parent.centre + (along * a.length) * a.axis;
        return closest_point_on_bone(b, centre).signed_distance - ((1 - along) * a.parent.radius + along * a.child.radius);
    };
    double low = 0, high = 1, least = std::min(gap_at(0), gap_at(1));
    for (int step = 0; step < 48 && least > 0; ++step) {  // to (2/3)^48 = 4e-9 of the axis
        const double first = (2 * low + high) / 3, second = (low + 2 * high) / 3;
        const double at_first = gap_at(first), at_second = gap_at(second);
        least = std::min({least, at_first, at_second});
        if (at_first < at_second)
            high = second;
        else
            low = first;
    }
    return least;
}

// What a point's meeting weight needs besides its distances, a function of the bones alone (made once for
// a whole point set): the junctions' members, the free ends' pairs, each bone's chain and mean radius, and
// the unlinked pairs that touch (keyed a × bones + b, a < b; pairs absent touch 0).
struct Meetings {
    std::vector<JunctionMembers> junctions;
    std::vector<FreeEndPair> free_ends;
    std::vector<int> chain;
    std::vector<double> mean_radius;
    std::unordered_map<std::uint64_t, double> touching;
};
std::uint64_t pair_key(std::size_t a, std::size_t b, std::size_t bone_count) { return std::uint64_t(a) * bone_count + b; }

// Each bone's piece of the sphere-mesh: bones joined by chain links and junctions share one (bridges join
// nothing: a rigged model's parts hung from an unweighted node are pieces of their own). The least bone
// index of the piece; a bridge is a piece alone.
std::vector<std::size_t> pieces(const std::vector<Bone>& bones) {
    std::vector<std::size_t> piece(bones.size());
    for (std::size_t k = 0; k < bones.size(); ++k) piece[k] = k;
    auto root = [&](std::size_t k) {
        while (piece[k] != k) k = piece[k] = piece[piece[k]];
        return k;
    };
    auto join = [&](std::size_t a, std::size_t b) {
        const std::size_t ra = root(a), rb = root(b);
        piece[std::max(ra, rb)] = std::min(ra, rb);
    };
    std::vector<std::size_t> first_on_junction;  // by junction sphere: its first bone, or SIZE_MAX
    for (std::size_t k = 0; k < bones.size(); ++k) {
        if (bones[k].next >= 0) join(k, std::size_t(bones[k].next));
        for (const int junction : {bones[k].parent_junction, bones[k].child_junction}) {
            if (junction < 0) continue;
            if (std::size_t(junction) >= first_on_junction.size()) first_on_junction.resize(std::size_t(junction) + 1, SIZE_MAX);
            std::size_t& first = first_on_junction[std::size_t(junction)];
            if (first == SIZE_MAX)
                first = k;
            else
                join(first, k);
        }
    }
    for (std::size_t k = 0; k < bones.size(); ++k) piece[k] = root(k);
    return piece;
}

// The least distance between the segments p0p1 and q0q1 (Ericson, Real-Time Collision Detection, 5.1.9:
// the closest points' parameters, each clamped to its segment and the other recomputed).
double segment_distance(Vec3<double> p0, Vec3<double> p1, Vec3<double> q0, Vec3<double> q1) {
    const Vec3<double> d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r), c = dot(d1, r), b = dot(d1, d2);
    const double denominator = a * e - b * b;  // >= 0; 0 for parallel segments (a and e > 0: no bone is a point)
    double s = denominator > 0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
    double t = (b * s + f) / e;
    if (t < 0 || t > 1) {
        t = std::clamp(t, 0.0, 1.0);
        s = std::clamp((t * b - c) / a, 0.0, 1.0);
    }
    return norm((p0 + s * d1) - (q0 + t * d2));
}

// The unlinked pairs of bones of one piece of the sphere-mesh that touch (Meetings::touching): 1 where their
// volumes overlap or touch, falling by smoothstep to 0 as the gap between them grows to
// options.unlinked_touch_band × the smaller of their mean radii. Where two pieces overlap they are separate
// parts side by side (fingers hung by bridges from a palm node, the FBX tube's two chains). Only pairs
// whose axes come within their larger radii and the band of each other are searched.
void add_touching_pairs(const std::vector<Bone>& bones, const EncodeOptions& options, Meetings& out) {
    const std::vector<std::size_t> piece = pieces(bones);
    for (std::size_t a = 0; a < bones.size(); ++a)
        for (std::size_t b = a + 1; b < bones.size(); ++b) {
            if (piece[a] != piece[b] || !unlinked(bones, out.chain, a, b)) continue;  // a bridge is a piece alone
            const Cone<double>&ca = bones[a].cone, &cb = bones[b].cone;
            const double band = options.unlinked_touch_band * std::min(out.mean_radius[a], out.mean_radius[b]);
            const double axes_apart = segment_distance(ca.parent.centre, ca.child.centre, cb.parent.centre, cb.child.centre);
            if (axes_apart - larger_radius(ca) - larger_radius(cb) >= band) continue;  // the gap is at least that
            const double gap = gap_between(ca, cb);
            const double touch = gap <= 0 ? 1.0 : band > 0 ? 1 - smoothstep_unit(gap / band) : 0.0;
            if (touch > 0) out.touching.emplace(pair_key(a, b, bones.size()), touch);
        }
}

Meetings meetings(const std::vector<Bone>& bones, const EncodeOptions& options) {
    Meetings out{junction_members(bones, options), {}, chain_starts(bones), {}, {}};
    add_free_ends_meeting(bones, options, out.free_ends);
    for (const Bone& bone : bones) out.mean_radius.push_back(mean_radius(bone.cone));
    add_touching_pairs(bones, options, out);
    return out;
}

// Scratch space of one thread's meeting weights: a junction's near distances, the unlinked bones near.
struct MeetingScratch {
    std::vector<double> junction_distances;
    std::vector<std::size_t> near;
};

// Codes of two bones that nothing links — of two chains that share no junction — meet, as two of a
// junction's do, where the point is as far from one's surface as from the other's and both are the nearest
// bones (a sphere-mesh thinner than its body: X/Testwuson.X's chest lies nearer the surfaces of its
// forelegs than of its spine, and its midline parts the codes of the left and the right leg). Two such
// bones that touch (their volumes overlap, in one piece: the human demo's neck, whose second bone lies
// against the chest junction's bones out to the shoulders) are parts of one body: their pair weighs as a
// junction's pair does, on and inside the surfaces too, with the band options.junction_band × the smaller
// of their mean radii, times the pair's touch (add_touching_pairs). Two separate parts side by side (a
// face's eyelids) keep moving on their own: their pair is blended only off the surfaces, with the band
// options.unlinked_band × that radius, times a factor that rises from 0 at the nearer surface to 1 at
// options.far_band_start of that radius off it. A pair weighs the larger of the two (docs/ALGORITHM.md
// "Bones that nothing links", "Parts that touch").
// Bones of one chain are left out: the chain construction hands points from a bone to its neighbour, and
// where its bones are short beside their radii, bones two apart lie as near a point as the one between
// (blended, a straight chain of bones half as long as their radius rode the rigid field at half a radius
// off its surface). Every factor is continuous in p and symmetric in the two bones. `near` is scratch space
// for the bones near enough to weigh.
double unlinked_weight(const std::vector<Bone>& bones, const Meetings& meetings, const std::vector<double>& distance, double nearest,
                       const EncodeOptions& options, std::vector<std::size_t>& near) {
    const std::vector<double>& mean_radius = meetings.mean_radius;
    // A pair weighs only where both distances are within two bands of the nearest (both differences below
    // one band), and a pair's bands are at most either bone's own.
    const double widest_band = std::max(options.unlinked_band, options.junction_band);
    near.clear();
    for (std::size_t k = 0; k < bones.size(); ++k)
        if (distance[k] - nearest < 2 * widest_band * mean_radius[k]) near.push_back(k);
    // Bones that all meet at one junction (around a star's or a hand's centre) make no pair: skip the pairs.
    if (near.size() > 2 && all_on_one_junction(bones, near)) return 0;
    double weight = 0;
    for (std::size_t i = 0; i < near.size(); ++i)
        for (std::size_t j = i + 1; j < near.size(); ++j) {
            if (!unlinked(bones, meetings.chain, near[i], near[j])) continue;
            const double da = distance[near[i]], db = distance[near[j]], nearer = std::min(da, db);
            const double radius = std::min(mean_radius[near[i]], mean_radius[near[j]]), band = options.unlinked_band * radius;
            const double touching_band = options.junction_band * radius, wider = std::max(band, touching_band);
            if (std::fabs(da - db) >= wider || nearer - nearest >= wider) continue;  // both pair weights are 0
            const auto touch_entry = meetings.touching.find(pair_key(near[i], near[j], bones.size()));
            const double touch = touch_entry == meetings.touching.end() ? 0 : touch_entry->second;
            const double off_surface = nearer > 0 ? smoothstep_unit(nearer / (options.far_band_start * radius)) : 0;
            weight = std::max({weight, off_surface * pair_weight(da, db, nearest, band), touch * pair_weight(da, db, nearest, touching_band)});
        }
    return weight;
}

// The weight stored in a code's rigid blend where codes of two bones meet without a chain joint between
// them: the junctions' and free ends' pairs, and bones that nothing links (two free ends that meet take
// the larger of their two weights).
double meeting_weight(const std::vector<Bone>& bones, const Meetings& meetings, const std::vector<double>& distance, double nearest,
                      const EncodeOptions& options, MeetingScratch& scratch) {
    const double at_junctions = junction_weight_from(meetings.junctions, meetings.free_ends, distance, nearest, scratch.junction_distances);
    return std::max(at_junctions, unlinked_weight(bones, meetings, distance, nearest, options, scratch.near));
}

}  // namespace

double junction_weight(const std::vector<Bone>& bones, Vec3<double> p, const EncodeOptions& options) {
    std::vector<double> distance;
    MeetingScratch scratch;
    const double nearest = bone_distances(bones, p, distance);
    return meeting_weight(bones, meetings(bones, options), distance, nearest, options, scratch);
}

namespace {

BaselineCode encode_in_chain(const std::vector<Bone>& bones, int k, Vec3<double> p, const EncodeOptions& options) {
    Attempt first = encode_on_bone(bones, k, p, true, options);
    if (first.moves_to == kStay) return first.code;
    Attempt second = encode_on_bone(bones, first.moves_to, p, true, options);
    if (second.moves_to == kStay) return second.code;
    // Each of the two bones hands p to the other (possible only where constructions were clamped): keep
    // it on the nearest bone, pinned to the end of its section, and flag it.
    BaselineCode code = encode_on_bone(bones, k, p, false, options).code;
    code.flags |= kCodeClamped;
    return code;
}

// Weight of the near-axis band at p (a function of p alone): 1 − smoothstep of p's distance to a bone's
// axis segment over options.axis_band local radii, the largest over the bones. Near a bone's axis, or a
// joint sphere's centre (an end of two axes), the generator through p is undefined or turns fast with p.
// Taken per code's own bone (its axis line, or its joint's centre), the weight jumped where deep inside a
// joint the code passes from one bone to the other (the two axes are not equally far there): 180x
// (docs/ALGORITHM.md "Fallbacks").
double near_axis_weight(const std::vector<Bone>& bones, Vec3<double> p, const EncodeOptions& options) {
    double weight = 0;
    for (const Bone& bone : bones)
        if (!bone.bridge && !surely_beyond(bone.cone, p, options.axis_band))  // a bone surely beyond the band weighs 0: skip it cheaply
            weight = std::max(weight, 1 - smoothstep_unit(scaled_axis_distance(bone.cone, p) / options.axis_band));
    return weight;
}

bool on_junction_cap(const Bone& bone, const BaselineCode& code) {
    return ((code.flags & kCodeParentCap) && bone.parent_junction >= 0) || ((code.flags & kCodeChildCap) && bone.child_junction >= 0);
}

// Scratch space of one thread's encoding: the bones' signed distances, computed once for both the nearest
// bone and the meeting weight, and the meeting weight's own.
struct EncodeScratch {
    std::vector<double> distance;
    MeetingScratch meeting;
};

// One point's code.
BaselineCode encode_with(const std::vector<Bone>& bones, const Meetings& meetings, Vec3<double> p,
                         const EncodeOptions& options, EncodeScratch& scratch) {
    const std::vector<double>& distance = scratch.distance;
    const double nearest = bone_distances(bones, p, scratch.distance);
    BaselineCode code = encode_in_chain(bones, nearest_bone(distance), p, options);
    // Caps take no near-axis band: a free end's cap rides its bone's frame radially from the sphere's
    // centre, which is what the rigid field gives there (a junction's caps ride the field wholly, below).
    const bool cap = (code.flags & (kCodeParentCap | kCodeChildCap)) != 0;
    const double axis = cap ? 0.0 : near_axis_weight(bones, p, options);
    if (axis > 0) {
        code.flags |= kCodeNearAxis;
        code.rigid_blend = std::max(code.rigid_blend, float(axis));
    }
    // A junction's cells meet over its sphere at any height: its caps ride the rigid field wholly.
    double junction = on_junction_cap(bones[code.bone], code) ? 1.0 : meeting_weight(bones, meetings, distance, nearest, options, scratch.meeting);
    if (junction > 0) {
        code.flags |= kCodeNearJunction;
        code.rigid_blend = std::max(code.rigid_blend, float(junction));
    }
    return code;
}

// Every bone's pose table entry at rest: the identity frame, no twist, no bend.
std::vector<BaselineBonePose<double>> rest_poses(const std::vector<Bone>& bones) {
    std::vector<BaselineBonePose<double>> table;
    for (std::size_t k = 0; k < bones.size(); ++k)
        table.push_back(bone_pose(bones.data(), int(k), Rigid<double>::identity(), 0.0, Quat<double>::identity()));
    return table;
}

// A clamped code — where the construction was clamped, the one kind of code it may not give back at rest
// (pinned at a segment's end by a hand-over that comes back, a fan projection past an end: 1.58 off on a
// random chain's tapered bone) — blends toward the rigid field, which is the identity at rest, by how far
// the construction misses its point there: from kRestMissStart to kRestMissFull of its bone's smaller
// radius (smoothstep: continuous in the miss, so in p wherever the code is). The point then comes back
// within kRestMissFull of that radius. Other codes give their point back by construction (tested).
void blend_in_rest_miss(const std::vector<Bone>& bones, const std::vector<BaselineBonePose<double>>& rest, Vec3<double> p,
                        BaselineCode& code) {
    if (!(code.flags & kCodeClamped)) return;
    BaselineCode unblended = code;
    unblended.rigid_blend = 0;
    const double miss = norm(deform_baseline_point(unblended, p, bones.data(), rest.data(), int(bones.size())) - p);
    const Cone<double>& cone = bones[code.bone].cone;
    const double radius = std::min(cone.parent.radius, cone.child.radius);
    const double weight = smoothstep_unit((miss - kRestMissStart * radius) / ((kRestMissFull - kRestMissStart) * radius));
    code.rigid_blend = std::max(code.rigid_blend, float(weight));
}

}  // namespace

BaselineCode encode_point(const std::vector<Bone>& bones, Vec3<double> p, const EncodeOptions& options) {
    EncodeScratch scratch;
    BaselineCode code = encode_with(bones, meetings(bones, options), p, options, scratch);
    blend_in_rest_miss(bones, rest_poses(bones), p, code);
    return code;
}

std::vector<BaselineCode> encode_points(const std::vector<Bone>& bones, const std::vector<Vec3<double>>& points,
                                        const std::string& source, const EncodeOptions& options) {
    check_rest_points(points, source);
    const Meetings around = meetings(bones, options);
    const std::vector<BaselineBonePose<double>> rest = rest_poses(bones);
    std::vector<BaselineCode> codes(points.size());
    const long long n = static_cast<long long>(points.size());
#pragma omp parallel
    {
        EncodeScratch scratch;
#pragma omp for schedule(dynamic, 1024)
        for (long long i = 0; i < n; ++i) {
            codes[i] = encode_with(bones, around, points[i], options, scratch);
            blend_in_rest_miss(bones, rest, points[i], codes[i]);
        }
    }
    return codes;
}

template <class T>
KeptFieldBones keep_field_bones(const std::vector<Bone>& bones, const std::vector<BaselineCode>& codes, const std::vector<Vec3<T>>& rest,
                                std::size_t max_pool_entries) {
    max_pool_entries = std::min<std::size_t>(max_pool_entries, kMaxFieldPoolEntries);
    const long long n = static_cast<long long>(codes.size());
    auto search = [&](long long i) {
        return search_field_bones(bones.data(), int(bones.size()), Vec3<double>(rest[std::size_t(i)]), int(codes[std::size_t(i)].bone));
    };
    // Two searches a kept code (counts, then entries at their places), so that the pool is allocated once,
    // at its size: encoding's peak memory a point grows by what is kept, not by a vector's doubling.
    std::vector<std::uint32_t> counts(codes.size(), 0);
#pragma omp parallel for schedule(dynamic, 1024)
    for (long long i = 0; i < n; ++i) {
        if (!(codes[std::size_t(i)].rigid_blend > 0.0f)) continue;
        const FieldSearch<double> found = search(i);
        if (!found.overflow) counts[std::size_t(i)] = std::uint32_t(found.count);
    }
    KeptFieldBones kept{std::move(counts), {}};
    std::size_t entries = 0;
    for (std::uint32_t& ref : kept.refs) {
        const std::size_t count = ref;
        if (count == 0 || entries + count > max_pool_entries) {
            ref = kFieldNotKept;
            continue;
        }
        ref = field_ref(std::uint32_t(entries), int(count));
        entries += count;
    }
    if (entries == 0) return {};  // no word a code where nothing is kept: the pass searches (null refs)
    kept.pool.resize(entries);
#pragma omp parallel for schedule(dynamic, 1024)
    for (long long i = 0; i < n; ++i) {
        const FieldBones at = kept_field_bones(kept.refs[std::size_t(i)], kept.pool.data());
        if (!at.weights) continue;
        const FieldSearch<double> found = search(i);
        std::copy(found.found, found.found + at.count, kept.pool.begin() + (at.weights - kept.pool.data()));
    }
    return kept;
}
template KeptFieldBones keep_field_bones(const std::vector<Bone>&, const std::vector<BaselineCode>&, const std::vector<Vec3<float>>&, std::size_t);
template KeptFieldBones keep_field_bones(const std::vector<Bone>&, const std::vector<BaselineCode>&, const std::vector<Vec3<double>>&, std::size_t);

}  // namespace bs
