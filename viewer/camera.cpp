#include "viewer/camera.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/geometry/primitives.hpp"

namespace bs::view {

void OrbitCamera::set_viewport(int width, int height) {
    width_ = std::max(width, 1);
    height_ = std::max(height, 1);
}

void OrbitCamera::frame(glm::vec3 lo, glm::vec3 hi) {
    target_ = framed_centre_ = 0.5f * (lo + hi);
    // A floor of a few float steps of where the body is (a body 1e-10 across is framed as any other; an
    // absolute floor of 1e-6 left it a speck, or nothing; one of 1e-6 × the distance from the origin halved
    // a body 1.5 across at 1e6), and one for a single point at the origin.
    const float where = std::max({std::fabs(target_.x), std::fabs(target_.y), std::fabs(target_.z)});
    radius_ = std::max({0.5f * glm::length(hi - lo), 4 * std::numeric_limits<float>::epsilon() * where, 1e-30f});
    yaw_ = kDefaultYaw;
    pitch_ = kDefaultPitch;
    // The bounding sphere fits the narrower of the two fields of view.
    float aspect = float(width_) / float(height_);
    float half_fov = 0.5f * kFieldOfView;
    float narrower = aspect < 1 ? std::atan(std::tan(half_fov) * aspect) : half_fov;
    distance_ = radius_ / std::sin(narrower);
}

void OrbitCamera::aim(const CameraAim& aim) {
    if (aim.target) target_ = *aim.target;
    distance_ = std::clamp(distance_ / aim.zoom, 1e-3f * radius_, 1e3f * radius_);
    const float radians_per_degree = bs::pi_value<float>() / 180;
    if (aim.yaw_degrees) yaw_ = radians_per_degree * *aim.yaw_degrees;
    if (aim.pitch_degrees) pitch_ = std::clamp(radians_per_degree * *aim.pitch_degrees, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::orbit(float dx, float dy) {
    yaw_ -= 0.01f * dx;
    pitch_ = std::clamp(pitch_ + 0.01f * dy, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy) {
    glm::mat4 v = view();
    glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    float scale = world_per_pixel();
    target_ += scale * (-dx * right + dy * up);
}

void OrbitCamera::zoom(float steps) {
    distance_ = std::clamp(distance_ * std::pow(0.9f, steps), 1e-3f * radius_, 1e3f * radius_);
}

glm::vec3 OrbitCamera::from_target() const {
    return {std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_)};
}

glm::vec3 OrbitCamera::eye() const { return target_ + distance_ * from_target(); }

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target_, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::view_projection_about_target() const {
    return projection() * glm::lookAt(distance_ * from_target(), glm::vec3(0), glm::vec3(0, 1, 0));
}

// The framed body lies within 4 radii of its centre, which may be away from the target (--look-at, a pan).
float OrbitCamera::near_plane() const {
    return std::max(distance_ - 4 * radius_ - glm::length(target_ - framed_centre_), 1e-3f * distance_);
}
float OrbitCamera::far_plane() const { return distance_ + 8 * radius_ + glm::length(target_ - framed_centre_); }

glm::mat4 OrbitCamera::projection() const {
    return glm::perspective(kFieldOfView, float(width_) / float(height_), near_plane(), far_plane());
}

float OrbitCamera::world_per_pixel() const { return 2 * distance_ * std::tan(0.5f * kFieldOfView) / float(height_); }

glm::vec3 OrbitCamera::project(glm::vec3 world) const {
    glm::vec4 clip = view_projection_about_target() * glm::vec4(world - target_, 1);
    glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return {(ndc.x + 1) * 0.5f * float(width_), (1 - ndc.y) * 0.5f * float(height_), (ndc.z + 1) * 0.5f};
}

Ray OrbitCamera::ray(glm::vec2 pixel) const {
    // From the camera's basis rather than the inverse projection: exact in float whatever the clip planes.
    glm::mat4 v = view();
    glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]), back(v[0][2], v[1][2], v[2][2]);
    float half_height = std::tan(0.5f * kFieldOfView), half_width = half_height * float(width_) / float(height_);
    glm::vec2 ndc(2 * pixel.x / float(width_) - 1, 1 - 2 * pixel.y / float(height_));
    return {eye(), glm::normalize(-back + ndc.x * half_width * right + ndc.y * half_height * up)};
}

}  // namespace bs::view
