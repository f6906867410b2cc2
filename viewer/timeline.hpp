// Play, pause and scrub a motion, without OpenGL. Time in seconds over [0, duration]; at the end a
// playing timeline loops back to 0 (or stops there when looping is off).
#pragma once

#include <cstddef>

namespace bs::view {

class Timeline {
public:
    // duration >= 0 (0: a single pose, which never plays); fps > 0 sets the frame count.
    Timeline(double duration = 0, double fps = 30);

    double duration() const { return duration_; }
    double time() const { return time_; }
    bool playing() const { return playing_; }
    bool looping() const { return looping_; }

    // At the end of a motion that does not loop, play starts again from 0.
    void play();
    void pause() { playing_ = false; }
    void toggle() { playing_ ? pause() : play(); }
    void set_looping(bool looping) { looping_ = looping; }

    // Moves on by `seconds` of wall time × `speed` when playing (negative steps are ignored).
    void advance(double seconds, double speed = 1);
    // Jumps to `seconds`, clamped to [0, duration]; playing or paused stays as it was.
    void scrub(double seconds);
    // Jumps to the motion's frame `frame`, counted on from the last back to 0 (headless play: one frame
    // each, by index, so that no rounding of accumulated time skips one).
    void go_to_frame(std::size_t frame);

    // The motion's frame at the current time (nearest), in [0, frame_count - 1].
    std::size_t frame() const;
    std::size_t frame_count() const;

private:
    double duration_, fps_, time_ = 0;
    bool playing_ = false, looping_ = true;
};

}  // namespace bs::view
