// The rigid field's bones kept per code (host/baseline_rig.hpp keep_field_bones; engine/baseline/deform.hpp
// FieldBones): the bones, weights and order a blended code's field would search for every frame, found once
// when the skinner is built. They are exactly what the search finds, the pass gives the same points to the
// bit with them as without them (through the tables and by the direct construction), a pool too small for
// all of them leaves the rest to the search, and a skinner from saved codes keeps the same ones.
#include <gtest/gtest.h>

#include <cstring>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/points.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

// Twelve bones from one root sphere in directions spread over it: far from it every bone weighs in the
// field, more than kFieldCandidates, so those codes keep nothing.
Skeleton star_of_twelve() {
    Random rng(4101);
    std::vector<Sphere<double>> spheres{{{0, 0, 0}, 1.5}};
    std::vector<std::array<int, 2>> bones;
    for (int i = 0; i < 12; ++i) {
        spheres.push_back({rng.unit_vector() * rng.uniform(3.0, 6.0), rng.uniform(0.4, 0.9)});
        bones.push_back({0, i + 1});
    }
    return make_skeleton(spheres, bones, {}, "star of twelve", SkeletonRules::Tree);
}

struct Body {
    std::string name;
    Skeleton skeleton;
    std::vector<Vec3<double>> points;
};

// The junction bodies with points from inside them to three radii out, and the star with points up to
// 40 radii out.
std::vector<Body> bodies() {
    std::vector<Body> out;
    for (const testing::NamedJunction& j : testing::all_junctions())
        out.push_back({j.name, j.skeleton, testing::points_around(j.skeleton, 4000, 4102, -0.6, 3.0)});
    const Skeleton star = star_of_twelve();
    out.push_back({"star of twelve", star, testing::points_around(star, 4000, 4103, -0.6, 40.0)});
    return out;
}

bool same_bits(const void* a, const void* b, std::size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

// The skinner's points for `pose`, its field bones given as `kept` (null refs: every code searches).
std::vector<Vec3<double>> deformed(const BaselineSkinner<double>& skinner, const Pose& pose, const KeptFieldBones* kept) {
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
    const BaselineFrameTables tables = skinner.frame_tables(poses);
    std::vector<Vec3<double>> out(skinner.size());
    BaselineJob<double> job{{packed_scalars(skinner.rest().data()), 3}, skinner.codes().data(), skinner.size(), skinner.bones().data(),
                            poses.data(), poses.size(), {packed_scalars(out.data()), 3}, tables.view()};
    if (kept) job.field_refs = kept->refs.data(), job.field_pool = kept->pool.data();
    cpu::deform_baseline(job, {});
    return out;
}

TEST(BaselineFieldBones, KeptBonesAreWhatTheSearchFinds) {
    long kept_codes = 0, overflowing = 0, unblended = 0;
    for (const Body& body : bodies()) {
        const BaselineSkinner<double> skinner(body.skeleton, body.points, body.name);
        const KeptFieldBones& kept = skinner.field_bones();
        ASSERT_EQ(kept.refs.size(), skinner.size());
        std::size_t entries = 0;
        for (std::size_t i = 0; i < skinner.size(); ++i) {
            const BaselineCode& code = skinner.codes()[i];
            const FieldBones at = kept_field_bones(kept.refs[i], kept.pool.data());
            if (!(code.rigid_blend > 0.0f)) {
                EXPECT_EQ(kept.refs[i], kFieldNotKept) << body.name << " point " << i;
                ++unblended;
                continue;
            }
            const FieldSearch<double> found = search_field_bones(skinner.bones().data(), int(skinner.bones().size()), skinner.rest()[i], int(code.bone));
            if (found.overflow || found.count == 0) {
                EXPECT_EQ(kept.refs[i], kFieldNotKept) << body.name << " point " << i;
                overflowing += found.overflow;
                continue;
            }
            ASSERT_EQ(at.count, found.count) << body.name << " point " << i;
            ASSERT_EQ(at.weights, kept.pool.data() + entries) << body.name << " point " << i << ": entries are kept code after code";
            for (int c = 0; c < found.count; ++c) {
                EXPECT_EQ(at.weights[c].bone, found.found[c].bone) << body.name << " point " << i;
                EXPECT_TRUE(same_bits(&at.weights[c].weight, &found.found[c].weight, sizeof(float))) << body.name << " point " << i;
            }
            entries += std::size_t(found.count);
            ++kept_codes;
        }
        EXPECT_EQ(entries, kept.pool.size()) << body.name;
    }
    // Every kind of code was met: kept, too many bones to keep (far from the star), not blended.
    EXPECT_GT(kept_codes, 2000);
    EXPECT_GT(overflowing, 50);
    EXPECT_GT(unblended, 2000);
}

TEST(BaselineFieldBones, ThePassGivesTheSamePointsWithOrWithoutThem) {
    Random rng(4104);
    long blended = 0;
    for (const Body& body : bodies()) {
        BaselineSkinner<double> skinner(body.skeleton, body.points, body.name);
        for (const bool exact : {false, true}) {
            BaselineDeformOptions options = testing::tables_for_every_bone();
            options.exact = exact;
            skinner.set_deform_options(options);
            for (int pose_index = 0; pose_index < 3; ++pose_index) {
                const Pose pose = testing::random_bend_pose(body.skeleton, rng);
                std::vector<Vec3<double>> own;
                skinner.deform(pose, own);
                const std::vector<Vec3<double>> kept = deformed(skinner, pose, &skinner.field_bones()),
                                                searched = deformed(skinner, pose, nullptr);
                for (std::size_t i = 0; i < skinner.size(); ++i) {
                    ASSERT_TRUE(same_bits(&own[i], &kept[i], sizeof own[i])) << body.name << " point " << i;
                    ASSERT_TRUE(same_bits(&kept[i], &searched[i], sizeof kept[i])) << body.name << " point " << i << (exact ? " (direct)" : " (tables)");
                    blended += skinner.codes()[i].rigid_blend > 0.0f;
                }
            }
        }
    }
    EXPECT_GT(blended, 10000);
}

// The pass reads the kept bones (the test above would pass if it ignored them): with every kept weight
// made equal, the blended points whose bones weighed unequally move, and no other point does.
TEST(BaselineFieldBones, ThePassReadsTheKeptBones) {
    const testing::NamedJunction j = testing::three_bone_junction();
    const std::vector<Vec3<double>> points = testing::points_around(j.skeleton, 3000, 4108, -0.6, 3.0);
    const BaselineSkinner<double> skinner(j.skeleton, points, j.name);
    KeptFieldBones equal = skinner.field_bones();
    for (FieldWeight& w : equal.pool) w.weight = 1.0f;
    Random rng(4109);
    const Pose pose = testing::random_bend_pose(j.skeleton, rng);
    const std::vector<Vec3<double>> kept = deformed(skinner, pose, &skinner.field_bones()), evened = deformed(skinner, pose, &equal);
    long moved = 0;
    for (std::size_t i = 0; i < skinner.size(); ++i) {
        const bool reads_pool = kept_field_bones(equal.refs[i], equal.pool.data()).weights != nullptr;
        if (!reads_pool) {
            EXPECT_TRUE(same_bits(&kept[i], &evened[i], sizeof kept[i])) << "point " << i << " has no kept bones";
        }
        moved += norm(kept[i] - evened[i]) > 1e-6;
    }
    EXPECT_GT(moved, 100);
}

TEST(BaselineFieldBones, APoolTooSmallLeavesTheRestToTheSearch) {
    const testing::NamedJunction j = testing::four_bone_junction();
    const std::vector<Vec3<double>> points = testing::points_around(j.skeleton, 4000, 4105, -0.6, 3.0);
    const BaselineSkinner<double> skinner(j.skeleton, points, j.name);
    const std::size_t all = skinner.field_bones().pool.size();
    ASSERT_GT(all, 1000u);
    const KeptFieldBones half = keep_field_bones(skinner.bones(), skinner.codes(), skinner.rest(), all / 2);
    EXPECT_LE(half.pool.size(), all / 2);
    EXPECT_GT(half.pool.size(), all / 2 - kFieldCandidates);
    long searched = 0;
    for (std::size_t i = 0; i < skinner.size(); ++i) {
        const FieldBones at = kept_field_bones(half.refs[i], half.pool.data());
        const FieldBones full = kept_field_bones(skinner.field_bones().refs[i], skinner.field_bones().pool.data());
        if (at.weights) {
            ASSERT_EQ(at.count, full.count);
            EXPECT_LE(std::size_t(at.weights - half.pool.data()) + std::size_t(at.count), half.pool.size());
        } else {
            searched += full.weights != nullptr;
        }
    }
    EXPECT_GT(searched, 100);
    Random rng(4106);
    const Pose pose = testing::random_bend_pose(j.skeleton, rng);
    const std::vector<Vec3<double>> a = deformed(skinner, pose, &half), b = deformed(skinner, pose, nullptr);
    for (std::size_t i = 0; i < skinner.size(); ++i) ASSERT_TRUE(same_bits(&a[i], &b[i], sizeof a[i])) << "point " << i;
    // A pool of no entries keeps nothing, not even a word a code.
    const KeptFieldBones none = keep_field_bones(skinner.bones(), skinner.codes(), skinner.rest(), 0);
    EXPECT_TRUE(none.refs.empty());
    EXPECT_TRUE(none.pool.empty());
}

TEST(BaselineFieldBones, ASkinnerFromSavedCodesKeepsTheSameBones) {
    const testing::NamedJunction j = testing::root_junction();
    const std::vector<Vec3<double>> points = testing::points_around(j.skeleton, 2000, 4107, -0.6, 3.0);
    const BaselineSkinner<float> encoded(j.skeleton, points, j.name);
    const BaselineSkinner<float> loaded(j.skeleton, encoded.saved_codes());
    ASSERT_GT(encoded.field_bones().pool.size(), 100u);
    EXPECT_EQ(loaded.field_bones().refs, encoded.field_bones().refs);
    ASSERT_EQ(loaded.field_bones().pool.size(), encoded.field_bones().pool.size());
    EXPECT_TRUE(same_bits(loaded.field_bones().pool.data(), encoded.field_bones().pool.data(), encoded.field_bones().pool.size() * sizeof(FieldWeight)));
}

}  // namespace
}  // namespace bs
