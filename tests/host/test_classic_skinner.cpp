#include "host/classic_skinner.hpp"

#include <gtest/gtest.h>

#include "host/errors.hpp"
#include "host/json_io.hpp"
#include "host/pose.hpp"
#include "host/weights.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

double diagonal(const Skeleton& s) {
    auto b = bounds(s);
    return norm(b[1] - b[0]);
}

// Points around a skeleton's bones, at heights from inside to well outside.
std::vector<Vec3<double>> points_around(const Skeleton& s, int count, unsigned seed) {
    testing::Random rng(seed);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        int k = int(rng.uniform(0, double(s.bone_count()) - 1e-9));
        const Sphere<double>& a = s.spheres[s.bones[k][0]];
        const Sphere<double>& b = s.spheres[s.bones[k][1]];
        double t = rng.uniform(0, 1);
        points.push_back((1 - t) * a.centre + t * b.centre + rng.uniform(0, 2) * a.radius * rng.unit_vector());
    }
    return points;
}

template <class T>
double max_error(const std::vector<Vec3<T>>& got, const std::vector<Vec3<double>>& expected) {
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, norm(Vec3<double>(got[i]) - expected[i]));
    return worst;
}

class ClassicSkinnerTest : public ::testing::TestWithParam<ClassicMethod> {};

TEST_P(ClassicSkinnerTest, RestPoseIsIdentity) {
    Skeleton s = testing::straight_chain();
    auto points = points_around(s, 2000, 1);
    ClassicSkinner<float> skinner(s, points, auto_influences(s, points), "test");
    std::vector<Vec3<float>> out;
    skinner.deform(Pose::rest(s), GetParam(), out);
    EXPECT_LT(max_error(out, points), 1e-6 * diagonal(s));
}

TEST_P(ClassicSkinnerTest, RigidRootMotionIsReproduced) {
    Skeleton s = testing::bent_chain();
    auto points = points_around(s, 2000, 2);
    ClassicSkinner<double> skinner(s, points, auto_influences(s, points), "test");
    Pose pose = Pose::rest(s);
    pose.root = {normalized(Quat<double>{0.3, -0.5, 0.8, 0.1}), {3, -7, 2}};
    std::vector<Vec3<double>> out, expected;
    skinner.deform(pose, GetParam(), out);
    for (auto p : points) expected.push_back(pose.root.apply(p));
    EXPECT_LT(max_error(out, expected), 1e-6 * diagonal(s));
}

// An unused slot (weight 0) may name any bone, in range or not: files write them as they like, and only a
// weighing slot's index is checked. The points are those of the same influences with unused slots at 0.
TEST_P(ClassicSkinnerTest, AnUnusedSlotNamingNoBoneIsAcceptedAndChangesNothing) {
    Skeleton s = testing::straight_chain();
    auto points = points_around(s, 500, 4);
    std::vector<Influences> tidy = auto_influences(s, points), untidy = tidy;
    int unused = 0;
    for (Influences& inf : untidy)
        for (int i = 0; i < kMaxInfluences; ++i)
            if (inf.weight[i] == 0) {
                inf.bone[i] = 4000000000u + std::uint32_t(i);
                ++unused;
            }
    ASSERT_GT(unused, 100);
    ClassicSkinner<float> tidy_skinner(s, points, tidy, "test"), untidy_skinner(s, points, untidy, "test");
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.2);
    std::vector<Vec3<float>> want, got;
    tidy_skinner.deform(pose, GetParam(), want);
    untidy_skinner.deform(pose, GetParam(), got);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(got[i].x == want[i].x && got[i].y == want[i].y && got[i].z == want[i].z) << i;
}

TEST_P(ClassicSkinnerTest, PointsWeightedToOneBoneFollowItRigidly) {
    Skeleton s = testing::straight_chain();
    auto points = points_around(s, 500, 3);
    std::vector<Influences> influences(points.size(), Influences{{2, 0, 0, 0}, {1, 0, 0, 0}});
    ClassicSkinner<float> skinner(s, points, influences, "test");
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 1.0);
    pose.joints[2] = {axis_angle(normalized(Vec3<double>{0, 1, 1}), 0.7), 2.0};
    std::vector<Vec3<float>> out;
    skinner.deform(pose, GetParam(), out);
    Rigid<double> bone2 = posed_bones(s, pose)[2];
    std::vector<Vec3<double>> expected;
    for (auto p : points) expected.push_back(bone2.apply(p));
    EXPECT_LT(max_error(out, expected), 1e-6 * diagonal(s));
}

INSTANTIATE_TEST_SUITE_P(Methods, ClassicSkinnerTest, ::testing::Values(ClassicMethod::lbs, ClassicMethod::dqs),
                         [](const auto& info) { return info.param == ClassicMethod::lbs ? "lbs" : "dqs"; });

// Under a 180° twist of the middle bone, points weighted half to each side of a joint keep their
// distance to the axis with DQS and collapse onto it with LBS (the candy-wrapper).
TEST(ClassicSkinner, DqsKeepsRadiusUnderHalfTurnTwistWhereLbsCollapses) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> ring;
    for (int i = 0; i < 64; ++i) ring.push_back({4, std::cos(i * kPi / 32), std::sin(i * kPi / 32)});
    std::vector<Influences> halves(ring.size(), Influences{{0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}});
    ClassicSkinner<double> skinner(s, ring, halves, "test");
    Pose pose = Pose::rest(s);
    pose.joints[1].twist_radians = kPi;
    std::vector<Vec3<double>> lbs, dqs;
    skinner.deform(pose, ClassicMethod::lbs, lbs);
    skinner.deform(pose, ClassicMethod::dqs, dqs);
    for (std::size_t i = 0; i < ring.size(); ++i) {
        double lbs_radius = std::hypot(lbs[i].y, lbs[i].z), dqs_radius = std::hypot(dqs[i].y, dqs[i].z);
        EXPECT_NEAR(dqs_radius, 1.0, 1e-9) << i;
        EXPECT_LT(lbs_radius, 1e-9) << i;
    }
}

// The pivot of DQS's antipodality is the heaviest influence, of tied ones the lowest bone: the first in
// order was taken, and two orders of one point's influences gave points 0.73 apart under this pose.
TEST(ClassicSkinner, DqsDoesNotDependOnTheInfluencesOrderWhereWeightsTie) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> point{{4, 1, 0}};
    Pose pose = Pose::rest(s);
    for (JointRotation<double>& j : pose.joints) {
        j.swing = axis_angle(Vec3<double>{0, 0, 1}, 0.7);
        j.twist_radians = 1.5;
    }
    std::vector<Vec3<double>> first, second;
    ClassicSkinner<double>(s, point, {Influences{{0, 1, 2, 0}, {0.45f, 0.45f, 0.1f, 0}}}, "test").deform(pose, ClassicMethod::dqs, first);
    ClassicSkinner<double>(s, point, {Influences{{1, 0, 2, 0}, {0.45f, 0.45f, 0.1f, 0}}}, "test").deform(pose, ClassicMethod::dqs, second);
    EXPECT_LT(norm(first[0] - second[0]), 1e-12) << "(" << first[0].x << ", " << first[0].y << ", " << first[0].z << ") against (" << second[0].x
                                                  << ", " << second[0].y << ", " << second[0].z << ")";
}

// One half turn written as q and as −q, as a pose file may write it, gives DQS one result: against the
// unturned bone the alignment's dot product is a rounding (±6e-17), and the sign in the file decided it
// (points 2.2 apart on the demo chain for [0,1,0,0] against [0,-1,0,0]).
TEST(ClassicSkinner, DqsOfAHalfTurnDoesNotDependOnTheSignItIsWrittenWith) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> ring;
    for (int i = 0; i < 64; ++i) ring.push_back({4 + 0.05 * (i % 5), std::cos(i * kPi / 32), std::sin(i * kPi / 32)});
    std::vector<Influences> mixed(ring.size(), Influences{{0, 1, 0, 0}, {0.7f, 0.3f, 0, 0}});
    ClassicSkinner<double> skinner(s, ring, mixed, "test");
    for (const char* axis : {"[0, 1, 0, 0]", "[0, 0, 0, 1]"}) {  // a twist about the bone (x), a fold about z
        std::string negated = axis;
        negated.replace(negated.find('1'), 1, "-1");
        std::vector<Vec3<double>> turned[2];
        int i = 0;
        for (const std::string& rotation : {std::string(axis), negated}) {
            const json_io::json doc = json_io::json::parse("{\"bones\": [{\"bone\": 1, \"rotation\": " + rotation + "}]}");
            skinner.deform(parse_pose(doc, s, json_io::Where{"pose.json", ""}), ClassicMethod::dqs, turned[i++]);
        }
        double gap = 0;
        for (std::size_t p = 0; p < ring.size(); ++p) gap = std::max(gap, norm(turned[0][p] - turned[1][p]));
        EXPECT_EQ(gap, 0.0) << axis;
    }
}

// Weights are accepted within 1e-3 of a sum of 1 and scaled to 1: LBS applies its blend of matrices as it
// is, so a sum of 1.0009 moved the rest pose of a body 1,000 from the origin by 0.9 units (now by the floats'
// rounding of the scaled weights, 3e-8 of 1,000).
TEST(ClassicSkinner, WeightsAcceptedNearASumOfOneAreScaledToOne) {
    Skeleton s = testing::straight_chain();
    for (Sphere<double>& sphere : s.spheres) sphere.centre.x += 1000;
    std::vector<Vec3<double>> point{{1002, 1, 0}};
    for (float second : {0.4995f, 0.5009f}) {
        ClassicSkinner<double> skinner(s, point, {Influences{{0, 1, 0, 0}, {0.5f, second, 0, 0}}}, "test");
        EXPECT_NEAR(double(skinner.influences()[0].weight[0]) + skinner.influences()[0].weight[1], 1.0, 1e-7);
        for (ClassicMethod method : {ClassicMethod::lbs, ClassicMethod::dqs}) {
            std::vector<Vec3<double>> out;
            skinner.deform(Pose::rest(s), method, out);
            EXPECT_LT(norm(out[0] - point[0]), 1e-4) << "sum " << 0.5 + second;  // floats summing to 1 to 3e-8; 0.9 before
        }
    }
}

TEST(ClassicSkinner, RejectsInfluenceOfMissingBone) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{1, 0, 0}};
    std::vector<Influences> bad{Influences{{7, 0, 0, 0}, {1, 0, 0, 0}}};
    try {
        ClassicSkinner<float>(s, points, bad, "pts.ply");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("pts.ply: vertex 0: influence 0: bone index 7 out of range"), std::string::npos)
            << e.what();
    }
}

TEST(ClassicSkinner, RejectsNonFinitePoint) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{1, 0, 0}, {std::nan(""), 0, 0}};
    std::vector<Influences> inf(2, Influences{{0, 0, 0, 0}, {1, 0, 0, 0}});
    EXPECT_THROW(ClassicSkinner<float>(s, points, inf, "pts"), InputError);
}

TEST(ClassicSkinner, RejectsWeightsNotSummingToOne) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{1, 0, 0}};
    std::vector<Influences> inf{Influences{{0, 1, 0, 0}, {0.5f, 0.2f, 0, 0}}};
    try {
        ClassicSkinner<float>(s, points, inf, "pts");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("weights sum to 0.7"), std::string::npos) << e.what();
    }
}

TEST(ClassicSkinner, RejectsNegativeWeight) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{1, 0, 0}};
    std::vector<Influences> inf{Influences{{0, 1, 0, 0}, {1.5f, -0.5f, 0, 0}}};
    EXPECT_THROW(ClassicSkinner<float>(s, points, inf, "pts"), InputError);
}

TEST(ClassicSkinner, RejectsPoseOfAnotherSkeleton) {
    Skeleton s = testing::straight_chain();
    std::vector<Vec3<double>> points{{1, 0, 0}};
    ClassicSkinner<float> skinner(s, points, {Influences{{0, 0, 0, 0}, {1, 0, 0, 0}}}, "pts");
    std::vector<Vec3<float>> out;
    EXPECT_THROW(skinner.deform(Pose::rest(testing::bent_chain()), ClassicMethod::lbs, out), InputError);
}

}  // namespace
}  // namespace bs
