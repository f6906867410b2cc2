// Picking (viewer/picking.hpp): the first sphere hit, the point nearest the eye near the ray, the drag plane.
#include <gtest/gtest.h>

#include <vector>

#include "viewer/picking.hpp"

namespace bs::view {
namespace {

const Ray kAlongX{{-10, 0, 0}, {1, 0, 0}};

TEST(ViewerPicking, TheFirstSphereAlongTheRayWins) {
    std::vector<PickSphere> spheres{{{5, 0, 0}, 1}, {{0, 0, 0}, 1}, {{0, 3, 0}, 1}};
    EXPECT_EQ(pick_sphere(kAlongX, spheres), 1);
    EXPECT_EQ(pick_sphere({{10, 0, 0}, {-1, 0, 0}}, spheres), 0);
}

TEST(ViewerPicking, ARayThatMissesEverySpherePicksNone) {
    std::vector<PickSphere> spheres{{{0, 1.01f, 0}, 1}};
    EXPECT_EQ(pick_sphere(kAlongX, spheres), -1);
    EXPECT_EQ(pick_sphere({{10, 0, 0}, {1, 0, 0}}, {{{0, 0, 0}, 1}}), -1) << "behind the origin";
    EXPECT_EQ(pick_sphere(kAlongX, {}), -1);
}

TEST(ViewerPicking, ARayFromInsideASphereHitsIt) {
    EXPECT_EQ(pick_sphere({{0.2f, 0, 0}, {0, 1, 0}}, {{{0, 0, 0}, 1}}), 0);
}

TEST(ViewerPicking, ThePointNearestTheEyeWithinTheToleranceWins) {
    std::vector<float> points{3, 0.05f, 0,   // 0: near the ray, far along it
                              1, 0, 0.08f,   // 1: near the ray, nearest the eye
                              -20, 0, 0,     // 2: behind the origin
                              0, 0.5f, 0};   // 3: too far from the ray
    EXPECT_EQ(pick_point(kAlongX, points.data(), 4, 0.1f), 1);
    EXPECT_EQ(pick_point(kAlongX, points.data(), 4, 0.06f), 0);
    EXPECT_EQ(pick_point(kAlongX, points.data(), 4, 0.01f), -1);
    EXPECT_EQ(pick_point(kAlongX, points.data(), 0, 1.0f), -1);
}

TEST(ViewerPicking, DragTargetIsWhereTheRayMeetsThePlane) {
    glm::vec3 target = drag_target({{0, 0, 10}, glm::normalize(glm::vec3(1, 1, -5))}, {0, 0, 0}, {0, 0, 1});
    EXPECT_NEAR(target.z, 0, 1e-5f);
    EXPECT_NEAR(target.x, 2, 1e-5f);
    EXPECT_NEAR(target.y, 2, 1e-5f);
}

TEST(ViewerPicking, DragTargetStaysAtTheAnchorWhenTheRayCannotReachThePlane) {
    glm::vec3 anchor(1, 2, 3);
    EXPECT_EQ(drag_target({{0, 0, 10}, {1, 0, 0}}, anchor, {0, 0, 1}), anchor) << "parallel";
    EXPECT_EQ(drag_target({{0, 0, 10}, {0, 0, 1}}, anchor, {0, 0, 1}), anchor) << "plane behind the eye";
}

}  // namespace
}  // namespace bs::view
