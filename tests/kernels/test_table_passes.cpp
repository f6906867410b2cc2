// The baseline's per-frame tables built in place (kernels/table_passes.cu, every pass over every cell, what
// the GPU runs) against the list-driven build of the CPU backend (host/baseline_skinner.cpp), both on the CPU:
// every cell of the same coarse kind or refined with the same sub-cells sent to the direct construction, and
// every point deformed through either to the same bits, on the four chains and the junctions under random
// bends and twists. The in-place arrays start poisoned, so an entry the build forgets shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

// `v` resized to n poisoned entries, so that what the build leaves unwritten shows: 0xFF bytes (NaN for
// doubles); ints 0x80 bytes (−2,139,062,144: no cell kind, ordinal, verdict or count, where −1 would be
// kCoarseCubicCell and kNoRoom).
template <class T> void poisoned(std::vector<T>& v, std::size_t n) {
    v.resize(n);
    std::memset(static_cast<void*>(v.data()), std::is_same_v<T, int> ? 0x80 : 0xff, n * sizeof(T));
}

// Room for the refined samples of every cell of a kind (none can run out), or of `room` section and fan cells.
struct Room {
    std::size_t cells = SIZE_MAX, fan_cells = SIZE_MAX;
};

// A frame's tables in the in-place layout (BaselineInPlaceTablesJob), on the host, every array poisoned first.
// `tabulated`: per bone, 0 leaves it out (empty: every bone tabulated).
BaselineFrameTables tables_in_place(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                                    const BaselineDeformOptions& options, const std::vector<unsigned char>& tabulated = {}, Room room = {}) {
    BaselineFrameTables t;
    t.phi_samples = options.phi_samples;
    t.fan_samples = options.fan_samples;
    t.locals = local_chains(bones, poses);
    room.cells = std::min(room.cells, bones.size() * std::size_t(options.phi_samples));
    room.fan_cells = std::min(room.fan_cells, bones.size() * std::size_t(options.fan_samples));
    const InPlaceTableSizes size = in_place_table_sizes(bones.size(), options.phi_samples, options.fan_samples, room.cells, room.fan_cells);
    poisoned(t.sections, size.sections);
    poisoned(t.extents, size.sections);
    poisoned(t.cells, size.sections);
    poisoned(t.fans, size.fans);
    poisoned(t.fan_cells, size.fans);
    poisoned(t.fine, size.fine);
    poisoned(t.fine_extents, size.fine);
    poisoned(t.fine_fans, size.fine_fans);
    poisoned(t.direct, size.direct);
    poisoned(t.fan_direct, size.fan_direct);
    t.fan_angles = fan_grid_angles(options.fan_samples);
    std::vector<PosedSection<double>> middles;
    std::vector<FanSample<double>> fan_checks;
    std::vector<int> verdicts, refined_per_bone, ordinals;
    poisoned(middles, size.sections);
    poisoned(fan_checks, size.fan_checks);
    poisoned(verdicts, size.verdicts);
    poisoned(refined_per_bone, size.refined_per_bone);
    poisoned(ordinals, size.verdicts);
    BaselineTableJob samples{bones.data(),       poses.data(),      t.locals.data(), bones.size(),   options.phi_samples,
                             options.fan_samples, t.sections.data(), middles.data(),  t.fans.data(), fan_checks.data()};
    samples.tabulated = tabulated.empty() ? nullptr : tabulated.data();
    cpu::build_baseline_tables_in_place({samples, options.cell_tolerance, verdicts.data(), t.extents.data(), t.cells.data(),
                                         t.fan_cells.data(), t.fine.data(), t.fine_extents.data(), t.fine_fans.data(), t.direct.data(),
                                         t.fan_direct.data(), room.cells, room.fan_cells, refined_per_bone.data(), ordinals.data()},
                                        {});
    return t;
}

std::size_t refined(const std::vector<int>& cells) {
    std::size_t n = 0;
    for (int c : cells) n += !is_coarse(c);
    return n;
}

// Cell by cell: the same coarse kind (or both left out), or both refined with the same ordinal (both builds
// number refined cells in cell order) and the same sub-cells marked for the direct construction; a refined
// cell numbered at or past `room` is kUntabulatedCell in place.
void expect_same_cells(const std::vector<int>& listed, const std::vector<unsigned char>& listed_direct, const std::vector<int>& in_place,
                       const std::vector<unsigned char>& in_place_direct, const std::string& what, std::size_t room = SIZE_MAX) {
    ASSERT_EQ(listed.size(), in_place.size()) << what;
    for (std::size_t c = 0; c < listed.size(); ++c) {
        if (is_coarse(listed[c]) || listed[c] == kUntabulatedCell) {
            ASSERT_EQ(in_place[c], listed[c]) << what << " cell " << c;
            continue;
        }
        const std::size_t r = std::size_t(listed[c]);
        if (r >= room) {
            ASSERT_EQ(in_place[c], kUntabulatedCell) << what << " cell " << c << ": refined cell " << r << " has no room";
            continue;
        }
        ASSERT_EQ(in_place[c], listed[c]) << what << " cell " << c << ": refined cells are numbered in cell order";
        for (int m = 0; m < kRefineFactor; ++m)
            ASSERT_EQ(in_place_direct[r * kRefineFactor + m], listed_direct[r * kRefineFactor + m]) << what << " cell " << c;
    }
}

std::vector<Vec3<double>> deform_with(const BaselineSkinner<double>& skinner, const std::vector<Vec3<double>>& points,
                                      const std::vector<BaselineBonePose<double>>& poses, const BaselineFrameTables& tables) {
    std::vector<Vec3<double>> out(points.size());
    cpu::deform_baseline(BaselineJob<double>{{packed_scalars(points.data()), 3}, skinner.codes().data(), points.size(), skinner.bones().data(),
                                             poses.data(), poses.size(), {packed_scalars(out.data()), 3}, tables.view()},
                         {});
    return out;
}

TEST(TablePasses, InPlaceTablesDeformEveryPointAsTheListBuildDoes) {
    std::vector<testing::NamedChain> bodies = testing::all_chains();
    for (const testing::NamedJunction& j : testing::all_junctions()) bodies.push_back({j.name, j.skeleton});
    for (const testing::NamedChain& body : bodies) {
        testing::Random rng(53);
        const std::vector<Vec3<double>> points = testing::points_around(body.skeleton, 3000, 53, -0.6, 0.6);
        BaselineSkinner<double> skinner(body.skeleton, points, body.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::size_t refined_cells = 0, refined_fans = 0;
        for (int i = 0; i < 4; ++i) {
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(testing::random_bend_pose(body.skeleton, rng));
            const BaselineFrameTables listed = skinner.frame_tables(poses);
            const BaselineFrameTables in_place = tables_in_place(skinner.bones(), poses, skinner.deform_options());
            expect_same_cells(listed.cells, listed.direct, in_place.cells, in_place.direct, body.name + " sections");
            expect_same_cells(listed.fan_cells, listed.fan_direct, in_place.fan_cells, in_place.fan_direct, body.name + " fans");
            refined_cells += refined(listed.cells);
            refined_fans += refined(listed.fan_cells);
            const std::vector<Vec3<double>> want = deform_with(skinner, points, poses, listed), got = deform_with(skinner, points, poses, in_place);
            ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(Vec3<double>)), 0) << body.name << " pose " << i;
        }
        std::printf("  %-12s %zu section cells and %zu fan cells refined over 4 poses, points the same to the bit\n", body.name.c_str(),
                    refined_cells, refined_fans);
        EXPECT_GT(refined_cells, 0u) << body.name << ": the refined path must be exercised";
    }
}

TEST(TablePasses, InPlaceTablesLeaveOutTheBonesTheListBuildLeavesOut) {
    // The bones read by fewer codes than the median bone are left out (tabulated_bones): in place as in the
    // list build, their cells kUntabulatedCell and their extents zero, and every point the same to the bit
    // (a left-out bone's points take the direct construction). Until 2026-12-07 the GPU's in-place build
    // tabulated every bone, and those points were interpolated there.
    std::size_t bodies_with_bones_left_out = 0;
    for (const testing::TableBody& body : testing::table_bodies()) {
        testing::Random rng(59);
        const std::vector<Vec3<double>> points = testing::points_around(body.skeleton, 3000, 59, -0.6, 0.6);
        BaselineSkinner<double> skinner(body.skeleton, points, body.name);
        BaselineDeformOptions options = skinner.deform_options();
        options.min_tabulated_points = testing::median_table_readers(skinner.codes(), skinner.bones().size());
        skinner.set_deform_options(options);
        const std::vector<unsigned char>& tabulated = skinner.tabulated();
        const auto left_out = std::size_t(std::count(tabulated.begin(), tabulated.end(), 0));
        if (left_out == 0 || left_out == tabulated.size()) continue;
        ++bodies_with_bones_left_out;
        for (int i = 0; i < 3; ++i) {
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(testing::random_bend_pose(body.skeleton, rng));
            const BaselineFrameTables listed = skinner.frame_tables(poses);
            const BaselineFrameTables in_place = tables_in_place(skinner.bones(), poses, skinner.deform_options(), tabulated);
            expect_same_cells(listed.cells, listed.direct, in_place.cells, in_place.direct, body.name + " sections");
            expect_same_cells(listed.fan_cells, listed.fan_direct, in_place.fan_cells, in_place.fan_direct, body.name + " fans");
            const std::size_t n = std::size_t(in_place.phi_samples);
            for (std::size_t k = 0; k < tabulated.size(); ++k)
                for (std::size_t j = 0; j < n && !tabulated[k]; ++j)
                    ASSERT_EQ(std::memcmp(&in_place.extents[k * n + j], &listed.extents[k * n + j], sizeof(SectionExtent<double>)), 0)
                        << body.name << " bone " << k << ": a left-out bone's extents are zero";
            const std::vector<Vec3<double>> want = deform_with(skinner, points, poses, listed), got = deform_with(skinner, points, poses, in_place);
            ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(Vec3<double>)), 0) << body.name << " pose " << i;
        }
    }
    EXPECT_GE(bodies_with_bones_left_out, 2u) << "the bodies must have bones read by fewer points than others";
}

TEST(TablePasses, TheInPlaceBuildRefusesABoneList) {
    // Its passes number cells over every bone; a list (the cache's, BaselineTableJob::bone_list) would have
    // mixed two numberings.
    const Skeleton chain = testing::bent_chain();
    BaselineSkinner<double> skinner(chain, testing::points_around(chain, 100, 3, -0.6, 0.6), "chain");
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(Pose::rest(chain));
    const std::vector<LocalChain<double>> locals = local_chains(skinner.bones(), poses);
    const int list[] = {0};
    BaselineTableJob samples{skinner.bones().data(), poses.data(), locals.data(), 1, 64, 64, nullptr, nullptr, nullptr, nullptr};
    samples.bone_list = list;
    EXPECT_THROW(cpu::build_baseline_tables_in_place({samples, 3e-5, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                      nullptr, 0, 0, nullptr, nullptr},
                                                     {}),
                 std::logic_error);
}

// The GPU's build keeps room for the refined samples of a fixed share of the cells (kInPlaceRoomDivisor). With
// less room than the frame refines, the refined cells past it, in cell order, are kUntabulatedCell and their
// points take the direct construction: every cell as the list build's up to the room, and every point the
// list build's to the bit or, where a cell it reads had no room, the direct construction's to the bit. And
// the share the GPU keeps covers what the chains and junctions refine under random bends.
TEST(TablePasses, RefinedCellsPastTheRoomTakeTheDirectConstruction) {
    std::vector<testing::NamedChain> bodies = testing::all_chains();
    for (const testing::NamedJunction& j : testing::all_junctions()) bodies.push_back({j.name, j.skeleton});
    double largest_share = 0;
    std::size_t cells_without_room = 0;
    for (const testing::NamedChain& body : bodies) {
        testing::Random rng(61);
        const std::vector<Vec3<double>> points = testing::points_around(body.skeleton, 3000, 61, -0.6, 0.6);
        BaselineSkinner<double> skinner(body.skeleton, points, body.name);
        skinner.set_deform_options(testing::tables_for_every_bone());
        std::size_t taken_directly = 0;
        for (int i = 0; i < 4; ++i) {
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(testing::random_bend_pose(body.skeleton, rng));
            const BaselineFrameTables listed = skinner.frame_tables(poses);
            const std::size_t refined_cells = refined(listed.cells), refined_fans = refined(listed.fan_cells);
            largest_share = std::max({largest_share, double(refined_cells) / double(listed.cells.size()),
                                      double(refined_fans) / double(listed.fan_cells.size())});
            const Room half{refined_cells / 2, refined_fans / 2};
            cells_without_room += (refined_cells - half.cells) + (refined_fans - half.fan_cells);
            const BaselineFrameTables in_place = tables_in_place(skinner.bones(), poses, skinner.deform_options(), {}, half);
            expect_same_cells(listed.cells, listed.direct, in_place.cells, in_place.direct, body.name + " sections", half.cells);
            expect_same_cells(listed.fan_cells, listed.fan_direct, in_place.fan_cells, in_place.fan_direct, body.name + " fans", half.fan_cells);
            const std::vector<Vec3<double>> got = deform_with(skinner, points, poses, in_place);
            const std::vector<Vec3<double>> tabulated = deform_with(skinner, points, poses, listed);
            const std::vector<Vec3<double>> direct = deform_with(skinner, points, poses, BaselineFrameTables{});
            for (std::size_t p = 0; p < points.size(); ++p) {
                const bool as_tabulated = std::memcmp(&got[p], &tabulated[p], sizeof(Vec3<double>)) == 0;
                ASSERT_TRUE(as_tabulated || std::memcmp(&got[p], &direct[p], sizeof(Vec3<double>)) == 0) << body.name << " point " << p;
                taken_directly += !as_tabulated;
            }
        }
        EXPECT_GT(taken_directly, 0u) << body.name << ": some point must read a cell without room";
    }
    std::printf("  %zu refined cells without room; at most %.1f%% of a kind's cells refined in one frame\n", cells_without_room, 100 * largest_share);
    EXPECT_GT(cells_without_room, 0u) << "the test must run out of room";
    EXPECT_LT(largest_share, 1.0 / double(kInPlaceRoomDivisor)) << "the GPU's room no longer covers what these bodies refine";
}

}  // namespace
}  // namespace bs
