// The viewer's orbit camera, without OpenGL: it looks at `target` from `distance` away, in the direction
// given by `yaw` (about the world's +y) and `pitch` (above the horizontal plane). Pixels are counted from
// the top-left corner of a width × height viewport, y down (as GLFW reports the cursor). Angles in
// radians, lengths in the scene's units.
#pragma once

#include <optional>

#include <glm/glm.hpp>

namespace bs::view {

struct Ray {
    glm::vec3 origin;
    glm::vec3 direction;  // unit
};

// A view asked for (the viewer's --look-at, --zoom, --yaw, --pitch), applied after framing: the point looked
// at, the framed distance divided by `zoom` (within the zoom gesture's range), the direction in degrees
// (pitch kept inside ±kMaxPitch). Unset members keep the framed view's.
struct CameraAim {
    std::optional<glm::vec3> target;
    float zoom = 1;
    std::optional<float> yaw_degrees, pitch_degrees;
};

class OrbitCamera {
public:
    // Pitch is kept inside ±kMaxPitch so the view never flips over the pole.
    static constexpr float kMaxPitch = 1.55f;
    static constexpr float kDefaultYaw = 0.5f, kDefaultPitch = 0.35f;
    static constexpr float kFieldOfView = 0.7854f;  // vertical, 45°

    void set_viewport(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }

    // Reset: look at the centre of the box [lo, hi] from the default direction, from the distance at which
    // its bounding sphere just fits the viewport (so does the box, whatever its shape).
    void frame(glm::vec3 lo, glm::vec3 hi);
    // After frame(): the view `aim` asks for.
    void aim(const CameraAim& aim);

    // Mouse gestures, in pixels of cursor motion: orbit turns 0.01 rad per pixel; pan moves the target so
    // that the point under the cursor at the target's depth follows the cursor; zoom scales the distance by
    // 0.9 per step (positive steps come closer), kept within [1e-3, 1e3] × the framed radius.
    void orbit(float dx, float dy);
    void pan(float dx, float dy);
    void zoom(float steps);

    glm::vec3 target() const { return target_; }
    float distance() const { return distance_; }
    float yaw() const { return yaw_; }
    float pitch() const { return pitch_; }
    glm::vec3 eye() const;

    glm::mat4 view() const;
    glm::mat4 projection() const;
    // The view and projection for points given relative to target() (the shaders subtract it first): a body
    // far from the origin keeps float's precision (through an absolute view-projection, points 1e6 away
    // cancelled terms of 1e6: their depths fell past the far plane and the splats vanished).
    glm::mat4 view_projection_about_target() const;

    // Pixel of a world point (x right, y down; z the depth in [0, 1] for points between the clip planes).
    glm::vec3 project(glm::vec3 world) const;
    // The ray from the eye through a pixel.
    Ray ray(glm::vec2 pixel) const;

private:
    int width_ = 1280, height_ = 720;
    glm::vec3 target_{0.0f};
    float distance_ = 10.0f, yaw_ = kDefaultYaw, pitch_ = kDefaultPitch;
    float radius_ = 1.0f;  // of the framed box: sets the clip planes and the zoom range
    glm::vec3 framed_centre_{0.0f};  // of the framed box: the clip planes hold it wherever the target moves

    glm::vec3 from_target() const;  // unit: towards the eye
    float near_plane() const;
    float far_plane() const;
    float world_per_pixel() const;  // at the target's depth
};

}  // namespace bs::view
