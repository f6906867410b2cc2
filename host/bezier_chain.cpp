#include "host/bezier_chain.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

namespace {

// FABRIK (Aristidou & Lasenby 2011) stops once the dragged end is this close to the target, relative to
// the chain's length, or after this many backward-and-forward passes (an unreachable target).
constexpr double kReachTolerance = 1e-9;
constexpr int kMaxFabrikPasses = 200;
// Targets farther than kBentFrom of the chain's length from its held end start FABRIK from a guess moved
// towards the evenly bent chain, wholly from kBentTo on (propagate_keeping_lengths).
constexpr double kBentFrom = 0.9, kBentTo = 0.98;

void check_chain(const std::vector<Vec3<double>>& chain, Vec3<double> target) {
    if (chain.size() < 2)
        throw InputError("chain propagation: a chain needs at least 2 joints, got " + std::to_string(chain.size()));
    if (!all_finite(target)) throw InputError("chain propagation: the target position is not finite");
    for (std::size_t i = 0; i < chain.size(); ++i) {
        if (!all_finite(chain[i])) throw InputError("chain propagation: joint " + std::to_string(i) + " is not finite");
        if (i > 0 && !(norm(chain[i] - chain[i - 1]) > 0))
            throw InputError("chain propagation: joints " + std::to_string(i - 1) + " and " + std::to_string(i) +
                             " coincide");
    }
}

// Paper §1.2.3: from the dragged end down to P1, each unit moved by the joint above it.
std::vector<Vec3<double>> propagate_as_paper(const std::vector<Vec3<double>>& chain, Vec3<double> target) {
    std::vector<Vec3<double>> moved = chain;
    moved.back() = target;
    for (std::size_t i = chain.size() - 2; i >= 1; --i)
        moved[i] = propagate_unit(chain[i], chain[i + 1], moved[i + 1]);
    return moved;
}

// Unit vector from `from` to `to`; `fallback` where the two coincide.
Vec3<double> direction(Vec3<double> from, Vec3<double> to, Vec3<double> fallback) {
    Vec3<double> d = to - from;
    double n = norm(d);
    return n > 0 ? d / n : fallback;
}

// Places each joint at its bone's length from the previous one, walking from joint `first` in steps of
// `step` (+1: from P0 upwards, −1: from the dragged end downwards), keeping each joint's direction.
void place_at_lengths(std::vector<Vec3<double>>& x, const std::vector<Vec3<double>>& rest, int first, int step) {
    const int n = int(x.size());
    for (int i = first + step; i >= 0 && i < n; i += step) {
        int previous = i - step;
        Vec3<double> rest_direction = normalized(rest[i] - rest[previous]);
        double length = norm(rest[i] - rest[previous]);
        x[i] = x[previous] + length * direction(x[previous], x[i], rest_direction);
    }
}

// The lengths of the chain's bones, P0 first.
std::vector<double> bone_lengths(const std::vector<Vec3<double>>& chain) {
    std::vector<double> lengths;
    for (std::size_t i = 1; i < chain.size(); ++i) lengths.push_back(norm(chain[i] - chain[i - 1]));
    return lengths;
}

double sum(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

// The end of a chain of bones `lengths` bent by `angle` at every inner joint, in its plane: x along the
// first bone, y to the side the bends turn.
std::array<double, 2> bent_chord(const std::vector<double>& lengths, double angle) {
    std::array<double, 2> end{0, 0};
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        end[0] += lengths[i] * std::cos(double(i) * angle);
        end[1] += lengths[i] * std::sin(double(i) * angle);
    }
    return end;
}

// The line from the held end `from` towards the target, or where the target is the held end itself, along
// the guess `x`, or the chain at rest (the paper's guess may put every joint on the held end too); none
// where all of them lie on the held end.
std::optional<Vec3<double>> line_from(Vec3<double> from, Vec3<double> target, const std::vector<Vec3<double>>& x,
                                      const std::vector<Vec3<double>>& chain, double total) {
    for (const Vec3<double> towards : {target - from, x.back() - from, chain.back() - from})
        if (norm(towards) > 1e-12 * total) return normalized(towards);
    return std::nullopt;
}

// The chain of bones `lengths` from `from`, bent evenly at its inner joints by the angle (bisection) that
// puts its end at the target's distance, turned so that its end lies on the line, in the plane of `line`
// and `side`: the joints bulge to the -side. The chord falls from the whole length as the even bend grows
// from 0 (up to a half turn shared by the inner joints); where even bends cannot come near enough (a target
// deep inside the reach of a chain of unequal bones), the bend that comes nearest is taken.
std::vector<Vec3<double>> evenly_bent(Vec3<double> from, const std::vector<double>& lengths, double want, Vec3<double> line, Vec3<double> side) {
    auto chord = [&](double angle) { const auto e = bent_chord(lengths, angle); return std::hypot(e[0], e[1]); };
    const double half_turn = pi_value<double>();
    double low = 0, high = half_turn / double(std::max<std::size_t>(1, lengths.size() - 1));
    double angle = high;  // the largest even bend: the nearest it comes, where it cannot come near enough
    if (chord(high) < want) {
        for (int step = 0; step < 60; ++step) {
            const double middle = 0.5 * (low + high);
            (chord(middle) > want ? low : high) = middle;
        }
        angle = 0.5 * (low + high);
    }
    const auto end = bent_chord(lengths, angle);
    const double turn = -std::atan2(end[1], end[0]);  // turns the chord onto the line
    std::vector<Vec3<double>> x{from};
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        const double a = double(i) * angle + turn;
        x.push_back(x.back() + lengths[i] * (std::cos(a) * line + std::sin(a) * side));
    }
    return x;
}

// The side of the evenly bent chain's plane (evenly_bent): away from the joint of the chain as it was that
// lies farthest off the line, so that a chain dragged across keeps its elbow near where it was, in the
// plane it was in (a world axis there bent it out of its plane, and flipped the bend by a quarter turn
// when the target moved by a thousandth); the world axis least along the line where the chain was on it.
Vec3<double> bend_side(const std::vector<Vec3<double>>& chain, Vec3<double> line, double total) {
    const Vec3<double> from = chain.front();
    Vec3<double> side{0, 0, 0};
    double farthest = 1e-9 * total;
    for (const Vec3<double>& p : chain) {
        const Vec3<double> off = (p - from) - dot(p - from, line) * line;
        if (norm(off) > farthest) farthest = norm(off), side = -(1 / norm(off)) * off;
    }
    if (farthest > 1e-9 * total) return side;
    const Vec3<double> axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    side = axes[0];
    for (const Vec3<double>& a : axes)
        if (std::fabs(dot(a, line)) < std::fabs(dot(side, line))) side = a;
    return normalized(side - dot(side, line) * line);
}

// Whether every joint of x lies on the line through `from` (to 1e-9 of the chain's length `total`).
bool all_on_line(const std::vector<Vec3<double>>& x, Vec3<double> from, Vec3<double> line, double total) {
    for (const Vec3<double>& p : x)
        if (norm((p - from) - dot(p - from, line) * line) > 1e-9 * total) return false;
    return true;
}

// Keeps the chain's bone lengths, starting from the paper's positions (so the shape the paper gives is
// the first guess): FABRIK's backward pass (end on the target) then forward pass (P0 back in place),
// repeated. Ending on a forward pass keeps P0 and every length exactly (to rounding).
std::vector<Vec3<double>> propagate_keeping_lengths(const std::vector<Vec3<double>>& chain, Vec3<double> target) {
    std::vector<Vec3<double>> x = propagate_as_paper(chain, target);
    const std::vector<double> lengths = bone_lengths(chain);  // the bones' own (the paper's guess does not keep them)
    const double total = sum(lengths);
    const int last = int(chain.size()) - 1;
    if (out_of_reach(chain, target)) {  // the straight chain towards the target
        const Vec3<double> towards = normalized(target - chain[0]);
        for (int i = 1; i <= last; ++i) x[i] = x[i - 1] + lengths[std::size_t(i - 1)] * towards;
        return x;
    }
    // The evenly bent chain towards the target, built once where it is wanted (below). FABRIK's passes keep
    // every joint on a line where the first guess and the target all lie on it (a straight chain pushed
    // along itself): they can stretch such a chain but never fold it, and a target it could reach by
    // folding was missed (a straight chain of bones 3.5 and 2.5 pushed from 6 to 2 of its held end stopped
    // at 4 from it). Such a guess is replaced by the evenly bent chain (evenly_bent, bend_side); the passes
    // then only refine it. A pure nudge off the line converged too slowly near full reach (6.99 of 7 missed
    // by 0.01 after every pass).
    const std::optional<Vec3<double>> line = line_from(chain[0], target, x, chain, total);
    std::vector<Vec3<double>> bent;
    const auto evenly = [&]() -> const std::vector<Vec3<double>>& {
        if (bent.empty()) bent = evenly_bent(chain[0], lengths, norm(target - chain[0]), *line, bend_side(chain, *line, total));
        return bent;
    };
    if (line && all_on_line(x, chain[0], *line, total)) x = evenly();
    // Near full reach FABRIK creeps (a chain of four bones 2.5 long stopped 0.01 short of a target 9.999
    // away, where the straight chain towards it misses by 0.001; 21 of 60 such targets missed). There the
    // first guess is moved towards the evenly bent chain, which reaches the target exactly, the more the
    // nearer the target is to full reach (none below kBentFrom of the length, all of it from kBentTo), so
    // that the chain still moves continuously with the target: taken instead of FABRIK's result wherever
    // FABRIK missed, it made the chain jump by 6% of its length for a target moved by 0.0017.
    const double share = smoothstep_unit((norm(target - chain[0]) / total - kBentFrom) / (kBentTo - kBentFrom));
    if (share > 0 && line)
        for (std::size_t i = 1; i < x.size(); ++i) x[i] = (1 - share) * x[i] + share * evenly()[i];
    for (int pass = 0; pass < kMaxFabrikPasses; ++pass) {
        x[last] = target;
        place_at_lengths(x, chain, last, -1);
        x[0] = chain[0];
        place_at_lengths(x, chain, 0, +1);
        if (norm(x[last] - target) <= kReachTolerance * total) break;
    }
    return x;
}

// Sphere at the other end of each bone, seen from its child (towards the root) or its parent.
struct ChainNeighbours {
    std::vector<int> parent;              // per sphere, -1 for the root
    std::vector<std::vector<int>> children;
};

ChainNeighbours neighbours(const Skeleton& skeleton) {
    ChainNeighbours n{std::vector<int>(skeleton.spheres.size(), -1),
                      std::vector<std::vector<int>>(skeleton.spheres.size())};
    for (const std::array<int, 2>& bone : skeleton.bones) {
        n.parent[bone[1]] = bone[0];
        n.children[bone[0]].push_back(bone[1]);
    }
    return n;
}

// The whole walk from `joint` (first) as far as it goes.
std::vector<int> walk_from(const Skeleton& skeleton, int joint) {
    if (joint < 0 || std::size_t(joint) >= skeleton.spheres.size())
        throw InputError("drag: joint " + std::to_string(joint) + " out of range [0, " +
                         std::to_string(skeleton.spheres.size()) + ")");
    ChainNeighbours n = neighbours(skeleton);
    std::vector<int> walk{joint};
    if (n.parent[joint] >= 0) {
        for (int s = n.parent[joint]; s >= 0; s = n.parent[s]) walk.push_back(s);
    } else {
        for (int s = joint; n.children[s].size() == 1;) walk.push_back(s = n.children[s][0]);
    }
    return walk;
}

}  // namespace

// §1.2.2 solves P1' from Q1' = (1 − t)² P0 + 2t(1 − t) P1' + t² P2', with Q1' = B(t) + t · vec and
// t = |P1 − P0| / (|P1 − P0| + |P1 − P2|). Substituting B(t) leaves 2t(1 − t)(P1' − P1) = t(1 − t) vec:
// P1' = P1 + vec/2 whatever t is. Computed in that closed form: as written, the division by 2t(1 − t)
// magnified rounding where one of the unit's bones is tiny (a bone of 1e-13 put P1' 0.13 away).
Vec3<double> propagate_unit(Vec3<double> p1, Vec3<double> p2, Vec3<double> p2_moved) { return p1 + 0.5 * (p2_moved - p2); }

std::vector<Vec3<double>> propagate_chain(const std::vector<Vec3<double>>& chain, Vec3<double> target, ChainMode mode) {
    check_chain(chain, target);
    return mode == ChainMode::paper ? propagate_as_paper(chain, target) : propagate_keeping_lengths(chain, target);
}

bool out_of_reach(const std::vector<Vec3<double>>& chain, Vec3<double> target) {
    return norm(target - chain.front()) >= sum(bone_lengths(chain));
}

bool too_near_to_reach(const std::vector<Vec3<double>>& chain, Vec3<double> target) {
    const std::vector<double> lengths = bone_lengths(chain);
    const double longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
    return norm(target - chain.front()) < longest - (sum(lengths) - longest);
}

int chain_capacity(const Skeleton& skeleton, int joint) { return int(walk_from(skeleton, joint).size()); }

std::vector<int> drag_chain(const Skeleton& skeleton, int joint, int length) {
    std::vector<int> walk = walk_from(skeleton, joint);
    if (walk.size() < 2)
        throw InputError("drag: joint " + std::to_string(joint) +
                         " is a root carrying several bones: it has no single chain to propagate along (drag a joint below it)");
    if (length < 2 || std::size_t(length) > walk.size())
        throw InputError("drag: chain length " + std::to_string(length) + " out of range [2, " +
                         std::to_string(walk.size()) + "] for joint " + std::to_string(joint) +
                         " (the joints from it to the end of its chain)");
    return std::vector<int>(walk.rend() - length, walk.rend());
}

std::vector<Vec3<double>> chain_centres(const Skeleton& skeleton, const std::vector<int>& chain) {
    std::vector<Vec3<double>> centres;
    for (int s : chain) centres.push_back(skeleton.spheres[std::size_t(s)].centre);
    return centres;
}

std::vector<Vec3<double>> drag_joint(const Skeleton& skeleton, int joint, Vec3<double> target, int length,
                                     ChainMode mode) {
    if (!within_input_magnitude(target))
        throw InputError(std::string("drag: the target position must be ") + input_magnitude_text() + ", got (" + number_text(target.x) + ", " +
                         number_text(target.y) + ", " + number_text(target.z) + ")");
    std::vector<int> chain = drag_chain(skeleton, joint, length);
    std::vector<Vec3<double>> moved = propagate_chain(chain_centres(skeleton, chain), target, mode);
    std::vector<Vec3<double>> centres;
    for (const Sphere<double>& s : skeleton.spheres) centres.push_back(s.centre);
    for (std::size_t i = 0; i < chain.size(); ++i) centres[chain[i]] = moved[i];
    return centres;
}

std::vector<Vec3<double>> sphere_displacements(const Skeleton& skeleton, const std::vector<Vec3<double>>& centres) {
    std::vector<Vec3<double>> displacements(centres.size());
    for (std::size_t j = 0; j < centres.size(); ++j) displacements[j] = centres[j] - skeleton.spheres[j].centre;
    return displacements;
}

}  // namespace bs
