// Metaball skinning on the host (seed 001 §1.3): the binding rules, R_j, posed joint centres, the
// deformation against hand-computed values, the Skinner front, and one test per invalid input.
#include "host/metaball_skinner.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "host/errors.hpp"
#include "host/skinner.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/geometry_expect.hpp"
#include "tests/support/points.hpp"
#include "tests/support/pose_sizes.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

using testing::expect_vec_near;

std::vector<int> regions(const MetaballBinding& b) {
    std::vector<int> out;
    for (std::size_t i = 0; i < b.vertex_count(); ++i) {
        EXPECT_LE(b.offsets[i + 1] - b.offsets[i], 1u);
        out.push_back(b.offsets[i + 1] > b.offsets[i] ? int(b.joints[b.offsets[i]]) : kNoRegion);
    }
    return out;
}

// straight_chain(): spheres (0,0,0; 1), (4,0,0; 1), (7,0,0; 0.7), (9,0,0; 0.45).
TEST(MetaballSkinner, NearestSphereIsMeasuredToTheSurfaceWithTiesToTheLowestIndex) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{-1, 0, 0}, {2, 0, 0}, {2, 3, 0}, {5.6, 0, 0}, {5.4, 0, 0}, {8.2, 0, 0}, {20, 0, 0}};
    // x = 2 is 1 from both surfaces (tie -> 0); x = 5.6 is 0.6 from sphere 1, 0.7 from sphere 2 (its surface,
    // not its centre, decides); x = 8.2 is 0.5 from sphere 2's surface and 0.35 from sphere 3's.
    EXPECT_EQ(regions(nearest_sphere_binding(s, points)), (std::vector<int>{0, 0, 0, 1, 1, 3, 3}));
}

TEST(MetaballSkinner, RegionsBecomeACompressedBinding) {
    MetaballBinding b = binding_from_regions({2, kNoRegion, 0, 2});
    EXPECT_EQ(b.offsets, (std::vector<std::uint32_t>{0, 1, 1, 2, 3}));
    EXPECT_EQ(b.joints, (std::vector<std::uint32_t>{2, 0, 2}));
    EXPECT_EQ(b.vertex_count(), 4u);
}

TEST(MetaballSkinner, RadiusIsTheFarthestBoundVertexAndZeroForAnEmptyRegion) {
    std::vector<Vec3<double>> centres{{0, 0, 0}, {10, 0, 0}, {20, 0, 0}};
    std::vector<Vec3<double>> rest{{1, 0, 0}, {0, 3, 0}, {11, 1, 0}, {0, 0, 2}};
    std::vector<double> radii = influence_radii(centres, rest, binding_from_regions({0, 0, 1, kNoRegion}));
    EXPECT_DOUBLE_EQ(radii[0], 3.0);
    EXPECT_DOUBLE_EQ(radii[1], std::sqrt(2.0));
    EXPECT_EQ(radii[2], 0.0);
}

TEST(MetaballSkinner, PosedCentresFollowForwardKinematics) {
    Skeleton s = testing::straight_chain();
    Pose pose = Pose::rest(s);
    std::vector<Vec3<double>> centres = posed_centres(s, pose);
    for (std::size_t j = 0; j < centres.size(); ++j) expect_vec_near(centres[j], s.spheres[j].centre, 0);
    pose.root.translation = {1, 2, 3};
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);  // bend at sphere 1
    centres = posed_centres(s, pose);
    expect_vec_near(centres[0], {1, 2, 3}, 1e-12);
    expect_vec_near(centres[1], {5, 2, 3}, 1e-12);
    expect_vec_near(centres[2], {5, 5, 3}, 1e-12);
    expect_vec_near(centres[3], {5, 7, 3}, 1e-12);
}

TEST(MetaballSkinner, PosedCentresOfATreeMoveEveryBranch) {
    Skeleton s = make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{7, 2, 0}, 0.5}, {{7, -2, 0}, 0.5}},
                               {{0, 1}, {1, 2}, {1, 3}}, {}, "y tree", SkeletonRules::Tree);
    Pose pose = Pose::rest(s);
    pose.joints[0].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi);  // the whole Y turns about sphere 0
    std::vector<Vec3<double>> centres = posed_centres(s, pose);
    for (std::size_t j = 0; j < centres.size(); ++j) {
        Vec3<double> c = s.spheres[j].centre;
        expect_vec_near(centres[j], {-c.x, -c.y, c.z}, 1e-12);
    }
}

// A pose of another size is refused as the skinners refuse it: one bone short, it was read past its
// joints (an empty pose crashed).
TEST(MetaballSkinner, PosedCentresOfAPoseOfAnotherSizeAreRefused) {
    const Skeleton s = testing::straight_chain();
    testing::expect_poses_of_another_size_refused(s, [&](const Pose& pose) { posed_centres(s, pose); });
}

TEST(MetaballSkinner, RestPoseMovesNothing) {
    Skeleton s = testing::straight_chain();
    auto points = testing::points_around(s, 3000, 1);
    MetaballSkinner<double> skinner(s, points, nearest_sphere_binding(s, points), "test");
    std::vector<Vec3<double>> out;
    skinner.deform(Pose::rest(s), out);
    for (std::size_t i = 0; i < points.size(); ++i) expect_vec_near(out[i], points[i], 0);
}

TEST(MetaballSkinner, DisplacementIsScaledByTheFieldOfTheBindingJoint) {
    Skeleton s = testing::straight_chain();
    // Sphere 3's region: the points nearest its surface; R_3 = the farthest of them, (9, 2, 0).
    std::vector<Vec3<double>> points{{9, 0, 0}, {9, 1, 0}, {9, 2, 0}, {0, 0, 0}};
    MetaballSkinner<double> skinner(s, points, binding_from_regions({3, 3, 3, 0}), "test");
    EXPECT_DOUBLE_EQ(skinner.radii()[3], 2.0);
    EXPECT_DOUBLE_EQ(skinner.radii()[0], 0.0);  // one vertex, at the centre
    std::vector<Vec3<double>> d(4, Vec3<double>{0, 0, 0});
    d[3] = {0, 0, 4};
    d[0] = {1, 1, 1};
    std::vector<Vec3<double>> out;
    skinner.deform(d, out);
    expect_vec_near(out[0], {9, 0, 4}, 1e-15);
    expect_vec_near(out[1], {9, 1, 2}, 1e-15);  // f(R/2) = 1/2
    expect_vec_near(out[2], {9, 2, 0}, 0);      // f(R) = 0
    expect_vec_near(out[3], {0, 0, 0}, 0);      // R_0 = 0: no field, no NaN
}

// A stray point bound to its nearest sphere, 1,000 away, does not size that sphere's region (it had made R_j
// 1,000 and moved the region rigidly): the body moves as without it, and the stray point, beyond R_j, stays.
TEST(MetaballSkinner, AStrayPointDoesNotSizeItsRegion) {
    Skeleton s = testing::straight_chain();
    const std::vector<Vec3<double>> body = testing::points_around(s, 3000, 3);
    std::vector<Vec3<double>> with_stray = body;
    with_stray.push_back({1000, 0, 0});
    const MetaballSkinner<double> plain(s, body, nearest_sphere_binding(s, body), "body"),
        strayed(s, with_stray, nearest_sphere_binding(s, with_stray), "body and a stray point");
    EXPECT_EQ(strayed.radii(), plain.radii());
    Pose bent = Pose::rest(s);
    bent.joints[2].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 3);
    std::vector<Vec3<double>> plain_out, strayed_out;
    plain.deform(bent, plain_out);
    strayed.deform(bent, strayed_out);
    for (std::size_t i = 0; i < body.size(); ++i) expect_vec_near(strayed_out[i], plain_out[i], 0);
    expect_vec_near(strayed_out.back(), with_stray.back(), 0);
}

TEST(MetaballSkinner, TheRootsMotionCarriesTheWholeBody) {
    // A pose that moves the root alone moves every point rigidly, wherever the world's origin is: the field
    // only translates, and had left each region's edge at rest (a capture's walk pulled points 0.8 of the
    // body's diagonal from LBS's) and turned the body about the origin by displacements, not rotations.
    Skeleton s = testing::straight_chain();
    auto points = testing::points_around(s, 3000, 2);
    MetaballSkinner<double> skinner(s, points, nearest_sphere_binding(s, points), "test");
    Pose moved = Pose::rest(s);
    moved.root = {axis_angle(Vec3<double>{1, 2, 3} / std::sqrt(14.0), 2.0), {30, -40, 50}};
    std::vector<Vec3<double>> out;
    skinner.deform(moved, out);
    for (std::size_t i = 0; i < points.size(); ++i) expect_vec_near(out[i], moved.root.apply(points[i]), 1e-12);
    // With a bend besides, the body's motion carries what the bend alone gives.
    Pose bent = Pose::rest(s);
    bent.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 3);
    moved.joints = bent.joints;
    std::vector<Vec3<double>> bent_out;
    skinner.deform(bent, bent_out);
    skinner.deform(moved, out);
    for (std::size_t i = 0; i < points.size(); ++i) expect_vec_near(out[i], moved.root.apply(bent_out[i]), 1e-12);
}

TEST(MetaballSkinner, JointWithNoBoundVertexHasNoRadiusAndMovesNothing) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{0.5, 0, 0}, {4, 0.5, 0}, {4.2, 0, 0}};
    MetaballSkinner<float> skinner(s, points, binding_from_regions({0, 1, 1}), "test");
    EXPECT_EQ(skinner.radii()[2], 0.0);
    EXPECT_EQ(skinner.radii()[3], 0.0);
    std::vector<Vec3<double>> d{{0, 0, 0}, {0, 0, 0}, {5, 5, 5}, {-3, 2, 1}};
    std::vector<Vec3<float>> out;
    skinner.deform(d, out);
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_TRUE(all_finite(out[i]));
        expect_vec_near(Vec3<double>(out[i]), points[i], 1e-6);  // the rest point, rounded to float
    }
}

TEST(MetaballSkinner, BindingFileIsReadWithUnboundVertices) {
    std::string path = testing::write_temp("binding.json", R"({"binding": [1, -1, 0], "nodes": 2})");
    EXPECT_EQ(regions(load_binding(path, std::vector<Vec3<double>>(3), 2)), (std::vector<int>{1, kNoRegion, 0}));
}

TEST(MetaballSkinner, BindingFileWithTheWrongCountIsRefused) {
    std::string path = testing::write_temp("binding.json", R"({"binding": [1, 0]})");
    try {
        load_binding(path, std::vector<Vec3<double>>(3), 2);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("binding: expected one node index per vertex (3), got 2"), std::string::npos)
            << e.what();
    }
}

TEST(MetaballSkinner, BindingFileWithANodeOutOfRangeIsRefused) {
    std::string path = testing::write_temp("binding.json", R"({"binding": [1, 2, 0]})");
    try {
        load_binding(path, std::vector<Vec3<double>>(3), 2);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("binding[1]: index 2 out of range [0, 2)"), std::string::npos) << e.what();
    }
    // A negative index other than -1 (unbound) is named with both what is allowed.
    path = testing::write_temp("negative.json", R"({"binding": [1, -2, 0]})");
    try {
        load_binding(path, std::vector<Vec3<double>>(3), 2);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("binding[1]: index -2 out of range: -1 (unbound) or [0, 2)"), std::string::npos) << e.what();
    }
    // Indices as large as an unsigned 64-bit number are out of range, not read back as -1 or -2.
    for (const char* huge : {"18446744073709551615", "18446744073709551614"}) {
        path = testing::write_temp("huge.json", std::string(R"({"binding": [1, )") + huge + ", 0]}");
        try {
            load_binding(path, std::vector<Vec3<double>>(3), 2);
            ADD_FAILURE() << "no error for " << huge;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("binding[1]"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find("-1 (unbound)"), std::string::npos) << e.what();
        }
    }
}

// A binding that records the vertices it was made for is refused for others of the same count (other
// positions, or the same ones in another order: drag bound each point to another's sphere and tore the
// surface), and taken for its own, also read back from a float file; one that records none is taken.
TEST(MetaballSkinner, BindingFileForOtherVerticesIsRefused) {
    const std::vector<Vec3<double>> own{{0, 0, 0}, {1, 0.1, 0}, {2, 0, 0.3}};
    std::vector<Vec3<double>> reordered{own[1], own[0], own[2]}, moved = own, as_floats;
    moved[2].z += 1e-3;
    for (const Vec3<double>& v : own) as_floats.push_back(Vec3<double>(Vec3<float>(v)));
    const std::string path = testing::write_temp(
        "made_for.json", R"({"binding": [0, 0, 1], "vertices_digest": ")" + binding_vertex_digest(own) + R"("})");
    EXPECT_EQ(regions(load_binding(path, own, 2)), (std::vector<int>{0, 0, 1}));
    EXPECT_EQ(regions(load_binding(path, as_floats, 2)), (std::vector<int>{0, 0, 1}));
    for (const auto& other : {reordered, moved}) {
        try {
            load_binding(path, other, 2);
            ADD_FAILURE() << "no error";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("vertices_digest: the binding was made for other vertices"), std::string::npos) << e.what();
        }
    }
    // A digest not written as binding_vertex_digest writes it is malformed, not one of other vertices (a text
    // like "zz" was read as that: refused by load_binding, used with a note by drag --binding).
    for (const char* digest : {"5", R"("zz")", R"("0123456789ABCDEF")", R"("0123456789abcde")"}) {
        const std::string malformed = testing::write_temp("digest.json", std::string(R"({"binding": [0], "vertices_digest": )") + digest + "}");
        try {
            read_binding_file(malformed, std::vector<Vec3<double>>(1), 2);
            ADD_FAILURE() << digest << ": no error";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("vertices_digest: expected a string of 16 hexadecimal digits"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(regions(load_binding(testing::write_temp("no_digest.json", R"({"binding": [0, 0, 1]})"), reordered, 2)),
              (std::vector<int>{0, 0, 1}));
}

TEST(MetaballSkinner, BindingFileWithoutTheListOrWithANonIntegerIsRefused) {
    EXPECT_THROW(load_binding(testing::write_temp("a.json", R"({"nodes": [1]})"), std::vector<Vec3<double>>(1), 2), InputError);
    EXPECT_THROW(load_binding(testing::write_temp("b.json", R"({"binding": [0.5]})"), std::vector<Vec3<double>>(1), 2), InputError);
    EXPECT_THROW(load_binding(testing::write_temp("c.json", R"({"binding": [-2]})"), std::vector<Vec3<double>>(1), 2), InputError);
    EXPECT_THROW(load_binding(testing::write_temp("d.json", R"([0])"), std::vector<Vec3<double>>(1), 2), InputError);
    EXPECT_THROW(load_binding(testing::temp_path("missing.json"), std::vector<Vec3<double>>(1), 2), IoError);
}

TEST(MetaballSkinner, BindingThatDoesNotFitThePointsOrTheSkeletonIsRefused) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{0, 0, 0}, {1, 0, 0}};
    EXPECT_THROW(MetaballSkinner<float>(s, points, binding_from_regions({0}), "test"), InputError);
    EXPECT_THROW(MetaballSkinner<float>(s, points, binding_from_regions({0, 4}), "test"), InputError);
    MetaballBinding bad_offsets = binding_from_regions({0, 1});
    bad_offsets.offsets = {0, 2, 1};
    EXPECT_THROW(MetaballSkinner<float>(s, points, bad_offsets, "test"), InputError);
}

TEST(MetaballSkinner, NonFinitePointsAndDisplacementsAreRefused) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{0, 0, 0}, {1, NAN, 0}};
    EXPECT_THROW(MetaballSkinner<float>(s, points, binding_from_regions({0, 0}), "test"), InputError);
    points[1].y = 0;
    MetaballSkinner<float> skinner(s, points, binding_from_regions({0, 0}), "test");
    std::vector<Vec3<float>> out;
    EXPECT_THROW(skinner.deform(std::vector<Vec3<double>>(4, {0, 0, INFINITY}), out), InputError);
    EXPECT_THROW(skinner.deform(std::vector<Vec3<double>>(3, {0, 0, 0}), out), InputError);
    // Finite but beyond what float holds once scaled by the field (198 of 500 points came out inf or
    // NaN): bounded as every coordinate read is.
    std::vector<Vec3<double>> far(4, {0, 0, 0});
    far[2].x = 1e300;
    EXPECT_EQ(testing::message_of<InputError>([&] { skinner.deform(far, out); }),
              "metaball deformation: joint 2: a displacement component beyond ±2e15 (twice the input bound) or not finite");
    far[2].x = 2e15;  // from a centre near -1e15 to a drag's --to near 1e15
    skinner.deform(far, out);
    for (const Vec3<float>& p : out) EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
}

TEST(MetaballSkinner, IsAMethodOfTheSkinnerFront) {
    EXPECT_EQ(parse_method("metaball"), Method::metaball);
    EXPECT_STREQ(method_name(Method::metaball), "metaball");
    Skeleton s = testing::straight_chain();
    auto points = testing::points_around(s, 500, 2);
    Skinner skinner(Method::metaball, s, points, {}, "test");
    Pose pose = Pose::rest(s);
    pose.root.translation = {0, 0, 1};
    std::vector<Vec3<float>> out;
    skinner.deform(pose, out);
    ASSERT_EQ(out.size(), points.size());
    // A root translation moves every joint by the same d: each point moves by d·f, between 0 and d.
    for (std::size_t i = 0; i < points.size(); ++i) {
        Vec3<double> moved = Vec3<double>(out[i]) - points[i];
        EXPECT_NEAR(moved.x, 0, 1e-5);
        EXPECT_NEAR(moved.y, 0, 1e-5);
        EXPECT_GE(moved.z, -1e-6);
        EXPECT_LE(moved.z, 1 + 1e-6);
    }
}

}  // namespace
}  // namespace bs
