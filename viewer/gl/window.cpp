#include "viewer/gl/window.hpp"

#include "host/errors.hpp"

namespace bs::view::gl {

namespace {

std::string& last_glfw_error() {
    static std::string message;
    return message;
}

void remember_error(int, const char* description) { last_glfw_error() = description ? description : "unknown GLFW error"; }

}  // namespace

Window::Window(int width, int height, const std::string& title, bool visible) {
    glfwSetErrorCallback(remember_error);
    if (!glfwInit())
        throw UnsupportedError("cannot open a window: " + last_glfw_error() +
                               " (no display? on a headless machine run under xvfb-run -a)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw UnsupportedError("cannot create an OpenGL 3.3 core context: " + last_glfw_error());
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(glfwGetProcAddress)) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw UnsupportedError("cannot load the OpenGL 3.3 functions (glad)");
    }
}

Window::~Window() {
    glfwDestroyWindow(window_);
    glfwTerminate();
}

std::string Window::renderer_name() const {
    auto text = [](GLenum name) {
        const GLubyte* s = glGetString(name);
        return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
    };
    return text(GL_RENDERER) + ", OpenGL " + text(GL_VERSION);
}

}  // namespace bs::view::gl
