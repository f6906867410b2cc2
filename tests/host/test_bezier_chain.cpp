// Bézier propagation along a chain (seed 001 §1.2, DESIGN §3): the paper's update is P1' = P1 + vec/2,
// so along a chain the motion halves at each joint; the length-keeping variant keeps lengths to 1e-6;
// the chain a drag walks; and one test per invalid input.
#include "host/bezier_chain.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "host/errors.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

void expect_near(Vec3<double> a, Vec3<double> b, double tol) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

// A wiggly chain of n joints with bones 0.5 .. 2 long.
std::vector<Vec3<double>> random_chain(testing::Random& rng, int n) {
    std::vector<Vec3<double>> chain{rng.in_box(2)};
    for (int i = 1; i < n; ++i) chain.push_back(chain.back() + rng.uniform(0.5, 2) * rng.unit_vector());
    return chain;
}

std::vector<double> lengths(const std::vector<Vec3<double>>& chain) {
    std::vector<double> out;
    for (std::size_t i = 1; i < chain.size(); ++i) out.push_back(norm(chain[i] - chain[i - 1]));
    return out;
}

double total_length(const std::vector<Vec3<double>>& chain) {
    double total = 0;
    for (double l : lengths(chain)) total += l;
    return total;
}

// The paper's unit as §1.2.2 writes it: t_Q = |P1 − P0| / (|P1 − P0| + |P1 − P2|), Q1' = B(t_Q) + t_Q · vec,
// and P1' solved from Q1' = (1 − t)² P0 + 2t(1 − t) P1' + t² P2'. The reference propagate_unit's closed form
// is checked against.
Vec3<double> unit_as_the_paper_writes_it(Vec3<double> p0, Vec3<double> p1, Vec3<double> p2, Vec3<double> p2_moved) {
    const double t = norm(p1 - p0) / (norm(p1 - p0) + norm(p1 - p2)), u = 1 - t;
    const Vec3<double> vec = p2_moved - p2;
    const Vec3<double> q1_moved = (u * u) * p0 + (2 * t * u) * p1 + (t * t) * p2 + t * vec;
    return (q1_moved - (u * u) * p0 - (t * t) * p2_moved) / (2 * t * u);
}

TEST(BezierChain, PaperUpdateMovesTheInnerJointByHalfTheDrag) {
    testing::Random rng(1);
    for (int i = 0; i < 1000; ++i) {
        std::vector<Vec3<double>> c = random_chain(rng, 3);
        Vec3<double> vec = rng.in_box(3);
        Vec3<double> moved = propagate_unit(c[1], c[2], c[2] + vec);
        expect_near(moved, unit_as_the_paper_writes_it(c[0], c[1], c[2], c[2] + vec), 1e-12);
    }
}

// Found by a probe: with the paper's division by 2t(1 − t), a unit whose second bone was 2e-15 long put
// the middle joint at (4, 2, 0) instead of (10, 2.5, 0); 1e-12 long and 1000 from the origin, 0.42 off.
TEST(BezierChain, ATinyBoneInAUnitDoesNotMagnifyRounding) {
    const std::pair<Vec3<double>, double> units[] = {
        {{0, 0, 0}, 2e-15}, {{0, 0, 0}, 1e-13}, {{0, 0, 0}, 1e-12}, {{1000, -1000, 1000}, 1e-12}};
    for (const auto& [offset, tiny] : units) {
        const std::vector<Vec3<double>> c{offset, offset + Vec3<double>{10, 0, 0}, offset + Vec3<double>{10 + tiny, 0, 0}};
        const std::vector<Vec3<double>> moved = propagate_chain(c, offset + Vec3<double>{10, 5, 0}, ChainMode::paper);
        expect_near(moved[1], offset + Vec3<double>{10, 2.5, 0}, 1e-12 * (1 + norm(offset)));
    }
}

TEST(BezierChain, AlongAChainTheMotionHalvesAtEachJoint) {
    testing::Random rng(2);
    for (int n : {2, 3, 4, 7}) {
        std::vector<Vec3<double>> c = random_chain(rng, n);
        Vec3<double> vec = rng.in_box(2);
        std::vector<Vec3<double>> moved = propagate_chain(c, c.back() + vec, ChainMode::paper);
        ASSERT_EQ(moved.size(), c.size());
        EXPECT_EQ(norm(moved[0] - c[0]), 0.0);
        for (int k = 0; k < n - 1; ++k) expect_near(moved[n - 1 - k] - c[n - 1 - k], std::ldexp(1.0, -k) * vec, 1e-11);
    }
}

TEST(BezierChain, PaperUpdateDoesNotKeepLengths) {
    std::vector<Vec3<double>> c{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    std::vector<Vec3<double>> moved = propagate_chain(c, {2, 1, 0}, ChainMode::paper);
    EXPECT_GT(std::fabs(norm(moved[2] - moved[1]) - 1.0), 0.1);
}

TEST(BezierChain, KeepingLengthsKeepsEveryLengthAndTheHeldEnd) {
    testing::Random rng(3);
    for (int i = 0; i < 500; ++i) {
        int n = 2 + int(rng.uniform(0, 6 - 1e-9));
        std::vector<Vec3<double>> c = random_chain(rng, n);
        Vec3<double> target = c.back() + rng.in_box(0.8 * total_length(c));
        std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
        std::vector<double> before = lengths(c), after = lengths(moved);
        for (std::size_t k = 0; k < before.size(); ++k) EXPECT_NEAR(after[k], before[k], 1e-6) << i << " bone " << k;
        EXPECT_EQ(norm(moved[0] - c[0]), 0.0);
    }
}

TEST(BezierChain, KeepingLengthsReachesAReachableTarget) {
    testing::Random rng(4);
    for (int i = 0; i < 200; ++i) {
        std::vector<Vec3<double>> c = random_chain(rng, 5);
        // Within reach: no farther than 0.6 of the chain's length from P0, no nearer than any bone could fold.
        double total = total_length(c);
        Vec3<double> target = c[0] + rng.uniform(0.3, 0.6) * total * rng.unit_vector();
        std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
        EXPECT_LT(norm(moved.back() - target), 1e-8 * total) << i;
    }
}

// Near full reach FABRIK creeps (four bones 2.5 long stopped 0.01 short of a target 9.999 away, and 21
// of 60 such targets were missed): where its passes stop short by more than 1e-6 of the length, the evenly
// bent chain is blended in, on a straight chain and on wiggly ones, the lengths kept: every target within
// 1e-4 of the length.
TEST(BezierChain, KeepingLengthsReachesTargetsNearFullReach) {
    testing::Random rng(41);
    const std::vector<Vec3<double>> straight{{0, 0, 0}, {2.5, 0, 0}, {5, 0, 0}, {7.5, 0, 0}, {10, 0, 0}};
    for (int i = 0; i < 200; ++i) {
        const std::vector<Vec3<double>> c = i % 2 ? straight : random_chain(rng, 5);
        const double total = total_length(c);
        const Vec3<double> target = c[0] + rng.uniform(0.99, 0.9999) * total * rng.unit_vector();
        const std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
        EXPECT_LT(norm(moved.back() - target), 1e-8 * total) << i;
        const std::vector<double> before = lengths(c), after = lengths(moved);
        for (std::size_t k = 0; k < before.size(); ++k) EXPECT_NEAR(after[k], before[k], 1e-9) << i << " bone " << k;
        EXPECT_EQ(norm(moved[0] - c[0]), 0.0);
    }
}

// The chain moves little when the target moves little, also near full reach: a target swept in steps of
// 1e-5 of the length from 0.93 to 0.999 of it moves no joint by more than 0.01 a step (the evenly bent chain,
// taken outright where FABRIK missed, made joints jump by 0.5 for a step of 0.0017; a reviewer's chain).
TEST(BezierChain, KeepingLengthsIsContinuousNearFullReach) {
    const std::vector<Vec3<double>> c{{0, 0, 0}, {2.4, 0.7, 0}, {4.9, 0.8, 0}, {7.4, 0.5, 0}, {9.9, 0, 0}};
    const double total = total_length(c);
    std::vector<Vec3<double>> previous;
    for (int step = 0; step <= 6900; ++step) {
        const double reach = (0.93 + 1e-5 * step) * total;
        const Vec3<double> target = reach * normalized(Vec3<double>{9.600025, 2.880008, 0});
        const std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
        if (!previous.empty())
            for (std::size_t j = 0; j < moved.size(); ++j) {
                ASSERT_LT(norm(moved[j] - previous[j]), 0.01) << "step " << step << " joint " << j;
            }
        previous = moved;
    }
}

// A straight chain pushed along itself folds to reach the target (FABRIK alone keeps such a chain on its
// line: bones 3.5 and 2.5 pushed from 6 to 2 of the held end stopped at 4 from it), on every axis and
// whichever way the target lies; the held end and the lengths stay.
TEST(BezierChain, KeepingLengthsFoldsAStraightChainToATargetOnItsLine) {
    for (const Vec3<double>& axis : {Vec3<double>{1, 0, 0}, Vec3<double>{0, 1, 0}, normalized(Vec3<double>{1, 1, 1})})
        for (double along : {2.0, 1.5, -1.5, 5.5, 5.99, 5.9999}) {
            const std::vector<Vec3<double>> c{{0, 0, 0}, 3.5 * axis, 6.0 * axis};
            const Vec3<double> target = along * axis;
            std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
            EXPECT_LT(norm(moved.back() - target), 1e-8) << along;
            EXPECT_NEAR(norm(moved[1] - moved[0]), 3.5, 1e-9);
            EXPECT_NEAR(norm(moved[2] - moved[1]), 2.5, 1e-9);
            EXPECT_EQ(norm(moved[0] - c[0]), 0.0);
        }
}

// A straight chain dragged onto its own held end folds into a closed triangle (bones 1.5, 1.5 and 1 can
// close one): the target gives no line to fold about, and the paper's guess had put the chain on the held
// end's line, where FABRIK stopped with the dragged end 1 from the target.
TEST(BezierChain, KeepingLengthsFoldsAStraightChainOntoItsHeldEnd) {
    const std::vector<Vec3<double>> c{{0, 0, 0}, {1.5, 0, 0}, {3, 0, 0}, {4, 0, 0}};
    std::vector<Vec3<double>> moved = propagate_chain(c, c[0], ChainMode::keep_lengths);
    EXPECT_LT(norm(moved.back() - c[0]), 1e-8);
    EXPECT_NEAR(norm(moved[1] - moved[0]), 1.5, 1e-9);
    EXPECT_NEAR(norm(moved[2] - moved[1]), 1.5, 1e-9);
    EXPECT_NEAR(norm(moved[3] - moved[2]), 1.0, 1e-9);
    EXPECT_EQ(norm(moved[0] - c[0]), 0.0);
}

// A straight chain of evenly spaced joints (the paper's guess puts them on the line to the target, for any
// target) dragged to a target off its line bends in the plane of the chain and the target, its elbow on the
// side where it was, and moves little when the target moves a little: the bend's plane had been taken from a
// world axis, which bent the elbow out of the plane (z = -1.32 for a target at (8, 3, 0)) and turned it by a
// quarter turn when the target moved by a thousandth.
TEST(BezierChain, KeepingLengthsBendsAStraightChainInThePlaneOfItsTarget) {
    const std::vector<Vec3<double>> c{{5, 0, 0}, {7.5, 0, 0}, {10, 0, 0}};
    std::vector<Vec3<double>> previous;
    for (double y = 0.001; y <= 4; y += 0.05) {
        const std::vector<Vec3<double>> moved = propagate_chain(c, {8, y, 0}, ChainMode::keep_lengths);
        EXPECT_LT(norm(moved.back() - Vec3<double>{8, y, 0}), 1e-8) << y;
        for (const Vec3<double>& joint : moved) {
            EXPECT_NEAR(joint.z, 0.0, 1e-12) << y;
        }
        // The elbow stays on the side of the line to the target where the straight chain lay (below it).
        const Vec3<double> line = Vec3<double>{8, y, 0} - c[0];
        EXPECT_LT(cross(line, moved[1] - c[0]).z, 0.0) << y;
        if (!previous.empty()) {
            EXPECT_LT(norm(moved[1] - previous[1]), 0.5) << y;
        }
        previous = moved;
    }
    // A target crossing the chain's own line flips the elbow to its mirror image (documented).
    const std::vector<Vec3<double>> above = propagate_chain(c, {8, 1e-6, 0}, ChainMode::keep_lengths),
                                    below = propagate_chain(c, {8, -1e-6, 0}, ChainMode::keep_lengths);
    EXPECT_NEAR(above[1].y, -below[1].y, 1e-5);
    EXPECT_NEAR(above[1].x, below[1].x, 1e-5);
    EXPECT_NEAR(above[1].z, 0.0, 1e-12);
}

// Too near to fold to: nearer P0 than the longest bone less the others (a lone bone reaches its length only).
TEST(BezierChain, ATargetNearerThanTheChainCanFoldIsTooNear) {
    const std::vector<Vec3<double>> lone{{0, 0, 0}, {2.5, 0, 0}}, unequal{{0, 0, 0}, {3, 0, 0}, {4, 0, 0}};
    EXPECT_TRUE(too_near_to_reach(lone, {1.1, 0, 0}));
    EXPECT_FALSE(too_near_to_reach(lone, {0, 2.5, 0}));
    EXPECT_TRUE(too_near_to_reach(unequal, {0, 1.9, 0})) << "bones 3 and 1 fold to 2 at the nearest";
    EXPECT_FALSE(too_near_to_reach(unequal, {0, 2.1, 0}));
    EXPECT_FALSE(too_near_to_reach({{0, 0, 0}, {2, 0, 0}, {4, 0, 0}}, {0, 0, 0})) << "equal bones fold onto P0";
}

TEST(BezierChain, KeepingLengthsStretchesStraightTowardsAnOutOfReachTarget) {
    std::vector<Vec3<double>> c{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {3, 1, 0}};
    Vec3<double> target{0, 10, 0};
    std::vector<Vec3<double>> moved = propagate_chain(c, target, ChainMode::keep_lengths);
    double sum = 0;
    for (std::size_t k = 1; k < c.size(); ++k) {
        sum += norm(c[k] - c[k - 1]);
        expect_near(moved[k], Vec3<double>{0, sum, 0}, 1e-12);
    }
}

TEST(BezierChain, RefusesTooShortChainsNonFiniteTargetsAndCoincidentJoints) {
    std::vector<Vec3<double>> c{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    EXPECT_THROW(propagate_chain({{0, 0, 0}}, {1, 1, 1}, ChainMode::paper), InputError);
    EXPECT_THROW(propagate_chain(c, {NAN, 0, 0}, ChainMode::paper), InputError);
    EXPECT_THROW(propagate_chain(c, {0, INFINITY, 0}, ChainMode::keep_lengths), InputError);
    EXPECT_THROW(propagate_chain({{0, 0, 0}, {0, 0, 0}, {2, 0, 0}}, {2, 1, 0}, ChainMode::paper), InputError);
}

// straight_chain(): spheres 0 (root) - 1 - 2 - 3 along x.
TEST(BezierDrag, ChainWalksTowardsTheRootOrFromTheRootTowardsTheTip) {
    Skeleton s = testing::straight_chain();
    EXPECT_EQ(chain_capacity(s, 3), 4);
    EXPECT_EQ(chain_capacity(s, 1), 2);
    EXPECT_EQ(chain_capacity(s, 0), 4);
    EXPECT_EQ(drag_chain(s, 3, 3), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(drag_chain(s, 2, 3), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(drag_chain(s, 0, 3), (std::vector<int>{2, 1, 0}));
}

// A Y: root 0 - 1, then sphere 1 forks into 2 and 3 (automatic rigs have junctions).
Skeleton y_tree() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{7, 2, 0}, 0.5}, {{7, -2, 0}, 0.5}},
                         {{0, 1}, {1, 2}, {1, 3}}, {}, "y tree", SkeletonRules::Tree);
}

TEST(BezierDrag, OnATreeTheChainWalksThroughJunctionsToTheRoot) {
    Skeleton s = y_tree();
    EXPECT_EQ(drag_chain(s, 3, 3), (std::vector<int>{0, 1, 3}));
    EXPECT_EQ(chain_capacity(s, 0), 2);  // from the root: down to the junction, included
    std::vector<Vec3<double>> centres = drag_joint(s, 3, {7, -4, 0}, 3, ChainMode::paper);
    expect_near(centres[1], {4, -1, 0}, 1e-12);
    expect_near(centres[2], s.spheres[2].centre, 0);  // the other branch stays
}

TEST(BezierDrag, RefusesARootCarryingSeveralBones) {
    Skeleton s = make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{-4, 0, 0}, 1.0}}, {{0, 1}, {0, 2}}, {}, "v",
                               SkeletonRules::Tree);
    EXPECT_EQ(chain_capacity(s, 0), 1);
    EXPECT_THROW(drag_joint(s, 0, {0, 1, 0}, 2, ChainMode::paper), InputError);
    EXPECT_EQ(drag_chain(s, 2, 2), (std::vector<int>{0, 2}));
}

TEST(BezierDrag, MovesTheChainAndNothingElse) {
    Skeleton s = testing::straight_chain();
    Vec3<double> target{7, 2, 0};
    std::vector<Vec3<double>> centres = drag_joint(s, 2, target, 2, ChainMode::paper);
    ASSERT_EQ(centres.size(), 4u);
    expect_near(centres[2], target, 0);
    for (int j : {0, 1, 3}) expect_near(centres[j], s.spheres[j].centre, 0);
    centres = drag_joint(s, 3, {9, 4, 0}, 4, ChainMode::paper);
    expect_near(centres[2], s.spheres[2].centre + Vec3<double>{0, 2, 0}, 1e-12);
    expect_near(centres[1], s.spheres[1].centre + Vec3<double>{0, 1, 0}, 1e-12);
    expect_near(centres[0], s.spheres[0].centre, 0);
}

TEST(BezierDrag, RefusesAJointOutOfRange) {
    Skeleton s = testing::straight_chain();
    EXPECT_THROW(drag_joint(s, 4, {0, 0, 0}, 2, ChainMode::paper), InputError);
    EXPECT_THROW(drag_joint(s, -1, {0, 0, 0}, 2, ChainMode::paper), InputError);
    EXPECT_THROW(chain_capacity(s, 17), InputError);
}

TEST(BezierDrag, RefusesANonFiniteTarget) {
    Skeleton s = testing::straight_chain();
    EXPECT_THROW(drag_joint(s, 3, {NAN, 0, 0}, 3, ChainMode::paper), InputError);
    EXPECT_THROW(drag_joint(s, 3, {0, 0, -INFINITY}, 3, ChainMode::keep_lengths), InputError);
}

// Beyond the inputs' coordinate limit (README "Input limits"), a target is refused: the joint and the
// points dragged with it would be written as float, which overflows.
TEST(BezierDrag, RefusesATargetBeyondTheCoordinateLimit) {
    Skeleton s = testing::straight_chain();
    EXPECT_NO_THROW(drag_joint(s, 3, {1e15, 0, 0}, 3, ChainMode::paper));
    EXPECT_THROW(drag_joint(s, 3, {2e15, 0, 0}, 3, ChainMode::paper), InputError);
    EXPECT_THROW(drag_joint(s, 3, {0, -1e300, 0}, 3, ChainMode::keep_lengths), InputError);
}

TEST(BezierDrag, RefusesAChainLengthOutOfRange) {
    Skeleton s = testing::straight_chain();
    for (int length : {-1, 0, 1, 5}) EXPECT_THROW(drag_joint(s, 3, {9, 1, 0}, length, ChainMode::paper), InputError) << length;
    EXPECT_THROW(drag_joint(s, 1, {4, 1, 0}, 3, ChainMode::paper), InputError);  // sphere 1 has one joint above it
    try {
        drag_chain(s, 3, 5);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("chain length 5 out of range [2, 4]"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace bs
