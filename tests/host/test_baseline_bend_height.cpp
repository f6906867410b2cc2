// Baseline skinning, part 2 (bend): the posed point keeps its height (issue 4, DESIGN §2 "Properties").
// Unflagged points (not a cap, not kCodeClamped, not kCodeDeep, rigid_blend = 0) whose posed base-point's segment has arcs
// at both ends, and whose |h| is below the gap to any other bone, have signed distance h to the posed
// surface, to 1e-4 × the local radius.
//
// "Arcs at both ends": the base-point is on the deformed segment and the posed bundle's section through its
// generator (the one the detail direction is built from) has no concave end, or it is on a posed arc of a
// section with no concave end (free ends count as arc ends: the cap continues the cone C¹ there, and the
// end direction is the cone's normal, as at an arc). "The gap to any other bone": the signed distance of the
// posed base-point b' to each other bone's posed hull, leaving out a bone whose hull shares the surface at
// b' (b' on it with the same outward normal: the neighbour's hull contains the joint sphere, and by
// convexity it cannot come nearer than |h| to b' + h n'). Posed hulls are the rest cones moved by
// posed_bones, measured with closest_point_on_bone; the posed point comes from BaselineSkinner<double>'s
// direct construction (--exact): the tables agree with it to 1e-4 of the radius (test_baseline_table.cpp).
// Checked: |sd_k(p') − h| (bone k's own posed hull) wherever |h| < gap, and |sd(p') − h| for the union
// (min over bones) wherever 2|h| < gap (then no other bone can be nearer p' than |h|).
// Counts: 16 random bend poses (≤150° between consecutive posed axes, twists ±360°) × (2,500 points
// around each chain, heights −0.5 … 0.6 radii, + 1,000 near its joints) on the four test chains.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"

namespace bs {
namespace {

using testing::Random;

constexpr int kPoses = 16;
constexpr double kTolerance = 1e-4;

struct HeightCheck {
    enum Kind { Skipped, NotConvex, AboveGap, Checked } kind = Skipped;
    bool union_checked = false;
    double own = 0;    // |sd_k(p') − h| / r
    double body = 0;   // |sd(p') − h| / r, union
    double mismatch = 0;  // |F(b + h n) − p'| / r, b from testing::posed_place, p' from the skinner
    testing::PosedPart part = testing::PosedPart::Cap;
};

HeightCheck check_height(const BaselineCode& code, Vec3<double> posed_point, const std::vector<BaselineBone<double>>& bones,
                         const std::vector<BaselineBonePose<double>>& table, const std::vector<Cone<double>>& cones) {
    HeightCheck out;
    // A deep code (more than kDeepStart of the way to its axis foot) blends toward the foot instead of
    // keeping its height (docs/ALGORITHM.md "Deep points").
    if ((code.flags & (kCodeParentCap | kCodeChildCap | kCodeClamped | kCodeDeep)) || code.rigid_blend != 0.0f) return out;
    const int k = code.bone;
    PosedBase<double> b;
    testing::PosedPlace place = testing::posed_place(code, bones, table, &b);
    out.part = place.part;
    bool convex = false;
    if (place.part == testing::PosedPart::Segment) {
        LocalChain<double> local = posed_neighbourhood(bones.data(), table.data(), k);
        const Cone<double>& cone = bones[k].cone;
        Vec3<double> d = b.base - cone.parent.centre;
        Section<double> bundle = bone_section(local.bones, 1, normalized(d - dot(d, cone.axis) * cone.axis));
        convex = bundle.parent.kind != EndKind::Concave && bundle.child.kind != EndKind::Concave;
    } else if (place.part == testing::PosedPart::ParentArc || place.part == testing::PosedPart::ChildArc) {
        convex = place.parent_kind != EndKind::Concave && place.child_kind != EndKind::Concave;
    }
    if (!convex) {
        out.kind = HeightCheck::NotConvex;
        return out;
    }
    const Rigid<double>& frame = table[k].frame;
    Vec3<double> base = frame.apply(b.base), normal = frame.apply_vector(b.direction);
    const double r = testing::local_radius(bones[k].cone, b.base), h = double(code.h);
    // testing::posed_place rebuilds the engine's posed section step by step; it must agree with the pass.
    out.mismatch = norm(base + h * normal - posed_point) / r;
    double gap = INFINITY;
    for (std::size_t m = 0; m < cones.size(); ++m) {
        if (int(m) == k) continue;
        SurfacePoint<double> q = closest_point_on_bone(cones[m], base);
        if (std::fabs(q.signed_distance) < 1e-7 * r && dot(q.normal, normal) > 1 - 1e-6) continue;  // shared surface
        gap = std::min(gap, q.signed_distance);
    }
    if (!(std::fabs(h) < gap)) {
        out.kind = HeightCheck::AboveGap;
        return out;
    }
    out.kind = HeightCheck::Checked;
    out.own = std::fabs(closest_point_on_bone(cones[k], posed_point).signed_distance - h) / r;
    if (2 * std::fabs(h) < gap) {
        out.union_checked = true;
        double body = INFINITY;
        for (const Cone<double>& c : cones) body = std::min(body, closest_point_on_bone(c, posed_point).signed_distance);
        out.body = std::fabs(body - h) / r;
    }
    return out;
}

TEST(BaselineBendHeight, PointsOverConvexSectionsKeepTheirHeightOverThePosedSurface) {
    Random rng(4404);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = testing::points_around(s, 2500, 44, -0.5, 0.6);
        testing::add_joint_points(points, bones, rng, 1000, 1.2, -0.3, 0.5);
        BaselineSkinner<double> skinner(s, points, chain.name);
        skinner.set_deform_options({true});  // the construction itself; the tables agree with it (test_baseline_table)
        const std::vector<BaselineCode>& codes = skinner.codes();
        long checked = 0, union_checked = 0, not_convex = 0, above_gap = 0, on_arcs = 0;
        double worst_own = 0, worst_body = 0, worst_mismatch = 0;
        std::string worst_own_case, worst_body_case;
        std::vector<Vec3<double>> out;
        std::vector<HeightCheck> result(points.size());
        for (int trial = 0; trial < kPoses; ++trial) {
            Pose pose = testing::random_bend_pose(s, rng);
            skinner.deform(pose, out);
            std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
            std::vector<Cone<double>> cones = testing::posed_cones(bones, posed_bones(s, pose));
            const long n = long(points.size());
#pragma omp parallel for schedule(dynamic, 64)
            for (long i = 0; i < n; ++i) result[i] = check_height(codes[i], out[i], bones, table, cones);
            for (std::size_t i = 0; i < points.size(); ++i) {
                const HeightCheck& r = result[i];
                if (r.kind == HeightCheck::NotConvex) ++not_convex;
                if (r.kind == HeightCheck::AboveGap) ++above_gap;
                if (r.kind != HeightCheck::Checked) continue;
                ++checked;
                worst_mismatch = std::max(worst_mismatch, r.mismatch);
                if (r.part != testing::PosedPart::Segment) ++on_arcs;
                auto note = [&](double value, double& worst, std::string& where) {
                    if (value <= worst) return;
                    worst = value;
                    where = testing::describe_point(chain.name, points[i], codes[i], pose) + "; posed part " + testing::posed_part_name(r.part);
                };
                note(r.own, worst_own, worst_own_case);
                if (r.union_checked) {
                    ++union_checked;
                    note(r.body, worst_body, worst_body_case);
                }
            }
        }
        EXPECT_GT(checked, 7000) << chain.name;
        EXPECT_LT(worst_mismatch, 1e-9) << "the test's posed base-point disagrees with the skinner's output";
        EXPECT_LT(worst_own, kTolerance) << "|sd to own posed hull - h| / r = " << worst_own << ": " << worst_own_case;
        EXPECT_LT(worst_body, kTolerance) << "|sd to posed body - h| / r = " << worst_body << ": " << worst_body_case;
        std::printf("[ bend height ] %-11s %ld checked (%ld on arcs; %ld against the whole body), skipped %ld with a "
                    "concave end, %ld with |h| over the gap; worst |sd - h| / r: own hull %.3g, body %.3g\n",
                    chain.name.c_str(), checked, on_arcs, union_checked, not_convex, above_gap, worst_own, worst_body);
        ::testing::Test::RecordProperty("worst_relative_height_error_" + chain.name, std::to_string(std::max(worst_own, worst_body)));
    }
}

}  // namespace
}  // namespace bs
