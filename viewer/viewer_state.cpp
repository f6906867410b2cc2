#include "viewer/viewer_state.hpp"

#include <limits>

#include "host/errors.hpp"
#include "host/metaball_skinner.hpp"
#include "host/stopwatch.hpp"

namespace bs::view {

ViewerState::ViewerState(Scene& s)
    : controls(s.skeleton()), method(Method::baseline), scene_(s) {
    if (const Motion* m = s.motion()) timeline = Timeline(m->duration_seconds(), m->fps());
    reset_camera();
    positions_.reserve(s.size());
    for (const Vec3<double>& p : s.rest()) positions_.push_back(frame_.to_view_point(p));
}

Pose ViewerState::pose() const {
    Pose base = fixed_pose ? *fixed_pose : scene_.motion() ? scene_.motion()->sample(timeline.time()) : Pose::rest(scene_.skeleton());
    return controls.apply(base);
}

void ViewerState::reset_camera(bool whole_pose) {
    const Skeleton& skeleton = scene_.skeleton();
    Skeleton shown = skeleton;
    const std::vector<Vec3<double>> centres = shown_centres();
    for (std::size_t j = 0; j < centres.size(); ++j) shown.spheres[j].centre = centres[j];
    set_frame(ViewFrame::beside(shown));
    const std::array<Vec3<double>, 2> box = scene_.rest_bounds();
    const Rigid<double> root = pose().root;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (int corner = 0; corner < 8; ++corner) {
        Vec3<double> c{(corner & 1 ? box[1] : box[0]).x, (corner & 2 ? box[1] : box[0]).y, (corner & 4 ? box[1] : box[0]).z};
        glm::vec3 p = frame_.to_view(root.apply(c));
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    if (whole_pose)
        for (const PickSphere& s : posed_spheres()) {
            const float reach = 1.2f * s.radius;  // the points' relief over the sphere-mesh
            lo = glm::min(lo, s.centre - glm::vec3(reach));
            hi = glm::max(hi, s.centre + glm::vec3(reach));
        }
    camera.frame(lo, hi);
    CameraAim aim{{}, camera_aim.zoom, camera_aim.yaw_degrees, camera_aim.pitch_degrees};
    if (camera_aim.look_at) aim.target = frame_.to_view(*camera_aim.look_at);
    camera.aim(aim);
}

void ViewerState::set_frame(const ViewFrame& frame) {
    const Vec3<double> shift = frame_.origin - frame.origin;
    frame_ = frame;
    if (ViewFrame::is_zero(shift)) return;
    // Until the next deformation, the points held (and a drag's target) as they were, in the new frame.
    shift_points(positions_, shift);
    drag.target = glm::vec3(glm::dvec3(drag.target) + glm::dvec3(shift.x, shift.y, shift.z));
}

double ViewerState::floor_height() const {
    const Skeleton& s = scene_.skeleton();
    auto lowest = [&](const Pose& pose) {
        std::vector<Vec3<double>> centres = posed_centres(s, pose);
        double y = std::numeric_limits<double>::max();
        for (std::size_t j = 0; j < centres.size(); ++j) y = std::min(y, centres[j].y - s.spheres[j].radius);
        return y;
    };
    double floor = lowest(Pose::rest(s));
    if (fixed_pose) {  // the pose shown in place of the motion (the body stood through the floor)
        floor = lowest(*fixed_pose);
    } else if (const Motion* m = scene_.motion()) {
        floor = std::numeric_limits<double>::max();
        for (std::size_t f = 0; f < m->frame_count(); f += 10) floor = std::min(floor, lowest(m->frame(f)));
    }
    const std::array<Vec3<double>, 2> box = scene_.rest_bounds();
    return floor - 0.02 * norm(box[1] - box[0]);
}

void ViewerState::deform_on_cpu() {
    auto start = SteadyClock::now();
    try {
        if (drag.moved) {
            drag.result = scene_.drag(drag.joint, frame_.to_file(drag.target), drag_chain, keep_lengths, frame_, positions_, threads);
        } else {
            scene_.deform(method, pose(), frame_, positions_, threads);
        }
        error_.clear();
    } catch (const std::exception& e) {  // InputError, UnsupportedError: a pose or drag the method refuses
        error_ = e.what();
    }
    deform_seconds_ = seconds_since(start);
}

std::vector<Vec3<double>> ViewerState::shown_centres() const {
    const Skeleton& s = scene_.skeleton();
    const bool dragged = drag.moved && drag.result.centres.size() == s.spheres.size();
    return dragged ? drag.result.centres : posed_centres(s, pose());
}

std::vector<PickSphere> ViewerState::posed_spheres() const {
    const Skeleton& s = scene_.skeleton();
    const std::vector<Vec3<double>> centres = shown_centres();
    std::vector<PickSphere> spheres;
    for (std::size_t j = 0; j < centres.size(); ++j) spheres.push_back({frame_.to_view(centres[j]), float(s.spheres[j].radius)});
    return spheres;
}

Overlay ViewerState::overlay() {
    Overlay o;
    o.spheres = posed_spheres();
    const Skeleton& s = scene_.skeleton();
    for (std::size_t k = 0; k < s.bone_count(); ++k)  // a bridge is no part of the body
        if (!s.is_bridge(int(k))) o.bones.push_back(s.bones[k]);
    o.highlighted_sphere = drag.joint;
    if (picked_point >= 0 && !drag.moved && method == Method::baseline) {
        try {
            o.trace = scene_.trace(std::size_t(picked_point), pose(), frame_);
        } catch (const std::exception& e) {
            error_ = e.what();
        }
    }
    return o;
}

void ViewerState::pick_point(const Ray& ray, float tolerance) {
    picked_point = view::pick_point(ray, packed_scalars(positions_.data()), positions_.size(), tolerance);
}

int ViewerState::joint_under(const Ray& ray) const { return pick_sphere(ray, posed_spheres()); }

void ViewerState::start_drag(int joint) {
    const Method before = drag.joint >= 0 ? drag.method_before : method;
    drag = {};
    drag.method_before = before;
    drag.joint = joint;
    drag.target = frame_.to_view(scene_.skeleton().spheres.at(std::size_t(joint)).centre);
    method = Method::metaball;
}

void ViewerState::move_drag(const Ray& ray) {
    if (drag.joint < 0) return;
    drag.target = drag_target(ray, drag.target, glm::normalize(camera.eye() - camera.target()));
    drag.moved = true;
}

void ViewerState::release_drag() {
    if (drag.joint >= 0) method = drag.method_before;
    drag = {};
}

}  // namespace bs::view
