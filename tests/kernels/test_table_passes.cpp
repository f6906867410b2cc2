// The baseline's per-frame tables built in place (kernels/table_passes.cu, every pass over every cell, what
// the GPU runs) against the list-driven build of the CPU backend (host/baseline_skinner.cpp), both on the CPU:
// the same cells refined, and every point deformed through either to the same bits, on the four chains and
// the junctions under random bends and twists.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/junctions.hpp"

namespace bs {
namespace {

// A frame's tables in the in-place layout (BaselineInPlaceTablesJob), on the host.
BaselineFrameTables tables_in_place(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                                    const BaselineDeformOptions& options) {
    BaselineFrameTables t;
    t.phi_samples = options.phi_samples;
    t.fan_samples = options.fan_samples;
    t.locals = local_chains(bones, poses);
    const InPlaceTableSizes size = in_place_table_sizes(bones.size(), options.phi_samples, options.fan_samples);
    t.sections.resize(size.sections);
    t.extents.resize(size.sections);
    t.cells.resize(size.sections);
    t.fans.resize(size.fans);
    t.fan_cells.resize(size.fans);
    t.fine.resize(size.fine);
    t.fine_extents.resize(size.fine);
    t.fine_fans.resize(size.fine_fans);
    t.direct.resize(size.direct);
    t.fan_direct.resize(size.fan_direct);
    t.fan_angles = fan_grid_angles(options.fan_samples);
    std::vector<PosedSection<double>> middles(size.sections);
    std::vector<FanSample<double>> fan_checks(size.fan_checks);
    std::vector<int> verdicts(size.verdicts);
    const BaselineTableJob samples{bones.data(),       poses.data(),      t.locals.data(), bones.size(),   options.phi_samples,
                                   options.fan_samples, t.sections.data(), middles.data(),  t.fans.data(), fan_checks.data()};
    cpu::build_baseline_tables_in_place({samples, options.cell_tolerance, verdicts.data(), t.extents.data(), t.cells.data(),
                                         t.fan_cells.data(), t.fine.data(), t.fine_extents.data(), t.fine_fans.data(), t.direct.data(),
                                         t.fan_direct.data()},
                                        {});
    return t;
}

std::size_t refined(const std::vector<int>& cells) {
    std::size_t n = 0;
    for (int c : cells) n += !is_coarse(c);
    return n;
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
        std::size_t refined_cells = 0, refined_fans = 0;
        for (int i = 0; i < 4; ++i) {
            const std::vector<BaselineBonePose<double>> poses = skinner.frame(testing::random_bend_pose(body.skeleton, rng));
            const BaselineFrameTables listed = skinner.frame_tables(poses);
            const BaselineFrameTables in_place = tables_in_place(skinner.bones(), poses, skinner.deform_options());
            ASSERT_EQ(refined(in_place.cells), refined(listed.cells)) << body.name;
            ASSERT_EQ(refined(in_place.fan_cells), refined(listed.fan_cells)) << body.name;
            for (std::size_t c = 0; c < listed.cells.size(); ++c)
                ASSERT_EQ(is_coarse(in_place.cells[c]) ? in_place.cells[c] : 0, is_coarse(listed.cells[c]) ? listed.cells[c] : 0) << c;
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

}  // namespace
}  // namespace bs
