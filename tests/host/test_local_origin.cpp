#include "host/local_origin.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "host/demo_body.hpp"
#include "host/skinner.hpp"

namespace bs {
namespace {

const Vec3<double> kFar{1e8, -3e7, 5e7};

Skeleton moved(Skeleton skeleton, Vec3<double> by) {
    for (Sphere<double>& s : skeleton.spheres) s.centre = s.centre + by;
    return skeleton;
}

std::vector<Vec3<double>> moved(std::vector<Vec3<double>> points, Vec3<double> by) {
    for (Vec3<double>& p : points) p = p + by;
    return points;
}

// The chain's pose at 0.7 of the demo's bend and twist, its root turned by 30° about z and moved.
Pose turned_pose(const Skeleton& skeleton) {
    Pose pose = demo_pose(skeleton, 0.7);
    pose.root.rotation = axis_angle(Vec3<double>{0, 0, 1}, 0.5236);
    pose.root.translation = {1, 2, 3};
    return pose;
}

// Points deformed in the local coordinates, moved back in double, as `animate` writes them.
std::vector<Vec3<double>> deform_about_origin(Method method, const Skeleton& skeleton, const std::vector<Vec3<double>>& rest, const Pose& pose) {
    const LocalOrigin origin = LocalOrigin::beside(skeleton);
    const Skinner skinner(method, origin.to_local(skeleton), origin.to_local(rest), {}, "far body");
    std::vector<Vec3<float>> out;
    skinner.deform(origin.to_local(pose), out);
    std::vector<Vec3<double>> points;
    for (const Vec3<float>& p : out) points.push_back(Vec3<double>(p) + origin.posed_origin(pose));
    return points;
}

double largest_gap(const std::vector<Vec3<double>>& a, const std::vector<Vec3<double>>& b) {
    double gap = 0;
    for (std::size_t i = 0; i < a.size(); ++i) gap = std::max(gap, norm(a[i] - b[i]));
    return gap;
}

TEST(LocalOrigin, ABodyNearTheOriginKeepsIt) {
    const Skeleton chain = demo_chain();
    const Vec3<double> at = LocalOrigin::beside(chain).at;
    EXPECT_TRUE(at.x == 0 && at.y == 0 && at.z == 0);
    // Far along any axis, either way: each octant's corner of kFar's size.
    for (const double sx : {1.0, -1.0})
        for (const double sy : {1.0, -1.0})
            for (const double sz : {1.0, -1.0}) {
                const Vec3<double> to{sx * kFar.x, sy * kFar.y, sz * kFar.z};
                const LocalOrigin far = LocalOrigin::beside(moved(chain, to));
                EXPECT_GT(norm(far.at - to), 0.0) << to.x << ", " << to.y << ", " << to.z;
                EXPECT_LT(norm(far.at - to), 10.0) << to.x << ", " << to.y << ", " << to.z;  // the chain's box centre, ~2.5 along it
            }
}

// A chain 1e8 from the origin (the demo's, about 6 long and 1 thick): at rest every method gives its points
// back, and under a pose with a turned and moved root they land where the same chain at the origin puts them,
// turned and moved in double; deformed in place, float's grid of 8 units there collapsed them.
TEST(LocalOrigin, ABodyFarFromTheOriginKeepsItsShape) {
    const Skeleton near = demo_chain(), far = moved(near, kFar);
    const std::vector<Vec3<double>> near_points = demo_points(near, 2000, 7), far_points = moved(near_points, kFar);
    {
        const Skinner in_place(Method::lbs, far, far_points, {}, "far body");
        std::vector<Vec3<float>> out;
        in_place.deform(Pose::rest(far), out);
        double gap = 0;
        for (std::size_t i = 0; i < out.size(); ++i) gap = std::max(gap, norm(Vec3<double>(out[i]) - far_points[i]));
        EXPECT_GT(gap, 1.0) << "the case this test is for";
    }
    for (const Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        EXPECT_LT(largest_gap(deform_about_origin(method, far, far_points, Pose::rest(far)), far_points), 1e-5) << method_name(method);
        const Pose pose = turned_pose(near);
        Pose unmoved = pose;
        unmoved.root = Rigid<double>::identity();
        std::vector<Vec3<double>> expected = deform_about_origin(method, near, near_points, unmoved);
        for (Vec3<double>& p : expected) p = pose.root.apply(p + kFar);
        EXPECT_LT(largest_gap(deform_about_origin(method, far, far_points, pose), expected), 1e-5) << method_name(method);
    }
}

}  // namespace
}  // namespace bs
