#include "host/baseline_skinner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/points.hpp"
#include "tests/support/pose_sizes.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;

template <class T>
double max_error(const std::vector<Vec3<T>>& got, const std::vector<Vec3<double>>& expected, std::size_t* worst = nullptr) {
    double e = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        double d = norm(Vec3<double>(got[i]) - expected[i]);
        if (!(d <= e)) {
            e = d;
            if (worst) *worst = i;
        }
    }
    return e;
}

// The rest pose gives `points` back within DESIGN's budget (1e-5 of the diagonal), through the tables and
// through the direct construction.
void expect_rest_reproduced_on_both_paths(BaselineSkinner<float> skinner, const std::vector<Vec3<double>>& points) {
    const Skeleton& s = skinner.skeleton();
    for (bool exact : {false, true}) {
        BaselineDeformOptions options;
        options.exact = exact;
        skinner.set_deform_options(options);
        std::vector<Vec3<float>> out;
        skinner.deform(Pose::rest(s), out);
        std::size_t worst = 0;
        EXPECT_LT(max_error(out, points, &worst), 1e-5 * testing::diagonal(s)) << "exact " << exact << ", point " << worst;
    }
}

// Two rest shapes whose joints' constructions clamp at rest, as the rig of Debian's BVH/Boxing_Toes.bvh
// has (2026-12-05: 13% of its points moved by up to 1.2% of its diagonal at rest): a hip sphere nearly
// inside the pelvis's, its thigh at 90° (the concave side's anchor clamped off the generator: a crease
// piece at rest), and a chain folded 150° at rest, whose concave side's segments are shorter than
// kCollapsedBundle of the radius at rest (the fan read as if collapsed).
Skeleton hip_chain() {
    return make_skeleton({{{0, 0, 0}, 14.73}, {{-12, 0, 0}, 6.78}, {{-12, -42.2, 0}, 6.93}}, {{0, 1}, {1, 2}}, {}, "hip chain");
}
Skeleton folded_chain() {
    const double open = 30 * kPi / 180;
    return make_skeleton({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{3 - 3 * std::cos(open), 3 * std::sin(open), 0}, 1}}, {{0, 1}, {1, 2}}, {},
                         "folded chain");
}

// Rest pose gives back every point around every bone, cap and joint, to `relative` × the diagonal.
template <class T>
void expect_rest_reproduced(const std::vector<Skeleton>& chains, double relative, unsigned seed) {
    for (const Skeleton& s : chains) {
        auto points = testing::points_around(s, 20000, seed);
        BaselineSkinner<T> skinner(s, points, "test");
        std::vector<Vec3<T>> out;
        skinner.deform(Pose::rest(s), out);
        std::size_t worst = 0;
        double error = max_error(out, points, &worst);
        EXPECT_LT(error, relative * testing::diagonal(s)) << "point " << worst << " flags " << skinner.codes()[worst].flags;
    }
}

TEST(BaselineSkinner, RestPoseReproducesEveryPointInDouble) {
    expect_rest_reproduced<double>({testing::straight_chain(), testing::bent_chain()}, 1e-6, 21);
}
// The codes are float: on the folded chain a point 2 radii off its surface comes back within 1.6e-6 of the
// diagonal in double, so the rest shapes that clamp are held to the float budget (DESIGN: 1e-5).
// A chain bent 141° at rest whose child cone narrows steeply (radii 1.17 → 0.49 over 1.7): the convex arc of
// the joint wraps past the sphere's outer pole onto the bend's inner side of the axis. Until 2026-12-05 the
// outer points there took the plane's inner generator, whose end is a crease, and were pinned off its
// segment: 65 of 3,000 surface points came back wrong at rest, one by 247 (37 body diagonals).
Skeleton sharply_bent_taper() {
    const double bend = 141 * kPi / 180;
    return make_skeleton({{{0, 0, 0}, 1.47}, {{2.56, 0, 0}, 1.17}, {{2.56 + 1.705 * std::cos(bend), 1.705 * std::sin(bend), 0}, 0.49}},
                         {{0, 1}, {1, 2}}, {}, "sharply bent taper");
}

// A short segment beside a crease that has a length at rest (its anchor clamped off the generator): the fan
// borrowed part of the crease at rest too (fan_reading), so the deformation read the detail direction at
// another place than the encoder. Points within half a unit of one found by a random-body probe (a kink of
// about 82° after a bone shorter than half its radius, radii 6.76 then 20) came back up to 2.16 off at
// rest (2,822 of 4,000 such points by more than 1e-4); now it borrows only what the crease grows beyond its
// rest length.
TEST(BaselineSkinner, RestPoseReproducesPointsOnAShortSegmentBesideARestCrease) {
    const Skeleton s = make_skeleton({{{16.9538, 0, 0}, 6.75828}, {{16.1297, -0.739744, -2.40327}, 6.75828},
                                      {{1.03379, 3.01079, -0.897186}, 6.75828}, {{0.765558, 9.56582, 22.7396}, 20}},
                                     {{0, 1}, {1, 2}, {2, 3}}, {}, "kinked after a short bone");
    std::vector<Vec3<double>> points;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> offset(-0.5, 0.5);
    for (int i = 0; i < 1000; ++i) points.push_back(Vec3<double>{13.1162, 4.15295, 1.15496} + Vec3<double>{offset(rng), offset(rng), offset(rng)});
    expect_rest_reproduced_on_both_paths(BaselineSkinner<float>(s, points, "test"), points);
}

// Clamped codes (the construction pinned at a segment's end, or a fan projection past it) were the one kind
// the rest pose did not give back: on this chain found by a random-body probe (its second bone tapers from
// 1.10 to 0.27 over 0.86) every one of its 624 clamped codes among 200,000 points came back more than 1e-6
// off, up to 1.57 (0.3 of the diagonal). They now blend toward the rigid field by their miss at rest
// (host/baseline_rig.cpp, blend_in_rest_miss).
TEST(BaselineSkinner, RestPoseReproducesClampedCodes) {
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{0.5739069603949313, -2.2598526820408096, 1.5389627579191418}, 1.099057439849947},
                                      {{1.2747635423488777, -2.351878114067437, 2.0256128143343215}, 0.273821721127026}},
                                     {{0, 1}, {1, 2}}, {}, "tapered chain");
    const std::vector<Vec3<double>> points = demo_points(s, 20000, 2024);
    const BaselineSkinner<float> skinner(s, points, "test");
    const auto clamped = std::count_if(skinner.codes().begin(), skinner.codes().end(),
                                       [](const BaselineCode& c) { return (c.flags & kCodeClamped) != 0; });
    EXPECT_GT(clamped, 20) << "the body no longer clamps: the test tests nothing";
    expect_rest_reproduced_on_both_paths(skinner, points);
}

TEST(BaselineSkinner, RestPoseReproducesEveryPointInFloat) {
    expect_rest_reproduced<float>({testing::straight_chain(), testing::bent_chain(), hip_chain(), folded_chain(), sharply_bent_taper()}, 1e-5, 22);
}

// Baseline reads a joint's swing (the bend) and twist (the sections' turn) apart: a pose built in code
// that turns a bone about its own axis inside its swing deforms as the same rotation split does. Before
// 2026-12-05 it did not: the turn bent the joint instead, and a point on the unposed parent moved (here
// the two forms were 1.88 apart; 1.2 on the README's 9-long chain).
TEST(BaselineSkinner, ATwistInsideTheSwingDeformsAsTheSplitPose) {
    const Skeleton s = testing::bent_chain();
    const auto points = testing::points_around(s, 4000, 5);
    BaselineSkinner<double> skinner(s, points, "test");
    Pose joined = Pose::rest(s), split = Pose::rest(s);
    const Vec3<double> axis = s.rest_axis(1);
    const Quat<double> bend = axis_angle(normalized(cross(axis, Vec3<double>{0, 0, 1})), 60 * kPi / 180);
    joined.joints[1].swing = normalized(bend * axis_angle(axis, 70 * kPi / 180));
    split.joints[1] = {bend, 70 * kPi / 180};
    std::vector<Vec3<double>> from_joined, from_split;
    skinner.deform(joined, from_joined);
    skinner.deform(split, from_split);
    EXPECT_LT(max_error(from_joined, from_split), 1e-9 * testing::diagonal(s));
}

// A bone far shorter than its radius (here 1e-4 radii, at the end of a straight chain of equal radii):
// twisting it only turns points about the chain's axis, which is a line of symmetry of the body, so every
// point near the surface keeps its distance from it (points over half a radius out ride the rigid field
// in part, which weighs the untwisted parent as much as the tiny bone: docs/ALGORITHM.md, the far band).
// Until 2026-12-05 its sections (1e-4 long) counted as cropped to nothing (shorter than
// empty_section_band local radii): its surface points rode that field, and a twist of 180° or 360° put
// them on the axis (a whole radius off).
TEST(BaselineSkinner, TwistingABoneShorterThanItsRadiusTurnsItsPointsAboutTheAxis) {
    const double end = 3.0001;
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{end, 0, 0}, 1}}, {{0, 1}, {1, 2}}, {}, "tiny end");
    std::vector<Vec3<double>> points;
    for (const Vec3<double>& p : testing::points_around(s, 4000, 6)) {
        const double off_surface = norm(p - Vec3<double>{std::clamp(p.x, 0.0, end), 0, 0}) - 1;  // the capsule's
        if (std::fabs(off_surface) < 0.3) points.push_back(p);
    }
    ASSERT_GT(points.size(), 1000u);
    // Few random points fall on the tiny bone's own band (1e-4 wide): rings there.
    for (int k = 0; k < 60; ++k)
        for (double x : {3.00002, 3.00005, 3.00008})
            for (double radial : {0.8, 1.0, 1.2})
                points.push_back({x, radial * std::cos(k * kPi / 30), radial * std::sin(k * kPi / 30)});
    BaselineSkinner<double> skinner(s, points, "test");
    for (double degrees : {90.0, 180.0, 360.0, 540.0}) {
        Pose pose = Pose::rest(s);
        pose.joints[1].twist_radians = degrees * kPi / 180;
        std::vector<Vec3<double>> out;
        skinner.deform(pose, out);
        double worst = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const double rest_radial = std::hypot(points[i].y, points[i].z), posed_radial = std::hypot(out[i].y, out[i].z);
            worst = std::max({worst, std::fabs(posed_radial - rest_radial), std::fabs(out[i].x - points[i].x)});
        }
        EXPECT_LT(worst, 1e-6) << degrees << "°";  // the codes are float
    }
}

// A disc-like root bone (radii 1 and 0.5, centres just over 0.5 apart: the small sphere all but inside the
// big one) before a cylinder of radius 0.5: the cylinder's crease lies on the disc's tiny generators, its
// construction clamped. Twisting the disc turns the cylinder with it about the body's axis of symmetry.
// Until 2026-12-05 points on the cylinder's surface, three radii from the joint, were handed to the disc's
// root cap (h = 1.1), which does not twist: 96% of the radius lost under a twist of 540°.
TEST(BaselineSkinner, ACylinderAfterANearlyDegenerateConeTwistsWithIt) {
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{0.5 * (1 + 1e-6), 0, 0}, 0.5}, {{3, 0, 0}, 0.5}}, {{0, 1}, {1, 2}}, {}, "disc");
    std::vector<Vec3<double>> points;  // rings over the cylinder, on its surface and 1% out
    for (int k = 0; k < 48; ++k)
        for (double x : {1.5, 2.0569, 2.5})
            for (double radial : {0.5, 0.5041, 0.505})
                points.push_back({x, radial * std::cos(k * kPi / 24), radial * std::sin(k * kPi / 24)});
    BaselineSkinner<double> skinner(s, points, "test");
    Pose pose = Pose::rest(s);
    pose.joints[0].twist_radians = 3 * kPi;
    std::vector<Vec3<double>> out;
    skinner.deform(pose, out);
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_NEAR(std::hypot(out[i].y, out[i].z), std::hypot(points[i].y, points[i].z), 1e-6) << i;
        EXPECT_NEAR(out[i].y, -points[i].y, 1e-6) << i;  // half a turn, modulo whole ones
    }
}

// A bone whose spheres all but swallow one another (a margin under kMinConeMargin) is refused when the
// skinner is built: there its rest pose came back 3% of the radius off (margin 1e-15). Other methods take it.
TEST(BaselineSkinner, ABoneWhoseSpheresAllButSwallowOneAnotherIsRefusedWhenBuilt) {
    auto disc = [](double margin) {
        return make_skeleton({{{0, 0, 0}, 1}, {{0.5 * (1 + margin), 0, 0}, 0.5}, {{3, 0, 0}, 0.5}}, {{0, 1}, {1, 2}}, {}, "disc");
    };
    try {
        BaselineSkinner<float> skinner(disc(1e-12), {{2, 0.5, 0}}, "test");
        ADD_FAILURE() << "built a skinner on a cone of margin 1e-12";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("bone 0 (spheres 0 and 1) with one sphere all but swallowing the other"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(BaselineSkinner<float>(disc(1e-6), {{2, 0.5, 0}}, "test"));
}

// A skeleton whose rest shape folds a chain joint beyond what the method takes (171° between the bone
// axes) is refused when the skinner is built, saying so, not later by every pose, its rest pose included,
// as "this pose".
TEST(BaselineSkinner, ARestShapeFoldedBeyondTheLimitIsRefusedWhenBuilt) {
    const double open = 9 * kPi / 180;
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{3 - 3 * std::cos(open), 3 * std::sin(open), 0}, 1}}, {{0, 1}, {1, 2}}, {},
                                     "folded");
    try {
        BaselineSkinner<float> skinner(s, testing::points_around(s, 100, 5), "test");
        ADD_FAILURE() << "built a skinner on a rest shape folded 171°";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("the skeleton's rest shape folds a joint to 171 degrees"), std::string::npos) << e.what();
    }
}

// A sphere far smaller than the body (the demo chain's first, 1e-12 against a diagonal of 11.8) is refused
// when the skinner is built: the rest pose came back 2.5e-5 of the diagonal off. At 1e-8 it is taken.
TEST(BaselineSkinner, ASphereTooSmallForTheBodyIsRefusedWhenBuilt) {
    const Skeleton chain = demo_chain();
    const auto with_first_radius = [&](double radius) {
        std::vector<Sphere<double>> spheres = chain.spheres;
        spheres[0].radius = radius;
        return make_skeleton(spheres, chain.bones, {}, "tiny first sphere");
    };
    const std::vector<Vec3<double>> points = demo_points(chain, 500, 7);
    try {
        BaselineSkinner<float> skinner(with_first_radius(1e-12), points, "test");
        ADD_FAILURE() << "built a skinner on a sphere of radius 1e-12";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("the skeleton's sphere 0 has radius 1e-12, below 1e-10 of the skeleton's size"), std::string::npos)
            << e.what();
    }
    const Skeleton small = with_first_radius(1e-8);
    BaselineSkinner<float> skinner(small, points, "test");
    std::vector<Vec3<float>> out;
    skinner.deform(Pose::rest(small), out);
    EXPECT_LT(max_error(out, points), 1e-5 * testing::diagonal(small));
}

// The joint's name in that message shows control characters as \xHH (a NUL cut the message short, and an
// escape sequence in a name reached the terminal), and the message names the methods, not an option.
TEST(BaselineSkinner, AJointsNameInAMessageShowsNoControlCharacters) {
    const double open = 9 * kPi / 180;
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{3 - 3 * std::cos(open), 3 * std::sin(open), 0}, 1}}, {{0, 1}, {1, 2}},
                                     {"a", std::string("e\0l\x1b[31m", 8), "c"}, "folded");
    try {
        BaselineSkinner<float> skinner(s, testing::points_around(s, 100, 5), "test");
        ADD_FAILURE() << "built a skinner on a rest shape folded 171°";
    } catch (const UnsupportedError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("at joint \"e\\x00l\\x1B[31m\" (between bones 0 and 1); the baseline method accepts up to 170 (the DQS and LBS methods take it)"),
                  std::string::npos)
            << message;
    }
}

// The public pose helpers refuse a pose of another size, as the skinners and build_frame_tables do: one
// bone short, they had read past its joints (an empty pose crashed).
TEST(BaselineSkinner, ThePoseTablesOfAPoseOfAnotherSizeAreRefused) {
    const Skeleton s = testing::straight_chain();
    const std::vector<BaselineBone<double>> bones = make_baseline_bones(s);
    testing::expect_poses_of_another_size_refused(s, [&](const Pose& pose) { baseline_pose_table(s, pose); });
    testing::expect_poses_of_another_size_refused(s, [&](const Pose& pose) { baseline_pose_table(s, bones, pose); });
    std::vector<BaselineBonePose<double>> poses = baseline_pose_table(s, Pose::rest(s));
    poses.pop_back();
    EXPECT_NE(testing::message_of<InputError>([&] { local_chains(bones, poses); }).find("baseline tables: 2 bone poses for 3 bones"),
              std::string::npos);
    EXPECT_NE(testing::message_of<InputError>([&] { local_chains(bones, {}); }).find("baseline tables: 0 bone poses for 3 bones"),
              std::string::npos);
}

}  // namespace
}  // namespace bs
