#include "kernels/frame_uploads.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace bs::cuda {

namespace {
// Every staged copy starts at this alignment, so that the DMA engine reads aligned host memory.
constexpr std::size_t kStagingAlignment = 64;
std::size_t aligned(std::size_t bytes) { return (bytes + kStagingAlignment - 1) / kStagingAlignment * kStagingAlignment; }
}  // namespace

FrameUploads::Frame::~Frame() {
    // A destructor cannot report a failure. Where the event cannot be recorded (a broken stream or context,
    // or a stream of another device than the event's), the turn's event still marks an older frame, so the
    // host waits here for the stream instead: the staging memory is then free to be written again.
    try {
        record_event(turn_.event, exec_);
    } catch (...) {
        try {
            synchronize(exec_);
        } catch (...) {
        }
    }
}

FrameUploads::FrameUploads(FrameUploads&& other) noexcept
    : turns_(std::exchange(other.turns_, {})), current_(std::exchange(other.current_, kFramesInFlight - 1)) {}

FrameUploads& FrameUploads::operator=(FrameUploads&& other) noexcept {
    if (this != &other) {
        release_all();
        turns_ = std::exchange(other.turns_, {});
        current_ = std::exchange(other.current_, kFramesInFlight - 1);
    }
    return *this;
}

FrameUploads::~FrameUploads() { release_all(); }

void FrameUploads::release_all() noexcept {
    for (Turn& turn : turns_) {
        // The copies out of this memory must be done before it is freed.
        if (turn.event) {
            try {
                wait_for_event(turn.event);
            } catch (...) {
            }
        }
        for (Block& block : turn.blocks) release_pinned(block.data);
        destroy_event(turn.event);
        turn = {};
    }
}

FrameUploads::Frame FrameUploads::frame(Exec exec) {
    current_ = (current_ + 1) % kFramesInFlight;
    Turn& turn = turns_[current_];
    if (!turn.event) turn.event = create_event();
    wait_for_event(turn.event);
    turn.filling = 0;
    for (Block& block : turn.blocks) block.used = 0;
    return Frame(turn, exec);
}

const void* FrameUploads::Turn::stage(const void* host, std::size_t bytes) {
    if (bytes == 0) return host;  // nothing is copied
    while (filling < blocks.size() && blocks[filling].used + bytes > blocks[filling].capacity) ++filling;
    if (filling == blocks.size()) {
        // As large as the turn's blocks together: a frame larger than all before adds O(log) blocks.
        std::size_t held = 0;
        for (const Block& block : blocks) held += block.capacity;
        const std::size_t capacity = aligned(std::max(bytes, held));
        blocks.reserve(blocks.size() + 1);  // before the allocation: a push_back that threw lost the block
        blocks.push_back({static_cast<unsigned char*>(allocate_pinned(capacity)), capacity, 0});
    }
    Block& block = blocks[filling];
    unsigned char* to = block.data + block.used;
    std::memcpy(to, host, bytes);
    block.used = std::min(block.capacity, aligned(block.used + bytes));
    return to;
}

std::size_t FrameUploads::host_bytes() const {
    std::size_t bytes = 0;
    for (const Turn& turn : turns_)
        for (const Block& block : turn.blocks) bytes += block.capacity;
    return bytes;
}

}  // namespace bs::cuda
