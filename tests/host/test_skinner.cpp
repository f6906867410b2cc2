// The CPU front (host/skinner.hpp) writes into outputs the caller owns, in GpuSkinner::deform's shape: xyz
// at any stride of at least 3 floats, the rest of each stride untouched, the same points as the packed
// vector; a null pointer or a stride below 3 is refused before anything is written, and a refused pose
// leaves a caller's vector as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "host/classic_skinner.hpp"
#include "host/metaball_skinner.hpp"
#include "host/sparse_lbs_skinner.hpp"
#include "host/errors.hpp"
#include "host/skinner.hpp"
#include "host/weights.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/points.hpp"

namespace bs {
namespace {

Pose bent(const Skeleton& s) {
    Pose pose = Pose::rest(s);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, 0.8);
    pose.joints[1].twist_radians = 0.6;
    pose.root.translation = {0.3, -0.2, 0.1};
    return pose;
}

TEST(Skinner, WritesAStridedOutputAsThePackedOneAndLeavesTheRestOfEachStride) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 3000, 17);
    const Pose pose = bent(s);
    constexpr float kUntouched = 1234.5f;
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        const Skinner skinner(method, s, points, {}, "test");
        ASSERT_EQ(skinner.size(), points.size());
        std::vector<Vec3<float>> packed;
        skinner.deform(pose, packed);
        for (std::size_t stride : {std::size_t(3), std::size_t(4), std::size_t(7)}) {
            std::vector<float> out(stride * points.size(), kUntouched);
            skinner.deform(pose, PointView<float>{out.data(), stride});
            for (std::size_t i = 0; i < points.size(); ++i) {
                const float* p = &out[i * stride];
                ASSERT_EQ(std::memcmp(p, &packed[i], 3 * sizeof(float)), 0) << method_name(method) << " stride " << stride << " point " << i;
                for (std::size_t extra = 3; extra < stride; ++extra) ASSERT_EQ(p[extra], kUntouched) << method_name(method) << " point " << i;
            }
        }
    }
}

TEST(Skinner, RefusesANullOutputOrAStrideBelowThree) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 200, 19);
    const Pose pose = bent(s);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        const Skinner skinner(method, s, points, {}, "test");
        std::vector<float> out(3 * points.size(), 7.0f);
        EXPECT_THROW(skinner.deform(pose, PointView<float>{nullptr, 3}), InputError) << method_name(method);
        EXPECT_THROW(skinner.deform(pose, PointView<float>{out.data(), 2}), InputError) << method_name(method);
        for (float v : out) ASSERT_EQ(v, 7.0f) << method_name(method) << ": written before the refusal";
    }
}

// A stride so large that count × stride wraps an address: every point was written over the first.
TEST(Skinner, RefusesAStrideWhoseSpanWrapsTheAddress) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 200, 19);
    std::vector<float> out(3 * points.size(), 7.0f);
    const Skinner skinner(Method::lbs, s, points, {}, "test");
    const std::string message = testing::message_of<InputError>([&] { skinner.deform(bent(s), PointView<float>{out.data(), std::size_t(1) << 62}); });
    EXPECT_NE(message.find(": an output stride of 4611686018427387904 elements for 200 points spans more than an address can"),
              std::string::npos) << message;
    for (float v : out) ASSERT_EQ(v, 7.0f);
}

// A moved-from Skinner holds none: it said method() baseline and crashed on size() and deform().
TEST(Skinner, AMovedFromSkinnerHoldsNoPointsAndRefusesToDeform) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 200, 19);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        Skinner moved_from(method, s, points, {}, "test");
        const Skinner taker(std::move(moved_from));
        EXPECT_EQ(taker.size(), points.size());
        EXPECT_EQ(moved_from.size(), 0u) << method_name(method);
        std::vector<Vec3<float>> out;
        EXPECT_EQ(testing::message_of<InputError>([&] { moved_from.deform(bent(s), out); }), kMovedFromSkinner) << method_name(method);
        moved_from = Skinner(method, s, points, {}, "test");  // assigned again, it deforms
        moved_from.deform(bent(s), out);
        EXPECT_EQ(out.size(), points.size());
    }
}

// A skinner's identity is its own: carried by a move, 0 once moved from, another for a skinner built in
// its place (a GpuSkinner compared addresses, which the allocator hands back: a body re-encoded with as
// many points passed for the one uploaded).
TEST(Skinner, AnIdentityNoOtherSkinnerHasHad) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 100, 29);
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        Skinner first(method, s, points, {}, "test");
        const std::uint64_t identity = first.identity();
        EXPECT_NE(identity, 0u);
        EXPECT_NE(Skinner(method, s, points, {}, "test").identity(), identity);
        Skinner taker(std::move(first));
        EXPECT_EQ(taker.identity(), identity);
        EXPECT_EQ(first.identity(), 0u);
        Skinner& same = taker;
        taker = std::move(same);
        EXPECT_EQ(taker.identity(), identity) << "a move to itself";
        { const Skinner dropped(std::move(taker)); }  // its block free for the next
        first = Skinner(method, s, points, {}, "test");
        EXPECT_NE(first.identity(), identity) << method_name(method);
        EXPECT_NE(first.identity(), 0u);
    }
}

// A method outside the enumeration is refused (it was deformed as DQS).
TEST(Skinner, AMethodOutsideTheEnumerationIsRefused) {
    const Skeleton s = testing::bent_chain();
    EXPECT_THROW(Skinner(static_cast<Method>(7), s, testing::points_around(s, 10, 3), {}, "test"), InputError);
}

// More threads than a pass takes (the API's Exec is not bounded by the CLI's --threads): OpenMP tried to
// allocate a team of 2^31 and ended the process.
TEST(Skinner, ATeamLargerThanThePassesTakeIsCutToTheirBound) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 300, 23);
    const Skinner skinner(Method::baseline, s, points, {}, "test");
    std::vector<Vec3<float>> one, many;
    skinner.deform(bent(s), one, cpu::Exec{1});
    skinner.deform(bent(s), many, cpu::Exec{std::numeric_limits<int>::max()});
    ASSERT_EQ(one.size(), many.size());
    EXPECT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(Vec3<float>)), 0);
}

// A Skeleton is a struct with public fields: one filled in by hand (its derived fields empty) or edited
// after make_skeleton was taken unchecked, and every method crashed or wrote past a block in deform.
TEST(Skinner, EveryMethodRefusesASkeletonNotAsMakeSkeletonMadeIt) {
    const Skeleton made = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(made, 200, 19);
    Skeleton by_hand;
    by_hand.spheres = made.spheres;
    by_hand.bones = made.bones;
    Skeleton bad_bone = made;
    bad_bone.bones[1] = {1, 9};
    Skeleton bad_radius = made;
    bad_radius.spheres[0].radius = -1;
    // Each derived field wrong on its own: a bone taken for a root (it would take the pose as one, and no
    // longer follow its parent), another root, another order.
    Skeleton wrong_parent = made, wrong_root = made, wrong_order = made;
    wrong_parent.parent_bone[1] = -1;
    wrong_root.root_sphere = 1;
    std::reverse(wrong_order.bone_order.begin(), wrong_order.bone_order.end());
    const std::string derived = "the skeleton of test: the skeleton's root_sphere, parent_bone and bone_order are not those of its spheres and bones";
    const std::pair<const Skeleton*, std::string> cases[] = {
        {&by_hand, derived}, {&wrong_parent, derived}, {&wrong_root, derived}, {&wrong_order, derived},
        {&bad_bone, "the skeleton of test: bones[1]"},
        {&bad_radius, "the skeleton of test: spheres[0]"}};
    for (const auto& [skeleton, expected] : cases)
        for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
            const std::string message = testing::message_of<InputError>([&] { Skinner(method, *skeleton, points, {}, "test"); });
            EXPECT_EQ(message.rfind(expected, 0), 0u) << method_name(method) << ": " << message;
        }
    const std::string sparse = testing::message_of<InputError>([&] { Skinner(by_hand, points, to_sparse(auto_influences(made, points)), "test"); });
    EXPECT_EQ(sparse.rfind(std::get<1>(cases[0]), 0), 0u) << sparse;
    // Each method's own skinner checks it too (an embedder may build them without the front).
    const std::string expected = std::get<1>(cases[0]);
    const std::vector<Influences> weights = auto_influences(made, points);
    const std::string own[] = {
        testing::message_of<InputError>([&] { BaselineSkinner<float>(by_hand, points, "test"); }),
        testing::message_of<InputError>([&] { ClassicSkinner<float>(by_hand, points, weights, "test"); }),
        testing::message_of<InputError>([&] { SparseLbsSkinner<float>(by_hand, points, to_sparse(weights), "test"); }),
        testing::message_of<InputError>([&] { MetaballSkinner<float>(by_hand, points, nearest_sphere_binding(made, points), "test"); })};
    for (const std::string& message : own) EXPECT_EQ(message.rfind(expected, 0), 0u) << message;
}

// A vector shorter or longer than the points, given a pose of another bone count: as it was, size and
// contents (it used to be resized first, which cut a longer one's tail).
TEST(Skinner, ARefusedPoseLeavesTheCallersVectorAsItWas) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 200, 20);
    Pose wrong = bent(s);
    wrong.joints.pop_back();
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        const Skinner skinner(method, s, points, {}, "test");
        for (std::size_t size : {std::size_t(7), points.size() + 50}) {
            std::vector<Vec3<float>> out(size);
            for (std::size_t i = 0; i < size; ++i) out[i] = {float(i), -1.0f, 2.0f};
            const std::vector<Vec3<float>> before = out;
            EXPECT_THROW(skinner.deform(wrong, out), InputError) << method_name(method);
            ASSERT_EQ(out.size(), size) << method_name(method);
            EXPECT_EQ(std::memcmp(out.data(), before.data(), size * sizeof(Vec3<float>)), 0) << method_name(method);
            skinner.deform(bent(s), out);
            EXPECT_EQ(out.size(), points.size()) << method_name(method) << ": a pose it takes sizes the vector";
        }
    }
}

// A pose built in code whose quaternions are no rotations (scaled, even by 2e-6, zero, not finite), whose
// twist is not finite, whose root translation is beyond the pose files' bound, or that has fewer joints
// than the skeleton has bones, is refused by every method with a message that says which; a quaternion
// normalised in float (norm 1 within ~1e-7) is taken.
TEST(Skinner, EveryMethodRefusesAPoseWhoseQuaternionsAreNoRotations) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 200, 21);
    std::vector<Skinner> skinners;
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) skinners.emplace_back(method, s, points, std::vector<Influences>{}, "test");
    skinners.emplace_back(s, points, to_sparse(auto_influences(s, points)), "test");
    const struct {
        void (*change)(Pose&);
        const char* message;
    } wrongs[] = {
        {[](Pose& p) { p.joints[1].swing = 2.0 * p.joints[1].swing; }, "pose: bone 1: the swing has norm 2; a rotation quaternion has norm 1"},
        {[](Pose& p) { p.root.rotation = {0, 0, 0, 0}; }, "pose: the root rotation has norm 0"},
        {[](Pose& p) { p.joints[0].swing.x = std::nan(""); }, "pose: bone 0: the swing is not finite"},
        {[](Pose& p) { p.joints[0].twist_radians = INFINITY; }, "pose: bone 0: the twist is not finite"},
        {[](Pose& p) { p.root.translation.y = std::nan(""); }, "pose: the root translation must be finite and within ±1e15, got (0.3, nan, 0.1)"},
        {[](Pose& p) { p.root.translation.x = 1e39; }, "pose: the root translation must be finite and within ±1e15, got (1e+39, -0.2, 0.1)"},
        {[](Pose& p) { p.joints[1].swing = 1.000002 * p.joints[1].swing; }, "the swing has norm 1.000002"},
        {[](Pose& p) { p.joints.pop_back(); }, "pose: Pose::joints has size 1, expected 2 (one per bone of the skeleton"},
    };
    for (const Skinner& skinner : skinners) {
        const std::string method = skinner.sparse() ? "lbs (any influences)" : method_name(skinner.method());
        for (const auto& wrong : wrongs) {
            Pose pose = bent(s);
            wrong.change(pose);
            std::vector<Vec3<float>> out;
            try {
                skinner.deform(pose, out);
                ADD_FAILURE() << method << ": took a pose that should give \"" << wrong.message << "\"";
            } catch (const InputError& e) {
                EXPECT_NE(std::string(e.what()).find(wrong.message), std::string::npos) << method << ": " << e.what();
            }
        }
        Pose float_normalised = bent(s);
        const Quat<double> q = float_normalised.joints[1].swing;
        float_normalised.joints[1].swing = {double(float(q.w)), double(float(q.x)), double(float(q.y)), double(float(q.z))};
        std::vector<Vec3<float>> out;
        EXPECT_NO_THROW(skinner.deform(float_normalised, out)) << method;
    }
}

// A rest point that is not finite is named as a position by every method, LBS and DQS with automatic
// weights included (they were refused for the weights made from it: "influence 0: weight must be finite").
TEST(Skinner, EveryMethodNamesANonFiniteRestPointAsAPosition) {
    const Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 50, 23);
    points[7].y = std::nan("");
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        try {
            Skinner skinner(method, s, points, {}, "pts");
            ADD_FAILURE() << method_name(method) << ": took a NaN rest point";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("pts: vertex 7: a position beyond ±1e15 or not finite"), std::string::npos) << method_name(method) << ": " << e.what();
        }
    }
}

// The name an embedder gives the points (`source`) is shown escaped where it holds control characters:
// a newline or an escape sequence in it had reached the message as they were (a forged second line, the
// terminal's colours changed). Shown once, not again by the checks it is handed on to (the skeleton's).
TEST(Skinner, EveryMethodShowsAnEscapedNameWithControlCharacters) {
    const Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 50, 25);
    points[7].y = std::nan("");
    Skeleton bad_radius = s;
    bad_radius.spheres[0].radius = -1;
    const std::string name = "my\npoints\x1b[31m", shown = "\"my\\x0Apoints\\x1B[31m\"";
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        const std::string point = testing::message_of<InputError>([&] { Skinner(method, s, points, {}, name); });
        EXPECT_NE(point.find(shown + ": vertex 7: a position"), std::string::npos) << method_name(method) << ": " << point;
        const std::string skeleton = testing::message_of<InputError>([&] { Skinner(method, bad_radius, points, {}, name); });
        EXPECT_EQ(skeleton.rfind("the skeleton of " + shown + ": spheres[0]", 0), 0u) << method_name(method) << ": " << skeleton;
        for (const std::string& message : {point, skeleton})
            EXPECT_EQ(message.find_first_of("\n\x1b"), std::string::npos) << method_name(method) << ": " << message;
    }
    // The sparse front, and weights checked on their own.
    const std::string sparse = testing::message_of<InputError>([&] { Skinner(s, points, to_sparse(auto_influences(s, testing::points_around(s, 50, 25))), name); });
    EXPECT_NE(sparse.find(shown + ": vertex 7"), std::string::npos) << sparse;
    const std::vector<Influences> short_by_one(points.size() - 1, Influences{{0, 0, 0, 0}, {1, 0, 0, 0}});
    const std::string weights = testing::message_of<InputError>([&] { validate_influences(short_by_one, points.size(), s.bone_count(), name); });
    EXPECT_EQ(weights, shown + ": 50 points but 49 influence sets");
    // A plain name, quotes and all, is kept as it was.
    const std::string plain = testing::message_of<InputError>([&] { Skinner(Method::lbs, s, points, {}, "the \"left\" arm"); });
    EXPECT_NE(plain.find("the \"left\" arm: vertex 7"), std::string::npos) << plain;
}

// Weights given with the points are checked by every method, whether it uses them or not: a bone the
// skeleton lacks, or one set too few, is refused alike (baseline and metaball took them silently).
TEST(Skinner, EveryMethodChecksTheInfluencesItIsGiven) {
    const Skeleton s = testing::bent_chain();
    const std::vector<Vec3<double>> points = testing::points_around(s, 50, 24);
    std::vector<Influences> foreign(points.size(), Influences{{0, 0, 0, 0}, {1, 0, 0, 0}});
    foreign[9].bone[0] = 9;
    const std::vector<Influences> short_by_one(points.size() - 1, Influences{{0, 0, 0, 0}, {1, 0, 0, 0}});
    for (Method method : {Method::lbs, Method::dqs, Method::baseline, Method::metaball}) {
        for (const auto& [influences, fragment] : {std::pair{foreign, "pts: vertex 9: influence 0: bone index 9 out of range"},
                                                   std::pair{short_by_one, "pts: 50 points but 49 influence sets"}}) {
            try {
                Skinner skinner(method, s, points, influences, "pts");
                ADD_FAILURE() << method_name(method) << ": took " << fragment;
            } catch (const InputError& e) {
                EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << method_name(method) << ": " << e.what();
            }
        }
    }
}

}  // namespace
}  // namespace bs
