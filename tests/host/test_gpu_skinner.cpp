// The CUDA backend's host front (host/gpu_skinner.hpp) against the CPU reference: every method with a GPU
// path (LBS, DQS, baseline, metaball), into a poisoned strided buffer, on a stream of the test's own. Skipped without a device; without
// one, constructing it must fail with CudaUnavailable (the signal "auto" falls back on).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "host/errors.hpp"
#include "host/gpu_skinner.hpp"
#include "tests/support/baseline_bend.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/cuda_buffers.hpp"
#include "tests/support/junctions.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/points.hpp"
#include "tests/support/random.hpp"
#include "tests/support/tables.hpp"

namespace bs {
namespace {

Pose random_bent_pose(const Skeleton& s, unsigned seed) {
    testing::Random random(seed);
    Pose pose = Pose::rest(s);
    for (std::size_t k = 1; k < s.bone_count(); ++k) {
        pose.joints[k].swing = axis_angle(Vec3<double>{0, 0, 1}, random.uniform(-1.8, 1.8));
        pose.joints[k].twist_radians = random.uniform(-4, 4);
    }
    pose.root = {random.rotation(), random.in_box(3)};
    return pose;
}

// One frame of `pose` on the device into `out` (packed xyz, poisoned with NaN first) against the CPU's points,
// within `tolerance`; `what` names the case in a failure.
void expect_the_cpus_points(GpuSkinner& gpu, const Skinner& skinner, const Pose& pose, cuda::DeviceArray<float>& out, double tolerance,
                            const std::string& what) {
    cuda::fill_bytes(out.data(), 0xff, out.bytes(), {});
    gpu.deform(pose, {out.data(), 3});
    const std::vector<float> got = out.download({});
    std::vector<Vec3<float>> want;
    skinner.deform(pose, want);
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_LT(norm(Vec3<double>{got[3 * i], got[3 * i + 1], got[3 * i + 2]} - Vec3<double>(want[i])), tolerance)
            << what << ", point " << i;
}

TEST(GpuSkinner, WithoutADeviceConstructionSaysSo) {
    if (cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
    Skeleton s = testing::bent_chain();
    Skinner skinner(Method::lbs, s, testing::points_around(s, 100, 3), {}, "test");
    EXPECT_THROW(GpuSkinner{skinner}, CudaUnavailable);
}

// GpuBodies checks its arguments before anything is queued, with or without a device: a null body is
// refused (it was dereferenced).
TEST(GpuBodies, ANullBodyIsRefused) {
    Skeleton s = testing::bent_chain();
    GpuBodies bodies;
    try {
        bodies.deform({nullptr}, {Pose::rest(s)}, {PointView<float>{nullptr, 3}});
        ADD_FAILURE() << "a null body was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("body 0 is a null pointer"), std::string::npos) << e.what();
    }
}

// No bodies with some poses or outputs is a mismatch like any other (it returned, refusing nothing).
TEST(GpuBodies, NoBodiesWithPosesOrOutputsIsRefused) {
    const Skeleton s = testing::bent_chain();
    GpuBodies bodies;
    EXPECT_NO_THROW(bodies.deform({}, {}, {}));
    try {
        bodies.deform({}, {Pose::rest(s)}, {PointView<float>{nullptr, 3}});
        ADD_FAILURE() << "a pose and an output for no body were taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("GpuBodies::deform: 0 bodies, 1 poses and 1 outputs"), std::string::npos) << e.what();
    }
    EXPECT_THROW(bodies.deform({}, {}, {PointView<float>{nullptr, 3}}), InputError);
}

// Two bodies' outputs that overlap are refused, naming both: the one launch writes every body at once, and
// each point of the two raced for the floats they share (they had been taken). The check is GpuBodies::deform's,
// before anything is queued; here without a device (BodiesPassCuda checks the launcher itself).
TEST(GpuBodies, OverlappingOutputsAreRefused) {
    std::vector<float> buffer(120);
    float* data = buffer.data();
    // Body 1's 10 points at a stride of 4 take floats 0 to 38 (its last z); body 2 begins on that z.
    const std::string message = testing::message_of<InputError>(
        [&] { require_separate_outputs({10, 10, 5}, {{data + 80, 4}, {data, 4}, {data + 38, 3}}, "GpuBodies::deform"); });
    EXPECT_NE(message.find("GpuBodies::deform: the outputs of bodies 1 and 2 overlap: body 2's begins 152 bytes into body 1's 156 (10 "
                           "points at a stride of 4 floats); each body needs memory of its own"),
              std::string::npos)
        << message;
    // Bodies interleaved in one buffer span each other.
    EXPECT_THROW(require_separate_outputs({5, 5}, {{data, 6}, {data + 3, 6}}, "GpuBodies::deform"), InputError);
    // Side by side, the next beginning just past the last z, and a body of no points anywhere: taken.
    EXPECT_NO_THROW(require_separate_outputs({10, 10, 5, 0}, {{data + 80, 4}, {data, 4}, {data + 39, 3}, {data, 3}}, "GpuBodies::deform"));
    // One point's span is its xyz; a size missing for an output is the caller's error, not the data's.
    EXPECT_NE(testing::message_of<InputError>([&] { require_separate_outputs({1, 1}, {{data, 3}, {data + 2, 3}}, "deform"); })
                  .find("(1 point at a stride of 3 floats)"),
              std::string::npos);
    EXPECT_THROW(require_separate_outputs({10}, {{data, 3}, {data + 40, 3}}, "deform"), std::invalid_argument);
}

TEST(GpuSkinnerCuda, MatchesTheCpuIntoAPoisonedStridedBufferOnItsStream) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 20000, 41);
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);  // unordered with the default stream: work put there shows
    const cuda::Exec exec{stream};
    const double tolerance = 1e-5 * testing::diagonal(s);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner, exec);
        cuda::DeviceArray<float> first(4 * points.size()), second(4 * points.size());
        cuda::fill_bytes(first.data(), 0xff, first.bytes(), exec);  // NaN everywhere
        cuda::fill_bytes(second.data(), 0xff, second.bytes(), exec);
        // Two frames back to back on one stream: the second upload of the frame table must not overtake
        // the first launch.
        Pose a = random_bent_pose(s, 5), b = random_bent_pose(s, 6);
        gpu.deform(a, {first.data(), 4}, exec);
        gpu.deform(b, {second.data(), 4}, exec);
        std::vector<float> got_a = first.download(exec), got_b = second.download(exec);
        for (const auto& [pose, got] : {std::pair{a, got_a}, std::pair{b, got_b}}) {
            std::vector<Vec3<float>> want;
            skinner.deform(pose, want);
            for (std::size_t i = 0; i < points.size(); ++i) {
                Vec3<double> g{got[4 * i], got[4 * i + 1], got[4 * i + 2]};
                ASSERT_LT(norm(g - Vec3<double>(want[i])), tolerance) << method_name(method) << " point " << i;
                ASSERT_TRUE(std::isnan(got[4 * i + 3])) << "the fourth component must be left alone";
            }
        }
    }
    cudaStreamDestroy(stream);
#endif
}

// A baseline body whose tables the device builds in place (set_tables_on_device): the CPU's points within
// 1e-5 of the diagonal, every point written, over random bends that refine cells; then back to host tables.
TEST(GpuSkinnerCuda, TablesBuiltOnTheDeviceGiveTheCpusPoints) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 20000, 47);
    Skinner skinner(Method::baseline, s, points, {}, "test");
    GpuSkinner gpu(skinner);
    const double tolerance = 1e-5 * testing::diagonal(s);
    cuda::DeviceArray<float> out(3 * points.size());
    unsigned seed = 8;
    for (bool on_device : {true, true, false}) {  // twice on the device: the second frame reuses its buffers
        gpu.set_tables_on_device(on_device);
        expect_the_cpus_points(gpu, skinner, random_bent_pose(s, seed++), out, tolerance, on_device ? "device tables" : "host tables");
        if (HasFatalFailure()) return;
    }
}

// A baseline body whose skinner leaves some bones out of the tables (BaselineDeformOptions::
// min_tabulated_points: half its bones here), and one that tabulates none: the device reads kUntabulatedCell
// and takes the direct construction for those bones' points, as the CPU does, within 1e-5 of the diagonal,
// with the tables built on the host and on the device (which leaves the same bones out, or builds none).
TEST(GpuSkinnerCuda, BonesLeftOutOfTheTablesGiveTheCpusPoints) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    const testing::NamedJunction j = testing::four_bone_junction();
    const std::vector<Vec3<double>> points = testing::points_around(j.skeleton, 4000, 48);
    const std::vector<BaselineCode> codes = Skinner(Method::baseline, j.skeleton, points, {}, "test").baseline()->codes();
    const std::vector<std::size_t> readers = table_readers(codes, j.skeleton.bone_count());
    const double tolerance = 1e-5 * testing::diagonal(j.skeleton);
    for (int min_points : {testing::median_table_readers(codes, j.skeleton.bone_count()), int(*std::max_element(readers.begin(), readers.end())) + 1}) {
        BaselineDeformOptions options;
        options.min_tabulated_points = min_points;
        Skinner skinner(Method::baseline, j.skeleton, points, {}, "test", options);
        const std::vector<unsigned char>& tabulated = skinner.baseline()->tabulated();
        ASSERT_GT(std::count(tabulated.begin(), tabulated.end(), 0), 0) << "no bone left out";
        GpuSkinner gpu(skinner);
        cuda::DeviceArray<float> out(3 * points.size());
        testing::Random rng(49);
        for (bool on_device : {false, true}) {
            gpu.set_tables_on_device(on_device);
            for (int frame = 0; frame < 2; ++frame) {
                expect_the_cpus_points(gpu, skinner, testing::random_bend_pose(j.skeleton, rng), out, tolerance,
                                       "threshold " + std::to_string(min_points) + (on_device ? ", device tables" : ", host tables"));
                if (HasFatalFailure()) return;
            }
        }
    }
}

// deform() queues its copies and launches without waiting for the stream: with the stream held by a host
// function, as many frames as FrameUploads keeps in flight are queued, and only then is the stream let go.
// A deform() that waited for the stream (as a copy from pageable memory may) would hold the gate until it
// gave up. The frames still come out as the CPU's. (Baseline's tables are what tells: LBS's few bytes a
// bone went up without waiting even from pageable memory; it is here for its own path.)
TEST(GpuSkinnerCuda, DeformDoesNotWaitForItsStream) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 20000, 53);
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);  // unordered with the default stream: work put there shows
    const cuda::Exec exec{stream};
    const double tolerance = 1e-5 * testing::diagonal(s);
    constexpr int frames = cuda::FrameUploads::kFramesInFlight;
    for (Method method : {Method::lbs, Method::baseline}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner, exec);
        std::vector<Pose> poses;
        std::vector<cuda::DeviceArray<float>> outs;
        for (int f = 0; f < frames; ++f) {
            poses.push_back(random_bent_pose(s, 60 + f));
            outs.emplace_back(3 * points.size());
        }
        // The same frames twice without the gate, so that every buffer already has its size (a buffer that
        // grows is reallocated, which may synchronise the device).
        for (int round = 0; round < 2; ++round)
            for (int f = 0; f < frames; ++f) gpu.deform(poses[f], {outs[f].data(), 3}, exec);
        cuda::synchronize(exec);
        testing::StreamGate gate;
        ASSERT_EQ(cudaLaunchHostFunc(stream, testing::StreamGate::hold, &gate), cudaSuccess);
        for (int f = 0; f < frames; ++f) {
            cuda::fill_bytes(outs[f].data(), 0xff, outs[f].bytes(), exec);  // NaN everywhere
            gpu.deform(poses[f], {outs[f].data(), 3}, exec);
        }
        gate.open = true;
        cuda::synchronize(exec);
        EXPECT_FALSE(gate.gave_up) << method_name(method) << ": deform() waited for its stream";
        for (int f = 0; f < frames; ++f) {
            const std::vector<float> got = outs[f].download(exec);
            std::vector<Vec3<float>> want;
            skinner.deform(poses[f], want);
            for (std::size_t i = 0; i < points.size(); ++i)
                ASSERT_LT(norm(Vec3<double>{got[3 * i], got[3 * i + 1], got[3 * i + 2]} - Vec3<double>(want[i])), tolerance)
                    << method_name(method) << " frame " << f << " point " << i;
        }
    }
    cudaStreamDestroy(stream);
#endif
}

// A CudaError caught and survived (an allocation too large) is not reported again by the next launch's
// check, for a kernel that was queued: cuda_check clears it as it throws.
TEST(GpuSkinnerCuda, ACaughtCudaErrorIsNotReportedAgainByTheNextDeform) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 500, 61);
    Skinner skinner(Method::lbs, s, points, {}, "test");
    GpuSkinner gpu(skinner);
    cuda::DeviceArray<float> out(3 * points.size());
    EXPECT_THROW(cuda::DeviceArray<char>(std::size_t(1) << 50), CudaError);
    EXPECT_NO_THROW(gpu.deform(random_bent_pose(s, 3), {out.data(), 3}));
#endif
}

// A GpuSkinner whose Skinner was moved from, or had another assigned in its place, refuses to deform:
// its device data are the first one's (it dereferenced null, or launched LBS over baseline's order).
TEST(GpuSkinnerCuda, ASkinnerMovedFromOrReplacedUnderItIsRefused) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 500, 67);
    cuda::DeviceArray<float> out(3 * points.size());
    const Pose pose = random_bent_pose(s, 4);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner);
        Skinner taken(std::move(skinner));
        EXPECT_THROW(gpu.deform(pose, {out.data(), 3}), InputError) << method_name(method);
        skinner = Skinner(method == Method::lbs ? Method::baseline : Method::lbs, s, points, {}, "test");
        EXPECT_THROW(gpu.deform(pose, {out.data(), 3}), InputError) << method_name(method);
        // The same method and count in the first one's place, its block freed first (the allocator hands
        // it back: an address check passed).
        Skinner again(method, s, points, {}, "test");
        GpuSkinner gpu_again(again);
        { const Skinner dropped(std::move(again)); }
        again = Skinner(method, s, points, {}, "test");
        EXPECT_THROW(gpu_again.deform(pose, {out.data(), 3}), InputError) << method_name(method);
    }
#endif
}

// A frame on a stream being captured into a CUDA graph is refused before anything is queued (a replayed
// graph would upload from page-locked blocks later frames rewrite); outside the capture the stream runs it.
TEST(GpuSkinnerCuda, AStreamBeingCapturedIsRefused) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 300, 71);
    cuda::DeviceArray<float> out(3 * points.size());
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);  // unordered with the default stream: work put there shows
    const cuda::Exec exec{stream};
    for (Method method : {Method::lbs, Method::baseline}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner, exec);
        ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), cudaSuccess);
        EXPECT_THROW(gpu.deform(random_bent_pose(s, 5), {out.data(), 3}, exec), InputError) << method_name(method);
        EXPECT_THROW(GpuBodies().deform({&gpu}, {random_bent_pose(s, 5)}, {{out.data(), 3}}, exec), InputError) << method_name(method);
        cudaGraph_t graph = nullptr;
        EXPECT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
        if (graph) cudaGraphDestroy(graph);
        EXPECT_NO_THROW(gpu.deform(random_bent_pose(s, 5), {out.data(), 3}, exec)) << method_name(method);
        ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    }
    cudaStreamDestroy(stream);
#endif
}

// An output the device cannot write is refused with InputError before anything is queued, for every
// method: a null pointer, a stride below 3, pageable host memory (where the device does not read it); the
// context is left whole, so a good buffer works afterwards.
TEST(GpuSkinnerCuda, AnOutputItCannotWriteIsRefused) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 2000, 59);
    int device = 0, pageable = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device), cudaSuccess);
    std::vector<float> host(3 * points.size());
    const Pose pose = random_bent_pose(s, 9);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner);
        cuda::DeviceArray<float> out(3 * points.size());
        EXPECT_THROW(gpu.deform(pose, {nullptr, 3}), InputError) << method_name(method);
        EXPECT_THROW(gpu.deform(pose, {out.data(), 2}), InputError) << method_name(method);
        if (!pageable) {
            EXPECT_THROW(gpu.deform(pose, {host.data(), 3}), InputError) << method_name(method);
        }
        gpu.deform(pose, {out.data(), 3});
        const std::vector<float> got = out.download({});
        std::vector<Vec3<float>> want;
        skinner.deform(pose, want);
        for (std::size_t i = 0; i < points.size(); ++i)
            ASSERT_LT(norm(Vec3<double>{got[3 * i], got[3 * i + 1], got[3 * i + 2]} - Vec3<double>(want[i])), 1e-5 * testing::diagonal(s))
                << method_name(method) << " point " << i;
    }
#endif
}

// Building a baseline skinner raises the device's stack limit to what its passes and the table passes need
// (about 6 kB, above CUDA's default of 1 kB), so that no frame's launch has to raise it (CUDA does so at a
// launch that needs more; whether that waits for the device is not documented). The limit is lowered to the
// default first, so that what earlier tests' launches raised does not count; then frames with host and with
// device tables leave it where construction put it.
TEST(GpuSkinnerCuda, ABaselineSkinnerReservesItsPassesStackBeforeItsFirstFrame) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 6000, 43);  // every bone tabulated
    Skinner skinner(Method::baseline, s, points, {}, "test");
    const std::size_t cuda_default = 1024;
    ASSERT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, cuda_default), cudaSuccess);
    GpuSkinner gpu(skinner);
    std::size_t built = 0;
    ASSERT_EQ(cudaDeviceGetLimit(&built, cudaLimitStackSize), cudaSuccess);
    EXPECT_GT(built, cuda_default);
    cuda::DeviceArray<float> out(3 * points.size());
    for (bool on_device : {false, true}) {
        gpu.set_tables_on_device(on_device);
        gpu.deform(random_bent_pose(s, 7), {out.data(), 3});
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::size_t after = 0;
        ASSERT_EQ(cudaDeviceGetLimit(&after, cudaLimitStackSize), cudaSuccess);
        EXPECT_EQ(after, built) << (on_device ? "device" : "host") << " tables: a launch raised the limit";
    }
#endif
}

TEST(GpuSkinnerCuda, DeviceBytesAreThePerPointDataThenTheFrameBuffersToo) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 5000, 43);
    const std::size_t n = points.size();
    const std::size_t bones = s.bone_count();
    const std::pair<Method, std::size_t> uploads[] = {
        {Method::lbs, n * (sizeof(Vec3<float>) + sizeof(Influences))},
        {Method::dqs, n * (sizeof(Vec3<float>) + sizeof(Influences))},
        // the order and the split pass's room too (the kept field bones below)
        {Method::baseline, n * (sizeof(Vec3<float>) + sizeof(BaselineCode) + 2 * sizeof(std::uint32_t)) + sizeof(std::uint32_t) +
                               bones * sizeof(BaselineBone<double>)}};
    for (const auto& [method, uploaded] : uploads) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner);
        const KeptFieldBones* field = skinner.baseline() ? &skinner.baseline()->field_bones() : nullptr;
        const std::size_t kept = field ? field->refs.size() * sizeof(std::uint32_t) + field->pool.size() * sizeof(FieldWeight) : 0;
        if (field) {
            EXPECT_GT(field->pool.size(), 0u) << "the chain's points around it have blended codes";
        }
        EXPECT_EQ(gpu.device_bytes(), uploaded + kept) << method_name(method);
        cuda::DeviceArray<float> out(3 * n);
        gpu.deform(random_bent_pose(s, 7), {out.data(), 3});
        cuda::synchronize({});
        EXPECT_GT(gpu.device_bytes(), uploaded) << method_name(method) << ": the frame's tables are on the device too";
    }
}

}  // namespace
}  // namespace bs
