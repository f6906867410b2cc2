// The baseline pass built by nvcc against the CPU build of the same source (skipped without a device).
#include <gtest/gtest.h>

#include "host/baseline_skinner.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/cuda_buffers.hpp"
#include "tests/support/points.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

TEST(BaselinePass, CudaMatchesCpu) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    using testing::to_device;
    Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 20000, 31);
    BaselineSkinner<float> skinner(s, points, "cuda check");
    skinner.set_deform_options(testing::tables_for_every_bone());
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.1);
    pose.joints[1].twist_radians = 2.0;
    pose.root = {normalized(Quat<double>{0.9, 0.1, -0.3, 0.2}), {1, 2, 3}};
    std::vector<Vec3<float>> cpu_out;
    skinner.deform(pose, cpu_out);

    std::vector<float> rest;
    for (const Vec3<double>& p : points) rest.insert(rest.end(), {float(p.x), float(p.y), float(p.z)});
    std::vector<BaselineBonePose<double>> table = baseline_pose_table(s, pose);
    float* d_rest = to_device(rest);
    BaselineCode* d_codes = to_device(skinner.codes());
    BaselineBone<double>* d_bones = to_device(skinner.bones());
    BaselineBonePose<double>* d_poses = to_device(table);
    float* d_out = nullptr;
    ASSERT_EQ(cudaMalloc(&d_out, rest.size() * sizeof(float)), cudaSuccess);
    cuda::deform_baseline({{d_rest, 3}, d_codes, points.size(), d_bones, d_poses, table.size(), {d_out, 3}}, {});
    std::vector<float> gpu_out(rest.size());
    ASSERT_EQ(cudaMemcpy(gpu_out.data(), d_out, gpu_out.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    const double tolerance = 1e-5 * testing::diagonal(s);
    for (std::size_t i = 0; i < points.size(); ++i)
        ASSERT_LT(norm(Vec3<double>{gpu_out[3 * i], gpu_out[3 * i + 1], gpu_out[3 * i + 2]} - Vec3<double>(cpu_out[i])), tolerance) << i;
    for (void* p : {(void*)d_rest, (void*)d_codes, (void*)d_bones, (void*)d_poses, (void*)d_out}) cudaFree(p);
#endif
}

}  // namespace
}  // namespace bs
