// CUDA–OpenGL interop (kernels/gl_interop.hpp), built with the CUDA backend where OpenGL's headers exist.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <stdexcept>

#include "kernels/cuda_check.hpp"
#include "kernels/gl_interop.hpp"

namespace bs::cuda {

namespace {
cudaGraphicsResource_t as_resource(void* r) { return static_cast<cudaGraphicsResource_t>(r); }
cudaStream_t stream_of(Exec exec) { return static_cast<cudaStream_t>(exec.stream); }
}  // namespace

GlBuffer::GlBuffer(unsigned int buffer) {
    if (device_count() == 0) throw CudaUnavailable("no CUDA device or driver is usable on this machine");
    cudaGraphicsResource_t resource = nullptr;
    // Not write-discard: a caller's stride may leave components (w) that must survive, and a frame that fails
    // before writing must leave the previous one.
    BS_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsNone));
    resource_ = resource;
}

GlBuffer::~GlBuffer() {
    // Failures cannot be reported from a destructor: cleared (kernels/cuda_runtime.cu release()).
    // A mapped buffer is unmapped on the stream it was mapped on (on the default stream, OpenGL could get it
    // back while a non-blocking stream's kernels still wrote it).
    if (mapped_ && cudaGraphicsUnmapResources(1, reinterpret_cast<cudaGraphicsResource_t*>(&resource_),
                                              static_cast<cudaStream_t>(mapped_stream_)) != cudaSuccess)
        cudaGetLastError();
    if (resource_ && cudaGraphicsUnregisterResource(as_resource(resource_)) != cudaSuccess) cudaGetLastError();
}

void* GlBuffer::map(Exec exec, std::size_t& bytes) {
    if (mapped_) throw std::logic_error("GlBuffer::map: the buffer is already mapped");
    cudaGraphicsResource_t resource = as_resource(resource_);
    BS_CUDA_CHECK(cudaGraphicsMapResources(1, &resource, stream_of(exec)));
    void* device = nullptr;
    const cudaError_t status = cudaGraphicsResourceGetMappedPointer(&device, &bytes, resource);
    if (status != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &resource, stream_of(exec));  // leave it unmapped, then report the first error
        BS_CUDA_CHECK(status);  // clears the unmap's error too, if it had one (cuda_check)
    }
    mapped_ = true;
    mapped_stream_ = exec.stream;
    return device;
}

void GlBuffer::unmap(Exec exec) {
    if (!mapped_) return;
    cudaGraphicsResource_t resource = as_resource(resource_);
    // Still mapped where the unmap fails: a second unmap (or the destructor's) tries again, and a map() in
    // between is refused as a map of a mapped buffer, not sent to CUDA.
    BS_CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource, stream_of(exec)));
    mapped_ = false;
}

}  // namespace bs::cuda
