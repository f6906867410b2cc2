// Several bodies in one launch (kernels/passes.hpp BodiesJob): the CPU build against each body deformed
// on its own, and the GPU front (host/gpu_skinner.hpp GpuBodies) against the CPU (skipped without a
// device). Bodies differ in skeleton, point count and pose; the ranges include an empty body.
#include <gtest/gtest.h>

#include "host/errors.hpp"
#include "host/gpu_skinner.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/points.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

struct Body {
    Skeleton skeleton;
    Pose pose;
    std::vector<Vec3<double>> points;
};

std::vector<Body> bodies() {
    std::vector<Body> out;
    testing::Random rng(4);
    int count = 0;
    for (Skeleton s : {testing::bent_chain(), testing::straight_chain(), testing::bent_chain()}) {
        Pose pose = Pose::rest(s);
        pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, rng.uniform(-1.5, 1.5));
        pose.joints[1].twist_radians = rng.uniform(-3, 3);
        pose.root = {rng.rotation(), rng.in_box(2)};
        out.push_back({s, pose, testing::points_around(s, 1000 + 1700 * count++, 10 + count)});
    }
    out.push_back({testing::straight_chain(), Pose::rest(testing::straight_chain()), {}});  // an empty body
    return out;
}

// Each body's points taken in reverse order (BaselineJob::order, as the GPU front's coherent order does):
// a body's local index, not the combined one, must pick its order entry and its output.
TEST(BodiesPass, OneCallEqualsEachBodyOnItsOwn) {
    std::vector<Body> set = bodies();
    std::vector<std::unique_ptr<BaselineSkinner<float>>> skinners;
    std::vector<std::vector<BaselineBonePose<double>>> frames;
    std::vector<BaselineFrameTables> tables;
    std::vector<std::vector<Vec3<float>>> together(set.size()), alone(set.size());
    std::vector<std::vector<std::uint32_t>> orders(set.size());
    std::vector<std::vector<BaselineCode>> codes(set.size());
    std::vector<std::vector<Vec3<float>>> rests(set.size());
    std::vector<BaselineJob<float>> jobs;
    std::vector<std::size_t> starts{0};
    for (std::size_t b = 0; b < set.size(); ++b) {
        skinners.push_back(std::make_unique<BaselineSkinner<float>>(set[b].skeleton, set[b].points, "body"));
        skinners.back()->set_deform_options(testing::tables_for_every_bone());
        skinners[b]->deform(set[b].pose, alone[b]);
        frames.push_back(skinners[b]->frame(set[b].pose));
        tables.push_back(skinners[b]->frame_tables(frames[b]));
        together[b].assign(set[b].points.size(), Vec3<float>{NAN, NAN, NAN});
        const std::size_t n = skinners[b]->size();
        for (std::size_t i = 0; i < n; ++i) {
            orders[b].push_back(std::uint32_t(n - 1 - i));
            codes[b].push_back(skinners[b]->codes()[n - 1 - i]);
            rests[b].push_back(skinners[b]->rest()[n - 1 - i]);
        }
    }
    for (std::size_t b = 0; b < set.size(); ++b) {
        const BaselineSkinner<float>& s = *skinners[b];
        jobs.push_back({{packed_scalars(rests[b].data()), 3}, codes[b].data(), s.size(), s.bones().data(), frames[b].data(), frames[b].size(),
                        {packed_scalars(together[b].data()), 3}, tables[b].view(), orders[b].data()});
        starts.push_back(starts.back() + s.size());
    }
    cpu::deform_baseline(BodiesJob<BaselineJob<float>>{jobs.data(), starts.data(), int(jobs.size()), starts.back()}, {});
    for (std::size_t b = 0; b < set.size(); ++b)
        for (std::size_t i = 0; i < alone[b].size(); ++i) ASSERT_EQ(norm(together[b][i] - alone[b][i]), 0.0f) << b << " " << i;
}

TEST(BodiesPassCuda, GpuBodiesInOneLaunchMatchTheCpu) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    std::vector<Body> set = bodies();
    for (Method method : {Method::lbs, Method::baseline}) {
        std::vector<std::unique_ptr<Skinner>> skinners;
        std::vector<std::unique_ptr<GpuSkinner>> gpus;
        std::vector<cuda::DeviceArray<float>> outs;
        std::vector<GpuSkinner*> bodies_on_gpu;
        std::vector<PointView<float>> views;
        std::vector<Pose> poses;
        for (const Body& body : set) {
            skinners.push_back(std::make_unique<Skinner>(method, body.skeleton, body.points, std::vector<Influences>{}, "body"));
            gpus.push_back(std::make_unique<GpuSkinner>(*skinners.back()));
            outs.emplace_back(3 * body.points.size());
            if (!body.points.empty()) cuda::fill_bytes(outs.back().data(), 0xff, outs.back().bytes(), {});
            bodies_on_gpu.push_back(gpus.back().get());
            views.push_back({outs.back().data(), 3});
            poses.push_back(body.pose);
        }
        GpuBodies launcher;
        launcher.deform(bodies_on_gpu, poses, views);
        for (std::size_t b = 0; b < set.size(); ++b) {
            std::vector<Vec3<float>> want;
            skinners[b]->deform(set[b].pose, want);
            std::vector<float> got = outs[b].download({});
            const double tolerance = 1e-5 * testing::diagonal(set[b].skeleton);
            for (std::size_t i = 0; i < want.size(); ++i)
                ASSERT_LT(norm(Vec3<double>{got[3 * i], got[3 * i + 1], got[3 * i + 2]} - Vec3<double>(want[i])), tolerance)
                    << method_name(method) << " body " << b << " point " << i;
        }
    }
}

TEST(BodiesPassCuda, ABodyTwiceInOneCallIsRefused) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    std::vector<Body> set = bodies();
    Skinner skinner(Method::baseline, set[0].skeleton, set[0].points, {}, "body");
    GpuSkinner gpu(skinner);
    cuda::DeviceArray<float> a(3 * gpu.size()), b(3 * gpu.size());
    GpuBodies launcher;
    EXPECT_THROW(launcher.deform({&gpu, &gpu}, {set[0].pose, Pose::rest(set[0].skeleton)}, {{a.data(), 3}, {b.data(), 3}}), InputError);
}

// Two bodies whose outputs overlap (the second begins on the first's last point) are refused, naming both,
// before anything is queued (the launch wrote both at once).
TEST(BodiesPassCuda, OverlappingOutputsAreRefused) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    std::vector<Body> set = bodies();
    Skinner first(Method::lbs, set[0].skeleton, set[0].points, {}, "body"), second(Method::lbs, set[1].skeleton, set[1].points, {}, "body");
    GpuSkinner a(first), b(second);
    cuda::DeviceArray<float> out(3 * (a.size() + b.size()));
    GpuBodies launcher;
    const std::string message = testing::message_of<InputError>([&] {
        launcher.deform({&a, &b}, {set[0].pose, set[1].pose}, {{out.data(), 3}, {out.data() + 3 * (a.size() - 1), 3}});
    });
    EXPECT_NE(message.find("GpuBodies::deform: the outputs of bodies 0 and 1 overlap"), std::string::npos) << message;
    EXPECT_NO_THROW(launcher.deform({&a, &b}, {set[0].pose, set[1].pose}, {{out.data(), 3}, {out.data() + 3 * a.size(), 3}}));
}

}  // namespace
}  // namespace bs
