// The viewer's frame logic without a window (viewer/viewer_state.hpp, viewer/scene.hpp) on a small demo.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include <cmath>
#include <filesystem>

#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "tests/support/temp_file.hpp"
#include "viewer/viewer_state.hpp"

namespace bs::view {
namespace {

constexpr double kPi = 3.14159265358979323846;

SceneSource demo_source(std::size_t points) {
    SceneSource source;
    source.demo_points = points;
    return source;
}

class ViewerStateTest : public ::testing::Test {
protected:
    Scene scene{demo_source(3000)};
    ViewerState state{scene};
    double diagonal() const {
        auto box = scene.rest_bounds();
        return norm(box[1] - box[0]);
    }
};

TEST_F(ViewerStateTest, StartsWithTheBaselineMethodAtRest) {
    EXPECT_EQ(state.method, Method::baseline);
    state.deform_on_cpu();
    EXPECT_TRUE(state.error().empty()) << state.error();
    ASSERT_EQ(state.positions().size(), scene.size());
    for (std::size_t i = 0; i < scene.size(); ++i)
        ASSERT_LE(norm(Vec3<double>(state.positions()[i]) - scene.rest()[i]), 1e-5 * diagonal()) << i;
}

TEST_F(ViewerStateTest, ThePoseFollowsTheTimeline) {
    ASSERT_NE(scene.motion(), nullptr);
    state.timeline.scrub(1.0);
    Pose expected = scene.motion()->sample(1.0);
    Pose pose = state.pose();
    EXPECT_NEAR(std::fabs(dot(pose.joints[1].swing, expected.joints[1].swing)), 1, 1e-12);
    EXPECT_GT(max_joint_bend(scene.skeleton(), pose), 0.1);
    state.fixed_pose = Pose::rest(scene.skeleton());
    EXPECT_NEAR(max_joint_bend(scene.skeleton(), state.pose()), 0, 1e-12) << "a fixed pose replaces the motion";
}

// The floor lies under the pose shown: a --pose moving the root down stood the body through the grid (the
// floor was placed under the motion's poses).
TEST_F(ViewerStateTest, TheFloorLiesUnderAFixedPose) {
    Pose lowered = Pose::rest(scene.skeleton());
    lowered.root.translation = {0, -5 * diagonal(), 0};
    state.fixed_pose = lowered;
    state.deform_on_cpu();
    double lowest = std::numeric_limits<double>::max();
    for (const Vec3<float>& p : state.positions()) lowest = std::min(lowest, double(p.y));
    EXPECT_LT(state.floor_height(), lowest);
    EXPECT_GT(state.floor_height(), lowest - 0.2 * diagonal());
}

TEST_F(ViewerStateTest, ARefusedPoseKeepsThePointsAndSaysWhy) {
    state.deform_on_cpu();
    const std::vector<Vec3<float>> before = state.positions();
    Pose folded = Pose::rest(scene.skeleton());
    folded.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 178 * kPi / 180);
    state.fixed_pose = folded;
    state.deform_on_cpu();
    EXPECT_FALSE(state.error().empty());
    EXPECT_EQ(state.positions().size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i) ASSERT_EQ(state.positions()[i].x, before[i].x) << i;
    state.fixed_pose.reset();
    state.deform_on_cpu();
    EXPECT_TRUE(state.error().empty()) << "the next good pose clears the error";
}

TEST_F(ViewerStateTest, EveryMethodDeformsTheBentDemoWithoutNaN) {
    state.fixed_pose = demo_pose(scene.skeleton(), 0.8);
    for (Method m : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        state.method = m;
        state.deform_on_cpu();
        EXPECT_TRUE(state.error().empty()) << method_name(m) << ": " << state.error();
        for (const Vec3<float>& p : state.positions()) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z)) << method_name(m);
    }
}

TEST_F(ViewerStateTest, FramingTheWholePoseKeepsABentLimbInView) {
    state.camera.set_viewport(640, 360);
    state.fixed_pose = demo_pose(scene.skeleton(), 0.6);  // 81° at the elbow: the limb stands up out of the rest box
    auto in_view = [&] {
        for (const PickSphere& s : state.overlay().spheres)
            for (glm::vec3 side : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
                for (float sign : {-1.0f, 1.0f}) {  // the sphere's extremes, relief included
                    glm::vec3 p = state.camera.project(s.centre + sign * 1.15f * s.radius * side);
                    if (p.x < 0 || p.x > 640 || p.y < 0 || p.y > 360) return false;
                }
        return true;
    };
    state.reset_camera();
    EXPECT_FALSE(in_view()) << "the rest framing (the same view for every pose) loses the tip";
    state.reset_camera(true);
    EXPECT_TRUE(in_view());
}

TEST_F(ViewerStateTest, PickingFindsThePointUnderTheCursor) {
    state.deform_on_cpu();
    int found = 0;
    for (std::size_t i = 0; i < scene.size(); i += 97) {
        glm::vec3 p(state.positions()[i].x, state.positions()[i].y, state.positions()[i].z);
        glm::vec3 pixel = state.camera.project(p);
        Ray ray = state.camera.ray({pixel.x, pixel.y});
        state.pick_point(ray, 0.05f);
        ASSERT_GE(state.picked_point, 0);
        const Vec3<float>& q = state.positions()[std::size_t(state.picked_point)];
        glm::vec3 picked(q.x, q.y, q.z);
        // The pick is within the tolerance of the ray and no farther from the eye than the aimed point.
        float along = glm::dot(picked - ray.origin, ray.direction);
        EXPECT_LE(glm::length(picked - ray.origin - along * ray.direction), 0.05f + 1e-4f);
        EXPECT_LE(along, glm::dot(p - ray.origin, ray.direction) + 1e-4f);
        found += state.picked_point == long(i);
    }
    EXPECT_GT(found, 5) << "points facing the camera are picked themselves";
}

TEST_F(ViewerStateTest, TheOverlayTracesThePickedPointsBaseline) {
    state.fixed_pose = demo_pose(scene.skeleton(), 0.6);
    state.deform_on_cpu();
    std::size_t index = 1234;
    while (scene.skinner(Method::baseline).baseline()->codes()[index].rigid_blend != 0) ++index;
    state.picked_point = long(index);
    Overlay overlay = state.overlay();
    ASSERT_TRUE(overlay.trace.has_value());
    EXPECT_GE(overlay.trace->section.size(), 2u);
    // The trace uses the direct construction, the frame the tables: they agree to the tables' tolerance.
    EXPECT_LE(norm(overlay.trace->point - Vec3<double>(state.positions()[index])), 1e-3 * diagonal());
    EXPECT_EQ(overlay.spheres.size(), scene.skeleton().spheres.size());
    state.method = Method::lbs;
    EXPECT_FALSE(state.overlay().trace.has_value()) << "baselines belong to the baseline method";
}

TEST_F(ViewerStateTest, DraggingTheTipMovesItsChainAndLeavesTheHeldEnd) {
    const int tip = 3;
    state.start_drag(tip);
    EXPECT_EQ(state.method, Method::metaball);
    // Pull the tip towards the cursor 80 pixels above it.
    glm::vec3 rest_tip(10, 0, 0);
    glm::vec3 pixel = state.camera.project(rest_tip);
    state.move_drag(state.camera.ray({pixel.x, pixel.y - 80}));
    ASSERT_TRUE(state.drag.moved);
    state.drag_chain = 3;
    state.deform_on_cpu();
    ASSERT_TRUE(state.error().empty()) << state.error();
    Overlay overlay = state.overlay();
    EXPECT_EQ(overlay.highlighted_sphere, tip);
    EXPECT_GT(glm::distance(overlay.spheres[tip].centre, rest_tip), 0.5f) << "the tip follows the cursor";
    EXPECT_LT(glm::distance(overlay.spheres[0].centre, glm::vec3(0)), 1e-6f) << "off the chain";
    EXPECT_LT(glm::distance(overlay.spheres[1].centre, glm::vec3(4, 0, 0)), 1e-6f) << "the held end";
    double moved_near_tip = 0, moved_near_root = 0;
    for (std::size_t i = 0; i < scene.size(); ++i) {
        double d = norm(Vec3<double>(state.positions()[i]) - scene.rest()[i]);
        if (scene.rest()[i].x > 9.5) moved_near_tip = std::max(moved_near_tip, d);
        if (scene.rest()[i].x < 0.5) moved_near_root = std::max(moved_near_root, d);
    }
    EXPECT_GT(moved_near_tip, 0.5);
    EXPECT_LT(moved_near_root, 1e-6);
    state.release_drag();
    EXPECT_EQ(state.drag.joint, -1);
    EXPECT_EQ(state.method, Method::baseline) << "the method in use before the drag comes back";
    state.start_drag(2);
    state.start_drag(3);
    state.release_drag();
    EXPECT_EQ(state.method, Method::baseline) << "a second drag keeps the method from before the first";
}

TEST(ViewerScene, BaselineDeformsSkeletonsWithJunctions) {
    // A junction: three bones on sphere 1.
    std::string skeleton = testing::write_temp(".json",
        R"({"spheres": [[0,0,0,1],[3,0,0,1],[6,1.5,0,0.5],[6,-1.5,0,0.5]], "bones": [[0,1],[1,2],[1,3]]})");
    std::string points = testing::write_temp(".ply",
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
        "1 1 0\n4 0 1\n6 1.5 0.5\n");
    Scene tree{SceneSource{skeleton, points, "", "", 0}};
    ViewerState state(tree);
    EXPECT_EQ(state.method, Method::baseline);
    state.controls.bones()[1].bend_degrees = 60;  // bone 1 (spheres 1 → 2) carries point 2
    state.deform_on_cpu();
    EXPECT_TRUE(state.error().empty()) << state.error();
    EXPECT_GT(norm(Vec3<double>(state.positions()[2]) - Vec3<double>{6, 1.5, 0.5}), 0.1) << "the bent bone's point moved";
    for (const Vec3<float>& p : state.positions()) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
}

TEST(ViewerScene, ACaptureBecomesAHumanoidPlayingIt) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " missing (Debian's assimp-testmodels; ./run installs it)";
    SceneSource source = demo_source(2000);
    source.capture = path;
    Scene scene{source};
    EXPECT_EQ(scene.size(), 2000u);
    ASSERT_NE(scene.motion(), nullptr);
    EXPECT_EQ(scene.motion()->frame_count(), 2752u);
    ViewerState state(scene);
    EXPECT_EQ(state.method, Method::baseline) << "the hips are a junction, which baseline skinning takes";
    state.timeline.scrub(10.0);
    state.deform_on_cpu();
    EXPECT_TRUE(state.error().empty()) << state.error();
    for (const Vec3<float>& p : state.positions()) ASSERT_TRUE(std::isfinite(p.x + p.y + p.z));
}

// A PLY of `points` (ascii x y z).
std::string points_file(const std::vector<Vec3<double>>& points) {
    std::string text = "ply\nformat ascii 1.0\nelement vertex " + std::to_string(points.size()) +
                       "\nproperty float x\nproperty float y\nproperty float z\nend_header\n";
    for (const Vec3<double>& p : points) text += std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z) + "\n";
    return testing::write_temp(".ply", text);
}

TEST(ViewerScene, AStrayPointDoesNotSizeTheFramedBox) {
    const std::string skeleton = testing::write_temp(".json", R"({"spheres": [[0,0,0,1],[4,0,0,1]], "bones": [[0,1]]})");
    std::vector<Vec3<double>> body;
    for (int i = 0; i < 3000; ++i) {  // on the capsule's side, x in [0, 4]
        const double angle = 0.01 * i;
        body.push_back({4.0 * i / 2999, std::cos(angle), std::sin(angle)});
    }
    std::vector<Vec3<double>> with_stray = body;
    with_stray.push_back({1000, 0, 0});
    const Scene clean{SceneSource{skeleton, points_file(body), "", "", 0}};
    const Scene stray{SceneSource{skeleton, points_file(with_stray), "", "", 0}};
    for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(stray.rest_bounds()[0][a], clean.rest_bounds()[0][a], 0.01) << "axis " << a;
        EXPECT_NEAR(stray.rest_bounds()[1][a], clean.rest_bounds()[1][a], 0.01) << "axis " << a;
    }
    EXPECT_LT(stray.rest_bounds()[1].x, 5.1) << "the point 1,000 away sized the box";
    // Under 1,000 points every point counts (a few points are all the body there is).
    const Scene few{SceneSource{skeleton, points_file({{0, 0, 0}, {0, 50, 0}}), "", "", 0}};
    EXPECT_EQ(few.rest_bounds()[1].y, 50);
}

TEST(ViewerScene, AContactSheetShowsAMotionThatComesBackOnceOver) {
    const Skeleton chain = demo_chain();
    const Motion there_and_back = demo_motion(chain);  // its last frame is its first
    const double duration = there_and_back.duration_seconds();
    EXPECT_EQ(contact_sheet_time(there_and_back, 0, 2), 0.0);
    EXPECT_DOUBLE_EQ(contact_sheet_time(there_and_back, 1, 2), duration / 2) << "the sheet of 2 showed the rest pose twice";
    EXPECT_DOUBLE_EQ(contact_sheet_time(there_and_back, 3, 4), duration * 3 / 4);
    std::vector<Pose> out;
    for (int f = 0; f <= 30; ++f) out.push_back(demo_pose(chain, f / 30.0));
    const Motion one_way(30.0, out);
    EXPECT_DOUBLE_EQ(contact_sheet_time(one_way, 1, 2), one_way.duration_seconds()) << "a motion that ends elsewhere ends the sheet";
    EXPECT_DOUBLE_EQ(contact_sheet_time(one_way, 0, 1), 0.0);
}

TEST(ViewerScene, AMissingFileIsAnIoError) {
    EXPECT_THROW(Scene(SceneSource{"/nonexistent/skeleton.json", "/nonexistent/points.ply", "", "", 0}), IoError);
}

}  // namespace
}  // namespace bs::view
