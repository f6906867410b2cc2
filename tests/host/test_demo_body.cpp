// The demo's surface sampler (host/demo_body): drawn in blocks on all cores, it must give the same samples
// for any thread count, keep the serial loop's samples for sets of up to one block, and draw each block
// from a generator of its own; a bridge is no part of the surface.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "engine/geometry/cone.hpp"
#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "tests/support/chains.hpp"

namespace bs {
namespace {

constexpr std::size_t kBlock = std::size_t(1) << 16;  // the sampler's block (host/demo_body.cpp)

bool same_sample(const SurfaceSample& a, const SurfaceSample& b) {
    return a.position.x == b.position.x && a.position.y == b.position.y && a.position.z == b.position.z && a.normal.x == b.normal.x &&
           a.normal.y == b.normal.y && a.normal.z == b.normal.z;
}

struct ThreadCountGuard {
    int saved = omp_get_max_threads();
    ~ThreadCountGuard() { omp_set_num_threads(saved); }
};

TEST(DemoBody, SurfaceSamplesAreTheSameForAnyThreadCount) {
    ThreadCountGuard guard;
    const Skeleton s = demo_chain();
    const std::size_t count = 3 * kBlock + 1234;  // several blocks and a partial one
    omp_set_num_threads(1);
    const std::vector<SurfaceSample> one = sample_surface(s, count, 11);
    for (int threads : {2, 3}) {
        omp_set_num_threads(threads);
        const std::vector<SurfaceSample> many = sample_surface(s, count, 11);
        ASSERT_EQ(many.size(), count);
        for (std::size_t i = 0; i < count; ++i) ASSERT_TRUE(same_sample(one[i], many[i])) << threads << " threads, sample " << i;
    }
    for (const SurfaceSample& x : one) {
        ASSERT_TRUE(std::isfinite(x.position.x) && std::isfinite(x.position.y) && std::isfinite(x.position.z));
        ASSERT_NEAR(norm(x.normal), 1.0, 1e-12);
    }
}

TEST(DemoBody, ASmallSetIsTheFrontOfALargeOneAndBlocksDrawAfresh) {
    const Skeleton s = demo_chain();
    const std::vector<SurfaceSample> small = sample_surface(s, 1000, 5), large = sample_surface(s, 2 * kBlock + 10, 5);
    for (std::size_t i = 0; i < small.size(); ++i) ASSERT_TRUE(same_sample(small[i], large[i])) << i;
    // A block that reused block 0's generator would repeat its samples.
    for (std::size_t b = 1; b <= 2; ++b) {
        std::size_t repeated = 0;
        for (std::size_t i = 0; i < 10; ++i) repeated += same_sample(large[i], large[b * kBlock + i]);
        EXPECT_EQ(repeated, 0u) << "block " << b;
    }
    // Another seed, other samples.
    EXPECT_FALSE(same_sample(sample_surface(s, 1, 6)[0], small[0]));
}

// Samples of `sampled` farther than 1e-9 from the surface of the union of `body`'s bones that are no bridge.
std::size_t off_body(const Skeleton& sampled, const Skeleton& body) {
    std::size_t off = 0;
    for (const SurfaceSample& x : sample_surface(sampled, 5000, 7)) {
        double distance = INFINITY;
        for (std::size_t k = 0; k < body.bone_count(); ++k)
            if (!body.is_bridge(int(k)))
                distance = std::min(distance, closest_point_on_bone(make_cone(body.spheres[std::size_t(body.bones[k][0])],
                                                                              body.spheres[std::size_t(body.bones[k][1])]), x.position).signed_distance);
        off += std::fabs(distance) > 1e-9;
    }
    return off;
}

// The two-chain tube's bridge is straight where its first chain bends, so it stands out of that chain.
TEST(DemoBody, SamplesLieOnTheBodyWithoutItsBridges) {
    const Skeleton bridged = testing::two_chain_tube();
    EXPECT_EQ(off_body(bridged, bridged), 0u);
    EXPECT_GT(off_body(testing::two_chain_tube(false), bridged), 0u) << "sampled with the bridge, some samples lie on it";
}

// The relief is the whole sum of its 48 Gaussian bumps (height 0.15, width 0.3 of the mean radius, drawn
// with seed + 1), capped at 1, along each surface sample's normal: the pass leaves out bumps whose
// weight is below exp(-40), which may move no point by more than a rounding.
TEST(DemoBody, TheReliefIsTheWholeSumOfItsBumps) {
    const Skeleton chain = demo_chain();
    const unsigned seed = 7;
    const std::size_t count = 5000;
    double mean_radius = 0;
    for (const Sphere<double>& sp : chain.spheres) mean_radius += sp.radius / double(chain.spheres.size());
    const std::vector<SurfaceSample> bumps = sample_surface(chain, 48, seed + 1), surface = sample_surface(chain, count, seed);
    const std::vector<Vec3<double>> points = demo_points(chain, count, seed);
    const double height = 0.15 * mean_radius, width = 0.3 * mean_radius;
    double worst = 0, raised = 0;
    for (std::size_t i = 0; i < count; ++i) {
        double relief = 0;
        for (const SurfaceSample& b : bumps) relief += std::exp(-norm2(surface[i].position - b.position) / (2 * width * width));
        const Vec3<double> want = surface[i].position + height * std::min(relief, 1.0) * surface[i].normal;
        worst = std::max(worst, norm(points[i] - want));
        raised = std::max(raised, norm(points[i] - surface[i].position));
    }
    EXPECT_LT(worst, 1e-12 * mean_radius);
    EXPECT_GT(raised, 0.5 * height) << "the relief this test is for";
}

// An embedder's probe (2026-12-06): an empty skeleton and one of bridges alone crashed the sampler, a
// sphere index out of range read past the spheres, and a chain of two bones had demo_pose write past its
// joints. Each is refused.
TEST(DemoBody, SkeletonsItCannotSampleOrPoseAreRefused) {
    EXPECT_THROW(sample_surface(Skeleton{}, 10, 1), InputError);
    EXPECT_THROW(demo_points(Skeleton{}, 10, 1), InputError);
    Skeleton bridges = make_skeleton({{{0, 0, 0}, 1}, {{4, 0, 0}, 1}}, {{0, 1}}, {}, "one bridge");
    bridges.bridges = {0};  // by hand: set_bridges refuses a skeleton of bridges alone
    EXPECT_THROW(sample_surface(bridges, 10, 1), InputError);
    Skeleton hand_made = testing::straight_chain();
    hand_made.bones[1][1] = 17;  // of 4 spheres
    EXPECT_THROW(sample_surface(hand_made, 10, 1), InputError);
    const Skeleton two = make_skeleton({{{0, 0, 0}, 1}, {{4, 0, 0}, 1}, {{8, 0, 0}, 1}}, {{0, 1}, {1, 2}}, {}, "two bones");
    EXPECT_THROW(demo_pose(two, 0.5), InputError);
    EXPECT_NO_THROW(demo_pose(demo_chain(), 0.5));
}

}  // namespace
}  // namespace bs
