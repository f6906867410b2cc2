// The GPU's evaluation order of a baseline body (kernels/coherent_order.hpp): the sort key's fields, the
// pass writing through BaselineJob::order (on the CPU build, which runs the same pass), and the device's
// order against a stable sort on the host (skipped without a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "host/baseline_skinner.hpp"
#include "kernels/coherent_order.hpp"
#include "kernels/device_memory.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/points.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

BaselineCode code(std::uint16_t bone, std::uint16_t flags, double phi, double t, double rigid_blend = 0) {
    return {bone, flags, float(phi), float(t), 0.1f, float(rigid_blend), 0};
}

TEST(CoherenceKey, OrdersByBoneThenRegionThenTThenPhi) {
    const double phis[] = {-3, -0.5, 0, 0.5, 3, 6};
    // Each pair: the first must sort strictly before the second.
    const std::pair<BaselineCode, BaselineCode> before[] = {
        {code(0, kCodeParentCap, 6.2, 3.1, 1), code(1, 0, 0, 0)},        // bone first, whatever the rest
        {code(2, 0, 6.2, 1.0), code(2, kCodeChildCap, 0, 0)},             // on a section before over a cap
        {code(2, kCodeParentCap, 6.2, 3.1), code(2, 0, 0, 0, 0.2)},      // over a cap before blended
        {code(2, 0, 6.2, 0.05), code(2, 0, 0, 0.95)},                     // t's band before φ
        {code(2, kCodeParentCap, 6.2, 0.1), code(2, kCodeParentCap, 0, 3.0)},  // a cap's t is a polar angle in [0, π]
        {code(2, 0, 0.1, 0.5), code(2, 0, 0.2, 0.5)},                     // then φ
    };
    for (const auto& [a, b] : before) EXPECT_LT(coherence_key(a), coherence_key(b)) << a.bone << ' ' << a.phi << ' ' << a.t;
    for (double phi : phis)  // φ by its turn: a whole turn more or less is the same band
        EXPECT_EQ(coherence_key(code(1, 0, phi, 0.3)), coherence_key(code(1, 0, phi + 2 * kPi, 0.3))) << phi;
}

TEST(CoherenceKey, OutOfRangeAndNaNFieldsStayInTheirBands) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    constexpr std::uint32_t bone_and_region = 0xffffc000u;
    for (const BaselineCode& base : {code(7, 0, 0, 0), code(7, kCodeChildCap, 0, 0), code(7, 0, 0, 0, 0.5)}) {
        const std::uint32_t kept = coherence_key(base) & bone_and_region;
        for (double phi : {nan, inf, -inf, 1e30})
            for (double t : {nan, -1.0, 2.0, inf}) {
                BaselineCode c = base;
                c.phi = float(phi);
                c.t = float(t);
                EXPECT_EQ(coherence_key(c) & bone_and_region, kept) << base.flags << ' ' << phi << ' ' << t << ": bone and region kept";
            }
    }
    EXPECT_NE(coherence_key(code(7, 0, 0, 0)) & bone_and_region, coherence_key(code(7, kCodeChildCap, 0, 0)) & bone_and_region);
    EXPECT_NE(coherence_key(code(7, 0, 0, 0)) & bone_and_region, coherence_key(code(7, 0, 0, 0, 0.5)) & bone_and_region);
    EXPECT_EQ(coherence_key(code(7, 0, 0, 0, nan)) & bone_and_region, coherence_key(code(7, 0, 0, 0)) & bone_and_region)
        << "a NaN blend is not a blend";
    EXPECT_EQ(coherence_key(code(7, 0, 0, 2.0)) >> 10 & 0xfu, unsigned(kTBands - 1)) << "t beyond 1: the last band";
    EXPECT_EQ(coherence_key(code(7, 0, 0, -1.0)) >> 10 & 0xfu, 0u) << "t below 0: the first band";
}

// [0, codes.size()) sorted stably by the codes' coherence_key, on the host.
std::vector<std::uint32_t> order_by_key(const std::vector<BaselineCode>& codes) {
    std::vector<std::uint32_t> order(codes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return coherence_key(codes[a]) < coherence_key(codes[b]); });
    return order;
}

// The per-point pass with BaselineJob::order, on the CPU build: codes, rest points and the codes' kept
// field bones permuted (their pool as it is), as the GPU front lays them out, each result written back at
// the caller's index, equals the pass over the caller's order exactly.
TEST(CoherentOrder, ThePassWritesEachPointAtItsCallersIndex) {
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 3000, 17);
    BaselineSkinner<float> skinner(s, points, "order test");
    skinner.set_deform_options(testing::tables_for_every_bone());
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.2);
    pose.joints[1].twist_radians = 1.5;
    std::vector<Vec3<float>> want;
    skinner.deform(pose, want);

    const std::size_t n = points.size();
    const std::vector<std::uint32_t> order = order_by_key(skinner.codes());
    ASSERT_FALSE(std::is_sorted(order.begin(), order.end())) << "the caller's order must differ from the key's, or this proves nothing";
    std::vector<BaselineCode> codes(n);
    std::vector<Vec3<float>> rest(n);
    std::vector<std::uint32_t> field_refs(n);
    for (std::size_t i = 0; i < n; ++i) {
        codes[i] = skinner.codes()[order[i]];
        rest[i] = skinner.rest()[order[i]];
        field_refs[i] = skinner.field_bones().refs[order[i]];
    }
    ASSERT_GT(skinner.field_bones().pool.size(), 100u) << "blended codes with kept field bones, or the refs' order proves nothing";
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
    const BaselineFrameTables tables = skinner.frame_tables(poses);
    std::vector<Vec3<float>> got(n, Vec3<float>{NAN, NAN, NAN});
    BaselineJob<float> job{{packed_scalars(rest.data()), 3}, codes.data(), n, skinner.bones().data(), poses.data(), poses.size(),
                           {packed_scalars(got.data()), 3}, tables.view(), order.data(), {}, field_refs.data(),
                           skinner.field_bones().pool.data()};
    cpu::deform_baseline(job, {});
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[i].x, want[i].x) << i;
        ASSERT_EQ(got[i].y, want[i].y) << i;
        ASSERT_EQ(got[i].z, want[i].z) << i;
    }
}

TEST(CoherentOrderCuda, TheDevicesOrderIsTheStableSortByKey) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    Skeleton s = testing::bent_chain();
    BaselineSkinner<float> skinner(s, testing::points_around(s, 20000, 23), "order test");
    skinner.set_deform_options(testing::tables_for_every_bone());
    const std::vector<BaselineCode>& codes = skinner.codes();
    const std::vector<std::uint32_t> want = order_by_key(codes);

    const cuda::DeviceArray<BaselineCode> device_codes(codes, {});
    cuda::DeviceArray<std::uint32_t> order(codes.size());
    cuda::coherent_order(device_codes.data(), codes.size(), order.data(), {});
    EXPECT_EQ(order.download({}), want);
    cuda::DeviceArray<BaselineCode> gathered(codes.size());
    cuda::gather(device_codes.data(), order.data(), codes.size(), gathered.data(), {});
    const std::vector<BaselineCode> got = gathered.download({});
    for (std::size_t i = 0; i < codes.size(); ++i) ASSERT_EQ(std::memcmp(&got[i], &codes[want[i]], sizeof(BaselineCode)), 0) << i;
}

}  // namespace
}  // namespace bs
