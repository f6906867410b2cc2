// Helpers for the baseline-skinning bend property tests (tests/*/test_baseline_bend_*.cpp): random poses
// with bends (bounded angle between consecutive posed bone axes), the posed place of a code (which part of
// its posed section the posed base-point lies on), posed hulls in world coordinates, and point generators
// for each region of a chain (segment, joint arc, crease, free cap, the fallback bands).
//
// The region generators are shared with tests/engine/test_baseline_continuity.cpp; the bend tests add the
// far-from-surface band and pairs across a joint's posed convex/concave change.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "host/pose.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs::testing {

// Four bones with unequal radii and moderate rest bends, leaving the xy plane: every joint has bones
// that are not adjacent to it (the locality test needs them).
inline Skeleton long_chain() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 0.9}, {{7, 1, 0}, 0.8}, {{9.5, 1, 1}, 0.7}, {{12, 0, 1.2}, 0.5}},
                         {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, {}, "long chain");
}

inline double radians_of(double degrees) { return degrees * kBaselinePi / 180; }

// The rotation taking unit a to unit b along the shortest arc: its axis is ⟂ a, so it is a pure swing
// about a. b must not be opposite to a.
inline Quat<double> shortest_arc(Vec3<double> a, Vec3<double> b) {
    Vec3<double> c = cross(a, b);
    double s = norm(c);
    if (!(s > 1e-15)) return Quat<double>::identity();
    return axis_angle(c / s, std::atan2(s, dot(a, b)));
}

// Inverse of a rigid transform.
inline Rigid<double> inverse(const Rigid<double>& g) {
    Quat<double> r = conjugate(g.rotation);
    return {r, -1.0 * rotate(r, g.translation)};
}

struct BendPoseOptions {
    double max_joint_degrees = 150;      // angle between consecutive posed bones' generators (slope_degrees)
    double max_twist = 2 * kBaselinePi;  // |twist| per bone (radians, unwrapped)
    bool rigid = true;                   // a random root motion and first-bone swing too
    double corner_fraction = 0.2;        // share of joints bent to exactly max_joint_degrees
};

// The difference of bone k's and its parent bone's cone half-angles, in degrees: what the angle between
// their generators adds to their axes' (host/baseline_skinner.cpp's limit of the folds it takes).
inline double slope_degrees(const Skeleton& s, int k, int parent) {
    auto half_angle = [&s](int b) {
        const Sphere<double>& from = s.spheres[std::size_t(s.bones[std::size_t(b)][0])];
        const Sphere<double>& to = s.spheres[std::size_t(s.bones[std::size_t(b)][1])];
        return std::asin((from.radius - to.radius) / norm(to.centre - from.centre));
    };
    return std::fabs(half_angle(k) - half_angle(parent)) * 180 / kBaselinePi;
}

// A random pose with bends: for every bone after the first, its posed axis (in its parent's posed frame)
// is drawn at an angle ψ from the parent's axis, ψ uniform in [0, max] (or exactly max for a share of the
// joints), max being max_joint_degrees less the two bones' slope_degrees, in a uniformly random direction
// about it; the swing is the shortest arc from the bone's rest
// axis to that direction. Twists uniform in ±max_twist.
inline Pose random_bend_pose(const Skeleton& s, Random& rng, const BendPoseOptions& o = {}) {
    Pose pose = Pose::rest(s);
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        pose.joints[k].twist_radians = rng.uniform(-o.max_twist, o.max_twist);
        Vec3<double> axis = s.rest_axis(int(k));
        int parent = s.parent_bone[k];
        if (parent < 0) {
            if (o.rigid) {
                Vec3<double> e = rng.unit_vector();
                pose.joints[k].swing = axis_angle(normalized(e - dot(e, axis) * axis), rng.uniform(-3.0, 3.0));
            }
            continue;
        }
        Vec3<double> parent_axis = s.rest_axis(parent), e1, e2;
        orthonormal_basis(parent_axis, e1, e2);
        const double max_degrees = std::max(0.0, o.max_joint_degrees - slope_degrees(s, int(k), parent));
        for (;;) {
            double psi = radians_of(rng.uniform(0, 1) < o.corner_fraction ? max_degrees : rng.uniform(0, max_degrees));
            double chi = rng.uniform(-kBaselinePi, kBaselinePi);
            Vec3<double> target = std::cos(psi) * parent_axis + std::sin(psi) * (std::cos(chi) * e1 + std::sin(chi) * e2);
            if (dot(target, axis) < std::cos(radians_of(175))) continue;  // keep the shortest arc well defined
            pose.joints[k].swing = shortest_arc(axis, target);
            break;
        }
    }
    if (o.rigid) pose.root = {rng.rotation(), diagonal(s) * rng.in_box(1)};
    return pose;
}

// A swing of `radians` about a random axis ⟂ the bone's rest axis.
inline Quat<double> random_swing(const Skeleton& s, int k, Random& rng, double radians) {
    Vec3<double> axis = s.rest_axis(k), e = rng.unit_vector();
    return axis_angle(normalized(e - dot(e, axis) * axis), radians);
}

// Bone m's hull as posed (its rest cone moved by the bone's posed transform; its own twist leaves the
// hull in place).
inline Cone<double> posed_cone(const Cone<double>& rest, const Rigid<double>& g) {
    return make_cone(Sphere<double>{g.apply(rest.parent.centre), rest.parent.radius},
                     Sphere<double>{g.apply(rest.child.centre), rest.child.radius});
}

inline std::vector<Cone<double>> posed_cones(const std::vector<BaselineBone<double>>& bones,
                                             const std::vector<Rigid<double>>& posed) {
    std::vector<Cone<double>> cones;
    for (std::size_t m = 0; m < bones.size(); ++m) cones.push_back(posed_cone(bones[m].cone, posed[m]));
    return cones;
}

// Where a code's posed base-point lies on its posed section (engine/baseline/deform.hpp's
// place_on_posed_section, step by step, so that tests can see the part and the ends' kinds).
enum class PosedPart { Cap, ParentArc, ParentCrease, Segment, ChildArc, ChildCrease };

inline const char* posed_part_name(PosedPart p) {
    switch (p) {
        case PosedPart::Cap: return "cap";
        case PosedPart::ParentArc: return "parent arc";
        case PosedPart::ParentCrease: return "parent crease";
        case PosedPart::Segment: return "segment";
        case PosedPart::ChildArc: return "child arc";
        case PosedPart::ChildCrease: return "child crease";
    }
    return "?";
}

struct PosedPlace {
    PosedPart part = PosedPart::Cap;
    EndKind parent_kind = EndKind::Free, child_kind = EndKind::Free;  // of the posed (deformed) section
    unsigned flags = 0;            // posed ends' flags (BeltFlag bits, kSectionCollapsed)
    double from_parent_crop = 0;  // segment: σ distance from the parent end's crop point (concave end)
    double from_child_crop = 0;   // segment: σ distance to the child end's crop point (concave end)
};

// The posed place of a (non-cap) code; `base`, if given, receives posed_base's result from the same
// construction (one posed section instead of two).
inline PosedPlace posed_place(const BaselineCode& code, const std::vector<BaselineBone<double>>& bones,
                              const std::vector<BaselineBonePose<double>>& table, PosedBase<double>* base = nullptr) {
    PosedPlace out;
    if (code.flags & (kCodeParentCap | kCodeChildCap)) return out;
    const int k = code.bone;
    LocalChain<double> local = posed_neighbourhood(bones.data(), table.data(), k);
    Section<double> rest = bone_section(bones.data(), k, generator_radial(bones[k], double(code.phi)));
    PosedSection<double> s = make_posed_section(local, bones.data(), table.data(), k, rest);
    out.parent_kind = s.parent.kind;
    out.child_kind = s.child.kind;
    out.flags = s.parent.flags | s.child.flags;
    const double ell = double(code.t) * s.length(), parent_part = s.parent.length(), segment = s.segment_length();
    if (base) *base = place_on_posed_section(s, local, bones.data(), k, ell);
    if (ell < parent_part) {
        out.part = s.parent.kind == EndKind::Convex ? PosedPart::ParentArc : PosedPart::ParentCrease;
    } else if (ell - parent_part - segment <= 0 || s.child.kind == EndKind::Free) {
        out.part = PosedPart::Segment;
        double along = std::clamp(ell - parent_part, 0.0, segment);
        out.from_parent_crop = along;
        out.from_child_crop = segment - along;
    } else {
        out.part = s.child.kind == EndKind::Convex ? PosedPart::ChildArc : PosedPart::ChildCrease;
    }
    return out;
}

// ---- Point generators per region (rest points near a chain) ----

struct Candidate {
    Vec3<double> p;
    double radius;  // scales the pair's gap
};
using Generator = std::function<bool(Random&, Candidate&)>;

inline const BaselineBone<double>& random_bone(const std::vector<BaselineBone<double>>& bones, Random& rng, int& k) {
    k = std::min(int(rng.uniform(0, double(bones.size()))), int(bones.size()) - 1);
    return bones[k];
}

inline Vec3<double> random_radial(const BaselineBone<double>& bone, Random& rng) {
    return generator_radial(bone, rng.uniform(-kBaselinePi, kBaselinePi));
}

// Segment: over the middle of a bone, heights from slightly inside to `max_height` radii out.
inline Generator segment_points(const std::vector<BaselineBone<double>>& bones, double min_height = -0.15,
                                double max_height = 1.0) {
    return [&bones, min_height, max_height](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Vec3<double> centre = bone.cone.parent.centre + (rng.uniform(0.15, 0.85) * bone.cone.length) * bone.cone.axis;
        double r = local_radius(bone.cone, centre);
        c = {point_at_height(bones, centre, random_radial(bone, rng), rng.uniform(min_height, max_height) * r, 8 * r), r};
        return true;
    };
}

// Points near a joint of the chain: a direction from the joint centre within ±`spread` radians of the
// separator plane, at a height over the body in [min_height, max_height] × the joint radius. Their rest
// base-points are on the joint's arcs, the crease, or the segments' ends: under a bend they land on the
// posed arcs and crease pieces.
inline Generator joint_points(const std::vector<BaselineBone<double>>& bones, double spread = 0.9,
                              double min_height = -0.1, double max_height = 0.6) {
    return [&bones, spread, min_height, max_height](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        if (bone.next < 0) return false;
        const SeparatorPlane<double>& plane = bone.child_separator;
        const Sphere<double>& joint = bone.cone.child;
        Vec3<double> e1, e2;
        orthonormal_basis(plane.normal, e1, e2);
        double psi = rng.uniform(-kBaselinePi, kBaselinePi), s = rng.uniform(-spread, spread);
        Vec3<double> dir = normalized(std::cos(s) * (std::cos(psi) * e1 + std::sin(psi) * e2) + std::sin(s) * plane.normal);
        c = {point_at_height(bones, joint.centre, dir, rng.uniform(min_height, max_height) * joint.radius, 6 * joint.radius),
             joint.radius};
        return true;
    };
}

// Joint arcs at rest: a point of a convex joint arc of a random generator, pushed along the sphere normal.
inline Generator arc_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Section<double> s = bone_section(bones.data(), k, random_radial(bone, rng));
        bool child = rng.uniform(0, 1) < 0.5;
        const SectionEnd<double>& e = child ? s.child : s.parent;
        if (e.kind != EndKind::Convex || !(e.arc_end > e.arc_begin)) return false;
        const Sphere<double>& sphere = child ? bone.cone.child : bone.cone.parent;
        Vec3<double> q = arc_point(e.arc, rng.uniform(e.arc_begin, e.arc_end));
        c = {q + (rng.uniform(-0.1, 0.8) * sphere.radius) * normalized(q - sphere.centre), sphere.radius};
        return true;
    };
}

// Crease at rest: a segment point within 0.3 × the joint radius of a concave end's crossing, pushed along
// the cone's normal.
inline Generator crease_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Vec3<double> radial = random_radial(bone, rng);
        Section<double> s = bone_section(bones.data(), k, radial);
        bool child = rng.uniform(0, 1) < 0.5;
        const SectionEnd<double>& e = child ? s.child : s.parent;
        if (e.kind != EndKind::Concave) return false;
        double r = (child ? bone.cone.child : bone.cone.parent).radius;
        double sigma = e.sigma + (child ? -1 : 1) * rng.uniform(0, 0.3) * r;
        c = {s.at_sigma(sigma) + (rng.uniform(-0.1, 0.5) * r) * cone_normal(bone.cone, radial), r};
        return true;
    };
}

// Free ends: directions over an end cap and past its tangency circle into the cone's region.
inline Generator cap_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        bool child = rng.uniform(0, 1) < 0.5;
        if ((child ? bone.next : bone.previous) >= 0) return false;
        const Sphere<double>& s = child ? bone.cone.child : bone.cone.parent;
        Vec3<double> pole = child ? bone.cone.axis : -1.0 * bone.cone.axis;
        Vec3<double> dir = rng.unit_vector();
        if (dot(dir, pole) < -0.35) return false;
        c = {point_at_height(bones, s.centre, dir, rng.uniform(-0.3, 1.0) * s.radius, 8 * s.radius), s.radius};
        return true;
    };
}

// Near-axis band: within 0.25 × the radius of a bone's axis, from just before its parent sphere to just
// past its child sphere; one in eight exactly on the axis.
inline Generator axis_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Vec3<double> centre = bone.cone.parent.centre + (rng.uniform(-0.05, 1.05) * bone.cone.length) * bone.cone.axis;
        double r = local_radius(bone.cone, centre);
        double off = rng.uniform(0, 1) < 0.125 ? 0.0 : rng.uniform(0, 0.25) * r;
        c = {centre + off * random_radial(bone, rng), r};
        return true;
    };
}

// Fan-centre band: around the fan centre I of a segment whose end directions are not parallel, within
// 0.5 × |b − I|, where I is within `max_reach` radii of its segment.
inline Generator fan_centre_points(const std::vector<BaselineBone<double>>& bones, double max_reach = 3.5) {
    return [&bones, max_reach](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Section<double> s = bone_section(bones.data(), k, random_radial(bone, rng));
        SegmentEnd<double> first{s.at_sigma(s.parent.sigma), s.parent.direction};
        SegmentEnd<double> second{s.at_sigma(s.child.sigma), s.child.direction};
        Vec3<double> mid = s.at_sigma(0.5 * (s.parent.sigma + s.child.sigma));
        FanProjection<double> fan = fan_projection(first, second, mid);
        if (!(std::fabs(fan.centre.w) > 1e-6)) return false;
        Vec3<double> I = fan.centre.xyz / fan.centre.w;
        double reach = norm(I - mid), r = bone.cone.parent.radius;
        if (!(reach < max_reach * r)) return false;
        c = {I + (0.5 * reach * std::sqrt(rng.uniform(0, 1))) * rng.unit_vector(), r};
        return true;
    };
}

// Appends `count` points from joint_points(bones, spread, min_height, max_height), drawn with `rng`.
inline void add_joint_points(std::vector<Vec3<double>>& points, const std::vector<BaselineBone<double>>& bones,
                             Random& rng, int count, double spread, double min_height, double max_height) {
    auto near_joint = joint_points(bones, spread, min_height, max_height);
    for (int made = 0; made < count;) {
        Candidate c;
        if (near_joint(rng, c)) {
            points.push_back(c.p);
            ++made;
        }
    }
}

// ---- Reports ----

// Appends every joint of `pose` as " {swing [w, x, y, z], twist τ}" (full precision, to replay it).
inline void append_pose(std::string& s, const Pose& pose) {
    char text[200];
    for (const auto& j : pose.joints) {
        std::snprintf(text, sizeof text, " {swing [%.17g, %.17g, %.17g, %.17g], twist %.17g}", j.swing.w, j.swing.x,
                      j.swing.y, j.swing.z, j.twist_radians);
        s += text;
    }
}

// "chain C, point (x, y, z) bone k flags f phi φ t t h h; pose: {…}…".
inline std::string describe_point(const std::string& chain, const Vec3<double>& p, const BaselineCode& c,
                                  const Pose& pose) {
    char text[400];
    std::snprintf(text, sizeof text, "chain %s, point (%.9g, %.9g, %.9g) bone %d flags %d phi %.9g t %.9g h %.9g; pose:",
                  chain.c_str(), p.x, p.y, p.z, c.bone, c.flags, c.phi, c.t, c.h);
    std::string s = text;
    append_pose(s, pose);
    return s;
}

}  // namespace bs::testing
