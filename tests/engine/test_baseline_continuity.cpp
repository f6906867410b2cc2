// Baseline skinning, part 1 (twist): the output is continuous in the point (DESIGN §2 "Properties":
// no tearing across bone, arc/segment, cap or fallback boundaries). Pairs of points 1e-4 × the local
// radius apart at rest, placed deliberately in each region (segment, joint arc, free-end caps, the crease
// on a joint's concave side, across the separator plane, the near-axis band, the fan-centre band) and
// classified by their codes, are deformed by 100 twist poses (up to ±360° per bone, random but for the
// four corners of that range); the posed distance over the rest distance must stay ≤ 20 in every region. The worst ratio per region is printed and recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"

namespace bs {
namespace {

using testing::CodeRegion;
using testing::PointPair;
using testing::Random;

constexpr double kMaxStretch = 20;
constexpr int kRegions = int(CodeRegion::Count);

double gap_for(double radius) { return 1e-4 * radius; }

// A candidate point for a region, with the length that scales its pair's gap; false: none this time.
struct Candidate {
    Vec3<double> p;
    double radius;
};
using Generator = std::function<bool(Random&, Candidate&)>;

// Pairs (p, p + gap · random unit) from `make` whose codes put the pair in region `target`, until
// `quota` are found or the attempts run out.
void collect(const std::vector<BaselineBone<double>>& bones, CodeRegion target, int quota, const Generator& make,
             Random& rng, std::vector<PointPair>& pairs) {
    int made = 0;
    for (int attempt = 0; attempt < 40 * quota && made < quota; ++attempt) {
        Candidate c;
        if (!make(rng, c)) continue;
        PointPair pair{c.p, c.p + gap_for(c.radius) * rng.unit_vector()};
        BaselineCode a = encode_point(bones, pair.a), b = encode_point(bones, pair.b);
        if (testing::pair_region(bones, a, pair.a, b, pair.b) != target) continue;
        pairs.push_back(pair);
        ++made;
    }
}

const BaselineBone<double>& random_bone(const std::vector<BaselineBone<double>>& bones, Random& rng, int& k) {
    k = std::min(int(rng.uniform(0, double(bones.size()))), int(bones.size()) - 1);
    return bones[k];
}

Vec3<double> random_radial(const BaselineBone<double>& bone, Random& rng) {
    return generator_radial(bone, rng.uniform(-testing::kBaselinePi, testing::kBaselinePi));
}

// Segment: over the middle of a bone, heights from slightly inside to a radius out.
Generator segment_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Vec3<double> centre = bone.cone.parent.centre + (rng.uniform(0.15, 0.85) * bone.cone.length) * bone.cone.axis;
        double r = testing::local_radius(bone.cone, centre);
        c = {testing::point_at_height(bones, centre, random_radial(bone, rng), rng.uniform(-0.15, 1.0) * r, 8 * r), r};
        return true;
    };
}

// Joint arcs: a point of a convex joint arc of a random generator (the incoming bone's child arc or the
// outgoing bone's parent arc), pushed along the sphere normal by −0.1 … 0.8 × the joint radius.
Generator arc_points(const std::vector<BaselineBone<double>>& bones) {
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

// Crease: a segment point within 0.3 × the joint radius of a concave end's crossing, pushed along the
// cone's normal by −0.1 … 0.5 × the radius.
Generator crease_points(const std::vector<BaselineBone<double>>& bones) {
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
Generator cap_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        bool child = rng.uniform(0, 1) < 0.5;
        if ((child ? bone.next : bone.previous) >= 0) return false;
        const Sphere<double>& s = child ? bone.cone.child : bone.cone.parent;
        Vec3<double> pole = child ? bone.cone.axis : -bone.cone.axis;
        Vec3<double> dir = rng.unit_vector();
        if (dot(dir, pole) < -0.35) return false;
        c = {testing::point_at_height(bones, s.centre, dir, rng.uniform(-0.3, 1.0) * s.radius, 8 * s.radius), s.radius};
        return true;
    };
}

// Near-axis band: within 0.25 × the radius of a bone's axis, from just before its parent sphere to
// just past its child sphere; one in eight exactly on the axis.
Generator axis_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
        int k;
        const auto& bone = random_bone(bones, rng, k);
        Vec3<double> centre = bone.cone.parent.centre + (rng.uniform(-0.05, 1.05) * bone.cone.length) * bone.cone.axis;
        double r = testing::local_radius(bone.cone, centre);
        double off = rng.uniform(0, 1) < 0.125 ? 0.0 : rng.uniform(0, 0.25) * r;
        c = {centre + off * random_radial(bone, rng), r};
        return true;
    };
}

// Fan-centre band: around the fan centre I of a segment whose end directions are not parallel (a
// segment with a concave end), within 0.5 × |b − I| (the pair counts in this region when its code is
// flagged, or within 0.25 × |b − I| of its own I), where I is within 3.5 radii of its segment (farther
// out, a twist's legitimate stretch, which grows with the distance to the axis, would mask a tear; nearer
// in is also where the fan folds hardest).
Generator fan_centre_points(const std::vector<BaselineBone<double>>& bones) {
    return [&bones](Random& rng, Candidate& c) {
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
        if (!(reach < 3.5 * r)) return false;
        c = {I + (0.5 * reach * std::sqrt(rng.uniform(0, 1))) * rng.unit_vector(), r};
        return true;
    };
}

// Bone k's rigid twist motion of p: its frame F⁰_k, turned about the axis by the twist profile at p's
// clamped abscissa.
Vec3<double> twist_rigid(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& table,
                         int k, Vec3<double> p) {
    const Cone<double>& c = bones[k].cone;
    double d = std::clamp(dot(p - c.parent.centre, c.axis) / c.length, 0.0, 1.0);
    double turn = table[k].twist * d * d * (3 - 2 * d);
    return table[k].frame.apply(c.parent.centre + rotate(axis_angle(c.axis, turn), p - c.parent.centre));
}

struct Worst {
    double ratio = 0;
    int pairs = 0;
    std::string where;
};

// KNOWN FAILURE (reported by the test engineer; the test is kept as the specification): in the fan-centre
// band the stretch exceeds 20. Worst found: sharp_elbow_chain(), bone 1 (its parent end concave, the fan
// centre I about 3 radii above the inside of the elbow), the pair
//   a = (1.84701776, 2.25562488, 1.84831791), b = (1.84709563, 2.25568652, 1.84832965)   (|a − b| = 1e-4)
// under twists (−2π, −2π): |a' − b'| / |a − b| = 21.6, where the rigid twist motion of the same pair
// stretches it by 1.8 (codes: flags NearFanCentre|FarFromSurface, rigid_blend 0.59). Before the encoder's
// fan band covered an I lying outside the surface (HEAD 867eba4) the same region tore (ratio > 1000).
TEST(BaselineContinuity, PairsStayTogetherInEveryRegionUnderRandomTwists) {
    std::array<Worst, kRegions> worst{};
    Random rng(2024);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<PointPair> pairs;
        // Quotas: each region gets ≥ 1,000 pairs over the four chains (the crease exists on the three
        // bent or flared chains; a fan centre within 3.5 radii of its segment only on the sharp elbow).
        collect(bones, CodeRegion::Segment, 260, segment_points(bones), rng, pairs);
        collect(bones, CodeRegion::JointArc, 260, arc_points(bones), rng, pairs);
        collect(bones, CodeRegion::Crease, 350, crease_points(bones), rng, pairs);
        collect(bones, CodeRegion::FreeCap, 260, cap_points(bones), rng, pairs);
        collect(bones, CodeRegion::NearAxis, 260, axis_points(bones), rng, pairs);
        collect(bones, CodeRegion::NearFanCentre, 1050, fan_centre_points(bones), rng, pairs);
        for (int j = 0; j + 1 < int(bones.size()); ++j) {
            double gap = gap_for(bones[j].cone.child.radius);
            auto across = testing::separator_pairs(bones, j, 56, {-0.2, 0.0, 0.05, 0.4}, gap, rng);
            pairs.insert(pairs.end(), across.begin(), across.end());
        }

        std::vector<Vec3<double>> points;
        for (const auto& p : pairs) points.insert(points.end(), {p.a, p.b});
        BaselineSkinner<double> skinner(s, points, chain.name);
        const auto& codes = skinner.codes();
        std::vector<CodeRegion> region(pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            region[i] = testing::pair_region(bones, codes[2 * i], pairs[i].a, codes[2 * i + 1], pairs[i].b);
            ++worst[int(region[i])].pairs;
        }

        std::vector<Vec3<double>> out;
        for (int trial = 0; trial < 100; ++trial) {
            // Twists uniform in ±360° per bone; the first four poses are the corners of that range
            // (every bone at ±360°, alternating or not), where a twist stretches most.
            Pose pose = testing::random_twist_pose(s, rng, 2 * testing::kBaselinePi);
            if (trial < 4)
                for (std::size_t k = 0; k < pose.joints.size(); ++k)
                    pose.joints[k].twist_radians = 2 * testing::kBaselinePi * ((trial & 1) ? 1 : -1) * ((trial & 2) && k % 2 ? -1 : 1);
            skinner.deform(pose, out);
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                double ratio = norm(out[2 * i] - out[2 * i + 1]) / norm(pairs[i].a - pairs[i].b);
                Worst& w = worst[int(region[i])];
                if (!(ratio <= w.ratio)) {
                    w.ratio = ratio;
                    char text[512];
                    const BaselineCode &ca = codes[2 * i], &cb = codes[2 * i + 1];
                    std::snprintf(text, sizeof text,
                                  "chain %s, a = (%.9g, %.9g, %.9g) [bone %d flags %d phi %.6g t %.6g h %.6g blend %.3g], "
                                  "b = (%.9g, %.9g, %.9g) [bone %d flags %d phi %.6g t %.6g h %.6g blend %.3g], twists",
                                  chain.name.c_str(), pairs[i].a.x, pairs[i].a.y, pairs[i].a.z, ca.bone, ca.flags, ca.phi,
                                  ca.t, ca.h, ca.rigid_blend, pairs[i].b.x, pairs[i].b.y, pairs[i].b.z, cb.bone,
                                  cb.flags, cb.phi, cb.t, cb.h, cb.rigid_blend);
                    w.where = text;
                    for (const auto& j : pose.joints) w.where += " " + std::to_string(j.twist_radians);
                    w.where += " rad; posed |a'-b'| = " + std::to_string(norm(out[2 * i] - out[2 * i + 1]));
                    // For scale: the same pair under each point's bone's rigid twist motion (the fallback's
                    // target), the stretch a twist gives at that distance from the axis anyway.
                    std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
                    double rigid = norm(twist_rigid(bones, table, ca.bone, pairs[i].a) -
                                        twist_rigid(bones, table, cb.bone, pairs[i].b)) /
                                   norm(pairs[i].a - pairs[i].b);
                    w.where += "; the rigid twist motion of each point's bone stretches the pair by " + std::to_string(rigid);
                }
            }
        }
    }
    for (int r = 0; r < kRegions; ++r) {
        const Worst& w = worst[r];
        const char* name = testing::region_name(CodeRegion(r));
        std::printf("[ continuity ] %-16s pairs %6d  worst |a'-b'|/|a-b| = %.4g\n", name, w.pairs, w.ratio);
        ::testing::Test::RecordProperty(std::string("worst_ratio_") + name, std::to_string(w.ratio));
        EXPECT_GE(w.pairs, 1000) << "too few pairs land in region " << name;
        EXPECT_LE(w.ratio, kMaxStretch) << "region " << name << ": " << w.where;
    }
}

}  // namespace
}  // namespace bs
