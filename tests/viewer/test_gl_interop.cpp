// CUDA–OpenGL interop (kernels/gl_interop.hpp, deform_into_gl_buffer in host/gpu_skinner.hpp): on a GPU with
// an OpenGL context, the points written into a buffer object equal the CPU reference and the fourth
// component of each point is left alone; a buffer too small is refused and left unmapped. Skipped without
// a device or a display; without a device, registering a buffer fails with CudaUnavailable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "host/errors.hpp"
#include "host/gpu_skinner.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/points.hpp"
#include "viewer/gl/window.hpp"

namespace bs {
namespace {

TEST(GlInterop, WithoutADeviceRegisteringSaysSo) {
    if (cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_THROW(cuda::GlBuffer{1u}, CudaUnavailable);
}

// A hidden window whose OpenGL context is current, or null (and why) where none can be made.
std::unique_ptr<view::gl::Window> hidden_window(std::string& why) {
    try {
        return std::make_unique<view::gl::Window>(64, 64, "interop test", false);
    } catch (const UnsupportedError& e) {
        why = e.what();
        return nullptr;
    }
}

// A GL buffer of `floats` NaNs.
GLuint poisoned_buffer(std::size_t floats) {
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    std::vector<float> nan(floats, std::numeric_limits<float>::quiet_NaN());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(floats * sizeof(float)), nan.data(), GL_DYNAMIC_DRAW);
    return buffer;
}

// The buffer registered with CUDA, or null where CUDA cannot share the context (Mesa under Xvfb).
std::unique_ptr<cuda::GlBuffer> register_or_null(GLuint buffer) {
    try {
        return std::make_unique<cuda::GlBuffer>(buffer);
    } catch (const CudaError&) {
        return nullptr;
    }
}

std::vector<float> read_buffer(GLuint buffer, std::size_t floats) {
    std::vector<float> host(floats);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(floats * sizeof(float)), host.data());
    return host;
}

TEST(GlInteropCuda, DeformsIntoABufferObjectAsTheCpuDoes) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    std::string why;
    std::unique_ptr<view::gl::Window> window = hidden_window(why);
    if (!window) GTEST_SKIP() << "no OpenGL context: " << why;
    Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 5000, 17);
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.1);
    pose.joints[1].twist_radians = 2.0;
    for (Method method : {Method::lbs, Method::dqs, Method::baseline}) {
        Skinner skinner(method, s, points, {}, "test");
        GpuSkinner gpu(skinner);
        GLuint vbo = poisoned_buffer(4 * points.size());
        {
            std::unique_ptr<cuda::GlBuffer> registered = register_or_null(vbo);
            if (!registered) GTEST_SKIP() << "CUDA cannot share this OpenGL context (not NVIDIA's driver?)";
            deform_into_gl_buffer(gpu, *registered, pose, 4);
            EXPECT_FALSE(registered->mapped());
            cuda::synchronize({});
        }
        std::vector<float> got = read_buffer(vbo, 4 * points.size());
        std::vector<Vec3<float>> want;
        skinner.deform(pose, want);
        for (std::size_t i = 0; i < points.size(); ++i) {
            Vec3<double> g{got[4 * i], got[4 * i + 1], got[4 * i + 2]};
            ASSERT_LT(norm(g - Vec3<double>(want[i])), 1e-5 * testing::diagonal(s)) << method_name(method) << " point " << i;
            ASSERT_TRUE(std::isnan(got[4 * i + 3])) << "the fourth component must be left alone";
        }
        glDeleteBuffers(1, &vbo);
    }
}

TEST(GlInteropCuda, ABufferTooSmallIsRefusedAndLeftUnmapped) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
    std::string why;
    std::unique_ptr<view::gl::Window> window = hidden_window(why);
    if (!window) GTEST_SKIP() << "no OpenGL context: " << why;
    Skeleton s = testing::bent_chain();
    Skinner skinner(Method::lbs, s, testing::points_around(s, 100, 3), {}, "test");
    GpuSkinner gpu(skinner);
    GLuint vbo = poisoned_buffer(3 * 99);
    {
        std::unique_ptr<cuda::GlBuffer> registered = register_or_null(vbo);  // unregistered before the buffer is deleted
        if (!registered) GTEST_SKIP() << "CUDA cannot share this OpenGL context (not NVIDIA's driver?)";
        EXPECT_THROW(deform_into_gl_buffer(gpu, *registered, Pose::rest(s), 3), InputError);
        EXPECT_FALSE(registered->mapped());
        EXPECT_THROW(deform_into_gl_buffer(gpu, *registered, Pose::rest(s), 2), InputError);
    }
    glDeleteBuffers(1, &vbo);
}

}  // namespace
}  // namespace bs
