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
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Candidate;
using testing::CodeRegion;
using testing::Generator;
using testing::PointPair;
using testing::Random;

constexpr double kMaxStretch = 20;
constexpr int kRegions = int(CodeRegion::Count);

double gap_for(double radius) { return 1e-4 * radius; }

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
        // Region generators from tests/support/baseline_bend.hpp (segment heights −0.15 … 1 radius; fan
        // centres within 3.5 radii of their segment: farther out, a twist's legitimate stretch, which grows
        // with the distance to the axis, would mask a tear; nearer in is also where the fan folds hardest).
        collect(bones, CodeRegion::Segment, 260, testing::segment_points(bones), rng, pairs);
        collect(bones, CodeRegion::JointArc, 260, testing::arc_points(bones), rng, pairs);
        collect(bones, CodeRegion::Crease, 350, testing::crease_points(bones), rng, pairs);
        collect(bones, CodeRegion::FreeCap, 260, testing::cap_points(bones), rng, pairs);
        collect(bones, CodeRegion::NearAxis, 260, testing::axis_points(bones), rng, pairs);
        collect(bones, CodeRegion::NearFanCentre, 1050, testing::fan_centre_points(bones, 3.5), rng, pairs);
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
