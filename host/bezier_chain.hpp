// Bézier propagation of a dragged joint along a chain of joints (seed 001 §1.2), and a variant that keeps
// the chain's bone lengths. Positions are in the input's units, in double.
//
// Paper §1.2.2, one unit of three joints P0 (held), P1, P2 (dragged to P2' = P2 + vec):
//   t_Q = |P1 − P0| / (|P1 − P0| + |P1 − P2|);  Q1 = B(t_Q) on the quadratic Bézier curve with control
//   points P0, P1, P2;  Q1' = Q1 + t_Q · vec;  P1' solves Q1' = (1 − t)² P0 + 2t(1 − t) P1' + t² P2'.
// Substituting gives P1' = P1 + vec/2 whatever t_Q is (DESIGN §3): the paper's update halves the motion at
// each joint and does not keep bone lengths. We compute it as the paper writes it; tests check vec/2.
// Paper §1.2.3, a chain P0 … P(n−1) with P(n−1) dragged: the unit (P(n−3), P(n−2), P(n−1)) moves P(n−2),
// then (P(n−4), P(n−3), P(n−2)) moves P(n−3), and so on down to P1; P0 stays. Each unit's t_Q and Q1 come
// from its joints' positions before the drag.
#pragma once

#include <vector>

#include "host/skeleton.hpp"

namespace bs {

enum class ChainMode {
    paper,         // §1.2.3 as written: joint P(n−1−k) moves by vec / 2^k
    keep_lengths,  // the paper's positions, then FABRIK passes that restore the chain's bone lengths
};

// One unit (§1.2.2), P0 held: the new P1 when P2 moves to p2_moved. The paper's Bézier construction
// reduces to P1 + (p2_moved − P2)/2 for any unit (docs/ALGORITHM.md), which is what this computes.
Vec3<double> propagate_unit(Vec3<double> p1, Vec3<double> p2, Vec3<double> p2_moved);

// New positions of a chain P0 … P(n−1) (n >= 2; consecutive joints distinct) when P(n−1) is dragged to
// `target` (finite) and P0 is held; InputError otherwise. keep_lengths: every |P(i+1) − P(i)| is kept (to
// rounding) and P0 stays; P(n−1) reaches the target when it is within reach (to 1e-9 of the chain's
// length), else the chain ends as near it as the FABRIK passes bring it (straight towards it when too far).
std::vector<Vec3<double>> propagate_chain(const std::vector<Vec3<double>>& chain, Vec3<double> target, ChainMode mode);

// Whether `target` lies beyond the reach of the joints `chain` (P0 held) with their lengths kept: at least
// the chain's length from P0 (keep_lengths then stretches the chain straight towards it).
bool out_of_reach(const std::vector<Vec3<double>>& chain, Vec3<double> target);
// Whether `target` lies too near P0 for the chain to fold to it with its lengths kept: nearer than its
// longest bone less all the others (a single bone reaches only its own length).
bool too_near_to_reach(const std::vector<Vec3<double>>& chain, Vec3<double> target);

// The joints a drag of sphere `joint` moves, as sphere indices P0 … P(n−1) with P(n−1) = joint: the chain
// walks from the joint towards the root sphere (through junctions: every sphere has one parent), or, from
// the root itself, down its one bone towards the tip as far as the first junction (included). chain_capacity is the
// number of joints on that walk, the joint included (1 for a root carrying several bones, which cannot be
// dragged); InputError for a joint index out of range.
int chain_capacity(const Skeleton& skeleton, int joint);
std::vector<int> drag_chain(const Skeleton& skeleton, int joint, int length);
// The centres of the spheres `chain` lists, in its order.
std::vector<Vec3<double>> chain_centres(const Skeleton& skeleton, const std::vector<int>& chain);

// Drags sphere `joint` to `target` and propagates along `length` joints: returns every sphere's new centre
// (spheres off the chain, and P0, keep their rest centres: bones from the chain to them stretch). Works on
// chains and trees. InputError for a joint index out of range, a non-finite target, a root carrying
// several bones, or a length outside [2, chain_capacity].
std::vector<Vec3<double>> drag_joint(const Skeleton& skeleton, int joint, Vec3<double> target, int length,
                                     ChainMode mode);

// Each sphere's move from its rest centre to centres[j] (drag_joint's): the displacements a metaball
// deformation takes (host/metaball_skinner.hpp).
std::vector<Vec3<double>> sphere_displacements(const Skeleton& skeleton, const std::vector<Vec3<double>>& centres);

}  // namespace bs
