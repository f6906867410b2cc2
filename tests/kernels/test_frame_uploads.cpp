// Per-frame uploads through page-locked staging memory (kernels/frame_uploads.hpp): without a device they
// say so; with one, frames of growing and shrinking sizes land whole on the device (staging grows by blocks
// mid-frame), a repeated sequence allocates nothing more, frames are queued without waiting for the stream,
// and a frame waits for the copies of the frame kFramesInFlight back before it reuses that memory.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <numeric>
#include <vector>

#include "kernels/frame_uploads.hpp"
#include "tests/support/cuda_buffers.hpp"

namespace bs {
namespace {

TEST(FrameUploads, WithoutADeviceAFrameSaysSo) {
    if (cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
    cuda::FrameUploads uploads;
    EXPECT_THROW(uploads.frame({}), CudaUnavailable);
    EXPECT_EQ(uploads.host_bytes(), 0u);
}

// Frame f uploads two arrays of sizes[f] and sizes[f] / 2 + 1 ints, each holding its frame, array and index,
// to arrays of its own; the second upload of a frame larger than the turn held needs a block of its own.
TEST(FrameUploadsCuda, FramesOfEverySizeLandWholeAndARepeatAllocatesNothing) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    const std::size_t sizes[] = {10, 1000, 100000, 10, 300000, 5, 7, 200000, 1};
    constexpr std::size_t frames = std::size(sizes);
    auto content = [](std::size_t frame, int array, std::size_t count) {
        std::vector<int> values(count);
        std::iota(values.begin(), values.end(), int(frame * 10000000 + array * 1000000));
        return values;
    };
    cuda::FrameUploads uploads;
    std::size_t held_after_first_pass = 0;
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<cuda::DeviceArray<int>> to(2 * frames);
        for (std::size_t f = 0; f < frames; ++f) {
            cuda::FrameUploads::Frame frame = uploads.frame({});
            frame.upload(to[2 * f], content(f, 0, sizes[f]));  // the host vectors go at once
            frame.upload(to[2 * f + 1], content(f, 1, sizes[f] / 2 + 1));
        }
        cuda::synchronize({});
        for (std::size_t f = 0; f < frames; ++f)
            for (int array = 0; array < 2; ++array) {
                const std::size_t count = array == 0 ? sizes[f] : sizes[f] / 2 + 1;
                ASSERT_EQ(to[2 * f + array].download({}), content(f, array, count)) << "pass " << pass << " frame " << f << " array " << array;
            }
        if (pass == 0) held_after_first_pass = uploads.host_bytes();
    }
    EXPECT_GE(held_after_first_pass, (300000 + 150001) * sizeof(int)) << "the largest frame was staged whole";
    EXPECT_EQ(uploads.host_bytes(), held_after_first_pass) << "the same frames again need no more staging";
}

// With the stream held by a host function, kFramesInFlight frames are queued without waiting for it (the
// gate would give up); the next frame reuses the first one's staging memory, so it must wait until the
// stream is let go and that frame's copies are done. Every frame lands whole.
TEST(FrameUploadsCuda, AFrameWaitsOnlyForTheCopiesOfTheFrameItsMemoryHeld) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);  // unordered with the default stream: work put there shows
    const cuda::Exec exec{stream};
    constexpr int frames = cuda::FrameUploads::kFramesInFlight + 1;
    auto content = [](int frame) {
        std::vector<int> values(1 << 20);  // 4 MB: more than a driver stages from pageable memory at once
        std::iota(values.begin(), values.end(), frame * 10000000);
        return values;
    };
    cuda::FrameUploads uploads;
    std::vector<cuda::DeviceArray<int>> to(frames);
    // Once without the gate: allocating the staging and device memory may synchronise the device.
    for (int f = 0; f < frames; ++f) uploads.frame(exec).upload(to[f], content(-1 - f));
    cuda::synchronize(exec);
    testing::StreamGate gate;
    ASSERT_EQ(cudaLaunchHostFunc(stream, testing::StreamGate::hold, &gate), cudaSuccess);
    for (int f = 0; f + 1 < frames; ++f) uploads.frame(exec).upload(to[f], content(f));
    std::future<void> last = std::async(std::launch::async, [&] { uploads.frame(exec).upload(to[frames - 1], content(frames - 1)); });
    EXPECT_EQ(last.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
        << "the frame reusing the first one's memory must wait for that frame's copies";
    gate.open = true;
    last.get();
    cuda::synchronize(exec);
    EXPECT_FALSE(gate.gave_up) << "a frame waited for the stream";
    for (int f = 0; f < frames; ++f) ASSERT_EQ(to[f].download(exec), content(f)) << "frame " << f;
    cudaStreamDestroy(stream);
#endif
}

}  // namespace
}  // namespace bs
