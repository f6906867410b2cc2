#include "kernels/frame_uploads.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace bs::cuda {

namespace {
// Every staged copy starts at this alignment, so that the DMA engine reads aligned host memory.
constexpr std::size_t kStagingAlignment = 64;
std::size_t aligned(std::size_t bytes) { return (bytes + kStagingAlignment - 1) / kStagingAlignment * kStagingAlignment; }
}  // namespace

FrameUploads::Frame::~Frame() {
    // A destructor cannot report a failure. Recording fails only for a stream the caller broke or a broken
    // context, and then the copies queued on that stream failed as well (nothing is read from the staging
    // memory later) or every later call fails too.
    try {
        record_event(uploads_.turns_[uploads_.current_].event, exec_);
    } catch (...) {
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
    merge_blocks();
    return Frame(*this, exec);
}

void FrameUploads::merge_blocks() {
    std::vector<Block>& blocks = turns_[current_].blocks;
    if (blocks.size() > 1) {
        std::size_t total = 0;
        for (Block& block : blocks) {
            total += block.capacity;
            release_pinned(block.data);
        }
        blocks.clear();  // before allocating: a failure leaves no freed block behind
        blocks.push_back({static_cast<unsigned char*>(allocate_pinned(total)), total, 0});
    }
    for (Block& block : blocks) block.used = 0;
}

const void* FrameUploads::stage(const void* host, std::size_t bytes) {
    if (bytes == 0) return host;  // nothing is copied
    std::vector<Block>& blocks = turns_[current_].blocks;
    if (blocks.empty() || blocks.back().used + bytes > blocks.back().capacity) {
        // Doubling what the turn holds: a frame larger than all before adds O(log) blocks.
        std::size_t held = 0;
        for (const Block& block : blocks) held += block.capacity;
        const std::size_t capacity = aligned(std::max(bytes, held));
        blocks.push_back({static_cast<unsigned char*>(allocate_pinned(capacity)), capacity, 0});
    }
    Block& block = blocks.back();
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
