#include "engine/kinematics.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/support/geometry_expect.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

using testing::expect_vec_near;

// A straight chain along x: spheres at x = 0, 2, 5; bones 0 (0->1) and 1 (1->2).
struct Chain {
    std::vector<BoneRestFrame<double>> bones{{{0, 0, 0}, {1, 0, 0}, -1}, {{2, 0, 0}, {1, 0, 0}, 0}};
    std::vector<int> order{0, 1};
    std::vector<JointRotation<double>> joints{{Quat<double>::identity(), 0}, {Quat<double>::identity(), 0}};

    std::vector<Rigid<double>> posed(const Rigid<double>& root) const {
        std::vector<Rigid<double>> out(2);
        forward_kinematics(bones.data(), order.data(), 2, root, joints.data(), out.data());
        return out;
    }
};

TEST(Kinematics, RestIsIdentity) {
    Chain c;
    for (const Rigid<double>& g : c.posed(Rigid<double>::identity())) expect_vec_near(g.apply({3, 4, 5}), {3, 4, 5}, 1e-15);
}

TEST(Kinematics, ElbowBendByHand) {
    // Bend the second bone 90° about z at x = 2: its tip (5,0,0) goes to (2,3,0); bone 0 stays.
    Chain c;
    c.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
    auto g = c.posed(Rigid<double>::identity());
    expect_vec_near(g[0].apply({5, 0, 0}), {5, 0, 0}, 1e-12);
    expect_vec_near(g[1].apply({5, 0, 0}), {2, 3, 0}, 1e-12);
    expect_vec_near(g[1].apply({2, 0, 0}), {2, 0, 0}, 1e-12);
}

TEST(Kinematics, ChildRotationIsInParentsPosedFrame) {
    // Shoulder 90° about z at the origin, then elbow 90° about z (local): the tip ends at (-3, 2, 0).
    Chain c;
    c.joints[0].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
    c.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
    auto g = c.posed(Rigid<double>::identity());
    expect_vec_near(g[0].apply({2, 0, 0}), {0, 2, 0}, 1e-12);
    expect_vec_near(g[1].apply({5, 0, 0}), {-3, 2, 0}, 1e-12);
}

TEST(Kinematics, RootTransformMovesEverything) {
    Chain c;
    c.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
    Rigid<double> root{axis_angle(Vec3<double>{1, 0, 0}, kPi / 2), {10, 0, 0}};
    auto g = c.posed(root);
    // Without the root: (2,3,0); the root turns it about x by 90° to (2,0,3), then shifts x by 10.
    expect_vec_near(g[1].apply({5, 0, 0}), {12, 0, 3}, 1e-12);
}

TEST(Kinematics, TwistTurnsAboutTheRestAxisAndUnwrappedTurnsCount) {
    Chain c;
    c.joints[1].twist_radians = kPi / 2;
    auto g = c.posed(Rigid<double>::identity());
    expect_vec_near(g[1].apply({3, 1, 0}), {3, 0, 1}, 1e-12);
    // 450° of twist is the same rotation as 90°.
    c.joints[1].twist_radians = 2.5 * kPi;
    expect_vec_near(c.posed(Rigid<double>::identity())[1].apply({3, 1, 0}), {3, 0, 1}, 1e-12);
}

}  // namespace
}  // namespace bs
