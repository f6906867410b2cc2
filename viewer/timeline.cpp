#include "viewer/timeline.hpp"

#include <algorithm>
#include <cmath>

namespace bs::view {

Timeline::Timeline(double duration, double fps)
    : duration_(std::isfinite(duration) && duration > 0 ? duration : 0), fps_(std::isfinite(fps) && fps > 0 ? fps : 30) {}

void Timeline::play() {
    if (!looping_ && time_ >= duration_) time_ = 0;
    playing_ = duration_ > 0;
}

void Timeline::advance(double seconds, double speed) {
    if (!playing_ || !(seconds > 0) || !(speed > 0)) return;
    double next = time_ + seconds * speed;
    // Steps of 1/fps summed to the end overshoot it by their rounding (20 steps of 0.1 make
    // 2.0000000000000004): that is the end, not a wrap to 0.
    const double rounding = 1e-9 * std::max(1.0, duration_);
    if (next <= duration_ + rounding) {
        time_ = std::min(next, duration_);
    } else if (looping_) {
        time_ = std::fmod(next, duration_);
    } else {
        time_ = duration_;
        playing_ = false;
    }
}

void Timeline::go_to_frame(std::size_t frame) { scrub(double(frame % frame_count()) / fps_); }

void Timeline::scrub(double seconds) { time_ = std::isfinite(seconds) ? std::clamp(seconds, 0.0, duration_) : 0.0; }

std::size_t Timeline::frame_count() const { return std::size_t(std::llround(duration_ * fps_)) + 1; }

std::size_t Timeline::frame() const {
    return std::min(std::size_t(std::llround(time_ * fps_)), frame_count() - 1);
}

}  // namespace bs::view
