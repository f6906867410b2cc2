// A GLFW window with an OpenGL 3.3 core context current on this thread and glad's loader run. Hidden
// windows serve headless rendering (under Xvfb, or any X server). Failures (no display, no GL 3.3) throw
// UnsupportedError with GLFW's reason and what to do.
#pragma once

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>

namespace bs::view::gl {

class Window {
public:
    Window(int width, int height, const std::string& title, bool visible);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return window_; }
    std::string renderer_name() const;  // GL_RENDERER and GL_VERSION

private:
    GLFWwindow* window_ = nullptr;
};

}  // namespace bs::view::gl
