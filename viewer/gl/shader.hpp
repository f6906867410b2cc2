// A linked OpenGL program from vertex and fragment source (GLSL 3.30 core). Compile and link errors
// throw std::runtime_error with the driver's log; the program is deleted with the object.
#pragma once

#include <glad/gl.h>

namespace bs::view::gl {

class Program {
public:
    Program(const char* vertex_source, const char* fragment_source);
    ~Program();
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    void use() const { glUseProgram(id_); }
    GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

private:
    GLuint id_ = 0;
};

}  // namespace bs::view::gl
