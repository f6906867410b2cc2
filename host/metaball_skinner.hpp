// Metaball deformation of a point set (seed 001 §1.3) on the CPU backend: the fourth skinning method.
//
// Every sphere of the skeleton is a joint (a constraint source of the paper). Each vertex is bound to the
// region of one joint (or none):
//   - from a vertex-to-node binding file when the skeleton came from the Reeb extraction (node i is
//     sphere i of the extracted skeleton); format {"binding": [node index per vertex]}, -1 for a vertex
//     in no node (e.g. one of a filtered tiny component); other members are ignored;
//   - otherwise from the nearest joint sphere: the sphere j with the smallest |v − c_j| − r_j (distance to
//     its surface, negative inside), ties to the lowest index.
// R_j is the distance from c_j to the farthest vertex bound to j (paper §1.3 step 3), of those within
// kRegionReach times the region's median distance (influence_radii: a stray point does not size it); a
// joint with no bound vertex has R_j = 0 and moves nothing. Per pose, with G the pose's root transform (the identity for
// displacements given directly, as a drag's), d_j = G⁻¹(posed centre of sphere j) − its rest centre, and
//     v' = G (v + Σ_{j binding v} d_j · f(|v − c_j|, R_j))        (engine/metaball.hpp).
// Units are the input's. Rest data and radii are computed in double; the pass runs in T.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/json_io.hpp"
#include "host/point_output.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"
#include "kernels/passes.hpp"

namespace bs {

// Which joints bind each vertex, as a compressed list: vertex i is bound to
// joints[offsets[i] .. offsets[i + 1]). offsets has vertex_count() + 1 entries, offsets[0] = 0.
struct MetaballBinding {
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> joints;

    std::size_t vertex_count() const { return offsets.size() - 1; }
};

// Marks a vertex bound to no joint in a per-vertex region list.
constexpr int kNoRegion = -1;

// One region per vertex: region_of_vertex[i] is a joint index, or kNoRegion.
MetaballBinding binding_from_regions(const std::vector<int>& region_of_vertex);

// Nearest-joint-sphere rule (see above). Parallel over vertices; deterministic.
MetaballBinding nearest_sphere_binding(const Skeleton& skeleton, const std::vector<Vec3<double>>& rest);

// Reads {"binding": [node index per vertex]} (node indices in [0, joint_count) or -1). InputError naming
// the file and element for a wrong count, a non-integer or an index out of range; IoError if unreadable.
MetaballBinding parse_binding(const json_io::json& doc, std::size_t vertex_count, std::size_t joint_count,
                              const json_io::Where& where);
// The binding file at `path` for `vertices` (the points it will deform, in order), and whether it records
// the digest of other vertices than these ("vertices_digest", binding_vertex_digest: `skeleton` writes it):
// the same count of other points, or of the same points in another order, or moved. A file without one
// reads as made for these.
struct BindingFile {
    MetaballBinding binding;
    bool made_for_other_vertices = false;
};
BindingFile read_binding_file(const std::string& path, const std::vector<Vec3<double>>& vertices, std::size_t joint_count);
// The same, refusing (InputError) a binding made for other vertices: it had bound each point to another's
// sphere and torn the surface.
MetaballBinding load_binding(const std::string& path, const std::vector<Vec3<double>>& vertices, std::size_t joint_count);

// A digest of the vertices' positions, in order (each rounded to float, as the point files carry them): 16
// hexadecimal digits of FNV-1a over their bytes.
std::string binding_vertex_digest(const std::vector<Vec3<double>>& vertices);

// R_j per joint: the largest |v − c_j| over the vertices bound to j, 0 when none is — over those within
// kRegionReach times the region's median distance (its upper median), or all where that median is 0. A point
// far beyond the rest of its region (a stray sample bound to its nearest sphere) is no part of the body: it
// does not size the field, and lies beyond R_j, where the field is 0 (two stray points 1,000 away had made
// their regions move rigidly, the body's points up to 2.42 from where they went without them).
constexpr double kRegionReach = 4;
std::vector<double> influence_radii(const std::vector<Vec3<double>>& centres, const std::vector<Vec3<double>>& rest,
                                    const MetaballBinding& binding);

// Rest centres of the skeleton's spheres, and their posed centres under a pose (forward kinematics: a
// sphere moves with the bone it ends, the root sphere with the first bone). posed_centres: InputError unless
// the pose has a joint per bone of the skeleton (require_joint_per_bone); the rest of it is taken as it is.
std::vector<Vec3<double>> rest_centres(const Skeleton& skeleton);
std::vector<Vec3<double>> posed_centres(const Skeleton& skeleton, const Pose& pose);

template <class T>
class MetaballSkinner {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be packed xyz");

public:
    // Checks the binding against the points and the skeleton (InputError naming `source`): one entry per
    // point, offsets starting at 0 and non-decreasing, joint indices < sphere count; and finite points.
    MetaballSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, MetaballBinding binding,
                    const std::string& source);

    std::size_t size() const { return rest_.size(); }
    const Skeleton& skeleton() const { return skeleton_; }
    const MetaballBinding& binding() const { return binding_; }
    const std::vector<double>& radii() const { return radii_; }  // R_j, one per sphere

    // Deforms every point for one displacement d_j per sphere (finite and within ±2e15, twice the bound of
    // input coordinates, host/input_limits.hpp: a displacement runs between two points; InputError
    // otherwise); `out` is
    // resized to size() (left as it was when refused: deform_into).
    void deform(const std::vector<Vec3<double>>& displacements, std::vector<Vec3<T>>& out, cpu::Exec exec = {}) const;

    // Under `pose`: G = the pose's root transform carries the body, and d_j = G⁻¹(posed centre) − rest
    // centre of sphere j, the joint's motion in the body's frame (so a pose that moves the root alone moves
    // every point rigidly: the paper's field only translates, and left each region's edge behind, up to 0.8
    // of the body's diagonal under a capture that walks); into size() points at out.stride
    // (host/point_output.hpp; InputError for a null pointer or a stride below 3), or into `out` resized
    // (left as it was if the pose is refused).
    void deform(const Pose& pose, PointView<T> out, cpu::Exec exec = {}) const;
    void deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec = {}) const {
        deform_into(out, size(), [&](PointView<T> view) { deform(pose, view, exec); });
    }

    // What a frame's pass reads (for the GPU front, host/gpu_skinner.hpp): the rest points, and the joint
    // table for one displacement per sphere (checked as deform() checks them), or for a pose.
    const std::vector<Vec3<T>>& rest() const { return rest_; }
    std::vector<MetaballJoint<T>> joint_table(const std::vector<Vec3<double>>& displacements) const;
    std::vector<MetaballJoint<T>> joint_table(const Pose& pose) const;
    // G of a pose (the identity for displacements): what the pass applies after the field.
    static Mat34<T> body_motion(const Pose& pose) { return Mat34<T>::from_rigid(Rigid<T>(pose.root)); }

private:
    void run(const std::vector<MetaballJoint<T>>& table, const Mat34<T>& body, PointView<T> out, cpu::Exec exec) const;

    Skeleton skeleton_;
    std::vector<Vec3<T>> rest_;
    MetaballBinding binding_;
    std::vector<double> radii_;
};

extern template class MetaballSkinner<float>;
extern template class MetaballSkinner<double>;

}  // namespace bs
