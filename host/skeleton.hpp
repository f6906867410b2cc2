// Sphere-mesh skeleton: spheres (centre, radius) and bones (parent sphere -> child sphere), validated.
//
// File format (JSON, README "Skeleton file"):
//   {"spheres": [[x, y, z, r], ...], "bones": [[parent_sphere, child_sphere], ...], "names": [...],
//    "bridges": [bone, ...]}
// `names` is optional: one name per sphere. Units are the input's. `bridges` is optional: bones the body
// does not follow (set_bridges, below).
// Under SkeletonRules::Chain (for callers that need one chain; Tree is the default, as in the CLI and the
// viewer) a valid skeleton is one chain: a single root sphere (never a child) carrying one bone, no sphere with three or more bones, no
// cycles, and every bone admits a tangent cone (|C1 - C2| > |r1 - r2|). Numbers stay where directions
// can be computed: coordinates and radii within ±1e15 (host/input_limits.hpp) and the centres of a bone
// at least about 1e-154 apart. SkeletonRules::Tree (every skinning method takes it)
// also allows junctions (3+ bones on a sphere) and several bones at the root; everything else is
// checked as for chains. At most kMaxBones bones and one more sphere (host/input_limits.hpp).
// make_skeleton() throws InputError naming the element.
#pragma once

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "engine/geometry/primitives.hpp"
#include "engine/kinematics.hpp"
#include "engine/vec.hpp"
#include "host/output_file.hpp"

namespace bs {

struct Skeleton {
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> bones;  // [parent_sphere, child_sphere]
    std::vector<std::string> names;         // one per sphere, or empty
    // Bones the body does not follow, ascending (set_bridges): they pose the bones beyond them but carry
    // no points.
    std::vector<int> bridges;

    // Derived by make_skeleton():
    int root_sphere = -1;
    std::vector<int> parent_bone;  // per bone: the bone ending at its parent sphere, -1 for the root bone
    std::vector<int> bone_order;   // every bone after its parent bone

    std::size_t bone_count() const { return bones.size(); }
    bool is_bridge(int bone) const;
    Vec3<double> rest_axis(int bone) const;  // unit, parent sphere -> child sphere
    std::vector<BoneRestFrame<double>> rest_frames() const;
};

// Topology a skeleton is checked against (see above). Tree is the default everywhere (every method takes
// junctions); Chain is for a caller that needs a single chain.
enum class SkeletonRules { Chain, Tree };

// Validates and derives the topology. `source` names the origin in messages (a file path, "API").
// bone_order lists bones breadth-first from the root (a bone's children in ascending bone index).
Skeleton make_skeleton(std::vector<Sphere<double>> spheres, std::vector<std::array<int, 2>> bones,
                       std::vector<std::string> names, const std::string& source,
                       SkeletonRules rules = SkeletonRules::Tree);

// Checks a skeleton handed to a skinner (its fields are public) as make_skeleton and set_bridges made it:
// InputError naming `source` where its spheres, bones, names or bridges break their rules (a bone index
// out of range or a radius ≤ 0 set afterwards), or where root_sphere, parent_bone and bone_order are not
// those its spheres and bones derive (a Skeleton filled in by hand: the skinners index by them). Every
// skinner calls it when built.
void check_skeleton(const Skeleton& skeleton, const std::string& source);
// How a skinner names the skeleton of points named `points` in check_skeleton's messages.
inline std::string skeleton_source(const std::string& points) { return "the skeleton of " + points; }

// Marks `bones` as bridges: links of the tree that no part of the body follows, such as a rigged model's
// bone from an unweighted armature node to a second chain, which runs inside the first chain
// (docs/ALGORITHM.md "Rigged models"). A bridge still carries the pose to the bones beyond it, but no
// method codes or weights a point on it: baseline skinning's codes, rigid field, chain links and
// junctions, and automatic LBS weights, pass over it. InputError naming `source` for an index out of
// range, a repeated one, or bridges that leave no bone to carry points.
void set_bridges(Skeleton& skeleton, std::vector<int> bones, const std::string& source);

// Spheres carrying three or more bones that are no bridge.
int junction_count(const Skeleton& skeleton);

// A skeleton file's document (json_io::parse); `source` names it in messages.
Skeleton parse_skeleton(const nlohmann::json& doc, const std::string& source, SkeletonRules rules = SkeletonRules::Tree);
Skeleton load_skeleton(const std::string& path, SkeletonRules rules = SkeletonRules::Tree);
void save_skeleton(const std::string& path, const Skeleton& skeleton);
// The skeleton file's text into `out`, not committed.
void write_skeleton(OutputFile& out, const Skeleton& skeleton);

// Axis-aligned bounds of the spheres (min, max); their diagonal scales tolerances.
std::array<Vec3<double>, 2> bounds(const Skeleton& skeleton);

}  // namespace bs
