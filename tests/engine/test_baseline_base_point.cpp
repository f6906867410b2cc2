// Baseline skinning, part 1 (twist): the posed base-point stays on its own bone's posed surface
// (DESIGN §2 "Properties"). posed_base gives it in the bone's frame F⁰_k, where the bone is at rest, so
// its signed distance to the bone's rest hull (closest_point_on_bone) must vanish: |sd| < 1e-4 × the
// local radius, for every non-cap code without kCodeClamped, under random twists up to ±360° per bone.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/baseline/deform.hpp"
#include "host/baseline_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "tests/support/baseline.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

using testing::Random;

// Points around the chain, plus points hugging each joint sphere (arcs, crease, separator).
std::vector<Vec3<double>> base_point_test_points(const Skeleton& s, const std::vector<BaselineBone<double>>& bones,
                                                 Random& rng) {
    std::vector<Vec3<double>> points = testing::points_around(s, 4000, 97, -0.8, 1.5);
    for (const auto& bone : bones) {
        if (bone.next < 0) continue;
        const Sphere<double>& j = bone.cone.child;
        for (int i = 0; i < 1500; ++i)
            points.push_back(testing::point_at_height(bones, j.centre, rng.unit_vector(),
                                                      rng.uniform(-0.3, 0.8) * j.radius, 8 * j.radius));
    }
    return points;
}

TEST(BaselineBasePoint, PosedBasePointLiesOnItsBonesSurfaceUnderRandomTwists) {
    Random rng(5150);
    for (const auto& chain : testing::all_chains()) {
        const Skeleton& s = chain.skeleton;
        std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
        std::vector<Vec3<double>> points = base_point_test_points(s, bones, rng);
        std::vector<BaselineCode> codes = encode_points(bones, points, chain.name);
        double worst = 0;
        std::string worst_case;
        int checked = 0;
        for (int trial = 0; trial < 12; ++trial) {
            Pose pose = trial == 0 ? Pose::rest(s) : testing::random_twist_pose(s, rng, 2 * testing::kBaselinePi);
            std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
            for (std::size_t i = 0; i < points.size(); ++i) {
                const BaselineCode& c = codes[i];
                if (c.flags & (kCodeParentCap | kCodeChildCap | kCodeClamped)) continue;
                ++checked;
                PosedBase<double> b = posed_base(c, bones.data(), table.data());
                const Cone<double>& cone = bones[c.bone].cone;
                double sd = closest_point_on_bone(cone, b.base).signed_distance;
                double relative = std::fabs(sd) / testing::local_radius(cone, b.base);
                if (!(relative <= worst)) {
                    worst = relative;
                    char text[400];
                    std::snprintf(text, sizeof text,
                                  "point (%.9g, %.9g, %.9g): bone %d flags %d phi %.6g t %.6g h %.6g; twists",
                                  points[i].x, points[i].y, points[i].z, c.bone, c.flags, c.phi, c.t, c.h);
                    worst_case = text;
                    for (const auto& j : pose.joints) worst_case += " " + std::to_string(j.twist_radians);
                    worst_case += "; posed base (" + std::to_string(b.base.x) + ", " + std::to_string(b.base.y) + ", " +
                                  std::to_string(b.base.z) + "), signed distance " + std::to_string(sd);
                }
            }
        }
        EXPECT_GT(checked, 12 * 4000) << chain.name;
        EXPECT_LT(worst, 1e-4) << chain.name << ": posed base-point off its bone's surface; " << worst_case;
        std::printf("[ base point ] %s: %d checks, worst |sd| / local radius = %.3g\n", chain.name.c_str(), checked,
                    worst);
        ::testing::Test::RecordProperty("worst_relative_sd_" + chain.name, std::to_string(worst));
    }
}

}  // namespace
}  // namespace bs
