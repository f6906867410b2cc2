// Baseline skinning, part 2 (bend): the output is continuous in the point under bends (issue 4; DESIGN §2
// "Properties": no tearing across bone, arc/segment, crease, convex/concave, cap or fallback boundaries).
//
// Pairs of points 1e-4 × the local radius apart at rest, deformed by random bend poses (≤150° between
// consecutive posed bone axes, twists ±360°, root motion): the posed distance over the rest distance must
// stay ≤ 20 in every region. Regions are decided per pose, from the codes and from where the posed
// base-points land (testing::posed_place):
//   fallback bands (from the codes' flags; the fan-centre band also by distance to the rest fan centre, as
//   testing::point_region does), free caps, across the separator (codes on two bones), the deep band
//   (kCodeDeep: blended toward the axis foot; pairs 0.2 … 0.8 r deep, drawn apart), across the
//   convex/concave change (one bone, the two posed sections' kinds differ at a joint), crease (a posed
//   base-point on a crease piece or within 0.35 r of a concave end's crop), joint arc (on a posed arc),
//   segment.
// Pairs come from the region generators of tests/support/baseline_bend.hpp (as the twist continuity test's)
// plus, per pose, pairs straddling each posed convex/concave change: the generator angle φ* where a
// joint's posed end kind changes is found by scanning and bisection, and pairs at rest on either side of
// φ* near that joint (heights −0.1 … 0.3 r) are deformed by that pose only.
// Counts (scaled down from the issue: the suite's time budget): 16 poses per chain on the four test chains,
// ~2,900 pairs per chain, each region ≥ 1,000 distinct pairs over the chains (a pair counts for every region
// it falls in under some pose). The worst ratio per region is printed and recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Candidate;
using testing::Generator;
using testing::PointPair;
using testing::PosedPart;
using testing::Random;

constexpr double kMaxStretch = 20;
constexpr int kPoses = 16;

enum Region { kSegment, kArc, kFreeCap, kCrease, kSeparator, kConvexConcave, kNearAxis, kFanCentre, kFarBand, kDeep, kRegions };

const char* region_name(int r) {
    static const char* names[] = {"segment",     "joint_arc",      "free_cap",        "crease",  "separator",
                                  "convex_concave", "near_axis_band", "fan_centre_band", "far_band", "deep_band"};
    return names[r];
}

double gap_for(double radius) { return 1e-4 * radius; }

bool near_crop(const testing::PosedPlace& p, double radius) {
    if (p.part == PosedPart::ParentCrease || p.part == PosedPart::ChildCrease) return true;
    if (p.part != PosedPart::Segment) return false;
    return (p.parent_kind == EndKind::Concave && p.from_parent_crop < 0.35 * radius) ||
           (p.child_kind == EndKind::Concave && p.from_child_crop < 0.35 * radius);
}

// The region of a pair from its codes alone (fallback bands, caps, across bones), or -1: it depends on the pose.
int code_region(const std::vector<BaselineBone<double>>& bones, const BaselineCode& a, Vec3<double> pa, const BaselineCode& b,
                Vec3<double> pb) {
    unsigned flags = a.flags | b.flags;
    auto fan_band = [&](const BaselineCode& c, Vec3<double> p) {
        return testing::point_region(bones, c, p) == testing::CodeRegion::NearFanCentre;
    };
    if ((flags & kCodeNearFanCentre) || fan_band(a, pa) || fan_band(b, pb)) return kFanCentre;
    if (flags & kCodeNearAxis) return kNearAxis;
    if (flags & kCodeFarFromSurface) return kFarBand;
    if (flags & (kCodeParentCap | kCodeChildCap)) return kFreeCap;
    if (a.bone != b.bone) return kSeparator;
    if (flags & kCodeDeep) return kDeep;
    return -1;
}

// Pairs (p, p + gap · random unit) from `make`, `quota` of them (or as many as 40 × quota attempts give);
// with `target` ≥ 0, only pairs whose codes put them in that region (code_region).
void collect(const std::vector<BaselineBone<double>>& bones, int quota, const Generator& make, Random& rng,
             std::vector<PointPair>& pairs, int target = -1) {
    int made = 0;
    for (int attempt = 0; attempt < 40 * quota && made < quota; ++attempt) {
        Candidate c;
        if (!make(rng, c)) continue;
        PointPair pair{c.p, c.p + gap_for(c.radius) * rng.unit_vector()};
        if (target >= 0 && code_region(bones, encode_point(bones, pair.a), pair.a, encode_point(bones, pair.b), pair.b) != target)
            continue;
        pairs.push_back(pair);
        ++made;
    }
}

// The region of a pair of codes on one bone under a pose, from where their posed base-points land.
int posed_region(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& table,
                 const BaselineCode& a, const BaselineCode& b) {
    testing::PosedPlace qa = testing::posed_place(a, bones, table), qb = testing::posed_place(b, bones, table);
    if (qa.parent_kind != qb.parent_kind || qa.child_kind != qb.child_kind) return kConvexConcave;
    const Cone<double>& cone = bones[a.bone].cone;
    double r = std::min(cone.parent.radius, cone.child.radius);
    if (near_crop(qa, r) || near_crop(qb, r)) return kCrease;
    auto on_arc = [](PosedPart p) { return p == PosedPart::ParentArc || p == PosedPart::ChildArc; };
    if (on_arc(qa.part) || on_arc(qb.part)) return kArc;
    return kSegment;
}

struct Worst {
    double ratio = 0;
    long pairs = 0;      // distinct pairs seen in the region
    long instances = 0;  // pair × pose
    long over = 0;       // instances stretched beyond kMaxStretch
    std::string where;
};

std::string describe_pair(const std::string& chain, const PointPair& p, const BaselineCode& ca, const BaselineCode& cb,
                          const Pose& pose, double rest, double posed) {
    char text[600];
    std::snprintf(text, sizeof text,
                  "chain %s, a = (%.12g, %.12g, %.12g) [bone %d flags %d phi %.6g t %.6g h %.6g blend %.3g], "
                  "b = (%.12g, %.12g, %.12g) [bone %d flags %d phi %.6g t %.6g h %.6g blend %.3g]; rest %.3g, posed %.3g; pose:",
                  chain.c_str(), p.a.x, p.a.y, p.a.z, ca.bone, ca.flags, ca.phi, ca.t, ca.h, ca.rigid_blend, p.b.x, p.b.y,
                  p.b.z, cb.bone, cb.flags, cb.phi, cb.t, cb.h, cb.rigid_blend, rest, posed);
    std::string s = text;
    testing::append_pose(s, pose);
    return s;
}

// Whether the posed section of the rest generator at angle φ on bone k is concave at one end.
bool posed_end_concave(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& table,
                       int k, bool child, double phi) {
    LocalChain<double> local = posed_neighbourhood(bones.data(), table.data(), k);
    Section<double> rest = bone_section(bones.data(), k, generator_radial(bones[k], phi));
    PosedSection<double> s = make_posed_section(local, bones.data(), table.data(), k, rest);
    return (child ? s.child.kind : s.parent.kind) == EndKind::Concave;
}

// Pairs straddling the posed convex/concave changes of every joint under one pose: both ends of every
// joint (the incoming bone's child end, the outgoing bone's parent end).
std::vector<PointPair> switch_pairs(const std::vector<BaselineBone<double>>& bones,
                                    const std::vector<BaselineBonePose<double>>& table, Random& rng) {
    std::vector<PointPair> pairs;
    constexpr int kScan = 48;
    for (int k = 0; k < int(bones.size()); ++k) {
        for (bool child : {false, true}) {
            if ((child ? bones[k].next : bones[k].previous) < 0) continue;
            const BaselineBone<double>& bone = bones[k];
            auto concave = [&](double phi) { return posed_end_concave(bones, table, k, child, phi); };
            double step = 2 * testing::kBaselinePi / kScan, start = rng.uniform(0, step);
            bool previous = concave(start);
            for (int i = 1; i <= kScan; ++i) {
                double lo = start + (i - 1) * step, hi = start + i * step;
                bool now = concave(hi);
                if (now == previous) continue;
                previous = now;
                bool at_lo = !now;
                for (int it = 0; it < 40; ++it) {
                    double mid = 0.5 * (lo + hi);
                    if (concave(mid) == at_lo) lo = mid;
                    else hi = mid;
                }
                const double phi = 0.5 * (lo + hi);
                Section<double> rest = bone_section(bones.data(), k, generator_radial(bone, phi));
                const double r = (child ? bone.cone.child : bone.cone.parent).radius;
                for (double along : {0.05, 0.25}) {
                    double sigma = child ? rest.child.sigma - along * r : rest.parent.sigma + along * r;
                    for (double h : {-0.1, 0.05, 0.3}) {
                        Vec3<double> p = rest.at_sigma(sigma) + (h * r) * cone_normal(bone.cone, rest.radial);
                        Vec3<double> off = p - bone.cone.parent.centre;
                        double rho = norm(off - dot(off, bone.cone.axis) * bone.cone.axis);
                        double half = 0.5 * gap_for(r) / rho;
                        pairs.push_back({testing::rotate_about_axis(bone, -half, p), testing::rotate_about_axis(bone, half, p)});
                    }
                }
            }
        }
    }
    return pairs;
}

// History. At 3ec70a2 the convex/concave change (5.0e4), the far band (1.3e3) and the near-axis band
// (45.5) were over the bound, from jumps of the bend targets and of the concave crops; both were replaced
// (docs/ALGORITHM.md, steps 1 and 3). The near-axis band stayed over (worst 96: a deep point's direction,
// the posed bundle's fan at a crease's crop, turned 17 rad per radian of φ, and |h| / ρ amplified it) until
// deep points were blended toward their axis foot (2026-12-02, engine/baseline/deform.hpp detail_point):
// 5.3 now, and the deep band (pairs 0.2 … 0.8 r deep, region deep_band) 9.6. Drawing other random
// streams (seeds 1 … 8 in place of 5005) found, besides: a tear at the separator where the bend's
// continuation (slerp from identity) passed a fold with no pivot circle on a rest-bent joint (2.9e4, fixed
// the same day by BendPath, engine/baseline/bend.hpp); separator tears on the straight chain with a bone
// folded 150° next to a nearly straight joint (seeds 4 and 6: 693 and 5,678; fixed the same day by reading
// the posed bundle's fan at the fraction along the deformed segment, APairAcrossAShortCreaseStaysTogether
// below); far-band pairs at 0.79 r over a joint folded about 150° (seeds 5 and 7: 34 and 149; seed 5's went
// with the same fix, seed 7's was a jump of the stored far-band weight where a joint arc's codes meet the
// segment's, fixed the same day, test_baseline_code.cpp); on seed 8 two pairs over a bone folded at both
// ends whose posed section is 0.1 r long while its bundle's end directions differ by 60–100° (28.5, 21.8;
// fixed the same day by spreading the fan's turn over the creases beside a short segment) and, on seeds 13
// and 20, pairs whose fan was read off a bundle's segment collapsing to a point (2,610, 1,141; fixed by
// mixing the fan toward its plain end directions there, fan_form_weight); and on seeds 22, 24, 35, 39 and
// 40 pairs far over the sharp elbow's free tip where a segment code rode the rigid field and a cap code
// its bone alone (up to 5e4; fixed by giving caps the far band, test_baseline_code.cpp). Over seeds 1 … 40,
// 25 streams went over the bound at that session's start and 1 after it. Seeds 1 … 100 then had 4 over:
// seeds 18 and 81 (22.0, 23.3: a point 1.4 r out turned by a 353° twist, fixed by the far band's full
// height of 1.7 radii), seed 55 (180.6: the near-axis weight stepped where deep inside a joint the code
// passes to the other bone, fixed by making it a function of the point, test_baseline_code.cpp) and seed
// 77 (33.8: a bone folded at both ends into a U, its bundle's segment short beside its radius; fixed by
// measuring the collapse against the larger of the span and the radius, fan_form_weight,
// APairOnABoneFoldedIntoAUStaysTogether below); seeds 101 … 200 then tore twice (163 and 198: a target
// angle passing ±π, fixed by following it from rest, the test below). Seeds 1 … 200: none over. This test
// keeps seed 5005; docs/ALGORITHM.md "Still open" has what is left.
TEST(BaselineBendContinuity, PairsStayTogetherInEveryRegionUnderRandomBends) {
    std::array<Worst, kRegions> worst{};
    Random rng(5005), deep_rng(5006);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<PointPair> pairs;
        collect(bones, 300, testing::segment_points(bones), rng, pairs);
        collect(bones, 700, testing::joint_points(bones, 0.9, -0.1, 0.6), rng, pairs);
        collect(bones, 150, testing::arc_points(bones), rng, pairs);
        collect(bones, 150, testing::crease_points(bones), rng, pairs);
        collect(bones, 300, testing::cap_points(bones), rng, pairs, kFreeCap);
        collect(bones, 300, testing::axis_points(bones), rng, pairs, kNearAxis);
        collect(bones, 300, testing::segment_points(bones, 0.5, 2.2), rng, pairs, kFarBand);
        // Fan centres within 3.5 radii of their segment exist at rest on the sharp elbow only.
        collect(bones, chain.name == "sharp_elbow" ? 1050 : 0, testing::fan_centre_points(bones), rng, pairs, kFanCentre);
        // The deep band's pairs come from a generator of their own, so the other regions' pairs and the poses
        // are those drawn before the band existed.
        collect(bones, 200, testing::segment_points(bones, -0.8, -0.2), deep_rng, pairs, kDeep);
        collect(bones, 150, testing::joint_points(bones, 0.9, -0.8, -0.2), deep_rng, pairs, kDeep);
        for (int j = 0; j + 1 < int(bones.size()); ++j) {
            auto across = testing::separator_pairs(bones, j, 56, {-0.2, 0.0, 0.05, 0.4}, gap_for(bones[j].cone.child.radius), rng);
            pairs.insert(pairs.end(), across.begin(), across.end());
        }
        std::vector<Vec3<double>> points;
        for (const auto& p : pairs) points.insert(points.end(), {p.a, p.b});
        BaselineSkinner<double> skinner(s, points, chain.name);
        const std::vector<BaselineCode>& codes = skinner.codes();
        std::vector<unsigned> seen(pairs.size(), 0);  // bit per region
        std::vector<int> fixed(pairs.size()), region(pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i)
            fixed[i] = code_region(bones, codes[2 * i], pairs[i].a, codes[2 * i + 1], pairs[i].b);
        std::vector<Vec3<double>> out;
        long switch_pairs_made = 0;
        for (int trial = 0; trial < kPoses; ++trial) {
            Pose pose = testing::random_bend_pose(s, rng);
            std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
            skinner.deform(pose, out);
            const long n = long(pairs.size());
#pragma omp parallel for schedule(dynamic, 64)
            for (long i = 0; i < n; ++i)
                region[i] = fixed[i] >= 0 ? fixed[i] : posed_region(bones, table, codes[2 * i], codes[2 * i + 1]);
            auto note = [&](int r, double ratio, const PointPair& p, const BaselineCode& ca, const BaselineCode& cb,
                            Vec3<double> qa, Vec3<double> qb) {
                Worst& w = worst[r];
                ++w.instances;
                w.over += ratio > kMaxStretch;
                if (ratio <= w.ratio) return;
                w.ratio = ratio;
                w.where = describe_pair(chain.name, p, ca, cb, pose, norm(p.a - p.b), norm(qa - qb));
            };
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                int r = region[i];
                if (!(seen[i] & (1u << r))) {
                    seen[i] |= 1u << r;
                    ++worst[r].pairs;
                }
                double ratio = norm(out[2 * i] - out[2 * i + 1]) / norm(pairs[i].a - pairs[i].b);
                note(r, ratio, pairs[i], codes[2 * i], codes[2 * i + 1], out[2 * i], out[2 * i + 1]);
            }
            // Pairs across this pose's convex/concave changes, deformed by this pose only.
            for (const PointPair& p : switch_pairs(bones, table, rng)) {
                BaselineCode ca = encode_point(bones, p.a), cb = encode_point(bones, p.b);
                if (ca.bone != cb.bone || ((ca.flags | cb.flags) & (kCodeParentCap | kCodeChildCap))) continue;
                testing::PosedPlace qa = testing::posed_place(ca, bones, table), qb = testing::posed_place(cb, bones, table);
                if (qa.parent_kind == qb.parent_kind && qa.child_kind == qb.child_kind) continue;  // not across
                Vec3<double> da = deform_baseline_point(ca, p.a, bones.data(), table.data(), int(bones.size()));
                Vec3<double> db = deform_baseline_point(cb, p.b, bones.data(), table.data(), int(bones.size()));
                ++worst[kConvexConcave].pairs;
                ++switch_pairs_made;
                note(kConvexConcave, norm(da - db) / norm(p.a - p.b), p, ca, cb, da, db);
            }
        }
        std::printf("[ bend continuity ] %-11s %zu pairs x %d poses, + %ld pairs across posed convex/concave changes\n",
                    chain.name.c_str(), pairs.size(), kPoses, switch_pairs_made);
    }
    for (int r = 0; r < kRegions; ++r) {
        const Worst& w = worst[r];
        std::printf("[ bend continuity ] %-16s pairs %6ld (x poses %7ld)  worst |a'-b'|/|a-b| = %.4g, %ld over %g\n",
                    region_name(r), w.pairs, w.instances, w.ratio, w.over, kMaxStretch);
        ::testing::Test::RecordProperty(std::string("worst_ratio_") + region_name(r), std::to_string(w.ratio));
        EXPECT_GE(w.pairs, 1000) << "too few pairs land in region " << region_name(r);
        EXPECT_LE(w.ratio, kMaxStretch) << "region " << region_name(r) << ": " << w.where;
    }
}

// A pair across the separator 0.28 r over the surface, drawn by seed 6 in place of 5005 (2026-12-02). The
// posed bundle's segment through bone 1's generator there has collapsed to a point (bone 1 is folded 150°
// at its parent joint), and bone 1's child crease is 5e-6 long. The fan was read where the crop projects on
// the bundle's segment, which for a collapsed segment fell back to the parent end's direction, 40° from the
// pencil at the anchor that bone 2's side has: 5,678. Reading the fan at the fraction along the deformed
// segment hands each end its own end's direction (engine/baseline/deform.hpp, step 5): now under the bound.
TEST(BaselineBendContinuity, APairAcrossAShortCreaseStaysTogether) {
    const Skeleton s = testing::straight_chain();
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    Pose pose = Pose::rest(s);
    pose.joints[0] = {{0.77407876098179218, 0, -0.6314952966049171, -0.044897240035007523}, -4.3196004942457042};
    pose.joints[1] = {{0.25881904510252074, 0, -0.92811350923562319, -0.26761542531505228}, -0.90264674910426113};
    pose.joints[2] = {{0.99819300733922334, 0, 0.053785795738685686, -0.026791944233923056}, -6.0512440970354744};
    const std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
    const PointPair pair{{7.11026127407, -0.963451122327, 0.141436863399}, {7.11030287823, -0.963446460533, 0.141436179037}};
    const BaselineCode a = encode_point(bones, pair.a), b = encode_point(bones, pair.b);
    ASSERT_NE(a.bone, b.bone) << "the pair straddles the separator";
    const Vec3<double> pa = deform_baseline_point(a, pair.a, bones.data(), table.data(), int(bones.size()));
    const Vec3<double> pb = deform_baseline_point(b, pair.b, bones.data(), table.data(), int(bones.size()));
    EXPECT_LE(norm(pa - pb) / norm(pair.a - pair.b), kMaxStretch);
}

// A pair drawn by seed 77 in place of 5005 (2026-12-02) on the straight chain, bone 1 folded at both ends
// into a U: the generator's posed section is 0.084 long (3.04 at rest) and the posed bundle's segment
// 0.0145, its end directions 118° apart. The fan's own form was weighed against the plain interpolation
// by the bundle's length over a quarter of that squeezed span (0.77), a weight that changed by 0.01
// between the pair's generators, 5.6e-5 rad apart, where the two forms differ by 26°: 33.8. The form is
// judged against the bone's radius now (engine/baseline/deform.hpp, fan_form_weight).
TEST(BaselineBendContinuity, APairOnABoneFoldedIntoAUStaysTogether) {
    const Skeleton s = testing::straight_chain();
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    Pose pose = Pose::rest(s);
    pose.joints[0] = {{0.62686718274289133, 0, -0.5690497279457688, 0.53218412445772645}, 3.4004155424064599};
    pose.joints[1] = {{0.28066057259154942, 0, 0.52115888958103995, 0.80599196944091267}, -0.18462861195348701};
    pose.joints[2] = {{0.32833086966054681, 0, 0.93898264223597994, 0.10252042531850267}, 0.32430917204820275};
    const std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
    const PointPair pair{{5.29741242794, -0.258583819571, -1.2855461489}, {5.2974248222, -0.258502547915, -1.28551760414}};
    const BaselineCode a = encode_point(bones, pair.a), b = encode_point(bones, pair.b);
    ASSERT_EQ(a.bone, 1u);
    ASSERT_EQ(b.bone, 1u);
    ASSERT_EQ(a.flags | b.flags, 0u) << "both on the construction, no fallback band";
    const Vec3<double> pa = deform_baseline_point(a, pair.a, bones.data(), table.data(), int(bones.size()));
    const Vec3<double> pb = deform_baseline_point(b, pair.b, bones.data(), table.data(), int(bones.size()));
    EXPECT_LE(norm(pa - pb) / norm(pair.a - pair.b), kMaxStretch);
}

// Two pairs drawn by seeds 163 and 198 in place of 5005 (2026-12-02), on the bent chain folded about 150°
// with nearly a full turn of twist beyond the joint: one of the bend's target angles passed ±π between the
// pair's generators, and taken wrapped it jumped by 2π, which the cubic profile turns into a jump of the
// segment's middle and of the crop's crease (3,447 and 6,037). The target angles are followed from rest
// now (engine/baseline/bend.hpp, bend_targets).
TEST(BaselineBendContinuity, PairsWhereATargetAnglePassesHalfATurnStayTogether) {
    struct Case {
        std::array<double, 10> joints;  // swing w x y z and twist, bones 0 and 1
        PointPair pair;
    };
    const Case cases[] = {
        {{0.9608751880009726, 0, 0.24072794777110884, 0.13699973812385849, -1.66376111191029, 0.25895989390614532,
          -0.022165724918451608, 0.012797762654995154, 0.96554889635791297, 5.9355146739625884},
         {{4.5522225901, 1.66612157371, 0.11482335979}, {4.55213858976, 1.66612704758, 0.1147693785}}},
        {{0.78649709546152524, 0, -0.21223379939948731, 0.57998201112020942, -6.1035015716827479, 0.25990836369073761,
          0.060312493100153353, -0.034822455600550438, 0.96311860237750313, 5.5317871634092697},
         {{2.19175568613, 1.04193524702, -2.47911888908}, {2.19177474785, 1.04202227805, -2.47918548507}}},
    };
    const Skeleton s = testing::bent_chain();
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    for (const Case& c : cases) {
        Pose pose = Pose::rest(s);
        for (int k = 0; k < 2; ++k)
            pose.joints[k] = {{c.joints[5 * k], c.joints[5 * k + 1], c.joints[5 * k + 2], c.joints[5 * k + 3]}, c.joints[5 * k + 4]};
        const std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
        const BaselineCode a = encode_point(bones, c.pair.a), b = encode_point(bones, c.pair.b);
        ASSERT_EQ(a.bone, b.bone);
        const Vec3<double> pa = deform_baseline_point(a, c.pair.a, bones.data(), table.data(), int(bones.size()));
        const Vec3<double> pb = deform_baseline_point(b, c.pair.b, bones.data(), table.data(), int(bones.size()));
        EXPECT_LE(norm(pa - pb) / norm(c.pair.a - c.pair.b), kMaxStretch) << "bone " << a.bone << ", h " << a.h;
    }
}

// Base-points of generators 1e-3 rad apart at random t on every bone of a chain, under 60 random poses
// bent up to `max_bend_degrees` at every joint (twists up to ±π), direct construction: the largest gap
// between a pair and how many exceed kPairGap (50 × the spacing at radius 1, the bodies' largest): a
// flip of a section moves its points by the radius there, while near a small sphere the targets may
// change 13× faster than φ without tearing, so a stretch against the rest spacing would say nothing there.
struct GeneratorPairScan {
    double largest_gap = 0;
    int jumps = 0;
};
constexpr double kPairGap = 0.05;

GeneratorPairScan scan_generator_pairs(const Skeleton& s, const char* body, double max_bend_degrees) {
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    Random rng(77);
    GeneratorPairScan scan;
    for (int trial = 0; trial < 60; ++trial) {
        Pose pose = Pose::rest(s);
        for (std::size_t k = 0; k < s.bone_count(); ++k) {
            pose.joints[k].twist_radians = rng.uniform(-testing::kBaselinePi, testing::kBaselinePi);
            const Vec3<double> axis = s.rest_axis(int(k)), e = rng.unit_vector();
            pose.joints[k].swing =
                axis_angle(normalized(e - dot(e, axis) * axis), testing::radians_of(rng.uniform(0, max_bend_degrees)));
        }
        const std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
        for (int n = 0; n < 300; ++n) {
            BaselineCode a{};
            a.bone = std::uint16_t(rng.uniform(0, double(bones.size()) - 1e-9));
            a.phi = float(rng.uniform(-3.1, 3.1));
            a.t = float(rng.uniform(0.01, 0.99));
            BaselineCode b = a;
            b.phi = a.phi + 1e-3f;
            const Vec3<double> unused_rest{};  // flags 0: the rest point feeds no fallback blend
            auto base = [&](const BaselineCode& c) { return deform_baseline_point(c, unused_rest, bones.data(), table.data(), int(bones.size())); };
            const double gap = norm(base(a) - base(b));
            scan.largest_gap = std::max(scan.largest_gap, gap);
            scan.jumps += gap > kPairGap;
        }
    }
    std::printf("[ %s ] bends up to %.0f°: largest gap of generator pairs 1e-3 rad apart %.4f, %d above %.2f\n", body,
                max_bend_degrees, scan.largest_gap, scan.jumps, kPairGap);
    return scan;
}

// A joint between two cones that mirror each other about a sphere of radius 0.01 (radius ratio 1:100
// between neighbouring spheres, the stress test's body): there the map from a parent generator to where
// its baseline crosses the separator degenerates, and the two candidates for the targets' baseline
// (engine/baseline/bend.hpp, belt_crossing_at) cross at E both, or neither, equally well. Taken by the
// smaller miss, the choice fell to rounding and flipped between generators 1e-3 rad apart, turning the
// deformed segment by about π at that end (2026-12-04: 7 of these 18,000 pairs jumped, by up to 0.54;
// under bends up to 135°, 331). Where the misses tie, the baseline nearer the targets followed along the
// continuation is taken. Under bends up to 90° no pair jumps (gaps of 0.013 at most); under bends up to
// 135° at most kMirroredJumpsAt135 may (1 does; there the continuation of Δβ itself is ambiguous,
// docs/ALGORITHM.md step 1).
constexpr int kMirroredJumpsAt135 = 2;

TEST(BaselineBendContinuity, GeneratorsAtAJointOfMirroredConesStayTogether) {
    const Skeleton s = testing::ratio_1_100_chain();
    EXPECT_LE(scan_generator_pairs(s, "mirrored cones", 90).largest_gap, kPairGap);
    EXPECT_LE(scan_generator_pairs(s, "mirrored cones", 135).jumps, kMirroredJumpsAt135);
}

// A nearly degenerate cone, |C1 − C2| = |r1 − r2| (1 + 1e-6) (the stress test's body): a disc whose
// generators are 7e-4 long, after a cylinder. Its rest crop is clamped to σ = 0, so its rest segment is
// empty and its ends differ by rounding; the turn's ramp (bends and twist) over that span was a step whose
// side rounding picked (2026-12-04: 680 of these 18,000 pairs jumped under bends up to 45°, by up to 0.10;
// 1,265 under bends up to 170°, by up to 1.96). The ramp now spans at least kTurnRampFloor of the
// generator (engine/baseline/posed_section.hpp): no pair jumps (largest gaps 0.0017 and 0.043; the latter
// on a smooth, steep stretch of a 170° fold, 46 per radian of φ). The poses are not checked against the
// skinner's limits: a fold whose separator misses the joint sphere, which BaselineSkinner refuses, gives
// its joint targets 0 here, and its points must still not jump.
TEST(BaselineBendContinuity, GeneratorsOnANearlyDegenerateConeStayTogether) {
    const Skeleton s = testing::near_degenerate_chain();
    EXPECT_LE(scan_generator_pairs(s, "near-degenerate cone", 45).largest_gap, kPairGap);
    EXPECT_LE(scan_generator_pairs(s, "near-degenerate cone", 170).largest_gap, kPairGap);
}

}  // namespace
}  // namespace bs
