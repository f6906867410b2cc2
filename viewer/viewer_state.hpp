// The viewer's state and frame logic, without OpenGL: which body, camera, timeline, method, pose
// controls, picked point and dragged joint; the pose they give; the frame's deformation on the CPU and
// what is drawn over the points. The window (viewer/gl/app.cpp, run_window) feeds it input and draws what it holds;
// the GPU path deforms straight into the renderer's buffer instead of deform_on_cpu (viewer/gl/).
//
// Everything it holds in float (camera, points, overlay, drag target) is in the coordinates of frame()
// (viewer/view_frame.hpp): the file's less an origin beside the body shown, chosen at every reset_camera,
// so a body far from the file's origin is drawn as precisely as one near it (camera-relative rendering).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "viewer/camera.hpp"
#include "viewer/picking.hpp"
#include "viewer/pose_controls.hpp"
#include "viewer/scene.hpp"
#include "viewer/timeline.hpp"
#include "viewer/view_frame.hpp"

namespace bs::view {

// What is drawn over the points in one frame.
struct Overlay {
    std::vector<PickSphere> spheres;        // posed joint spheres
    std::vector<std::array<int, 2>> bones;  // sphere pairs of the body's bones (bridges left out)
    std::optional<BaselineTrace> trace;     // the picked point's baseline (baseline method), in the view's frame
    int highlighted_sphere = -1;            // the dragged joint
};

// The joint being dragged (seed 001 §1.2–1.3: Bézier propagation and metaballs). A drag starts from the
// rest skeleton, as `baseskin drag` does.
struct JointDrag {
    int joint = -1;           // -1: no drag
    glm::vec3 target{0.0f};   // where the joint is pulled (in the view's frame)
    bool moved = false;       // the points follow the drag (not the pose) once it has moved
    DragResult result;        // joints where the last drag left them
    Method method_before = Method::metaball;  // restored on release
};

// The view asked for (--look-at, --zoom, --yaw, --pitch), as CameraAim, but the point looked at is in the
// file's coordinates: reset_camera carries it into the view's frame.
struct ViewAim {
    std::optional<Vec3<double>> look_at;
    float zoom = 1;
    std::optional<float> yaw_degrees, pitch_degrees;
};

class ViewerState {
public:
    explicit ViewerState(Scene& scene);

    Scene& scene() { return scene_; }
    OrbitCamera camera;  // in frame()'s coordinates
    ViewAim camera_aim;  // applied at every reset_camera (--look-at, --zoom, --yaw, --pitch)
    Timeline timeline;
    PoseControls controls;
    Method method;
    std::optional<Pose> fixed_pose;  // replaces the motion's pose (--pose)
    long picked_point = -1;
    JointDrag drag;
    int drag_chain = 3;  // joints a drag moves, the held end included
    bool keep_lengths = false;
    int threads = 0;

    // The fixed pose, else the motion at the timeline's time, else the rest pose; controls added.
    Pose pose() const;
    // Frames the body: the rest box carried by the current pose's root transform (a capture's subject
    // stands where the capture puts it), for the current viewport — the same view for every pose, so poses
    // compare. With `whole_pose`, the box also holds the posed spheres (a limb bent out of the rest box).
    // Then camera_aim is applied. The frame is chosen first, beside the spheres as shown (ViewFrame::beside);
    // where it moves, the points held and a drag's target are carried into it.
    void reset_camera(bool whole_pose = false);
    // The coordinates the camera, the points and the overlay are in.
    const ViewFrame& frame() const { return frame_; }
    // The ground: the lowest point of the posed spheres over the motion (sampled every 10th frame; the
    // rest pose without one; fixed_pose where set), minus 2% of the body's size.
    double floor_height() const;

    // The frame's points on the CPU (a metaball drag in progress, else the method under pose()), in
    // frame()'s coordinates. On an error of the method (a pose it refuses) the points stay as they were and
    // error() says why.
    void deform_on_cpu();
    const std::vector<Vec3<float>>& positions() const { return positions_; }
    const std::string& error() const { return error_; }
    void set_error(std::string message) { error_ = std::move(message); }
    double last_deform_seconds() const { return deform_seconds_; }
    void set_deform_seconds(double seconds) { deform_seconds_ = seconds; }

    Overlay overlay();

    // Gestures: the point nearest the eye within `tolerance` of the ray (in the current positions), or none;
    // the joint sphere under the ray. A drag starts on a joint (the method switches to metaball) and moves it
    // to where the ray meets the plane through its target facing the camera; release_drag() goes back to
    // the pose and the method in use before the drag.
    void pick_point(const Ray& ray, float tolerance);
    int joint_under(const Ray& ray) const;
    void start_drag(int joint);
    void move_drag(const Ray& ray);
    void release_drag();

private:
    Scene& scene_;
    ViewFrame frame_;
    std::vector<Vec3<float>> positions_;
    std::string error_;
    double deform_seconds_ = 0;

    std::vector<Vec3<double>> shown_centres() const;  // the spheres as shown (posed or dragged), in the file's coordinates
    std::vector<PickSphere> posed_spheres() const;    // in frame()'s
    void set_frame(const ViewFrame& frame);
};

}  // namespace bs::view
