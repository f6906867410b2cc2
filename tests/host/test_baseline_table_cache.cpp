// Frame tables kept from frame to frame (host/baseline_skinner.hpp BaselineTableCache): over sequences of poses
// in which one joint turns, the root alone moves, nothing changes or everything does, the kept tables give
// every point what tables built from nothing give, to the bit, with the same cells refined and marked; only
// the bones whose table inputs changed are built again; a refused frame leaves the cache usable.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <cstring>
#include <thread>

#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "host/skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/points.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

using testing::Random;

std::vector<Vec3<double>> deformed(const BaselineSkinner<double>& skinner, const std::vector<BaselineBonePose<double>>& poses,
                                   const BaselineFrameTables& tables) {
    std::vector<Vec3<double>> out(skinner.size());
    cpu::deform_baseline(BaselineJob<double>{{packed_scalars(skinner.rest().data()), 3}, skinner.codes().data(), skinner.size(),
                                             skinner.bones().data(), poses.data(), poses.size(), {packed_scalars(out.data()), 3},
                                             tables.view()},
                         {});
    return out;
}

// A sample's values as bit patterns: its bytes also hold padding, which two builds need not write alike
// (they did not under the sanitizers' build). A section stands for its extent and its points and directions
// at kCellCheckRatios ratios; a fan for its field and kinds.
void add(std::vector<std::uint64_t>& bits, double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    bits.push_back(b);
}
void add(std::vector<std::uint64_t>& bits, Vec3<double> p) {
    for (double x : {p.x, p.y, p.z}) add(bits, x);
}
void add(std::vector<std::uint64_t>& bits, const SectionExtent<double>& e) {
    for (double x : {e.turn.at_parent, e.turn.at_child, e.turn.sigma_start, e.turn.sigma_end}) add(bits, x);
    for (const EndExtent<double>* end : {&e.parent, &e.child})
        for (double x : {double(int(end->kind)), end->sigma, end->arc_radius, end->arc_begin, end->arc_end, end->crease_length, end->rest_crease})
            add(bits, x);
    add(bits, double(e.structure));
}
void add(std::vector<std::uint64_t>& bits, const PosedSection<double>& s, const Cone<double>& cone) {
    add(bits, section_extent(s));
    for (int i = 0; i < kCellCheckRatios; ++i) {
        const SectionPoint<double> p = point_on_posed_section(s, cone, double(i) / (kCellCheckRatios - 1) * s.length());
        add(bits, p.base);
        add(bits, p.direction);
        add(bits, p.fan_weight);
    }
}
void add(std::vector<std::uint64_t>& bits, const FanSample<double>& f) {
    for (Vec3<double> v : {f.field.at_start, f.field.at_end, f.field.start_direction, f.field.end_direction}) add(bits, v);
    for (double x : {f.field.length, double(f.field.outward), double(f.kinds), f.rest_length}) add(bits, x);
}

// Every value of the tables' samples, coarse and refined, each section with its bone's cone.
std::vector<std::uint64_t> sample_values(const BaselineFrameTables& t, const std::vector<BaselineBone<double>>& bones) {
    std::vector<std::uint64_t> bits;
    auto cone_of = [&](std::size_t cell) -> const Cone<double>& { return bones[cell / std::size_t(t.phi_samples)].cone; };
    for (std::size_t c = 0; c < t.sections.size(); ++c) add(bits, t.sections[c], cone_of(c));
    for (std::size_t c = 0; c < t.cells.size(); ++c)
        if (!is_coarse(t.cells[c]))
            for (int m = 0; m < kSamplesPerRefinedCell; ++m)
                add(bits, t.fine[std::size_t(t.cells[c]) * kSamplesPerRefinedCell + std::size_t(m)], cone_of(c));
    for (const FanSample<double>& f : t.fans) add(bits, f);
    for (const FanSample<double>& f : t.fine_fans) add(bits, f);
    for (const SectionExtent<double>& e : t.extents) add(bits, e);
    for (const SectionExtent<double>& e : t.fine_extents) add(bits, e);
    for (const CosSin& a : t.fan_angles) {
        add(bits, a.cos);
        add(bits, a.sin);
    }
    return bits;
}

// Every array a per-point pass reads (but `locals`, built alike for every bone each frame), value by value,
// and the points.
void expect_same_tables(const BaselineSkinner<double>& skinner, const std::vector<BaselineBonePose<double>>& poses,
                        const BaselineFrameTables& kept, const BaselineFrameTables& fresh, const std::string& where) {
    EXPECT_TRUE(sample_values(kept, skinner.bones()) == sample_values(fresh, skinner.bones())) << where << ": the samples differ";
    EXPECT_EQ(kept.cells, fresh.cells) << where;
    EXPECT_EQ(kept.fan_cells, fresh.fan_cells) << where;
    EXPECT_EQ(kept.direct, fresh.direct) << where;
    EXPECT_EQ(kept.fan_direct, fresh.fan_direct) << where;
    ASSERT_EQ(kept.fine.size(), fresh.fine.size()) << where;
    ASSERT_EQ(kept.fine_fans.size(), fresh.fine_fans.size()) << where;
    const std::vector<Vec3<double>> a = deformed(skinner, poses, kept), b = deformed(skinner, poses, fresh);
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3<double>)), 0) << where << ": the points differ";
}

TEST(BaselineTableCache, KeepsWhatDidNotChangeAndEqualsABuildFromNothing) {
    std::size_t kept_refined_cells = 0;  // refined cells of kept bones: what the merge moves from the frame before
    for (const testing::TableBody& body : testing::table_bodies()) {
        const Skeleton& s = body.skeleton;
        BaselineSkinner<double> skinner(s, testing::points_around(s, 3000, 71), body.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        Random rng(72);
        const testing::BendPoseOptions bends{120, 2 * testing::kBaselinePi, true, 0.2};
        Pose pose = testing::random_bend_pose(s, rng, bends);
        BaselineTableCache cache;
        for (int step = 0; step < 16; ++step) {
            const int kind = step == 0 ? 0 : step % 4;  // 0: a new pose, 1: one joint turns, 2: the root moves, 3: nothing
            int turned = -1;
            if (kind == 0) pose = testing::random_bend_pose(s, rng, bends);
            if (kind == 1) {
                turned = int(rng.uniform(0, double(s.bone_count()) - 1e-9));
                const Pose other = testing::random_bend_pose(s, rng, bends);
                pose.joints[std::size_t(turned)] = other.joints[std::size_t(turned)];
            }
            if (kind == 2) pose.root = {rng.rotation(), testing::diagonal(s) * rng.in_box(1)};
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
            const BaselineFrameTables& kept = cache.update(skinner.bones(), poses, skinner.deform_options());
            const BaselineFrameTables fresh = build_frame_tables(skinner.bones(), poses, skinner.deform_options());
            const std::string where = body.name + ", step " + std::to_string(step);
            expect_same_tables(skinner, poses, kept, fresh, where);
            const std::size_t rebuilt = cache.bones_rebuilt();
            if (kind == 0) {
                EXPECT_EQ(rebuilt, s.bone_count()) << where;
            }
            if (kind == 2 || kind == 3) {
                EXPECT_EQ(rebuilt, 0u) << where;
            }
            if (kind == 1) {
                // The turned bone, and its parent where it is the parent's chain child.
                const int parent = skinner.bones()[std::size_t(turned)].previous;
                const bool parents_child = parent >= 0 && skinner.bones()[std::size_t(parent)].next == turned;
                EXPECT_EQ(rebuilt, parents_child ? 2u : 1u) << where << ", bone " << turned << " turned";
                for (std::size_t c = 0; c < fresh.cells.size(); ++c) {
                    const int k = int(c / std::size_t(fresh.phi_samples));
                    if (k != turned && !(parents_child && k == parent) && !is_coarse(fresh.cells[c])) ++kept_refined_cells;
                }
            }
        }
    }
    EXPECT_GT(kept_refined_cells, 0u) << "no frame kept a bone's refined cells";
}

// Options or bones other than the last frame's rebuild everything; a refused frame (a pose of another bone
// count) leaves the cache usable.
TEST(BaselineTableCache, OtherOptionsOrBonesRebuildAndARefusedFrameLeavesItUsable) {
    const Skeleton s = testing::bent_chain();
    BaselineSkinner<double> skinner(s, testing::points_around(s, 1000, 73), "bent chain");
    skinner.set_deform_options(testing::tables_for_every_bone());
    Random rng(74);
    const Pose pose = testing::random_bend_pose(s, rng);
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
    BaselineTableCache cache;
    cache.update(skinner.bones(), poses, skinner.deform_options());
    BaselineDeformOptions coarser = skinner.deform_options();
    coarser.phi_samples = 64;
    cache.update(skinner.bones(), poses, coarser);
    EXPECT_EQ(cache.bones_rebuilt(), s.bone_count()) << "other sample counts";
    std::vector<BaselineBone<double>> thinner = skinner.bones();
    thinner[1].cone = make_cone(thinner[1].cone.parent, Sphere<double>{thinner[1].cone.child.centre, 0.9 * thinner[1].cone.child.radius});
    cache.update(thinner, poses, coarser);
    EXPECT_EQ(cache.bones_rebuilt(), s.bone_count()) << "other bones";
    std::vector<BaselineBonePose<double>> short_frame(poses.begin(), poses.end() - 1);
    EXPECT_THROW(cache.update(skinner.bones(), short_frame, skinner.deform_options()), InputError);
    const BaselineFrameTables& kept = cache.update(skinner.bones(), poses, skinner.deform_options());
    expect_same_tables(skinner, poses, kept, build_frame_tables(skinner.bones(), poses, skinner.deform_options()), "after a refused frame");
}

// The Skinner front with a cache deforms as without one.
TEST(BaselineTableCache, ASkinnerWithACacheDeformsAsWithout) {
    const testing::NamedJunction j = testing::four_bone_junction();
    const Skinner skinner(Method::baseline, j.skeleton, testing::points_around(j.skeleton, 2000, 75), {}, "four-bone junction");
    Random rng(76);
    BaselineTableCache cache;
    Pose pose = testing::random_bend_pose(j.skeleton, rng);
    for (int frame = 0; frame < 4; ++frame) {
        pose.joints[std::size_t(frame)].twist_radians += 0.3;  // one bone's inputs change a frame
        std::vector<Vec3<float>> with, without;
        skinner.deform(pose, with, {}, &cache);
        skinner.deform(pose, without);
        ASSERT_EQ(std::memcmp(with.data(), without.data(), with.size() * sizeof(Vec3<float>)), 0) << "frame " << frame;
    }
}

// One cache serves one deform at a time: a deform while another holds it is refused (two threads on one
// cache had freed each other's tables and crashed), and the cache serves again once the first is done.
TEST(BaselineTableCache, ADeformWhileAnotherHoldsTheCacheIsRefused) {
    const Skeleton s = testing::bent_chain();
    const Skinner skinner(Method::baseline, s, testing::points_around(s, 1000, 77), {}, "bent chain");
    Random rng(78);
    const Pose pose = testing::random_bend_pose(s, rng);
    std::vector<Vec3<float>> out, reference;
    skinner.deform(pose, reference);
    BaselineTableCache cache;
    {
        BaselineTableCache::Hold other_deform(cache);
        EXPECT_THROW(skinner.deform(pose, out, {}, &cache), InputError);
        EXPECT_THROW({ BaselineTableCache::Hold second(cache); }, InputError);
        bool refused_there = false;  // from another thread too
        std::thread([&] {
            std::vector<Vec3<float>> theirs;
            try {
                skinner.deform(pose, theirs, {1}, &cache);
            } catch (const InputError&) {
                refused_there = true;
            }
        }).join();
        EXPECT_TRUE(refused_there);
    }
    // A refused frame leaves the cache free for the next.
    Pose folded = pose;
    folded.joints[0].twist_radians = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(skinner.deform(folded, out, {}, &cache), InputError);
    skinner.deform(pose, out, {}, &cache);
    EXPECT_EQ(std::memcmp(out.data(), reference.data(), out.size() * sizeof(Vec3<float>)), 0);
    skinner.deform(pose, out, {}, &cache);  // the deform let go of it
    BaselineTableCache moved = std::move(cache);  // a move carries the tables, not a hold
    skinner.deform(pose, out, {}, &moved);
    EXPECT_EQ(std::memcmp(out.data(), reference.data(), out.size() * sizeof(Vec3<float>)), 0);
}

// Threads sharing one cache (a misuse): each deform either gives the points a cache of its own gives, or is
// refused; none reads tables another is rebuilding. The threads start together, but how many deforms
// overlap is the scheduler's: the deterministic refusal is the test above; this one is for the
// sanitizers' builds (without the hold, threads had freed each other's tables and crashed).
TEST(BaselineTableCache, ThreadsSharingOneCacheAreRefusedNotCorrupted) {
    const Skeleton s = testing::bent_chain();
    const Skinner skinner(Method::baseline, s, testing::points_around(s, 1000, 79), {}, "bent chain");
    Random rng(80);
    std::vector<Pose> poses;
    std::vector<std::vector<Vec3<float>>> references(4);
    for (int t = 0; t < 4; ++t) {
        poses.push_back(testing::random_bend_pose(s, rng));
        skinner.deform(poses.back(), references[std::size_t(t)], {1});
    }
    BaselineTableCache shared;
    std::atomic<int> wrong{0}, ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            std::vector<Vec3<float>> out;
            for (++ready; ready.load() < 4;) std::this_thread::yield();
            for (int round = 0; round < 20; ++round) {
                try {
                    skinner.deform(poses[std::size_t(t)], out, {1}, &shared);
                    if (std::memcmp(out.data(), references[std::size_t(t)].data(), out.size() * sizeof(Vec3<float>)) != 0) ++wrong;
                } catch (const InputError&) {  // the cache was held
                }
            }
        });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace bs
