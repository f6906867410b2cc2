// Helpers for the baseline-skinning property tests (tests/engine/test_baseline_*.cpp,
// tests/host/test_baseline_twist*.cpp): extra chains, twist poses, points placed on the surface near a
// joint, pairs of points straddling the boundary between two bones' codes, and the region a code is in.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"

namespace bs::testing {

constexpr double kBaselinePi = 3.14159265358979323846;

// Rotation of x by `radians` about the bone's axis line (through its parent centre): the twist's turn, the
// reference for BaselineBonePose::field_twisted.
inline Vec3<double> rotate_about_axis(const BaselineBone<double>& bone, double radians, Vec3<double> x) {
    const Vec3<double> c = bone.cone.parent.centre;
    return c + rotate(axis_angle(bone.cone.axis, radians), x - c);
}

// Two equal cylinders (radius 1) meeting at a 100° bend, the second leaving the xy plane: a joint
// with a wide concave side (the inside of the elbow) and a wide convex side.
inline Skeleton sharp_elbow_chain() {
    const double bend = 100 * kBaselinePi / 180, tilt = 30 * kBaselinePi / 180;
    Vec3<double> dir{std::cos(bend), std::sin(bend) * std::cos(tilt), std::sin(bend) * std::sin(tilt)};
    return make_skeleton({{{0, 0, 0}, 1.0}, {{5, 0, 0}, 1.0}, {Vec3<double>{5, 0, 0} + 4.0 * dir, 1.0}}, {{0, 1}, {1, 2}},
                         {}, "sharp elbow");
}

// A cylinder followed by a cone that widens away from the joint, slightly bent: concave all around
// the joint (the belt's two segments cross on every side), more on the inside of the bend.
inline Skeleton flared_chain() {
    return make_skeleton({{{0, 0, 0}, 0.6}, {{4, 0, 0}, 0.6}, {{6.5, 1.0, 0.3}, 1.0}}, {{0, 1}, {1, 2}}, {},
                         "flared chain");
}

struct NamedChain {
    std::string name;
    Skeleton skeleton;
};

// Chains with at least one joint that has a concave side.
inline std::vector<NamedChain> concave_chains() {
    return {{"bent", bent_chain()}, {"sharp_elbow", sharp_elbow_chain()}, {"flared", flared_chain()}};
}

inline std::vector<NamedChain> all_chains() {
    std::vector<NamedChain> chains{{"straight", straight_chain()}};
    for (auto& c : concave_chains()) chains.push_back(c);
    return chains;
}

// A pose with only twists: every bone's twist uniform in [-max, max] (radians, unwrapped).
inline Pose random_twist_pose(const Skeleton& s, Random& rng, double max_radians) {
    Pose pose = Pose::rest(s);
    for (auto& j : pose.joints) j.twist_radians = rng.uniform(-max_radians, max_radians);
    return pose;
}

// Minimum over bones of the signed distance to the bone's hull: the signed distance to the body.
inline double body_signed_distance(const std::vector<BaselineBone<double>>& bones, Vec3<double> p) {
    double best = INFINITY;
    for (const auto& b : bones) best = std::min(best, closest_point_on_bone(b.cone, p).signed_distance);
    return best;
}

// The point on the ray centre + ρ·dir (dir unit) whose signed distance to the body is `height`
// (bisection; the body is star-shaped about a sphere centre that lies in it).
inline Vec3<double> point_at_height(const std::vector<BaselineBone<double>>& bones, Vec3<double> centre,
                                    Vec3<double> dir, double height, double max_reach) {
    double lo = 0, hi = max_reach;
    for (int i = 0; i < 80; ++i) {
        double mid = 0.5 * (lo + hi);
        if (body_signed_distance(bones, centre + mid * dir) < height) lo = mid;
        else hi = mid;
    }
    return centre + (0.5 * (lo + hi)) * dir;
}

// Orthonormal pair ⟂ n.
inline void orthonormal_basis(Vec3<double> n, Vec3<double>& e1, Vec3<double>& e2) {
    e1 = any_orthogonal(n);
    e2 = cross(n, e1);
}

struct PointPair {
    Vec3<double> a, b;
};

// Pairs of points straddling the boundary between bone k's codes and bone k+1's codes at their joint,
// near the body's surface: for angles ψ around the separator plane's normal and heights h (× the joint
// radius), a path crosses the separator plane at the height h over the body; bisection on the code's
// bone finds the crossing to within `gap` (the pair's two points are at most `gap` apart and their
// codes are on different bones). `joint_bone` is the incoming bone k (its child sphere is the joint).
inline std::vector<PointPair> separator_pairs(const std::vector<BaselineBone<double>>& bones, int joint_bone,
                                              int angle_steps, const std::vector<double>& heights, double gap,
                                              Random& rng) {
    const BaselineBone<double>& bone = bones[joint_bone];
    const SeparatorPlane<double>& plane = bone.child_separator;
    const Sphere<double>& joint = bone.cone.child;
    Vec3<double> e1, e2;
    orthonormal_basis(plane.normal, e1, e2);
    std::vector<PointPair> pairs;
    for (int i = 0; i < angle_steps; ++i) {
        double psi = 2 * kBaselinePi * (i + rng.uniform(0, 1)) / angle_steps;
        Vec3<double> radial = std::cos(psi) * e1 + std::sin(psi) * e2;
        for (double h : heights) {
            auto at = [&](double s) {
                Vec3<double> dir = normalized(std::cos(s) * radial + std::sin(s) * plane.normal);
                return point_at_height(bones, joint.centre, dir, h * joint.radius, 6 * joint.radius);
            };
            double lo = -0.7, hi = 0.7;
            int bone_lo = encode_point(bones, at(lo)).bone, bone_hi = encode_point(bones, at(hi)).bone;
            if (bone_lo == bone_hi) continue;
            for (int it = 0; it < 60 && norm(at(hi) - at(lo)) > gap; ++it) {
                double mid = 0.5 * (lo + hi);
                int bone_mid = encode_point(bones, at(mid)).bone;
                if (bone_mid == bone_lo) lo = mid;
                else hi = mid;
            }
            Vec3<double> a = at(lo), b = at(hi);
            if (norm(a - b) <= gap && norm(a - b) > 0) pairs.push_back({a, b});
        }
    }
    return pairs;
}

// Where a code's base-point lies: the region of the point for continuity reports.
enum class CodeRegion { Segment, JointArc, FreeCap, Crease, Separator, NearAxis, NearFanCentre, Count };

inline const char* region_name(CodeRegion r) {
    switch (r) {
        case CodeRegion::Segment: return "segment";
        case CodeRegion::JointArc: return "joint_arc";
        case CodeRegion::FreeCap: return "free_cap";
        case CodeRegion::Crease: return "crease";
        case CodeRegion::Separator: return "separator";
        case CodeRegion::NearAxis: return "near_axis_band";
        case CodeRegion::NearFanCentre: return "fan_centre_band";
        default: return "?";
    }
}

// The rest place of a non-cap code on its section.
inline SectionPlace<double> rest_place(const std::vector<BaselineBone<double>>& bones, const BaselineCode& code) {
    const BaselineBone<double>& bone = bones[code.bone];
    Section<double> s = bone_section(bones.data(), code.bone, generator_radial(bone, double(code.phi)));
    return place_on_section(s, double(code.t) * s.length());
}

// Fan centre I of the section a segment code lies on (DESIGN §2 "Detail directions": the crossing of
// the segment's two end-direction lines), with the distance from I to the code's rest base-point.
// False for caps, arcs and parallel end directions (I at infinity).
inline bool fan_centre(const std::vector<BaselineBone<double>>& bones, const BaselineCode& code, Vec3<double>& I,
                       double& reach) {
    if (code.flags & (kCodeParentCap | kCodeChildCap)) return false;
    const BaselineBone<double>& bone = bones[code.bone];
    Section<double> s = bone_section(bones.data(), code.bone, generator_radial(bone, double(code.phi)));
    SectionPlace<double> place = place_on_section(s, double(code.t) * s.length());
    if (place.part != SectionPart::Segment) return false;
    SegmentEnd<double> first{s.at_sigma(s.parent.sigma), s.parent.direction};
    SegmentEnd<double> second{s.at_sigma(s.child.sigma), s.child.direction};
    FanProjection<double> fan = fan_projection(first, second, place.point);
    if (!(std::fabs(fan.centre.w) > 1e-9)) return false;
    I = fan.centre.xyz / fan.centre.w;
    reach = norm(place.point - I);
    return true;
}

// Region of a point from its code: the fallback bands first (the code's flags; a point within
// `fan_band` × |b − I| of its segment's fan centre I counts as the fan-centre band whatever its flags
// say, DESIGN "Fallbacks": "I close to or beyond p"), then caps, then the part of its section; a segment
// base-point within `crease_reach` × the joint radius of a concave end's crossing is in the crease.
inline CodeRegion point_region(const std::vector<BaselineBone<double>>& bones, const BaselineCode& code,
                               Vec3<double> p, double fan_band = 0.25, double crease_reach = 0.35) {
    if (code.flags & kCodeNearAxis) return CodeRegion::NearAxis;
    if (code.flags & kCodeNearFanCentre) return CodeRegion::NearFanCentre;
    if (code.flags & (kCodeParentCap | kCodeChildCap)) return CodeRegion::FreeCap;
    Vec3<double> I;
    double reach;
    if (fan_centre(bones, code, I, reach) && norm(p - I) < fan_band * reach) return CodeRegion::NearFanCentre;
    const BaselineBone<double>& bone = bones[code.bone];
    Section<double> s = bone_section(bones.data(), code.bone, generator_radial(bone, double(code.phi)));
    SectionPlace<double> place = place_on_section(s, double(code.t) * s.length());
    if (place.part != SectionPart::Segment) return CodeRegion::JointArc;
    if (s.parent.kind == EndKind::Concave &&
        norm(place.point - s.at_sigma(s.parent.sigma)) < crease_reach * bone.cone.parent.radius)
        return CodeRegion::Crease;
    if (s.child.kind == EndKind::Concave &&
        norm(place.point - s.at_sigma(s.child.sigma)) < crease_reach * bone.cone.child.radius)
        return CodeRegion::Crease;
    return CodeRegion::Segment;
}

// Region of a pair: the fallback bands first, then across bones ("separator"), then the rarer of the
// two points' regions (caps, crease, arcs, segment).
inline CodeRegion pair_region(const std::vector<BaselineBone<double>>& bones, const BaselineCode& a, Vec3<double> pa,
                              const BaselineCode& b, Vec3<double> pb) {
    CodeRegion ra = point_region(bones, a, pa), rb = point_region(bones, b, pb);
    auto rank = [](CodeRegion r) {
        switch (r) {
            case CodeRegion::NearFanCentre: return 0;
            case CodeRegion::NearAxis: return 1;
            case CodeRegion::Separator: return 2;
            case CodeRegion::FreeCap: return 3;
            case CodeRegion::Crease: return 4;
            case CodeRegion::JointArc: return 5;
            default: return 6;
        }
    };
    CodeRegion r = rank(ra) <= rank(rb) ? ra : rb;
    if (rank(r) > rank(CodeRegion::Separator) && a.bone != b.bone) return CodeRegion::Separator;
    return r;
}

// Local radius of a bone's hull at the projection of p on its axis (clamped to the bone).
inline double local_radius(const Cone<double>& cone, Vec3<double> p) {
    double along = std::clamp(dot(p - cone.parent.centre, cone.axis) / cone.length, 0.0, 1.0);
    return (1 - along) * cone.parent.radius + along * cone.child.radius;
}

}  // namespace bs::testing
