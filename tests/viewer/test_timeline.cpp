// The timeline (viewer/timeline.hpp): play, pause, loop, stop at the end, scrub, frame index.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "viewer/timeline.hpp"

namespace bs::view {
namespace {

TEST(ViewerTimeline, PlayingAdvancesAndPausedDoesNot) {
    Timeline t(4, 30);
    t.advance(1);
    EXPECT_EQ(t.time(), 0) << "starts paused";
    t.play();
    t.advance(0.5);
    t.advance(0.25, 2);
    EXPECT_DOUBLE_EQ(t.time(), 1.0);
    t.pause();
    t.advance(1);
    EXPECT_DOUBLE_EQ(t.time(), 1.0);
    t.toggle();
    EXPECT_TRUE(t.playing());
    t.advance(-3);
    t.advance(std::numeric_limits<double>::quiet_NaN());
    EXPECT_DOUBLE_EQ(t.time(), 1.0) << "negative and NaN steps are ignored";
}

TEST(ViewerTimeline, LoopingWrapsAndNotLoopingStopsAtTheEnd) {
    Timeline t(4, 30);
    t.play();
    t.advance(9);
    EXPECT_NEAR(t.time(), 1, 1e-12);
    EXPECT_TRUE(t.playing());
    t.set_looping(false);
    t.advance(10);
    EXPECT_DOUBLE_EQ(t.time(), 4);
    EXPECT_FALSE(t.playing());
}

// 20 steps of 0.1 s sum to 2.0000000000000004: the end of a 2 s motion, not a wrap to frame 0 (headless
// --play showed the rest pose for the last frame of 21 at 10 frames/s).
TEST(ViewerTimeline, StepsOfAFrameSummedToTheEndReachTheLastFrame) {
    for (int frames : {4, 21, 40}) {
        Timeline t(double(frames - 1) / 10, 10);
        t.play();
        for (int f = 1; f < frames; ++f) t.advance(0.1);
        EXPECT_EQ(t.frame(), std::size_t(frames - 1)) << frames << " frames";
        t.go_to_frame(std::size_t(frames - 1));
        EXPECT_EQ(t.frame(), std::size_t(frames - 1));
        t.go_to_frame(std::size_t(frames));  // one on from the last: the first again
        EXPECT_EQ(t.frame(), 0u);
    }
}

TEST(ViewerTimeline, PlayingAgainAfterTheEndStartsOver) {
    Timeline t(2, 30);
    t.set_looping(false);
    t.play();
    t.advance(5);
    ASSERT_FALSE(t.playing());
    t.play();
    EXPECT_TRUE(t.playing());
    EXPECT_EQ(t.time(), 0);
}

TEST(ViewerTimeline, ScrubClampsToTheMotion) {
    Timeline t(2, 30);
    t.scrub(1.5);
    EXPECT_DOUBLE_EQ(t.time(), 1.5);
    t.scrub(-1);
    EXPECT_DOUBLE_EQ(t.time(), 0);
    t.scrub(99);
    EXPECT_DOUBLE_EQ(t.time(), 2);
    t.scrub(std::numeric_limits<double>::infinity());
    EXPECT_DOUBLE_EQ(t.time(), 0);
}

TEST(ViewerTimeline, FrameIsTheNearestOfTheMotionsFrames) {
    Timeline t(4, 30);  // 121 frames
    EXPECT_EQ(t.frame_count(), 121u);
    t.scrub(1.0 / 30 * 7.4);
    EXPECT_EQ(t.frame(), 7u);
    t.scrub(4);
    EXPECT_EQ(t.frame(), 120u);
}

TEST(ViewerTimeline, ASinglePoseNeverPlays) {
    Timeline t(0, 30);
    t.play();
    EXPECT_FALSE(t.playing());
    EXPECT_EQ(t.frame_count(), 1u);
    Timeline bad(std::numeric_limits<double>::quiet_NaN(), -5);
    bad.play();
    bad.advance(1);
    EXPECT_EQ(bad.time(), 0);
}

}  // namespace
}  // namespace bs::view
