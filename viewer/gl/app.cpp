#include "viewer/gl/app.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <utility>

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include "host/cli/report.hpp"
#include "host/errors.hpp"
#include "host/output_file.hpp"
#include "host/stopwatch.hpp"
#include "viewer/gl/window.hpp"
#include "viewer/palette.hpp"

namespace bs::view::gl {

namespace {

// Where the frame's points are computed: the CPU, or the GPU writing the renderer's buffer.
class Deformer {
public:
    Deformer(ViewerState& state, Renderer& renderer, BackendChoice choice) : state_(state), renderer_(renderer) {
        if (choice == BackendChoice::cpu || (choice == BackendChoice::automatic && cuda::device_count() == 0)) return;
        // No device, or a device whose driver cannot share this OpenGL context (Mesa under Xvfb, another
        // vendor's GPU drawing): the CPU draws instead, unless CUDA was insisted on.
        try {
            buffer_ = std::make_unique<cuda::GlBuffer>(renderer.position_buffer());
        } catch (const CudaUnavailable& e) {
            if (choice == BackendChoice::cuda) throw UnsupportedError(std::string("--backend cuda: ") + e.what());
        } catch (const CudaError& e) {
            if (choice == BackendChoice::cuda)
                throw UnsupportedError(std::string("--backend cuda: CUDA cannot share this OpenGL context: ") + e.what());
        }
    }
    bool gpu_available() const { return buffer_ != nullptr; }
    bool use_gpu = true;
    const char* backend() const { return on_gpu() ? "CUDA (interop)" : "CPU"; }

    void deform() {
        if (!on_gpu()) {
            state_.deform_on_cpu();
            renderer_.upload_positions(state_.positions());
            return;
        }
        auto start = SteadyClock::now();
        try {
            state_.scene().deform_into(state_.method, state_.pose(), state_.frame(), *buffer_);
            cuda::synchronize({});  // for the measured rate only; drawing is ordered by the unmap anyway
            state_.set_error("");
        } catch (const std::exception& e) {
            state_.set_error(e.what());
        }
        state_.set_deform_seconds(seconds_since(start));
    }

private:
    ViewerState& state_;
    Renderer& renderer_;
    std::unique_ptr<cuda::GlBuffer> buffer_;

    // A joint drag deforms on the CPU (its displacements do not come from a pose).
    bool on_gpu() const { return buffer_ && use_gpu && !state_.drag.moved; }
};

// Smoothed rates for the panel.
struct Rates {
    double frame_seconds = 0, deform_seconds = 0;
    void add(double frame, double deform) {
        frame_seconds = frame_seconds == 0 ? frame : 0.9 * frame_seconds + 0.1 * frame;
        deform_seconds = deform_seconds == 0 ? deform : 0.9 * deform_seconds + 0.1 * deform;
    }
};

void method_combo(ViewerState& state) {
    const Method methods[] = {Method::baseline, Method::lbs, Method::dqs, Method::metaball};
    if (!ImGui::BeginCombo("method", method_name(state.method))) return;
    for (Method m : methods) {
        if (ImGui::Selectable(method_name(m), state.method == m)) {
            state.release_drag();
            state.method = m;
        }
    }
    ImGui::EndCombo();
}

void timeline_controls(ViewerState& state, float& speed) {
    if (state.timeline.duration() <= 0) {
        ImGui::TextDisabled("no motion");
        return;
    }
    if (ImGui::Button(state.timeline.playing() ? "pause" : "play")) state.timeline.toggle();
    ImGui::SameLine();
    bool loop = state.timeline.looping();
    if (ImGui::Checkbox("loop", &loop)) state.timeline.set_looping(loop);
    float time = float(state.timeline.time());
    if (ImGui::SliderFloat("time (s)", &time, 0, float(state.timeline.duration()))) state.timeline.scrub(time);
    ImGui::SliderFloat("speed", &speed, 0.05f, 4.0f, "%.2fx");
    ImGui::Text("frame %zu / %zu", state.timeline.frame(), state.timeline.frame_count() - 1);
}

void pose_controls(ViewerState& state) {
    const Skeleton& s = state.scene().skeleton();
    if (ImGui::Button("reset pose")) state.controls.reset();
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        BoneControl& c = state.controls.bones()[k];
        const int joint = s.bones[k][0];
        std::string label = "bone " + std::to_string(k) + (s.names.empty() ? "" : " (joint " + s.names[std::size_t(joint)] + ")");
        ImGui::PushID(int(k));
        if (ImGui::TreeNode(label.c_str())) {
            ImGui::SliderFloat("bend", &c.bend_degrees, -170, 170, "%.0f deg");
            ImGui::SliderFloat("bend direction", &c.direction_degrees, -180, 180, "%.0f deg");
            ImGui::SliderFloat("twist", &c.twist_degrees, -720, 720, "%.0f deg");
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
}

void display_controls(DrawSettings& settings, ViewerState& state) {
    int colouring = settings.colouring == Colouring::bone ? 0 : 1;
    ImGui::RadioButton("colour by bone", &colouring, 0);
    ImGui::SameLine();
    ImGui::RadioButton("by height", &colouring, 1);
    settings.colouring = colouring == 0 ? Colouring::bone : Colouring::height;
    int style = int(settings.skeleton);
    ImGui::Combo("sphere-mesh", &style, "hidden\0translucent\0wireframe\0");
    settings.skeleton = SkeletonStyle(style);
    ImGui::SliderFloat("point size", &settings.point_size, 0.2f, 5.0f, "%.2f");
    ImGui::Checkbox("grid", &settings.grid);
    if (ImGui::Button("reset camera")) state.reset_camera();
}

void drag_controls(ViewerState& state) {
    ImGui::TextWrapped("shift + drag a joint: Bezier propagation along its chain, metaball deformation (seed 001)");
    ImGui::SliderInt("chain joints", &state.drag_chain, 2, 12);
    ImGui::Checkbox("keep bone lengths", &state.keep_lengths);
    if (state.drag.joint >= 0 && ImGui::Button("release drag")) state.release_drag();
}

void picked_point_info(ViewerState& state) {
    ImGui::TextWrapped("ctrl + click a point: its baseline (baseline method)");
    if (state.picked_point < 0) return;
    ImGui::Text("point %ld", state.picked_point);
    if (state.method == Method::baseline) {
        // A body the method refuses has no codes: said here as in the panel's error (it ended the window).
        try {
            const BaselineCode& c = state.scene().skinner(Method::baseline).baseline()->codes()[std::size_t(state.picked_point)];
            ImGui::Text("bone %d  phi %.3f  t %.3f  h %.4f  flags 0x%x  rigid %.2f", c.bone, c.phi, c.t, c.h, c.flags, c.rigid_blend);
        } catch (const std::exception& e) {
            ImGui::TextWrapped("no code: %s", e.what());
        }
    }
    if (ImGui::Button("clear pick")) state.picked_point = -1;
}

void panel(ViewerState& state, DrawSettings& settings, Deformer& deformer, const Rates& rates, float& speed) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("baseskin");
    ImGui::Text("%s: %zu points", state.scene().name().c_str(), state.scene().size());
    ImGui::Text("%.1f frames/s, %.3g deformed points/s", rates.frame_seconds > 0 ? 1 / rates.frame_seconds : 0.0,
                rates.deform_seconds > 0 ? double(state.scene().size()) / rates.deform_seconds : 0.0);
    method_combo(state);
    if (deformer.gpu_available()) ImGui::Checkbox("CUDA backend", &deformer.use_gpu);
    ImGui::Text("backend: %s", deformer.backend());
    if (!state.error().empty()) {  // wrapped: a long message ran off the panel
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.3f, 1));
        ImGui::TextWrapped("%s", state.error().c_str());
        ImGui::PopStyleColor();
    }
    if (ImGui::CollapsingHeader("motion", ImGuiTreeNodeFlags_DefaultOpen)) timeline_controls(state, speed);
    if (ImGui::CollapsingHeader("pose")) pose_controls(state);
    if (ImGui::CollapsingHeader("display", ImGuiTreeNodeFlags_DefaultOpen)) display_controls(settings, state);
    if (ImGui::CollapsingHeader("drag")) drag_controls(state);
    if (ImGui::CollapsingHeader("picked point")) picked_point_info(state);
    ImGui::End();
}

// World distance covered by `pixels` at the camera's target.
float pixels_to_world(const OrbitCamera& camera, float pixels) {
    return pixels * 2 * camera.distance() * std::tan(0.5f * OrbitCamera::kFieldOfView) / float(camera.height());
}

// Mouse gestures (when the panel does not want the mouse): left drag orbits, right or middle drag pans,
// the wheel zooms, ctrl + click picks a point, shift + drag drags a joint.
class Mouse {
public:
    void update(GLFWwindow* window, ViewerState& state, Deformer& deformer) {
        // The cursor is in screen coordinates, the camera's viewport in framebuffer pixels (HiDPI: 2x).
        double x, y;
        int window_width, window_height;
        glfwGetCursorPos(window, &x, &y);
        glfwGetWindowSize(window, &window_width, &window_height);
        const float scale_x = float(state.camera.width()) / float(std::max(window_width, 1));
        const float scale_y = float(state.camera.height()) / float(std::max(window_height, 1));
        glm::vec2 now{float(x) * scale_x, float(y) * scale_y};
        glm::vec2 delta = now - last_;
        last_ = now;
        const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
        const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                           glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
        const bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS;
        const bool ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS;
        const bool pressed = left && !was_left_;
        was_left_ = left;
        if (ImGui::GetIO().WantCaptureMouse) {
            dragging_joint_ = false;
            return;
        }
        Ray ray = state.camera.ray(now);
        if (pressed && ctrl) {
            if (!deformer.gpu_available() || !deformer.use_gpu) {
                state.pick_point(ray, pixels_to_world(state.camera, 6));
            } else {  // the host has no copy of the GPU's points: compute them once here
                state.deform_on_cpu();
                state.pick_point(ray, pixels_to_world(state.camera, 6));
            }
        } else if (pressed && shift) {
            int joint = state.joint_under(ray);
            dragging_joint_ = joint >= 0;
            if (dragging_joint_) state.start_drag(joint);
        } else if (left && dragging_joint_) {
            if (delta != glm::vec2(0)) state.move_drag(ray);
        } else if (left && !ctrl && !shift) {
            state.camera.orbit(delta.x, delta.y);
        } else if (right) {
            state.camera.pan(delta.x, delta.y);
        }
        if (!left) dragging_joint_ = false;
    }

private:
    glm::vec2 last_{0.0f};
    bool was_left_ = false, dragging_joint_ = false;
};

float& scroll_steps() {
    static float steps = 0;
    return steps;
}

void on_scroll(GLFWwindow*, double, double dy) { scroll_steps() += float(dy); }

void on_key(GLFWwindow* window, int key, int, int action, int) {
    if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
    auto* state = static_cast<ViewerState*>(glfwGetWindowUserPointer(window));
    if (key == GLFW_KEY_SPACE) state->timeline.toggle();
    if (key == GLFW_KEY_R) state->reset_camera();
    if (key == GLFW_KEY_ESCAPE) state->release_drag();
}

// Builds the starting method's skinner (the baseline method encodes every point) before frames are timed.
double encode(ViewerState& state) {
    auto start = SteadyClock::now();
    state.scene().skinner(state.method);
    return seconds_since(start);
}

}  // namespace

void run_window(ViewerState& state, const DrawSettings& initial, BackendChoice backend) {
    Window window(1280, 800, "baseskin-view: " + state.scene().name(), true);
    encode(state);
    Renderer renderer(state.scene(), state.positions(), state.floor_height());
    Deformer deformer(state, renderer, backend);
    DrawSettings settings = initial;
    glfwSetWindowUserPointer(window.handle(), &state);
    glfwSetScrollCallback(window.handle(), on_scroll);
    glfwSetKeyCallback(window.handle(), on_key);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);  // chains the callbacks above
    ImGui_ImplOpenGL3_Init("#version 330");
    glfwSwapInterval(1);
    int width, height;
    glfwGetFramebufferSize(window.handle(), &width, &height);
    state.camera.set_viewport(width, height);
    state.reset_camera();  // framed for the window's shape
    state.timeline.play();
    Mouse mouse;
    Rates rates;
    float speed = 1;
    auto last = SteadyClock::now();
    while (!glfwWindowShouldClose(window.handle())) {
        glfwPollEvents();
        double frame_seconds = seconds_since(last);
        last = SteadyClock::now();
        glfwGetFramebufferSize(window.handle(), &width, &height);
        state.camera.set_viewport(width, height);
        state.timeline.advance(frame_seconds, speed);
        const float scroll = std::exchange(scroll_steps(), 0.0f);
        if (!ImGui::GetIO().WantCaptureMouse) state.camera.zoom(scroll);
        mouse.update(window.handle(), state, deformer);
        deformer.deform();
        rates.add(frame_seconds, state.last_deform_seconds());
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const Vec3<double> deformed_in = state.frame().origin;
        panel(state, settings, deformer, rates, speed);
        // The panel's "reset camera" may move the frame after the points went to the buffer: drawn as they
        // are, they would stand off by the move for a frame. Deformed again in the new frame.
        if (!ViewFrame::is_zero(state.frame().origin - deformed_in)) deformer.deform();
        ImGui::Render();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        renderer.draw(state.camera, state.frame(), settings, state.overlay());
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glfwSwapBuffers(window.handle());
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

namespace {

// Copies a width × height RGB tile into a sheet `columns` tiles wide, at tile `index`.
void place_tile(const std::vector<unsigned char>& tile, int width, int height, int columns, int index, std::vector<unsigned char>& sheet) {
    const std::size_t row_bytes = std::size_t(width) * 3, sheet_row = row_bytes * std::size_t(columns);
    const std::size_t x0 = std::size_t(index % columns) * row_bytes, y0 = std::size_t(index / columns) * std::size_t(height);
    for (int y = 0; y < height; ++y)
        std::copy_n(tile.begin() + std::ptrdiff_t(std::size_t(y) * row_bytes), row_bytes,
                    sheet.begin() + std::ptrdiff_t((y0 + std::size_t(y)) * sheet_row + x0));
}

// `rgb` (width × height × 3, top row first) as the bytes of the file `path` in the format its name asks
// for; InputError for a name of another ending, IoError where stb cannot encode it.
std::string encode_image(const std::string& path, int width, int height, const std::vector<unsigned char>& rgb) {
    const std::optional<ImageFormat> format = image_format_of(path);
    if (!format) throw InputError(path + ": an image is written as .png, .jpg, .jpeg, .bmp or .tga");
    std::string bytes;
    auto append = [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size)); };
    constexpr int kJpegQuality = 95;
    const int encoded = *format == ImageFormat::jpeg ? stbi_write_jpg_to_func(append, &bytes, width, height, 3, rgb.data(), kJpegQuality)
                        : *format == ImageFormat::bmp ? stbi_write_bmp_to_func(append, &bytes, width, height, 3, rgb.data())
                        : *format == ImageFormat::tga ? stbi_write_tga_to_func(append, &bytes, width, height, 3, rgb.data())
                                                     : stbi_write_png_to_func(append, &bytes, width, height, 3, rgb.data(), width * 3);
    if (!encoded) throw IoError(path + ": cannot encode the " + std::to_string(width) + " x " + std::to_string(height) + " image");
    return bytes;
}

}  // namespace

std::optional<ImageFormat> image_format_of(const std::string& path) {
    // A name that is its ending alone (".jpg") has no extension to std::filesystem: its whole name is taken.
    const std::filesystem::path name = std::filesystem::path(path).filename();
    std::string ending = name.extension().empty() && name.string().size() > 1 && name.string()[0] == '.' ? name.string() : name.extension().string();
    std::transform(ending.begin(), ending.end(), ending.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ending.empty() || ending == ".png") return ImageFormat::png;
    if (ending == ".jpg" || ending == ".jpeg") return ImageFormat::jpeg;
    if (ending == ".bmp") return ImageFormat::bmp;
    if (ending == ".tga") return ImageFormat::tga;
    return std::nullopt;
}

void render_headless(ViewerState& state, const DrawSettings& settings, BackendChoice backend, const Headless& options) {
    Window window(options.width, options.height, "baseskin-view (headless)", false);
    const double encode_seconds = encode(state);
    Renderer renderer(state.scene(), state.positions(), state.floor_height());
    Deformer deformer(state, renderer, backend);
    OffscreenTarget target(options.width, options.height);
    state.camera.set_viewport(options.width, options.height);
    // Framed for this image's shape on the rest body moved by the root, whatever the pose: screenshots of
    // two poses share a camera (tests/viewer/screenshots compares them pixel by pixel); a pose reaching
    // beyond the rest body can leave the frame, where --sheet frames each tile on its whole pose.
    state.reset_camera();
    double deform_seconds = 0;
    auto render = [&](int f) {
        deformer.deform();
        if (!state.error().empty()) {
            // The motion's frame, as animate names it (not the image's or the tile's number).
            const bool of_motion = state.scene().motion() && !state.fixed_pose;
            throw UnsupportedError((of_motion ? "motion frame " + std::to_string(state.timeline.frame()) : "rendered frame " + std::to_string(f)) +
                                   ": " + state.error());
        }
        deform_seconds += state.last_deform_seconds();
        target.bind();
        renderer.draw(state.camera, state.frame(), settings, state.overlay());
        glFinish();
    };
    const auto start = SteadyClock::now();
    int rendered = options.frames, image_width = options.width, image_height = options.height;
    std::vector<unsigned char> image;
    if (options.sheet > 0) {
        rendered = options.sheet;
        const int columns = int(std::ceil(std::sqrt(double(options.sheet)))), rows = (options.sheet + columns - 1) / columns;
        image_width = columns * options.width;
        image_height = rows * options.height;
        image.resize(std::size_t(image_width) * std::size_t(image_height) * 3);
        for (std::size_t p = 0; p < image.size(); p += 3) std::copy(kBackground.begin(), kBackground.end(), image.begin() + std::ptrdiff_t(p));
        for (int i = 0; i < options.sheet; ++i) {
            if (const Motion* motion = state.scene().motion()) state.timeline.scrub(contact_sheet_time(*motion, i, options.sheet));
            state.reset_camera(true);  // each tile frames the whole posed body (a capture's subject walks off)
            render(i);
            place_tile(target.read_rgb(), options.width, options.height, columns, i, image);
        }
    } else {
        for (int f = 0; f < options.frames; ++f) {
            if (options.play) state.timeline.go_to_frame(std::size_t(f));
            render(f);
        }
        image = target.read_rgb();
    }
    const double total = seconds_since(start);
    // Encoded in memory, then written whole or not at all (host/output_file.hpp): stb's own file writer
    // checks none of its writes, so a full disk gave a truncated PNG and "wrote".
    OutputFile file(options.image);
    file.write(encode_image(options.image, image_width, image_height, image));
    file.commit();
    // The summary goes to stderr where the image itself went to stdout (--screenshot /dev/stdout > f.png):
    // on stdout it was written over the PNG's first bytes.
    std::FILE* say = bs::cli::is_standard_output(options.image) ? stderr : stdout;
    std::fprintf(say, "baseskin-view: %s, %zu points, %s on %s, %s\n", state.scene().name().c_str(), state.scene().size(),
                method_name(state.method), deformer.backend(), window.renderer_name().c_str());
    std::fprintf(say, "encoded in %.2f s; wrote %s (%d x %d) after %d frame%s: %.1f frames/s, %.3g deformed points/s\n", encode_seconds,
                options.image.c_str(), image_width, image_height, rendered, rendered == 1 ? "" : "s", rendered / total,
                double(state.scene().size()) * rendered / deform_seconds);
}

}  // namespace bs::view::gl
