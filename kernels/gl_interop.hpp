// CUDA–OpenGL interop for renderers that draw the deformed points from their own buffer object: the
// buffer is registered with CUDA once, then each frame mapped (a device pointer CUDA kernels may write),
// written, and unmapped before OpenGL draws from it. Map and unmap are ordered on the given stream
// (cuda::Exec::stream); the project adds no host synchronisation of its own (the driver may still wait for
// OpenGL's pending work on the buffer at map time).
//
// The caller owns the buffer object and keeps it alive (and its size unchanged) while a GlBuffer holds it;
// registration and mapping need the buffer's OpenGL context current on the calling thread and a CUDA
// device that can interoperate with it. Every failure throws CudaError (file, line, CUDA's message);
// without the CUDA backend, or where it was built without OpenGL headers, the constructor throws
// CudaUnavailable. host/gpu_skinner.hpp's deform_into_gl_buffer() maps, deforms and unmaps in one call.
#pragma once

#include <cstddef>

#include "kernels/device_memory.hpp"

namespace bs::cuda {

class GlBuffer {
public:
    // Registers the buffer object `buffer` (an OpenGL buffer name) for CUDA; its contents are kept across
    // maps, so what a pass does not write (w of an xyzw layout, or a frame that failed) stays as it was.
    explicit GlBuffer(unsigned int buffer);
    ~GlBuffer();
    GlBuffer(const GlBuffer&) = delete;
    GlBuffer& operator=(const GlBuffer&) = delete;

    // Maps the buffer on `exec`'s stream and returns its device address; `bytes` receives its size.
    // Mapping a mapped buffer is an error (std::logic_error).
    void* map(Exec exec, std::size_t& bytes);
    // Unmaps on `exec`'s stream: OpenGL sees what was written there before the unmap. A no-op when unmapped.
    void unmap(Exec exec);
    bool mapped() const { return mapped_; }

private:
    void* resource_ = nullptr;  // cudaGraphicsResource_t
    bool mapped_ = false;
    void* mapped_stream_ = nullptr;  // the stream it was mapped on: the destructor unmaps a mapped buffer there
};

}  // namespace bs::cuda
