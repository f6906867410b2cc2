#include "viewer/gl/renderer.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "viewer/palette.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs::view::gl {

namespace {

constexpr float kPi = bs::pi_value<float>();

// Splats: see the header. bone_distance mirrors closest_point_on_bone (engine/geometry/cone.hpp); the
// union of the bones' solids has the smallest of their signed distances.
const char* kSplatVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in uint bone;
uniform mat4 view_projection;  // about `origin` (OrbitCamera::view_projection_about_target)
uniform vec3 origin;
uniform mat4 view;
uniform samplerBuffer bones;
uniform int bone_count;
uniform float splat_pixels;
uniform int colouring;
uniform float height_scale;
out vec3 v_colour;
out vec3 v_normal;

vec3 hue(float h) {
    vec3 k = clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return mix(vec3(1.0), k, 0.6) * 0.95;
}

void bone_distance(int k, vec3 p, out float distance, out vec3 normal) {
    vec4 a = texelFetch(bones, 2 * k), b = texelFetch(bones, 2 * k + 1);
    vec3 axis = normalize(b.xyz - a.xyz);
    float len = length(b.xyz - a.xyz);
    float st = (a.w - b.w) / len, ct = sqrt(max(1.0 - st * st, 0.0));
    vec3 from_parent = p - a.xyz;
    float along = dot(from_parent, axis);
    vec3 off_axis = from_parent - along * axis;
    float rho = length(off_axis);
    float s = along * ct - rho * st;
    if (s < 0.0) {
        distance = length(from_parent) - a.w;
        normal = from_parent / max(length(from_parent), 1e-20);
    } else if (s > len * ct) {
        vec3 from_child = p - b.xyz;
        distance = length(from_child) - b.w;
        normal = from_child / max(length(from_child), 1e-20);
    } else {
        normal = st * axis + ct * (rho > 1e-20 ? off_axis / rho : vec3(0.0));
        distance = along * st + rho * ct - a.w;
    }
}

void main() {
    float nearest = 1e30;
    vec3 n = vec3(0.0);
    for (int k = 0; k < bone_count; ++k) {
        float d;
        vec3 nk;
        bone_distance(k, position, d, nk);
        if (d < nearest) { nearest = d; n = nk; }
    }
    v_normal = mat3(view) * n;
    if (colouring == 0) {
        v_colour = hue(fract(float(bone) * 0.618034));
    } else {
        float x = clamp(nearest / height_scale, -1.0, 1.0);
        v_colour = x < 0.0 ? mix(vec3(0.92), vec3(0.15, 0.35, 0.95), -x) : mix(vec3(0.92), vec3(0.95, 0.3, 0.1), x);
    }
    gl_Position = view_projection * vec4(position - origin, 1.0);
    gl_PointSize = clamp(splat_pixels / gl_Position.w, 1.0, 64.0);
}
)";

const char* kSplatFragment = R"(#version 330 core
in vec3 v_colour;
in vec3 v_normal;
uniform vec3 light;
out vec4 colour;
void main() {
    vec2 c = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(c, c);
    if (r2 > 1.0) discard;
    vec3 bulge = vec3(c.x, -c.y, sqrt(1.0 - r2));
    vec3 n = length(v_normal) > 0.5 ? normalize(normalize(v_normal) + 0.5 * bulge) : bulge;
    float diffuse = max(dot(n, light), 0.0);
    colour = vec4(v_colour * (0.35 + 0.65 * diffuse), 1.0);
}
)";

const char* kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 view_projection;  // about `origin`
uniform vec3 origin;
uniform mat4 view;
out vec3 v_normal;
void main() {
    v_normal = mat3(view) * normal;
    gl_Position = view_projection * vec4(position - origin, 1.0);
}
)";

const char* kMeshFragment = R"(#version 330 core
in vec3 v_normal;
uniform vec4 tint;
uniform vec3 light;
out vec4 colour;
void main() {
    float diffuse = abs(dot(normalize(v_normal), light));
    colour = vec4(tint.rgb * (0.5 + 0.5 * diffuse), tint.a);
}
)";

const char* kLinesVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 line_colour;
uniform mat4 view_projection;  // about `origin`
uniform vec3 origin;
out vec3 v_colour;
void main() {
    v_colour = line_colour;
    gl_Position = view_projection * vec4(position - origin, 1.0);
}
)";

const char* kLinesFragment = R"(#version 330 core
in vec3 v_colour;
out vec4 colour;
void main() { colour = vec4(v_colour, 1.0); }
)";

glm::vec3 to_glm(Vec3<double> v) { return {float(v.x), float(v.y), float(v.z)}; }
glm::vec3 to_glm(Rgb c) { return glm::vec3(c[0], c[1], c[2]) / 255.0f; }

void push(std::vector<float>& out, glm::vec3 a, glm::vec3 b) { out.insert(out.end(), {a.x, a.y, a.z, b.x, b.y, b.z}); }
void push_line(std::vector<float>& out, glm::vec3 a, glm::vec3 b, glm::vec3 colour) {
    push(out, a, colour);
    push(out, b, colour);
}

// Interleaved position and normal triangles of one sphere.
void append_sphere(std::vector<float>& out, const PickSphere& s) {
    constexpr int kRings = 12, kSegments = 24;
    auto vertex = [&](int ring, int segment) {
        float polar = kPi * float(ring) / kRings, azimuth = 2 * kPi * float(segment) / kSegments;
        glm::vec3 n(std::sin(polar) * std::cos(azimuth), std::cos(polar), std::sin(polar) * std::sin(azimuth));
        push(out, s.centre + s.radius * n, n);
    };
    for (int r = 0; r < kRings; ++r)
        for (int g = 0; g < kSegments; ++g) {
            vertex(r, g), vertex(r + 1, g), vertex(r + 1, g + 1);
            vertex(r, g), vertex(r + 1, g + 1), vertex(r, g + 1);
        }
}

// The lateral surface of the hull of two spheres: between the circles of tangency (DESIGN §2).
void append_cone(std::vector<float>& out, const PickSphere& a, const PickSphere& b) {
    constexpr int kSegments = 32;
    glm::vec3 d = b.centre - a.centre;
    float length = glm::length(d);
    if (!(length > std::fabs(a.radius - b.radius))) return;  // one sphere inside the other: no cone
    glm::vec3 axis = d / length;
    float st = (a.radius - b.radius) / length, ct = std::sqrt(1 - st * st);
    glm::vec3 e1 = glm::normalize(glm::cross(axis, std::fabs(axis.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0)));
    glm::vec3 e2 = glm::cross(axis, e1);
    auto vertex = [&](int segment, const PickSphere& s) {
        float azimuth = 2 * kPi * float(segment) / kSegments;
        glm::vec3 radial = std::cos(azimuth) * e1 + std::sin(azimuth) * e2;
        glm::vec3 n = st * axis + ct * radial;
        push(out, s.centre + s.radius * n, n);
    };
    for (int g = 0; g < kSegments; ++g) {
        vertex(g, a), vertex(g, b), vertex(g + 1, b);
        vertex(g, a), vertex(g + 1, b), vertex(g + 1, a);
    }
}

GLuint make_buffer() {
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    return buffer;
}

// A VAO over one interleaved buffer of two vec3 attributes (locations 0 and 1).
GLuint make_pair_vao(GLuint buffer) {
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    for (GLuint a = 0; a < 2; ++a) {
        glEnableVertexAttribArray(a);
        glVertexAttribPointer(a, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(a * 3 * sizeof(float)));
    }
    glBindVertexArray(0);
    return vao;
}

// A grid step of 1, 2 or 5 × a power of ten, about a tenth of the extent.
float nice_step(float extent) {
    float raw = extent / 10, power = std::pow(10.0f, std::floor(std::log10(raw)));
    float unit = raw / power;
    return power * (unit < 1.5f ? 1 : unit < 3.5f ? 2 : 5);
}

// The camera's view and projection about its target, and the target the shaders subtract from each
// position first (a body far from the origin keeps float's precision: viewer/camera.hpp).
void set_view_projection(const Program& program, const OrbitCamera& camera) {
    glUniformMatrix4fv(program.uniform("view_projection"), 1, GL_FALSE, glm::value_ptr(camera.view_projection_about_target()));
    const glm::vec3 origin = camera.target();
    glUniform3f(program.uniform("origin"), origin.x, origin.y, origin.z);
}

}  // namespace

Renderer::Renderer(const Scene& scene, const std::vector<Vec3<float>>& points, double floor_height)
    : count_(scene.size()), floor_height_(floor_height) {
    std::array<Vec3<double>, 2> box = scene.rest_bounds();
    float diagonal = float(norm(box[1] - box[0]));  // in double: a body far from the origin spans float steps there
    // Splats cover the surface: the area per point of the sphere-mesh (its spheres' area, an upper
    // bound), as a disc's diameter.
    double area = 0, radius_sum = 0;
    for (const Sphere<double>& s : scene.skeleton().spheres) area += 4 * kPi * s.radius * s.radius, radius_sum += s.radius;
    splat_diameter_ = float(2.2 * std::sqrt(area / double(std::max<std::size_t>(count_, 1))));
    height_scale_ = float(0.2 * radius_sum / double(scene.skeleton().spheres.size()));
    grid_step_ = nice_step(diagonal);
    grid_extent_ = grid_step_ * std::ceil(0.75f * diagonal / grid_step_);

    splats_ = std::make_unique<Program>(kSplatVertex, kSplatFragment);
    mesh_ = std::make_unique<Program>(kMeshVertex, kMeshFragment);
    lines_ = std::make_unique<Program>(kLinesVertex, kLinesFragment);

    positions_ = make_buffer();
    point_bones_ = make_buffer();
    glGenVertexArrays(1, &points_vao_);
    glBindVertexArray(points_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, positions_);
    // The rest points until the first frame is written (a first frame that fails shows them, not garbage).
    std::vector<float> rest(3 * count_, 0.0f);
    std::copy_n(packed_scalars(points.data()), 3 * std::min(points.size(), count_), rest.begin());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(rest.size() * sizeof(float)), rest.data(), GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, point_bones_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(count_ * sizeof(std::uint32_t)), scene.point_bones().data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(1);
    glVertexAttribIPointer(1, 1, GL_UNSIGNED_INT, 0, nullptr);
    glBindVertexArray(0);

    bone_buffer_ = make_buffer();
    glGenTextures(1, &bone_texture_);
    mesh_buffer_ = make_buffer();
    mesh_vao_ = make_pair_vao(mesh_buffer_);
    lines_buffer_ = make_buffer();
    lines_vao_ = make_pair_vao(lines_buffer_);
}

Renderer::~Renderer() {
    GLuint buffers[] = {positions_, point_bones_, bone_buffer_, mesh_buffer_, lines_buffer_};
    glDeleteBuffers(5, buffers);
    GLuint arrays[] = {points_vao_, mesh_vao_, lines_vao_};
    glDeleteVertexArrays(3, arrays);
    glDeleteTextures(1, &bone_texture_);
}

void Renderer::upload_positions(const std::vector<Vec3<float>>& points) {
    glBindBuffer(GL_ARRAY_BUFFER, positions_);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(std::min(points.size(), count_) * 3 * sizeof(float)), points.data());
}

void Renderer::draw(const OrbitCamera& camera, const ViewFrame& frame, const DrawSettings& settings, const Overlay& overlay) {
    glViewport(0, 0, camera.width(), camera.height());
    glClearColor(kBackground[0] / 255.0f, kBackground[1] / 255.0f, kBackground[2] / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    if (settings.grid) draw_lines(camera, grid_lines(camera.target(), frame), false);
    upload_bones(overlay);
    draw_splats(camera, settings, int(overlay.bones.size()));
    if (settings.skeleton != SkeletonStyle::hidden) draw_sphere_mesh(camera, settings, overlay);
    draw_lines(camera, overlay_lines(overlay), true);
}

void Renderer::upload_bones(const Overlay& overlay) {
    std::vector<float> texels;
    for (const std::array<int, 2>& b : overlay.bones)
        for (int end : b) {
            const PickSphere& s = overlay.spheres[std::size_t(end)];
            texels.insert(texels.end(), {s.centre.x, s.centre.y, s.centre.z, s.radius});
        }
    glBindBuffer(GL_TEXTURE_BUFFER, bone_buffer_);
    glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(texels.size() * sizeof(float)), texels.data(), GL_DYNAMIC_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, bone_texture_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, bone_buffer_);
}

void Renderer::draw_splats(const OrbitCamera& camera, const DrawSettings& settings, int bone_count) {
    splats_->use();
    set_view_projection(*splats_, camera);
    glUniformMatrix4fv(splats_->uniform("view"), 1, GL_FALSE, glm::value_ptr(camera.view()));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, bone_texture_);
    glUniform1i(splats_->uniform("bones"), 0);
    glUniform1i(splats_->uniform("bone_count"), bone_count);
    // Pixels of a splat at clip w = 1: the world diameter through the projection's vertical scale.
    float pixels = settings.point_size * splat_diameter_ * camera.projection()[1][1] * 0.5f * float(camera.height());
    glUniform1f(splats_->uniform("splat_pixels"), pixels);
    glUniform1i(splats_->uniform("colouring"), settings.colouring == Colouring::bone ? 0 : 1);
    glUniform1f(splats_->uniform("height_scale"), height_scale_);
    glUniform3f(splats_->uniform("light"), 0.36f, 0.48f, 0.8f);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(points_vao_);
    glDrawArrays(GL_POINTS, 0, GLsizei(count_));
    glBindVertexArray(0);
}

void Renderer::draw_sphere_mesh(const OrbitCamera& camera, const DrawSettings& settings, const Overlay& overlay) {
    std::vector<float> triangles;
    for (const PickSphere& s : overlay.spheres) append_sphere(triangles, s);
    for (const std::array<int, 2>& b : overlay.bones)
        append_cone(triangles, overlay.spheres[std::size_t(b[0])], overlay.spheres[std::size_t(b[1])]);
    glBindBuffer(GL_ARRAY_BUFFER, mesh_buffer_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(triangles.size() * sizeof(float)), triangles.data(), GL_STREAM_DRAW);
    mesh_->use();
    set_view_projection(*mesh_, camera);
    glUniformMatrix4fv(mesh_->uniform("view"), 1, GL_FALSE, glm::value_ptr(camera.view()));
    glUniform3f(mesh_->uniform("light"), 0.36f, 0.48f, 0.8f);
    const bool wireframe = settings.skeleton == SkeletonStyle::wireframe;
    glUniform4f(mesh_->uniform("tint"), 0.75f, 0.82f, 1.0f, wireframe ? 0.35f : 0.12f);
    // Over the points, not depth-tested against them: the sphere-mesh lies under the points' relief, so a
    // tested pass would hide it wherever the body is dense.
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    if (wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glBindVertexArray(mesh_vao_);
    glDrawArrays(GL_TRIANGLES, 0, GLsizei(triangles.size() / 6));
    glBindVertexArray(0);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
}

void Renderer::draw_lines(const OrbitCamera& camera, const std::vector<float>& vertices, bool on_top) {
    if (vertices.empty()) return;
    glBindBuffer(GL_ARRAY_BUFFER, lines_buffer_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(), GL_STREAM_DRAW);
    lines_->use();
    set_view_projection(*lines_, camera);
    if (on_top) glDisable(GL_DEPTH_TEST);
    glBindVertexArray(lines_vao_);
    glDrawArrays(GL_LINES, 0, GLsizei(vertices.size() / 6));
    glBindVertexArray(0);
    glEnable(GL_DEPTH_TEST);
}

// Lines on whole steps of the file's coordinates (they stay put as the target moves), its axes x = 0 and
// z = 0 in their own colour; placed in double, drawn in `frame`'s coordinates.
std::vector<float> Renderer::grid_lines(glm::vec3 under, const ViewFrame& frame) const {
    std::vector<float> lines;
    const int half = int(std::lround(grid_extent_ / grid_step_));
    const Vec3<double> below = frame.to_file(under);
    const double centre_x = std::round(below.x / grid_step_), centre_z = std::round(below.z / grid_step_);
    const glm::vec3 centre = frame.to_view({centre_x * grid_step_, floor_height_, centre_z * grid_step_});
    for (int i = -half; i <= half; ++i) {
        float offset = float(i) * grid_step_;
        push_line(lines, centre + glm::vec3(offset, 0, -grid_extent_), centre + glm::vec3(offset, 0, grid_extent_),
                  to_glm(centre_x + i == 0 ? kGridAxis : kGrid));
        push_line(lines, centre + glm::vec3(-grid_extent_, 0, offset), centre + glm::vec3(grid_extent_, 0, offset),
                  to_glm(centre_z + i == 0 ? kGridAxis : kGrid));
    }
    return lines;
}

std::vector<float> Renderer::overlay_lines(const Overlay& overlay) const {
    std::vector<float> lines;
    if (overlay.trace) {
        const BaselineTrace& t = *overlay.trace;
        for (std::size_t i = 1; i < t.section.size(); ++i)
            push_line(lines, to_glm(t.section[i - 1]), to_glm(t.section[i]), {1.0f, 0.85f, 0.2f});
        push_line(lines, to_glm(t.base), to_glm(t.point), {0.2f, 1.0f, 0.5f});
        // A small cross at the base-point.
        float arm = 0.5f * splat_diameter_ * 4;
        for (glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
            push_line(lines, to_glm(t.base) - arm * axis, to_glm(t.base) + arm * axis, {1.0f, 1.0f, 1.0f});
    }
    if (overlay.highlighted_sphere >= 0 && std::size_t(overlay.highlighted_sphere) < overlay.spheres.size()) {
        const PickSphere& s = overlay.spheres[std::size_t(overlay.highlighted_sphere)];
        constexpr int kSegments = 48;
        for (int plane = 0; plane < 3; ++plane)
            for (int g = 0; g < kSegments; ++g) {
                auto at = [&](int i) {
                    float a = 2 * kPi * float(i) / kSegments;
                    glm::vec3 c(std::cos(a), std::sin(a), 0);
                    glm::vec3 v = plane == 0 ? c : plane == 1 ? glm::vec3(c.x, 0, c.y) : glm::vec3(0, c.x, c.y);
                    return s.centre + 1.05f * s.radius * v;
                };
                push_line(lines, at(g), at(g + 1), {1.0f, 0.6f, 0.1f});
            }
    }
    return lines;
}

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    GLuint buffers[2];
    glGenRenderbuffers(2, buffers);
    colour_ = buffers[0];
    depth_ = buffers[1];
    glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("the off-screen framebuffer is incomplete (" + std::to_string(width) + " x " +
                                 std::to_string(height) + ")");
}

OffscreenTarget::~OffscreenTarget() {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    GLuint buffers[] = {colour_, depth_};
    glDeleteRenderbuffers(2, buffers);
    glDeleteFramebuffers(1, &framebuffer_);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_); }

std::vector<unsigned char> OffscreenTarget::read_rgb() const {
    std::vector<unsigned char> rgb(std::size_t(width_) * std::size_t(height_) * 3), row(std::size_t(width_) * 3);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    // OpenGL's rows run bottom-up; images top-down.
    for (int y = 0; y < height_ / 2; ++y) {
        unsigned char* top = rgb.data() + std::size_t(y) * row.size();
        unsigned char* bottom = rgb.data() + std::size_t(height_ - 1 - y) * row.size();
        std::swap_ranges(top, top + row.size(), bottom);
    }
    return rgb;
}

}  // namespace bs::view::gl
