// Bones left out of the per-frame tables (host/baseline_skinner.hpp, BaselineDeformOptions::min_tabulated_points):
// which bones are left out, and what their points get. A point of a tabulated bone (or a cap point, which reads
// only the fan grid's angles) gets what it gets when every bone is tabulated, and another point the direct
// construction, both to the bit; with no bone tabulated there are no tables; the kept tables of a cache equal
// a build from nothing, also as the tabulated bones or the sample counts change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/points.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

BaselineCode code_of(int bone, std::uint16_t flags = 0) {
    BaselineCode c{};
    c.bone = std::uint16_t(bone);
    c.flags = flags;
    return c;
}

TEST(BaselineTabulatedBones, ABoneIsTabulatedWhereEnoughCodesReadItsTables) {
    // Bone 0: two codes on its section; bone 1: one, and three caps (which read no table); bone 2: none.
    const std::vector<BaselineCode> codes{code_of(0), code_of(1, kCodeParentCap), code_of(0), code_of(1), code_of(1, kCodeChildCap),
                                          code_of(1, kCodeParentCap | kCodeNearJunction)};
    EXPECT_EQ(tabulated_bones(codes, 3, 0), (std::vector<unsigned char>{1, 1, 1}));
    EXPECT_EQ(tabulated_bones(codes, 3, 1), (std::vector<unsigned char>{1, 1, 0}));
    EXPECT_EQ(tabulated_bones(codes, 3, 2), (std::vector<unsigned char>{1, 0, 0}));
    EXPECT_EQ(tabulated_bones(codes, 3, 3), (std::vector<unsigned char>{0, 0, 0}));
}

bool same_bits(Vec3<double> a, Vec3<double> b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(BaselineTabulatedBones, PointsOfALeftOutBoneTakeTheDirectConstructionAndTheOthersTheirTables) {
    std::size_t tabulated_points = 0, direct_points = 0, direct_unlike_tables = 0;
    for (const testing::TableBody& body : testing::table_bodies()) {
        const Skeleton& s = body.skeleton;
        const std::vector<Vec3<double>> points = testing::points_around(s, 3000, 81);
        BaselineSkinner<double> mixed(s, points, body.name), every(s, points, body.name), exact(s, points, body.name);
        BaselineDeformOptions options;
        options.min_tabulated_points = testing::median_table_readers(mixed.codes(), mixed.bones().size());
        mixed.set_deform_options(options);
        every.set_deform_options(testing::tables_for_every_bone());
        exact.set_deform_options({true});
        const std::vector<unsigned char>& tabulated = mixed.tabulated();
        Random rng(82);
        for (int pose_index = 0; pose_index < 4; ++pose_index) {
            const Pose pose = testing::random_bend_pose(s, rng);
            std::vector<Vec3<double>> a, b, c;
            mixed.deform(pose, a);
            every.deform(pose, b);
            exact.deform(pose, c);
            for (std::size_t i = 0; i < points.size(); ++i) {
                const BaselineCode& code = mixed.codes()[i];
                const bool cap = code.flags & (kCodeParentCap | kCodeChildCap);
                const std::string where = body.name + ", pose " + std::to_string(pose_index) + ", point " + std::to_string(i);
                if (tabulated[code.bone] || cap) {
                    ++tabulated_points;
                    ASSERT_TRUE(same_bits(a[i], b[i])) << where << ": not what every bone's tables give";
                } else {
                    ++direct_points;
                    ASSERT_TRUE(same_bits(a[i], c[i])) << where << ": not the direct construction";
                    direct_unlike_tables += !same_bits(a[i], b[i]);
                }
            }
        }
    }
    std::printf("[ tabulated ] %zu point-poses through tables, %zu direct (%zu of them unlike the tables' to the bit)\n",
                tabulated_points, direct_points, direct_unlike_tables);
    EXPECT_GT(tabulated_points, 0u);
    EXPECT_GT(direct_points, 0u);
    EXPECT_GT(direct_unlike_tables, 0u) << "the direct points are the tables' too: the test cannot tell the two routes apart";
}

TEST(BaselineTabulatedBones, NoBoneTabulatedMeansNoTablesAndEveryPointDirect) {
    const Skeleton s = testing::long_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 500, 83);
    BaselineSkinner<double> few(s, points, "long chain"), exact(s, points, "long chain");
    exact.set_deform_options({true});
    ASSERT_EQ(std::count(few.tabulated().begin(), few.tabulated().end(), 1), 0) << "500 points tabulated a bone of the long chain";
    Random rng(84);
    const Pose pose = testing::random_bend_pose(s, rng);
    const BaselineFrameTables tables = few.frame_tables(few.frame(pose));
    EXPECT_EQ(tables.phi_samples, 0);
    EXPECT_EQ(tables.bytes(), 0u);
    std::vector<Vec3<double>> a, b;
    few.deform(pose, a);
    exact.deform(pose, b);
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3<double>)), 0);
}

TEST(BaselineTabulatedBones, ACacheKeepsTheTabulatedBonesAndEqualsABuildFromNothing) {
    std::size_t left_out = 0, kept_frames = 0;
    for (const testing::TableBody& body : testing::table_bodies()) {
        const Skeleton& s = body.skeleton;
        BaselineSkinner<double> skinner(s, testing::points_around(s, 3000, 85), body.name);
        const std::vector<std::size_t> readers = table_readers(skinner.codes(), skinner.bones().size());
        // Per two steps: half the bones, every bone, none, half again at other sample counts, half again.
        const int half = testing::median_table_readers(skinner.codes(), skinner.bones().size()),
                  none = int(*std::max_element(readers.begin(), readers.end())) + 1;
        const int thresholds[] = {half, 0, none, half, half};
        Random rng(86);
        Pose pose = testing::random_bend_pose(s, rng);
        BaselineTableCache cache;
        for (int step = 0; step < 10; ++step) {
            BaselineDeformOptions options;
            options.min_tabulated_points = thresholds[step / 2];
            if (step / 2 == 3) options.phi_samples = 64, options.fan_samples = 128;
            skinner.set_deform_options(options);
            const std::vector<unsigned char>& tabulated = skinner.tabulated();
            left_out += std::size_t(std::count(tabulated.begin(), tabulated.end(), 0));
            if (step % 2 == 0) pose = testing::random_bend_pose(s, rng);
            else pose.root.translation.x += 0.1;  // no bone's tables change
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
            const BaselineFrameTables& kept = cache.update(skinner.bones(), poses, options, {}, tabulated);
            const BaselineFrameTables fresh = skinner.frame_tables(poses);
            const std::string where = body.name + ", step " + std::to_string(step);
            kept_frames += step % 2 == 1 && cache.bones_rebuilt() == 0;
            if (step % 2 == 1) {
                EXPECT_EQ(cache.bones_rebuilt(), 0u) << where;
            }
            EXPECT_EQ(kept.cells, fresh.cells) << where;
            EXPECT_EQ(kept.fan_cells, fresh.fan_cells) << where;
            EXPECT_EQ(kept.direct, fresh.direct) << where;
            for (std::size_t k = 0; k < tabulated.size() && fresh.phi_samples > 0; ++k) {
                const auto first = fresh.cells.begin() + std::ptrdiff_t(k) * fresh.phi_samples;
                EXPECT_EQ(std::count(first, first + fresh.phi_samples, kUntabulatedCell), tabulated[k] ? 0 : fresh.phi_samples)
                    << where << ", bone " << k;
            }
            std::vector<Vec3<double>> a(skinner.size()), b(skinner.size());
            for (auto [tables, out] : {std::pair{&kept, &a}, std::pair{&fresh, &b}})
                cpu::deform_baseline(BaselineJob<double>{{packed_scalars(skinner.rest().data()), 3}, skinner.codes().data(), skinner.size(),
                                                         skinner.bones().data(), poses.data(), poses.size(), {packed_scalars(out->data()), 3},
                                                         tables->view()},
                                     {});
            ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3<double>)), 0) << where;
        }
    }
    EXPECT_GT(left_out, 0u);
    EXPECT_GT(kept_frames, 0u);
}

TEST(BaselineTabulatedBones, RefusesANegativeThresholdAndFlagsForAnotherBoneCount) {
    const Skeleton s = testing::bent_chain();
    BaselineSkinner<double> skinner(s, testing::points_around(s, 100, 87), "bent chain");
    BaselineDeformOptions options;
    options.min_tabulated_points = -1;
    EXPECT_THROW(skinner.set_deform_options(options), InputError);
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(Pose::rest(s));
    EXPECT_THROW(build_frame_tables(skinner.bones(), poses, {}, {}, std::vector<unsigned char>(s.bone_count() + 1, 1)), InputError);
    BaselineTableCache cache;
    EXPECT_THROW(cache.update(skinner.bones(), poses, {}, {}, std::vector<unsigned char>(1, 1)), InputError);
}

}  // namespace
}  // namespace bs
