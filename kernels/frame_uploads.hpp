// Per-frame uploads that never make CUDA wait for the caller's stream.
//
// cudaMemcpyAsync from pageable host memory "may synchronize with the stream" before it copies (CUDA
// runtime API, "API synchronization behavior"): a deform() whose frame tables went up from std::vectors
// could block the host until every launch queued before it had finished. From page-locked memory the copy
// is fully asynchronous. FrameUploads copies a frame's host tables into page-locked staging memory and
// queues the device copies from there.
//
// A frame's staging memory may be written again only once its copies are done, so kFramesInFlight frames
// take turns: starting a frame waits (an event recorded after that turn's last copies) only for the frame
// kFramesInFlight back, which blocks the host only when it runs that many frames ahead of the device on
// this FrameUploads. A turn keeps its blocks of page-locked memory and fills them in order; a frame that
// needs more than they hold adds a block as large as the turn's blocks together (or the upload, if larger).
// Allocating page-locked memory may synchronise the device, so that happens only on the first frames and
// when frames grow; the blocks are freed only with the FrameUploads. Host memory held: host_bytes(), up to
// about twice kFramesInFlight times the largest frame. Every call is checked (CudaError); without the CUDA
// backend every call throws CudaUnavailable. Move-only; not thread-safe (one frame at a time).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "kernels/device_memory.hpp"

namespace bs::cuda {

class FrameUploads {
    struct Turn;

public:
    static constexpr int kFramesInFlight = 3;

    // One frame's uploads, all on one stream. Its destructor marks the end of the frame's copies (an event
    // on that stream), also when the frame is left by an exception after some copies were queued.
    class Frame {
    public:
        // Stages `host` and queues its copy to the front of `to` on the frame's stream; `to` is reallocated
        // (its contents lost) when it holds fewer than host.size() elements. `host` may go once this returns.
        template <class T>
        void upload(DeviceArray<T>& to, const std::vector<T>& host) {
            if (host.size() > to.size()) to = DeviceArray<T>(host.size());
            const std::size_t bytes = host.size() * sizeof(T);
            copy_to_device(to.data(), turn_.stage(host.data(), bytes), bytes, exec_);
        }
        Frame(const Frame&) = delete;
        Frame& operator=(const Frame&) = delete;
        ~Frame();

    private:
        friend class FrameUploads;
        Frame(Turn& turn, Exec exec) : turn_(turn), exec_(exec) {}
        Turn& turn_;  // the frame's own turn: its staging memory, and its event, which the destructor records
        Exec exec_;
    };

    FrameUploads() = default;
    FrameUploads(FrameUploads&& other) noexcept;
    FrameUploads& operator=(FrameUploads&& other) noexcept;
    FrameUploads(const FrameUploads&) = delete;
    FrameUploads& operator=(const FrameUploads&) = delete;
    ~FrameUploads();

    // Starts the next frame on `exec`'s stream: waits until the copies of the frame kFramesInFlight back
    // are done, then reuses its staging memory. One Frame alive at a time.
    Frame frame(Exec exec);
    // Page-locked host memory held now, in bytes.
    std::size_t host_bytes() const;

private:
    struct Block {
        unsigned char* data = nullptr;
        std::size_t capacity = 0;
        std::size_t used = 0;
    };
    struct Turn {
        std::vector<Block> blocks;  // filled in order: blocks[filling] is being filled, those before it are done
        std::size_t filling = 0;
        void* event = nullptr;  // recorded after the turn's last frame's copies

        // A copy of `bytes` bytes of `host` in the turn's staging memory.
        const void* stage(const void* host, std::size_t bytes);
    };
    std::array<Turn, kFramesInFlight> turns_;
    int current_ = kFramesInFlight - 1;  // the turn of the frame started last

    void release_all() noexcept;
};

}  // namespace bs::cuda
