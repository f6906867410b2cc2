#include "host/model_io.hpp"

#include "host/errors.hpp"
#include "host/input_limits.hpp"

#if BASESKIN_HAVE_ASSIMP
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "host/assimp_mesh.hpp"
#endif

namespace bs {

#if !BASESKIN_HAVE_ASSIMP
RiggedModel load_rigged_model(const std::string& path) {
    check_model_input(path, "model");
    throw UnsupportedError(path + ": cannot read models: this build has no assimp (install libassimp-dev and rebuild)");
}
#else
namespace {

using Globals = std::map<const aiNode*, aiMatrix4x4>;

// Global transforms of every node under `node` at its default (file) transforms.
void accumulate_defaults(const aiNode* node, const aiMatrix4x4& parent, Globals& out) {
    const aiMatrix4x4 global = parent * node->mTransformation;
    out[node] = global;
    for (unsigned c = 0; c < node->mNumChildren; ++c) accumulate_defaults(node->mChildren[c], global, out);
}

Globals default_globals(const aiScene& scene) {
    Globals g;
    accumulate_defaults(scene.mRootNode, aiMatrix4x4(), g);
    return g;
}

// Every (mesh index, node holding it).
void mesh_nodes(const aiNode* node, std::vector<std::pair<unsigned, const aiNode*>>& out) {
    for (unsigned m = 0; m < node->mNumMeshes; ++m) out.push_back({node->mMeshes[m], node});
    for (unsigned c = 0; c < node->mNumChildren; ++c) mesh_nodes(node->mChildren[c], out);
}

Rigid<double> rigid_of(const aiMatrix4x4& m, const std::string& path, const std::string& what) {
    aiVector3D scaling, position;
    aiQuaternion rotation;
    m.Decompose(scaling, rotation, position);
    Rigid<double> r{normalized(Quat<double>{rotation.w, rotation.x, rotation.y, rotation.z}), {position.x, position.y, position.z}};
    if (!std::isfinite(r.rotation.w + r.rotation.x + r.rotation.y + r.rotation.z) || !within_input_magnitude(r.translation))
        throw InputError(path + ": " + what + ": a transform whose rotation is not finite or whose translation is " +
                         outside_input_magnitude_text());
    return r;
}

// Each node's parent as the tree of children gives it (some loaders, e.g. Half-Life's MDL, set mParent
// otherwise than they list children: the walk is what the rest of the reader follows).
using Parents = std::map<const aiNode*, const aiNode*>;
void parents_of(const aiNode* node, Parents& out) {
    for (unsigned c = 0; c < node->mNumChildren; ++c) {
        out[node->mChildren[c]] = node;
        parents_of(node->mChildren[c], out);
    }
}

const aiNode* parent_in(const Parents& parents, const aiNode* n) {
    auto it = parents.find(n);
    return it == parents.end() ? nullptr : it->second;
}

// The lowest node that is an ancestor of (or is) every one of `bones` (not empty), in time linear in the
// nodes climbed through: the first bone's ancestors are numbered from it upwards, and each other bone climbs
// only to the first node whose numbered ancestor is known. Climbing from one bone until a node held them
// all had taken the cube of a chain's length (a glTF chain of 2,000 joints: 10.8 s; 4,000 past the time
// limit).
const aiNode* lowest_common_ancestor(const std::set<const aiNode*>& bones, const Parents& parents) {
    std::vector<const aiNode*> first_line;  // the first bone and its ancestors, upwards
    std::map<const aiNode*, std::size_t> reaches;  // a node → the index in first_line of its lowest ancestor there
    for (const aiNode* n = *bones.begin(); n; n = parent_in(parents, n)) {
        reaches[n] = first_line.size();
        first_line.push_back(n);
    }
    std::size_t top = 0;
    for (const aiNode* b : bones) {
        std::vector<const aiNode*> climbed;
        const aiNode* n = b;
        for (; !reaches.count(n); n = parent_in(parents, n)) climbed.push_back(n);  // every node is under the scene's root
        const std::size_t meets = reaches.at(n);
        for (const aiNode* c : climbed) reaches[c] = meets;
        top = std::max(top, meets);
    }
    return first_line[top];
}

// The kept hierarchy (header): bone nodes, their ancestors up to the lowest common one, their leaf
// children; parents first.
std::vector<const aiNode*> kept_nodes(const std::set<const aiNode*>& bones, const Parents& parents) {
    std::set<const aiNode*> kept(bones.begin(), bones.end());
    for (const aiNode* b : bones)
        for (unsigned c = 0; c < b->mNumChildren; ++c)
            if (b->mChildren[c]->mNumChildren == 0 && b->mChildren[c]->mNumMeshes == 0) kept.insert(b->mChildren[c]);
    const aiNode* top = lowest_common_ancestor(bones, parents);
    std::set<const aiNode*> climbed;  // a node climbed through once has had its ancestors up to the top kept
    for (const aiNode* b : bones)
        for (const aiNode* n = b; n && n != top && climbed.insert(n).second; n = parent_in(parents, n)) kept.insert(n);
    kept.insert(top);
    std::vector<const aiNode*> order;
    std::vector<const aiNode*> stack{top};
    while (!stack.empty()) {
        const aiNode* n = stack.back();
        stack.pop_back();
        order.push_back(n);
        for (unsigned c = n->mNumChildren; c-- > 0;)
            if (kept.count(n->mChildren[c])) stack.push_back(n->mChildren[c]);
    }
    return order;
}

// Bind transforms of the kept nodes (parents first): a bone's from its offset matrix; an ancestor above the
// bones from its first kept child's, through that child's local transform (its default transform may be
// of another pose or scale than the bind pose: an armature node far from the body); a node under a bone
// rides on its parent's.
std::vector<aiMatrix4x4> bind_transforms(const std::vector<const aiNode*>& kept, const std::map<const aiNode*, aiMatrix4x4>& bone_bind,
                                         const Parents& parents) {
    std::vector<aiMatrix4x4> bind(kept.size());
    std::vector<bool> known(kept.size(), false);
    for (std::size_t j = 0; j < kept.size(); ++j)
        if (bone_bind.count(kept[j])) bind[j] = bone_bind.at(kept[j]), known[j] = true;
    for (std::size_t j = kept.size(); j-- > 0;) {  // children after parents: walk back up
        if (known[j]) continue;
        for (std::size_t c = j + 1; c < kept.size(); ++c)
            if (parent_in(parents, kept[c]) == kept[j] && known[c]) {
                bind[j] = bind[c] * aiMatrix4x4(kept[c]->mTransformation).Inverse();
                known[j] = true;
                break;
            }
    }
    for (std::size_t j = 0; j < kept.size(); ++j) {
        if (known[j]) continue;
        const auto parent = std::find(kept.begin(), kept.begin() + std::ptrdiff_t(j), parent_in(parents, kept[j]));
        bind[j] = bind[std::size_t(parent - kept.begin())] * kept[j]->mTransformation;  // the top is an ancestor: known
        known[j] = true;
    }
    return bind;
}

template <class Key>
const Key* key_at(const Key* keys, unsigned count, double t, double& s) {
    // The last key at or before t (the first when t precedes them all).
    const Key* after = std::upper_bound(keys, keys + count, t, [](double time, const Key& k) { return time < k.mTime; });
    const unsigned i = after == keys ? 0u : unsigned(after - keys) - 1;
    if (i + 1 >= count || keys[i + 1].mTime <= keys[i].mTime) {
        s = 0;
        return keys + i;
    }
    s = std::clamp((t - keys[i].mTime) / (keys[i + 1].mTime - keys[i].mTime), 0.0, 1.0);
    return keys + i;
}

aiMatrix4x4 channel_transform(const aiNodeAnim& ch, double t, const aiMatrix4x4& fallback) {
    aiVector3D scaling, position;
    aiQuaternion rotation;
    fallback.Decompose(scaling, rotation, position);
    double s;
    if (ch.mNumPositionKeys) {
        const aiVectorKey* k = key_at(ch.mPositionKeys, ch.mNumPositionKeys, t, s);
        position = s > 0 ? k[0].mValue + float(s) * (k[1].mValue - k[0].mValue) : k[0].mValue;
    }
    if (ch.mNumScalingKeys) {
        const aiVectorKey* k = key_at(ch.mScalingKeys, ch.mNumScalingKeys, t, s);
        scaling = s > 0 ? k[0].mValue + float(s) * (k[1].mValue - k[0].mValue) : k[0].mValue;
    }
    if (ch.mNumRotationKeys) {
        const aiQuatKey* k = key_at(ch.mRotationKeys, ch.mNumRotationKeys, t, s);
        rotation = k[0].mValue;
        if (s > 0) aiQuaternion::Interpolate(rotation, k[0].mValue, k[1].mValue, float(s));
    }
    return aiMatrix4x4(scaling, rotation.Normalize(), position);
}

// A channel's keys must have finite times in order: key_at searches them by bisection, and a NaN time (or
// one before its predecessor) silently gave other frames' transforms.
template <class Key>
void check_key_times(const Key* keys, unsigned count, const std::string& where) {
    for (unsigned i = 0; i < count; ++i) {
        if (!std::isfinite(keys[i].mTime)) throw InputError(where + " key " + std::to_string(i) + ": its time is not finite");
        if (i > 0 && keys[i].mTime < keys[i - 1].mTime)
            throw InputError(where + " key " + std::to_string(i) + ": its time " + number_text(keys[i].mTime) + " precedes the key before it (" +
                             number_text(keys[i - 1].mTime) + ")");
    }
}

void check_channel(const aiNodeAnim& ch, const std::string& animation) {
    const std::string node = animation + ", node " + quoted_text(ch.mNodeName.C_Str());
    check_key_times(ch.mPositionKeys, ch.mNumPositionKeys, node + ", position");
    check_key_times(ch.mRotationKeys, ch.mNumRotationKeys, node + ", rotation");
    check_key_times(ch.mScalingKeys, ch.mNumScalingKeys, node + ", scaling");
}

void read_animation(const aiScene& scene, const std::vector<const aiNode*>& kept, const std::vector<aiMatrix4x4>& bind,
                    const Parents& parents, const std::string& path, RiggedModel& model) {
    if (scene.mNumAnimations == 0) return;
    const aiAnimation& anim = *scene.mAnimations[0];
    const double ticks_per_second = anim.mTicksPerSecond > 0 ? anim.mTicksPerSecond : 25.0;
    const double seconds = anim.mDuration / ticks_per_second;
    model.fps = kModelFps;
    // Its frames are bounded as a motion file's are (host/input_limits.hpp), so that animate reads back the
    // motion rig writes from it.
    const double most_frames = seconds * kModelFps + 1;
    if (!std::isfinite(seconds) || seconds < 0 || most_frames * double(kept.size()) > double(kMaxModelSamples) || most_frames > double(kMaxMotionFrames))
        throw InputError(path + ": animation " + quoted_text(anim.mName.C_Str()) + ": " + std::to_string(anim.mDuration) + " ticks at " +
                         std::to_string(ticks_per_second) + " per second give more than " + std::to_string(kMaxModelSamples) +
                         " node transforms or " + std::to_string(kMaxMotionFrames) + " frames at " + std::to_string(int(kModelFps)) +
                         " frames/s, or no duration");
    std::map<std::string, const aiNodeAnim*> channels;
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
        check_channel(*anim.mChannels[c], path + ": animation " + quoted_text(anim.mName.C_Str()));
        channels[anim.mChannels[c]->mNodeName.C_Str()] = anim.mChannels[c];
    }
    std::vector<aiMatrix4x4> inverse_bind;
    for (aiMatrix4x4 b : bind) inverse_bind.push_back(b.Inverse());
    // Only the kept nodes and the top's ancestors move them: each frame poses those alone, each node by
    // the channel found for it once (posing the whole scene each frame had made 20,000 nodes beside a
    // body of 4 take 46 s for 18,000 frames).
    std::vector<const aiNode*> posed;  // the top's ancestors from the scene's root down, then the kept nodes
    for (const aiNode* n = parent_in(parents, kept.front()); n; n = parent_in(parents, n)) posed.insert(posed.begin(), n);
    const std::size_t above = posed.size();
    posed.insert(posed.end(), kept.begin(), kept.end());
    std::map<const aiNode*, std::size_t> posed_index;
    std::vector<const aiNodeAnim*> channel_of;
    std::vector<std::ptrdiff_t> parent_index;  // into posed; -1 for the scene's root
    for (std::size_t i = 0; i < posed.size(); ++i) {
        posed_index[posed[i]] = i;
        auto it = channels.find(posed[i]->mName.C_Str());
        channel_of.push_back(it == channels.end() ? nullptr : it->second);
        const aiNode* parent = parent_in(parents, posed[i]);
        parent_index.push_back(parent ? std::ptrdiff_t(posed_index.at(parent)) : -1);  // parents come first
    }
    const std::size_t frames = std::size_t(std::floor(seconds * kModelFps + 1e-9)) + 1;
    std::vector<aiMatrix4x4> globals(posed.size());
    for (std::size_t f = 0; f < frames; ++f) {
        const double t = std::min(double(f) / kModelFps * ticks_per_second, anim.mDuration);  // in ticks
        for (std::size_t i = 0; i < posed.size(); ++i) {
            const aiNode& n = *posed[i];
            const aiMatrix4x4 local = channel_of[i] ? channel_transform(*channel_of[i], t, n.mTransformation) : n.mTransformation;
            globals[i] = parent_index[i] < 0 ? local : globals[std::size_t(parent_index[i])] * local;
        }
        std::vector<Rigid<double>> transforms;
        for (std::size_t j = 0; j < kept.size(); ++j)
            transforms.push_back(rigid_of(globals[above + j] * inverse_bind[j], path, "frame " + std::to_string(f) + ", node " + quoted_text(kept[j]->mName.C_Str())));
        model.frames.push_back(std::move(transforms));
    }
}

using Weights = std::vector<std::vector<std::pair<const aiNode*, float>>>;  // per vertex: (node, weight > 0)

// What a prop is placed by: the scene's default transforms, its hierarchy, the kept nodes (by their index
// in the kept order) and their binds.
struct Attachments {
    const Globals& globals;
    const Parents& parents;
    const std::map<const aiNode*, int>& kept_index;
    const std::vector<aiMatrix4x4>& bind;
};

// A mesh of a skinned model that no bone weighs (a prop: eyes, a helmet, a sword held) whose node is kept
// or hangs under a kept node rides that node rigidly: appended with its vertices placed about the node's
// bind transform as the file's default pose places them about the node, each weighed 1 to it. False, and
// nothing appended, for one under no kept node (a floor, a second figure beside the body). Until
// 2026-12-07 every such mesh was left out without a word (a probe's head box on its neck bone).
bool attach_prop(const aiMesh& mesh, const aiNode* node, const Attachments& at, const std::string& path, TriangleMesh& out,
                 Weights& weights, std::size_t& skipped, std::vector<int>& polygons_using) {
    const aiNode* carrier = node;
    while (carrier && !at.kept_index.count(carrier)) carrier = parent_in(at.parents, carrier);
    if (!carrier) return false;
    const std::size_t j = std::size_t(at.kept_index.at(carrier));
    const aiMatrix4x4 about_carrier = aiMatrix4x4(at.globals.at(carrier)).Inverse() * at.globals.at(node);
    append_assimp_mesh(mesh, at.bind[j] * about_carrier, path, out, skipped, polygons_using);
    weights.resize(out.vertices.size(), {{carrier, 1.0f}});
    return true;
}

// load_rigged_model's work in the child process.
RiggedModel read_assimp_model(const std::string& path) {
    Assimp::Importer importer;
    refuse_skeleton_meshes(importer);
    const aiScene* scene = importer.ReadFile(path, aiProcess_ValidateDataStructure);
    if (!scene || !scene->mRootNode) throw InputError(path + ": cannot read as a model: " + assimp_failure(importer, path));
    RiggedModel model;
    model.source = path;
    const Globals globals = default_globals(*scene);
    std::vector<std::pair<unsigned, const aiNode*>> meshes;
    mesh_nodes(scene->mRootNode, meshes);
    // Bones, their bind transforms, and the weights they carry (by mesh vertex).
    std::map<const aiNode*, aiMatrix4x4> bone_bind;
    std::set<const aiNode*> bones;
    bool skinned = false;
    for (const auto& [m, node] : meshes) skinned = skinned || scene->mMeshes[m]->mNumBones > 0;
    std::size_t skipped = 0;
    std::vector<int> polygons_using;
    Weights weights;
    std::vector<std::pair<unsigned, const aiNode*>> props;
    for (const auto& [m, node] : meshes) {
        const aiMesh& mesh = *scene->mMeshes[m];
        if (skinned && mesh.mNumBones == 0) {  // a prop of a skinned body, or beside it: attach_props
            props.push_back({m, node});
            continue;
        }
        const std::size_t base = model.mesh.vertices.size();
        append_assimp_mesh(mesh, globals.at(node), path, model.mesh, skipped, polygons_using);
        weights.resize(model.mesh.vertices.size());
        for (unsigned b = 0; b < mesh.mNumBones; ++b) {
            const aiBone& bone = *mesh.mBones[b];
            const aiNode* bone_node = scene->mRootNode->FindNode(bone.mName);
            if (!bone_node) {  // the bones cannot be placed: the mesh alone is kept (RiggedModel::bones_dropped)
                if (model.bones_dropped.empty()) model.bones_dropped = std::string("bone \"") + bone.mName.C_Str() + "\" has no node in the hierarchy";
                continue;
            }
            bones.insert(bone_node);
            if (!bone_bind.count(bone_node)) bone_bind[bone_node] = globals.at(node) * aiMatrix4x4(bone.mOffsetMatrix).Inverse();
            for (unsigned w = 0; w < bone.mNumWeights; ++w) {
                const aiVertexWeight& vw = bone.mWeights[w];
                if (vw.mVertexId >= mesh.mNumVertices || !std::isfinite(vw.mWeight) || vw.mWeight < 0)
                    throw InputError(path + ": bone " + quoted_text(bone.mName.C_Str()) + ": weight " + std::to_string(w) + " is invalid");
                if (vw.mWeight > 0) weights[base + vw.mVertexId].push_back({bone_node, vw.mWeight});
            }
        }
    }
    auto checked = [&]() -> RiggedModel& {
        if (model.mesh.triangles.empty()) throw InputError(path + ": no polygons to sample");
        model.mesh.faces_skipped = skipped;
        refuse_rounding_far_from_origin(model.mesh, path);
        return model;
    };
    if (bones.empty() || !model.bones_dropped.empty()) {  // a mesh without bones: all of it
        for (const auto& [m, node] : props) append_assimp_mesh(*scene->mMeshes[m], globals.at(node), path, model.mesh, skipped, polygons_using);
        return checked();
    }
    Parents parents;
    parents_of(scene->mRootNode, parents);
    const std::vector<const aiNode*> kept = kept_nodes(bones, parents);
    if (kept.size() > kMaxModelNodes) throw InputError(path + ": more than " + std::to_string(kMaxModelNodes) + " nodes in the skeleton");
    std::map<const aiNode*, int> index;
    for (const aiNode* n : kept) index[n] = int(index.size());
    for (const aiNode* b : bones)
        if (!index.count(b)) throw InputError(path + ": bone " + quoted_text(b->mName.C_Str()) + " is not under the skeleton's top node");
    const std::vector<aiMatrix4x4> bind = bind_transforms(kept, bone_bind, parents);
    for (std::size_t j = 0; j < kept.size(); ++j) {
        const aiNode* n = kept[j];
        const Rigid<double> at = rigid_of(bind[j], path, "node " + quoted_text(n->mName.C_Str()) + ", its bind transform (from the bones' inverse bind matrices)");
        const aiNode* parent = parent_in(parents, n);
        model.nodes.push_back({n->mName.C_Str(), j > 0 && index.count(parent) ? index[parent] : -1, at.translation});
    }
    const Attachments attachments{globals, parents, index, bind};
    for (const auto& [m, node] : props) {
        const aiMesh& mesh = *scene->mMeshes[m];
        if (!attach_prop(mesh, node, attachments, path, model.mesh, weights, skipped, polygons_using))
            model.meshes_left_out.push_back(mesh.mName.length > 0 ? mesh.mName.C_Str() : node->mName.C_Str());
    }
    checked();
    for (const auto& vertex : weights) {
        model.weights.emplace_back();
        for (const auto& [node, w] : vertex) model.weights.back().push_back({index.at(node), w});
    }
    read_animation(*scene, kept, bind, parents, path, model);
    return model;
}

// A model through run_in_child's pipe (its source is the caller's).
std::string model_bytes(const RiggedModel& model) {
    ByteWriter out;
    put_mesh(out, model.mesh);
    out.put(model.nodes.size());
    for (const ModelNode& node : model.nodes) {
        out.put_string(node.name);
        out.put(node.parent);
        out.put(node.bind_position);
    }
    out.put(model.weights.size());
    for (const auto& vertex : model.weights) {
        std::vector<int> nodes;
        std::vector<float> weights;
        for (const auto& [node, weight] : vertex) {
            nodes.push_back(node);
            weights.push_back(weight);
        }
        out.put_vector(nodes);
        out.put_vector(weights);
    }
    out.put(model.fps);
    out.put(model.frames.size());
    for (const auto& frame : model.frames) out.put_vector(frame);
    out.put_string(model.bones_dropped);
    out.put(model.meshes_left_out.size());
    for (const std::string& name : model.meshes_left_out) out.put_string(name);
    return out.take();
}

RiggedModel model_of(std::string bytes, const std::string& path) {
    ByteReader in(std::move(bytes), path);
    RiggedModel model;
    model.source = path;
    model.mesh = get_mesh(in);
    model.nodes.resize(in.get_count(sizeof(std::size_t) + sizeof(int) + sizeof(Vec3<double>)));  // encoded sizes
    for (ModelNode& node : model.nodes) {
        node.name = in.get_string();
        node.parent = in.get<int>();
        node.bind_position = in.get<Vec3<double>>();
    }
    model.weights.resize(in.get_count(2 * sizeof(std::size_t)));
    for (auto& vertex : model.weights) {
        const std::vector<int> nodes = in.get_vector<int>();
        const std::vector<float> weights = in.get_vector<float>();
        for (std::size_t i = 0; i < nodes.size() && i < weights.size(); ++i) vertex.push_back({nodes[i], weights[i]});
    }
    model.fps = in.get<double>();
    model.frames.resize(in.get_count(sizeof(std::size_t)));
    for (auto& frame : model.frames) frame = in.get_vector<Rigid<double>>();
    model.bones_dropped = in.get_string();
    model.meshes_left_out.resize(in.get_count(sizeof(std::size_t)));
    for (std::string& name : model.meshes_left_out) name = in.get_string();
    return model;
}

}  // namespace

RiggedModel load_rigged_model(const std::string& path) {
    if (is_ply_path(path)) {  // a mesh without bones, through the project's reader (host/mesh_io.hpp)
        RiggedModel model;
        model.source = path;
        model.mesh = load_ply_mesh(path);
        return model;
    }
    check_model_input(path, "model");
    return model_of(run_in_child(path, "assimp", assimp_seconds(path), [&] { return model_bytes(read_assimp_model(path)); }), path);
}
#endif

}  // namespace bs
