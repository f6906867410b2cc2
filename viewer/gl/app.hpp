// The viewer's two modes on one ViewerState: an interactive window (GLFW + Dear ImGui panel) and headless
// rendering into an image file. Deformation goes straight into the renderer's buffer through CUDA–GL interop when
// the CUDA backend is chosen and usable, and is uploaded from the CPU otherwise; both are drawn alike.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "viewer/gl/renderer.hpp"
#include "viewer/viewer_state.hpp"

namespace bs::view::gl {

enum class BackendChoice { automatic, cpu, cuda };

// What a screenshot's name asks for by its ending (any case): .png or none PNG, .jpg or .jpeg JPEG
// (quality 95), .bmp, .tga; nothing for another ending (`x.jpg` had been given PNG bytes).
enum class ImageFormat { png, jpeg, bmp, tga };
std::optional<ImageFormat> image_format_of(const std::string& path);

struct Headless {
    std::string image;  // written whole, in image_format_of(image)
    int width = 1280, height = 720;
    int frames = 1;     // rendered (each deformed and drawn); the last is saved
    bool play = false;  // advance the motion by one frame of its own per rendered frame
    int sheet = 0;      // > 0: instead, a contact sheet of this many frames spread evenly over the motion,
                        // each width × height, in a grid of ⌈√sheet⌉ columns
};

// Interactive: returns when the window is closed.
void run_window(ViewerState& state, const DrawSettings& settings, BackendChoice backend);
// Headless: renders and writes the image; a deformation error (a pose the method refuses) is reported as
// an UnsupportedError rather than saving stale points. Prints what it did and the measured rates.
void render_headless(ViewerState& state, const DrawSettings& settings, BackendChoice backend, const Headless& options);

}  // namespace bs::view::gl
