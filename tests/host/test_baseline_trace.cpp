// The trace of one point's baseline (host/baseline_trace.hpp) is the construction the per-point pass runs:
// its point is the deformed point, its base-point lies on its posed section, and at rest it is the input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "host/baseline_trace.hpp"
#include "host/errors.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

Pose bent_and_twisted(const Skeleton& s) {
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 70 * kPi / 180);
    pose.joints[2].swing = axis_angle(normalized(Vec3<double>{0, 1, 1}), -40 * kPi / 180);
    pose.joints[2].twist_radians = 2.5;
    return pose;
}

// Distance from p to the polyline.
double distance_to_polyline(const std::vector<Vec3<double>>& line, Vec3<double> p) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < line.size(); ++i) {
        Vec3<double> d = line[i] - line[i - 1];
        double s = dot(p - line[i - 1], d) / std::max(dot(d, d), 1e-300);
        s = std::clamp(s, 0.0, 1.0);
        best = std::min(best, norm(p - (line[i - 1] + s * d)));
    }
    return best;
}

class BaselineTraceTest : public ::testing::Test {
protected:
    Skeleton skeleton = testing::straight_chain();
    std::vector<Vec3<double>> rest = testing::points_around(skeleton, 3000, 41, -0.3, 0.4);
    BaselineSkinner<double> skinner{skeleton, rest, "trace test"};
    void SetUp() override { skinner.set_deform_options({true}); }  // the direct construction, as the trace
};

TEST_F(BaselineTraceTest, ItsPointIsTheDeformedPoint) {
    const Pose pose = bent_and_twisted(skeleton);
    std::vector<Vec3<double>> deformed;
    skinner.deform(pose, deformed);
    const double tolerance = 1e-9 * testing::diagonal(skeleton);
    int checked = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (skinner.codes()[i].rigid_blend != 0) continue;  // the trace's point is before the blend
        BaselineTrace trace = trace_baseline(skinner, i, pose);
        ASSERT_LE(norm(trace.point - deformed[i]), tolerance) << "point " << i;
        ASSERT_NEAR(norm(trace.direction), 1, 1e-9) << "point " << i;
        // A deep code's point is blended toward its axis foot (engine/baseline/deform.hpp, detail_point).
        if (!(trace.code.flags & kCodeDeep)) {
            ASSERT_LE(norm(trace.base + double(trace.code.h) * trace.direction - trace.point), tolerance) << "point " << i;
        }
        ++checked;
    }
    EXPECT_GT(checked, 2000);
}

TEST_F(BaselineTraceTest, ItsBasePointLiesOnItsSection) {
    const Pose pose = bent_and_twisted(skeleton);
    for (std::size_t i = 0; i < rest.size(); i += 7) {
        BaselineTrace trace = trace_baseline(skinner, i, pose, 400);
        ASSERT_EQ(trace.section.size(), 400u);
        const double radius = skeleton.spheres[skeleton.bones[trace.bone][0]].radius;
        // A chord of 1/400 of the section strays from the curve by far less than this.
        EXPECT_LE(distance_to_polyline(trace.section, trace.base), 1e-3 * radius) << "point " << i;
    }
}

TEST_F(BaselineTraceTest, AtRestItGivesTheInputPoint) {
    const Pose rest_pose = Pose::rest(skeleton);
    for (std::size_t i = 0; i < rest.size(); i += 5) {
        if (skinner.codes()[i].rigid_blend != 0) continue;
        BaselineTrace trace = trace_baseline(skinner, i, rest_pose);
        EXPECT_LE(norm(trace.point - rest[i]), 1e-6 * testing::diagonal(skeleton)) << "point " << i;
    }
}

TEST_F(BaselineTraceTest, RefusesAnIndexOutOfRange) {
    EXPECT_THROW(trace_baseline(skinner, rest.size(), Pose::rest(skeleton)), InputError);
}

TEST_F(BaselineTraceTest, RefusesFewerThanTwoSamples) {
    EXPECT_THROW(trace_baseline(skinner, 0, Pose::rest(skeleton), 1), InputError);
}

TEST_F(BaselineTraceTest, RefusesANonFinitePose) {
    Pose pose = Pose::rest(skeleton);
    pose.joints[1].twist_radians = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(trace_baseline(skinner, 0, pose), InputError);
}

}  // namespace
}  // namespace bs
