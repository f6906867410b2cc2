// The orbit camera (viewer/camera.hpp): framing, projection and rays agree, and each gesture does what it
// promises.
#include <gtest/gtest.h>

#include <cmath>

#include "viewer/camera.hpp"

namespace bs::view {
namespace {

OrbitCamera framed(glm::vec3 lo, glm::vec3 hi, int width = 640, int height = 360) {
    OrbitCamera camera;
    camera.set_viewport(width, height);
    camera.frame(lo, hi);
    return camera;
}

TEST(ViewerCamera, FrameShowsEveryCornerOfTheBox) {
    for (auto [w, h] : {std::pair{640, 360}, std::pair{300, 800}}) {
        glm::vec3 lo(-1, -2, -0.5f), hi(11, 1, 0.5f);
        OrbitCamera camera = framed(lo, hi, w, h);
        for (int corner = 0; corner < 8; ++corner) {
            glm::vec3 p(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z);
            glm::vec3 pixel = camera.project(p);
            EXPECT_GE(pixel.x, 0) << corner;
            EXPECT_LE(pixel.x, w) << corner;
            EXPECT_GE(pixel.y, 0) << corner;
            EXPECT_LE(pixel.y, h) << corner;
            EXPECT_GT(pixel.z, 0) << "in front of the near plane";
            EXPECT_LT(pixel.z, 1) << "before the far plane";
        }
        glm::vec3 centre = camera.project(0.5f * (lo + hi));
        EXPECT_NEAR(centre.x, w / 2.0f, 1e-3f * w);
        EXPECT_NEAR(centre.y, h / 2.0f, 1e-3f * h);
    }
}

// A body 1e-10 across (its radii above the 1e-15 the skeleton takes) is framed as the same body at unit
// scale: an absolute floor on the framed radius (1e-6) left it a speck, or a blank image.
TEST(ViewerCamera, ATinyBodyIsFramedAsTheSameBodyAtUnitScale) {
    const glm::vec3 lo(-1, -2, -0.5f), hi(11, 1, 0.5f);
    for (float scale : {1e-10f, 1e-14f, 1e10f}) {
        OrbitCamera unit = framed(lo, hi), scaled = framed(scale * lo, scale * hi);
        for (int corner = 0; corner < 8; ++corner) {
            glm::vec3 p(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z);
            const glm::vec3 a = unit.project(p), b = scaled.project(scale * p);
            EXPECT_NEAR(a.x, b.x, 1e-2f) << scale << " corner " << corner;
            EXPECT_NEAR(a.y, b.y, 1e-2f) << scale << " corner " << corner;
            EXPECT_GT(b.z, 0) << scale;
            EXPECT_LT(b.z, 1) << scale;
        }
    }
}

// So is a body 1.5 across far from the origin (a floor of 1e-6 × its distance framed it at half size).
TEST(ViewerCamera, ABodyFarFromTheOriginIsFramedAsAtTheOrigin) {
    const glm::vec3 lo(0, -0.25f, -0.25f), hi(1.5f, 0.25f, 0.25f), far(1e6f, 1e6f, 1e6f);
    const OrbitCamera near_origin = framed(lo, hi), away = framed(far + lo, far + hi);
    // The same distance from the target, so the same size on screen (projecting points at 1e6 in float is
    // itself off by pixels: compare the eye's offset instead).
    EXPECT_NEAR(glm::length(away.eye() - away.target()) / glm::length(near_origin.eye() - near_origin.target()), 1.0f, 0.05f);  // float steps of 0.06 at 1e6; the old floor gave 2.2
}

// And drawn as at the origin: its corners project between the clip planes, where the body at the origin's
// do, to within a pixel (points 1e6 away through view_projection() cancelled terms of 1e6 in float: their
// depths fell past the far plane and the splats vanished, or scattered, with the camera's smallest turn).
TEST(ViewerCamera, ABodyFarFromTheOriginIsDrawnAsAtTheOrigin) {
    const glm::vec3 lo(0, -0.25f, -0.25f), hi(1.5f, 0.25f, 0.25f);
    const OrbitCamera near_origin = framed(lo, hi);
    for (float offset : {1e5f, 1e6f}) {  // at 1e7 float's step is 1: the body itself is not held
        const glm::vec3 far(offset, offset, offset);
        for (float yaw : {0.0f, 28.6f, 180.0f}) {
            OrbitCamera a = near_origin, b = framed(far + lo, far + hi);
            a.aim({{}, 1.0f, yaw, {}});
            b.aim({{}, 1.0f, yaw, {}});
            for (int corner = 0; corner < 8; ++corner) {
                const glm::vec3 p(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z);
                const glm::vec3 at_origin = a.project(p), away = b.project(far + p);
                EXPECT_NEAR(away.x, at_origin.x, 1.0f) << offset << " yaw " << yaw << " corner " << corner;
                EXPECT_NEAR(away.y, at_origin.y, 1.0f) << offset << " yaw " << yaw << " corner " << corner;
                EXPECT_GT(away.z, 0) << offset << " yaw " << yaw << " corner " << corner;
                EXPECT_LT(away.z, 1) << offset << " yaw " << yaw << " corner " << corner;
            }
        }
    }
}

TEST(ViewerCamera, RayThroughAPixelProjectsBackOnIt) {
    OrbitCamera camera = framed({0, 0, 0}, {4, 2, 1});
    camera.orbit(37, -12);
    for (glm::vec2 pixel : {glm::vec2(0, 0), glm::vec2(320, 180), glm::vec2(611.5f, 20), glm::vec2(15, 350)}) {
        Ray ray = camera.ray(pixel);
        EXPECT_NEAR(glm::length(ray.direction), 1, 1e-5f);
        EXPECT_NEAR(glm::distance(ray.origin, camera.eye()), 0, 1e-5f);
        glm::vec3 back = camera.project(ray.origin + camera.distance() * ray.direction);
        EXPECT_NEAR(back.x, pixel.x, 0.01f);
        EXPECT_NEAR(back.y, pixel.y, 0.01f);
    }
}

TEST(ViewerCamera, OrbitTurnsAboutTheTargetAtTheSameDistance) {
    OrbitCamera camera = framed({-1, -1, -1}, {1, 1, 1});
    const glm::vec3 target = camera.target();
    const float distance = camera.distance();
    const glm::vec3 eye = camera.eye();
    camera.orbit(50, 20);
    EXPECT_NEAR(glm::distance(camera.eye(), target), distance, 1e-4f * distance);
    EXPECT_GT(glm::distance(camera.eye(), eye), 0.1f * distance);
    EXPECT_EQ(camera.target(), target);
}

TEST(ViewerCamera, PitchStopsShortOfThePoles) {
    OrbitCamera camera = framed({-1, -1, -1}, {1, 1, 1});
    camera.orbit(0, 1e6f);
    EXPECT_FLOAT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
    camera.orbit(0, -1e6f);
    EXPECT_FLOAT_EQ(camera.pitch(), -OrbitCamera::kMaxPitch);
    EXPECT_TRUE(std::isfinite(camera.view()[0][0]));
}

TEST(ViewerCamera, PanMovesTheTargetWithTheCursor) {
    OrbitCamera camera = framed({0, 0, 0}, {10, 2, 2});
    const glm::vec3 old_target = camera.target();
    camera.pan(40, -25);
    // The old target point moved on screen by the cursor's motion, and the view direction is unchanged.
    glm::vec3 pixel = camera.project(old_target);
    EXPECT_NEAR(pixel.x, 320 + 40, 0.05f);
    EXPECT_NEAR(pixel.y, 180 - 25, 0.05f);
}

TEST(ViewerCamera, ZoomScalesTheDistanceWithinItsRange) {
    OrbitCamera camera = framed({0, 0, 0}, {2, 2, 2});
    const float distance = camera.distance();
    camera.zoom(1);
    EXPECT_NEAR(camera.distance(), 0.9f * distance, 1e-5f * distance);
    camera.zoom(-2);
    EXPECT_NEAR(camera.distance(), distance / 0.9f, 1e-4f * distance);
    camera.zoom(1e4f);
    EXPECT_GT(camera.distance(), 0);
    EXPECT_TRUE(std::isfinite(camera.projection()[0][0]));
}

// --look-at, --zoom, --yaw and --pitch after framing: the target, the framed distance over the zoom (within
// the zoom gesture's range), the direction in degrees (pitch short of the poles); what is unset stays.
TEST(ViewerCamera, AnAimSetsTheViewAfterFraming) {
    OrbitCamera camera = framed({0, 0, 0}, {2, 2, 2});
    const float distance = camera.distance(), yaw = camera.yaw(), pitch = camera.pitch();
    camera.aim({});
    EXPECT_EQ(camera.target(), glm::vec3(1, 1, 1));
    EXPECT_EQ(camera.distance(), distance);
    EXPECT_EQ(camera.yaw(), yaw);
    EXPECT_EQ(camera.pitch(), pitch);
    CameraAim aim;
    aim.target = glm::vec3(2, 0, 0);
    aim.zoom = 4;
    aim.yaw_degrees = 90;
    camera.aim(aim);
    EXPECT_EQ(camera.target(), glm::vec3(2, 0, 0));
    EXPECT_NEAR(camera.distance(), distance / 4, 1e-5f * distance);
    EXPECT_NEAR(camera.yaw(), 3.14159265f / 2, 1e-6f);
    EXPECT_EQ(camera.pitch(), pitch);
    EXPECT_NEAR(camera.eye().x, 2 + distance / 4 * std::cos(pitch), 1e-4f * distance) << "looking along -x from +x";
    aim = {};
    aim.pitch_degrees = 90;
    aim.zoom = 1e9f;
    camera.frame({0, 0, 0}, {2, 2, 2});
    camera.aim(aim);
    EXPECT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
    EXPECT_GT(camera.distance(), 0);
    EXPECT_TRUE(std::isfinite(camera.view_projection_about_target()[0][0]));
    // Looking at a point far from the body keeps the body between the clip planes (it had been cut away).
    camera.frame({0, 0, 0}, {2, 2, 2});
    aim = {};
    aim.target = glm::vec3(40, 1, 1);
    aim.yaw_degrees = 90;
    aim.pitch_degrees = 0;
    camera.aim(aim);
    EXPECT_LT(std::fabs(camera.project({1, 1, 1}).z), 1.0f) << "the body's centre, behind the target from the eye";
}

TEST(ViewerCamera, ResetRestoresTheDefaultView) {
    OrbitCamera camera = framed({0, 0, 0}, {2, 2, 2});
    const glm::vec3 eye = camera.eye();
    camera.orbit(100, 30);
    camera.pan(10, 10);
    camera.zoom(3);
    camera.frame({0, 0, 0}, {2, 2, 2});
    EXPECT_NEAR(glm::distance(camera.eye(), eye), 0, 1e-4f);
}

TEST(ViewerCamera, DegenerateViewportAndBoxStayFinite) {
    OrbitCamera camera;
    camera.set_viewport(0, -3);
    camera.frame({1, 1, 1}, {1, 1, 1});
    EXPECT_EQ(camera.width(), 1);
    EXPECT_EQ(camera.height(), 1);
    glm::vec3 p = camera.project({1, 1, 1});
    EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
}

}  // namespace
}  // namespace bs::view
