// Draws one frame of the viewer with OpenGL 3.3 core (a current context, glad loaded): the points as
// shaded splats, the posed sphere-mesh (translucent or wireframe, on demand), the ground grid, and on top
// the picked point's baseline and the dragged joint.
//
// Splats are lit by the outward direction of the posed sphere-mesh at the point and coloured by bone or
// by height over that surface; both come from the vertex shader's distance to the posed bones (the
// formula of closest_point_on_bone, engine/geometry/cone.hpp), so a point written by the GPU through
// interop and one uploaded from the CPU are drawn by the same code. For the baseline method that
// direction is the paper's detail direction n' wherever the base-point is the nearest surface point.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <glad/gl.h>

#include "viewer/camera.hpp"
#include "viewer/gl/shader.hpp"
#include "viewer/picking.hpp"
#include "viewer/scene.hpp"
#include "viewer/viewer_state.hpp"

namespace bs::view::gl {

enum class Colouring { bone, height };
enum class SkeletonStyle { hidden, translucent, wireframe };

struct DrawSettings {
    Colouring colouring = Colouring::bone;
    SkeletonStyle skeleton = SkeletonStyle::hidden;
    float point_size = 1.0f;  // × the splat diameter that covers the surface at this point density
    bool grid = true;
};

class Renderer {
public:
    // The grid lies at `floor_height` (y, in the file's coordinates), sized by the body, under the camera's
    // target (a root that walks or is posed far away keeps a floor under it). The points' buffer starts
    // as `points` (the rest points, in the view's frame: ViewerState::positions).
    Renderer(const Scene& scene, const std::vector<Vec3<float>>& points, double floor_height);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // The points' buffer object: size() × 3 floats (x, y, z), for CUDA–GL interop.
    GLuint position_buffer() const { return positions_; }
    void upload_positions(const std::vector<Vec3<float>>& points);

    // The camera, the points' buffer and the overlay are in `frame`'s coordinates (viewer/view_frame.hpp);
    // the grid is laid on the file's whole steps there.
    void draw(const OrbitCamera& camera, const ViewFrame& frame, const DrawSettings& settings, const Overlay& overlay);

private:
    std::size_t count_;
    float splat_diameter_, height_scale_;
    double floor_height_;  // the file's
    float grid_extent_, grid_step_;
    GLuint points_vao_ = 0, positions_ = 0, point_bones_ = 0;
    GLuint bone_buffer_ = 0, bone_texture_ = 0;
    GLuint mesh_vao_ = 0, mesh_buffer_ = 0, lines_vao_ = 0, lines_buffer_ = 0;
    std::unique_ptr<Program> splats_, mesh_, lines_;

    void upload_bones(const Overlay& overlay);
    void draw_splats(const OrbitCamera& camera, const DrawSettings& settings, int bone_count);
    void draw_sphere_mesh(const OrbitCamera& camera, const DrawSettings& settings, const Overlay& overlay);
    void draw_lines(const OrbitCamera& camera, const std::vector<float>& vertices, bool on_top);
    std::vector<float> grid_lines(glm::vec3 under, const ViewFrame& frame) const;
    std::vector<float> overlay_lines(const Overlay& overlay) const;
};

// A framebuffer of its own for headless rendering (screenshots): colour RGBA8 and depth, bound while it
// lives in scope of bind(). read_rgb() returns width × height × 3 bytes, top row first.
class OffscreenTarget {
public:
    OffscreenTarget(int width, int height);
    ~OffscreenTarget();
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;
    void bind() const;
    std::vector<unsigned char> read_rgb() const;

private:
    int width_, height_;
    GLuint framebuffer_ = 0, colour_ = 0, depth_ = 0;
};

}  // namespace bs::view::gl
