// A body to animate from a rigged model (FBX, Collada, glTF, X, SMD, read by host/model_io.hpp): a
// sphere-mesh on its bone hierarchy, a dense point set over its mesh with LBS weights interpolated from
// the model's, and its animation as a motion. The data here is the loader's, free of assimp.
//
// Rig: host/hierarchy_rig.hpp on the model's nodes at their bind positions. A node that carries vertex
// weights but turns no bone (a leaf, or one whose children all merged) gets an end joint "<name>_end"
// towards the vertices it carries most of (where they lie to one side of it; else half its parent bone's
// length further along that bone), so its vertices have a bone that moves as it does. Radii are fitted to the mesh around each bone: a vertex counts for the bone whose axis segment is
// nearest to it, when its projection falls inside that segment (beyond an end its distance is a cap's,
// not a radius), and its distance to the axis counts for the nearer of the bone's two spheres. A sphere's
// radius is the median of its distances; where no vertex counts for it (a coarse mesh whose rings of
// vertices all lie nearer the bones' other spheres), the same rule over 20,000 points sampled by area over
// the mesh; with none either, a quarter of its shortest bone; then the cone clamp of hierarchy_rig. (Not by the vertices' weights: real models' vertex groups need not follow the
// bones' geometry — in Blender's FBX export one group spans two segments.)
//
// Points: `count` points uniform by area over the mesh's triangles (deterministic for a seed); each
// point's weights interpolate its triangle's vertex weights barycentrically, each node's weight going to
// the bone that node turns; the four largest are kept and renormalised. A point with no weight at all
// (unbound vertices) gets host/weights.hpp's automatic weights.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "host/hierarchy_rig.hpp"
#include "host/mesh_io.hpp"
#include "kernels/passes.hpp"

namespace bs {

struct ModelNode {
    std::string name;
    int parent = -1;  // index in RiggedModel::nodes, parents first; -1 for the root
    Vec3<double> bind_position;
};

struct RiggedModel {
    std::string source;
    TriangleMesh mesh;                                       // bind pose, scene coordinates
    std::vector<ModelNode> nodes;                            // empty: the model has no bones
    std::vector<std::vector<std::pair<int, float>>> weights; // per vertex: (node, weight > 0); may be empty
    double fps = 0;                                          // of `frames`
    std::vector<std::vector<Rigid<double>>> frames;          // per frame, per node: bind → posed
    // Why the file's bones were dropped (a bone naming no node of the hierarchy): the model is then a mesh
    // without bones, which can still be sampled into points. Empty otherwise.
    std::string bones_dropped;
    // The names of the meshes of a skinned model left out (a mesh without a name: its node's): not skinned,
    // and under no node of the skeleton (a floor, a second figure). Such a mesh under a node of the
    // skeleton rides it rigidly instead.
    std::vector<std::string> meshes_left_out;
};

struct ModelRig {
    HierarchyRig rig;              // its joints: the model's nodes, then the added end joints
    std::vector<int> bone_of_node;  // per node: a bone it turns (exactly as it moves)
};

// InputError naming the model when it has no bones, or the hierarchy gives no usable skeleton.
ModelRig rig_model(const RiggedModel& model);

struct ModelPoints {
    std::vector<Vec3<double>> positions;
    std::vector<Influences> influences;  // empty without a rig
};
// InputError when the mesh has no triangle of positive area. `rig` may be null (a model without bones).
ModelPoints sample_model(const RiggedModel& model, const ModelRig* rig, std::size_t count, unsigned seed);

// How far points lie outside a sphere-mesh (the union of its bones but the bridges): the share of them
// more than the spheres' mean radius out, and the farthest, for rig's note on a skeleton that leaves part
// of its mesh out.
struct SphereMeshCoverage {
    double mean_radius = 0;
    double share_beyond_mean_radius = 0;  // in [0, 1]
    double farthest = 0;                  // the largest distance outside (0 when every point is inside)
};
SphereMeshCoverage sphere_mesh_coverage(const Skeleton& skeleton, const std::vector<Vec3<double>>& points);

// The model's frames as a motion of rig.rig.skeleton; InputError naming the model when it has no animation,
// UnsupportedError when a node moves within its parent (translation or scale keys on an inner node, beyond
// 1e-3 of the body's size): rigid bones cannot follow it.
Motion model_motion(const ModelRig& rig, const RiggedModel& model);

}  // namespace bs
