// The per-point passes: thread-count independence on the CPU, and the CUDA build against the CPU build
// (skipped cleanly where there is no device).
#include "kernels/passes.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tests/support/cuda_buffers.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

struct Scene {
    std::vector<float> rest;  // xyz packed
    std::vector<Influences> influences;
    std::vector<Mat34<float>> lbs;
    std::vector<DualQuat<float>> dqs;
};

Scene random_scene(std::size_t count, int bones, unsigned seed) {
    testing::Random rng(seed);
    Scene s;
    for (int b = 0; b < bones; ++b) {
        Rigid<double> g{rng.rotation(), rng.in_box(3)};
        s.lbs.push_back(Mat34<float>::from_rigid(Rigid<float>(g)));
        s.dqs.push_back(DualQuat<float>(DualQuat<double>::from_rigid(g)));
    }
    for (std::size_t i = 0; i < count; ++i) {
        Vec3<double> p = rng.in_box(5);
        s.rest.insert(s.rest.end(), {float(p.x), float(p.y), float(p.z)});
        Influences inf{};
        float total = 0;
        for (int j = 0; j < kMaxInfluences; ++j) {
            inf.bone[j] = std::uint32_t(rng.uniform(0, bones - 1e-9));
            inf.weight[j] = float(rng.uniform(0, 1));
            total += inf.weight[j];
        }
        for (float& w : inf.weight) w /= total;
        s.influences.push_back(inf);
    }
    return s;
}

TEST(SkinningPasses, OutputIsIdenticalForAnyThreadCount) {
    Scene s = random_scene(20000, 6, 11);
    const std::size_t n = s.influences.size();
    std::vector<float> reference(3 * n), out(3 * n);
    for (bool dqs : {false, true}) {
        for (int threads : {1, 2, 3, 8}) {
            std::vector<float>& target = threads == 1 ? reference : out;
            PointView<float> view{target.data(), 3};
            if (dqs)
                cpu::deform_dqs({{s.rest.data(), 3}, s.influences.data(), n, s.dqs.data(), s.dqs.size(), view}, {threads});
            else
                cpu::deform_lbs({{s.rest.data(), 3}, s.influences.data(), n, s.lbs.data(), s.lbs.size(), view}, {threads});
            if (threads > 1) {
                EXPECT_EQ(std::memcmp(reference.data(), out.data(), out.size() * sizeof(float)), 0) << threads;
            }
        }
    }
}

TEST(SkinningPasses, StridedOutputLeavesTheFourthComponentAlone) {
    Scene s = random_scene(100, 2, 12);
    const std::size_t n = s.influences.size();
    std::vector<float> packed(3 * n), strided(4 * n, 7.0f);
    cpu::deform_lbs({{s.rest.data(), 3}, s.influences.data(), n, s.lbs.data(), 2, {packed.data(), 3}}, {});
    cpu::deform_lbs({{s.rest.data(), 3}, s.influences.data(), n, s.lbs.data(), 2, {strided.data(), 4}}, {});
    for (std::size_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c) EXPECT_EQ(strided[4 * i + c], packed[3 * i + c]);
        EXPECT_EQ(strided[4 * i + 3], 7.0f);
    }
}

TEST(SkinningPasses, CudaMatchesCpu) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    using testing::to_device;
    Scene s = random_scene(100000, 8, 13);
    const std::size_t n = s.influences.size();
    float* rest = to_device(s.rest);
    Influences* influences = to_device(s.influences);
    Mat34<float>* lbs = to_device(s.lbs);
    DualQuat<float>* dqs = to_device(s.dqs);
    float* out = nullptr;
    ASSERT_EQ(cudaMalloc(&out, 3 * n * sizeof(float)), cudaSuccess);
    std::vector<float> cpu_out(3 * n), gpu_out(3 * n);
    for (bool use_dqs : {false, true}) {
        if (use_dqs) {
            cpu::deform_dqs({{s.rest.data(), 3}, s.influences.data(), n, s.dqs.data(), 8, {cpu_out.data(), 3}}, {});
            cuda::deform_dqs({{rest, 3}, influences, n, dqs, 8, {out, 3}}, {});
        } else {
            cpu::deform_lbs({{s.rest.data(), 3}, s.influences.data(), n, s.lbs.data(), 8, {cpu_out.data(), 3}}, {});
            cuda::deform_lbs({{rest, 3}, influences, n, lbs, 8, {out, 3}}, {});
        }
        ASSERT_EQ(cudaMemcpy(gpu_out.data(), out, 3 * n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        for (std::size_t i = 0; i < 3 * n; ++i) ASSERT_NEAR(gpu_out[i], cpu_out[i], 1e-5f * 10) << i;
    }
    for (void* p : {(void*)rest, (void*)influences, (void*)lbs, (void*)dqs, (void*)out}) cudaFree(p);
#endif
}

}  // namespace
}  // namespace bs
