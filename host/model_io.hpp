// Rigged, animated models through assimp (FBX, Collada, glTF, X, SMD, ...): the skinned meshes in their
// bind pose, the bone hierarchy, the vertex weights and the first animation, as host/model_rig.hpp's
// RiggedModel (scene coordinates, the file's units).
//
// Bind pose: a bone's bind transform is its mesh node's global transform times the inverse of the bone's
// offset matrix; vertices are taken to scene coordinates by their mesh node's transform. The hierarchy
// kept: the bone nodes, their ancestors up to their lowest common one (for instance an armature node), and
// the bone nodes' leaf children (such as Blender's "_end" nodes); other nodes keep their default
// transforms. Parents are taken from the tree of children (not aiNode::mParent, which some loaders set
// otherwise). Animation: the first one, sampled at kModelFps frames per second of its clock (ticks per
// second; 25 when the file says 0), position and scaling keys interpolated linearly and rotations by
// slerp; a node without a channel keeps its default transform. Each frame gives every kept node's bind →
// posed transform, its scaling dropped (the sphere-mesh's bones are rigid; model_motion refuses nodes that
// move within their parents). A mesh that no bone weighs, in a model where others are skinned, is a prop:
// under a kept node it rides that node rigidly (placed about the node's bind transform as the default
// pose places it about the node, every vertex weighed 1 to it); under none it is left out and named in
// RiggedModel::meshes_left_out. Without bones, only the meshes are read (all of them). Limits:
// kMaxModelNodes kept nodes and kMaxModelSamples node transforms over the animation; InputError naming the
// file beyond them, for an unreadable or malformed file, a non-finite value, or a bone without a node.
// UnsupportedError in a build without assimp. assimp runs in a child process with a time limit, as for
// load_triangle_mesh (host/mesh_io.hpp, which also reads PLY files here: a mesh without bones).
#pragma once

#include <string>

#include "host/model_rig.hpp"

namespace bs {

constexpr std::size_t kMaxModelNodes = 4096;
constexpr std::size_t kMaxModelSamples = 5'000'000;  // frames × kept nodes: 280 MB of transforms
constexpr double kModelFps = 30;

RiggedModel load_rigged_model(const std::string& path);

}  // namespace bs
