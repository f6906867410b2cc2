// Linked instead of kernels/gl_interop.cu where the CUDA backend is not built, or is built without
// OpenGL's headers (BASESKIN_GL_INTEROP_MISSING says which): registering a buffer throws CudaUnavailable.
#include "kernels/gl_interop.hpp"

namespace bs::cuda {

GlBuffer::GlBuffer(unsigned int) { throw CudaUnavailable(BASESKIN_GL_INTEROP_MISSING); }
GlBuffer::~GlBuffer() = default;
void* GlBuffer::map(Exec, std::size_t&) { throw CudaUnavailable(BASESKIN_GL_INTEROP_MISSING); }
void GlBuffer::unmap(Exec) {}

}  // namespace bs::cuda
