#include "host/model_rig.hpp"

#include <algorithm>
#include <optional>
#include <cmath>
#include <random>

#include "engine/geometry/cone.hpp"
#include "host/errors.hpp"
#include "host/statistics.hpp"
#include "host/surface_graph.hpp"
#include "host/weights.hpp"

namespace bs {

namespace {

// Per node: whether some vertex weighs on it.
std::vector<bool> weighted_nodes(const RiggedModel& model) {
    std::vector<bool> weighted(model.nodes.size(), false);
    for (const auto& vertex : model.weights)
        for (const auto& [node, w] : vertex) weighted[std::size_t(node)] = true;
    return weighted;
}

// Where the end joint of a weighted node that turns no bone goes: towards the vertices it carries most of
// (at least half of each vertex's weights), short of the farthest of them along that way by their median distance from it, so that
// the end sphere's cap (its radius fitted later to about that distance) reaches the end of the limb, and at
// least half that farthest reach from the node. None where those vertices give no clear way: none of them,
// or their mean nearer the node than a quarter of their median distance from it (vertices all round it, an
// eyeball round its node, or a cube's: the way would be rounding noise; it tilted a cube's end bone 52°
// out of the cube, and gave eyes end bones 0.0002 long). The bone arriving at the node had given the way
// (half its length along it), which a model whose leaf nodes sit where the limb starts (Half-Life's
// man.mdl: its legs' nodes at the hips, below a sideways pelvis bone) turned into short sideways bones: 15%
// of the body's points lay beyond the sphere-mesh.
std::optional<Vec3<double>> end_towards_own_vertices(const RiggedModel& model, int node, double same_place) {
    const Vec3<double> at = model.nodes[std::size_t(node)].bind_position;
    std::vector<Vec3<double>> own;
    for (std::size_t v = 0; v < model.weights.size() && v < model.mesh.vertices.size(); ++v) {
        double total = 0;  // the file's weights need not add up to 1 (a probe's summed to 3)
        for (const auto& vertex_weight : model.weights[v]) total += double(vertex_weight.second);
        for (const auto& [n, w] : model.weights[v])
            if (n == node && double(w) >= 0.5 * total) own.push_back(model.mesh.vertices[v]);
    }
    if (own.empty()) return std::nullopt;
    Vec3<double> mean{0, 0, 0};
    std::vector<double> from_node;
    for (const Vec3<double>& v : own) {
        mean += (1.0 / double(own.size())) * v;
        from_node.push_back(norm(v - at));
    }
    if (!(norm(mean - at) > std::max(same_place, 0.25 * upper_median(from_node)))) return std::nullopt;
    const Vec3<double> way = normalized(mean - at);
    double reach = 0;
    std::vector<double> off_way;
    for (const Vec3<double>& v : own) {
        const double along = dot(v - at, way);
        reach = std::max(reach, along);
        off_way.push_back(norm((v - at) - along * way));
    }
    return at + std::max(reach - upper_median(off_way), 0.5 * reach) * way;
}

// The way to a leaf's own vertices is not taken where it turns back from the bone arriving at the leaf by
// more than 120° (its cosine): with weights blended linearly along each bone, a leaf's vertices of weight
// >= 1/2 are the last half of the bone arriving at it, and the way to them put the end joint back inside
// that bone (a probe's tube: the end 0.17 behind the leaf, a fold baseline refuses). A leg's node at the
// hip below a sideways pelvis bone (90°) keeps its way down the leg.
constexpr double kMostEndFoldCosine = -0.5;

// The rig's joints: the model's nodes, then an end joint for every weighted node that would turn no bone
// (a leaf, or a node whose children all sit at its place and merge into it).
std::vector<RigJoint> joints_of(const RiggedModel& model) {
    std::vector<RigJoint> joints;
    for (const ModelNode& n : model.nodes) joints.push_back({n.name, n.parent, n.bind_position});
    double scale = 0;
    for (const ModelNode& n : model.nodes)
        if (n.parent >= 0) scale = std::max(scale, norm(n.bind_position - model.nodes[std::size_t(n.parent)].bind_position));
    const std::vector<bool> weighted = weighted_nodes(model);
    std::vector<bool> turns_a_bone(model.nodes.size(), false);
    // A node turns the bone to each child that sits elsewhere (a child at its place merges into it, and
    // the child turns its own children's bones: hierarchy_rig's rule, same threshold; a child at a
    // sibling's place shares the sibling's bone, which this node turns too).
    auto apart = [&](int a, int b) {
        return norm(model.nodes[std::size_t(a)].bind_position - model.nodes[std::size_t(b)].bind_position) > kSamePlace * scale;
    };
    for (std::size_t j = 0; j < model.nodes.size(); ++j)
        if (model.nodes[j].parent >= 0 && apart(int(j), model.nodes[j].parent)) turns_a_bone[std::size_t(model.nodes[j].parent)] = true;
    for (std::size_t j = 0; j < model.nodes.size(); ++j) {
        const ModelNode& n = model.nodes[j];
        if (!weighted[j] || turns_a_bone[j]) continue;
        // Towards its own vertices, else along the bone arriving at the node (from its nearest ancestor
        // elsewhere) by half its length; a root alone with no way from its vertices has none.
        std::optional<Vec3<double>> end = end_towards_own_vertices(model, int(j), kSamePlace * scale);
        int from = n.parent;
        while (from >= 0 && !apart(int(j), from)) from = model.nodes[std::size_t(from)].parent;
        const Vec3<double> arriving = from >= 0 ? n.bind_position - model.nodes[std::size_t(from)].bind_position : Vec3<double>{0, 0, 0};
        if (end && from >= 0 && dot(normalized(*end - n.bind_position), normalized(arriving)) < kMostEndFoldCosine) end.reset();
        if (!end && from >= 0) end = n.bind_position + 0.5 * arriving;
        if (end) joints.push_back({n.name + "_end", int(j), *end});
    }
    return joints;
}

struct AxisHit {
    double distance, fraction;  // to the segment; 0 at its start, 1 at its end
};
AxisHit nearest_on_segment(Vec3<double> a, Vec3<double> b, Vec3<double> p) {
    const Vec3<double> d = b - a;
    const double u = std::clamp(dot(p - a, d) / std::max(dot(d, d), 1e-300), 0.0, 1.0);
    return {norm(p - (a + u * d)), u};
}

// The fitting rule of the header: per sphere, the distances of the points (the mesh's vertices, or points
// sampled over it) that count for it.
std::vector<std::vector<double>> axis_distances(const std::vector<Vec3<double>>& points, const Skeleton& s) {
    std::vector<std::vector<double>> distances(s.spheres.size());
    for (const Vec3<double>& v : points) {
        AxisHit best{INFINITY, 0};
        std::size_t bone = 0;
        for (std::size_t k = 0; k < s.bone_count(); ++k) {
            AxisHit hit = nearest_on_segment(s.spheres[std::size_t(s.bones[k][0])].centre, s.spheres[std::size_t(s.bones[k][1])].centre, v);
            if (hit.distance < best.distance) best = hit, bone = k;
        }
        // Beyond a segment's end the distance is not a radius (a cap, or the end of a limb): skip it.
        if (best.fraction > 0 && best.fraction < 1) distances[std::size_t(s.bones[bone][best.fraction < 0.5 ? 0 : 1])].push_back(best.distance);
    }
    return distances;
}

// Points by area over the mesh, for spheres that no vertex counts for (none where the mesh has no area).
constexpr std::size_t kRadiusSamples = 20000;
constexpr unsigned kRadiusSampleSeed = 1;
std::vector<Vec3<double>> radius_samples(const RiggedModel& model) {
    try {
        return sample_model(model, nullptr, kRadiusSamples, kRadiusSampleSeed).positions;
    } catch (const InputError&) {  // no triangle of positive area: nothing to sample
        return {};
    }
}

double shortest_bone(const Skeleton& s, int sphere) {
    double shortest = INFINITY;
    for (const auto& b : s.bones)
        if (b[0] == sphere || b[1] == sphere) shortest = std::min(shortest, norm(s.spheres[std::size_t(b[1])].centre - s.spheres[std::size_t(b[0])].centre));
    return shortest;
}

// When a model has several root bones, the rig's root is their common ancestor (an armature node), and
// the bones leaving it are links the mesh does not follow: they are bridges (host/skeleton.hpp) where the
// node turning them weighs no vertex. FBX/animation_with_skeleton.fbx hangs its second chain from the
// armature node at the far end of the first: that bone ran 3,653 long through the first chain's tube and
// held the points nearest it straight as the chain bent. Only there: an unweighted node inside a chain
// (FBX/huesitos.fbx's Bone.005) turns a bone the mesh surrounds, which its neighbours' weights carry.
void mark_bridges(const RiggedModel& model, HierarchyRig& rig) {
    const std::vector<bool> weighted = weighted_nodes(model);
    const Skeleton& s = rig.skeleton;
    std::vector<int> from_root, bridges;
    for (std::size_t k = 0; k < s.bone_count(); ++k)
        if (s.bones[k][0] == s.root_sphere) from_root.push_back(int(k));
    if (from_root.size() < 2) return;
    for (int k : from_root)
        if (!weighted[std::size_t(rig.driver_of_bone[std::size_t(k)])]) bridges.push_back(k);
    if (bridges.size() < s.bone_count()) set_bridges(rig.skeleton, std::move(bridges), model.source);
}

}  // namespace

ModelRig rig_model(const RiggedModel& model) {
    if (model.nodes.empty())
        throw InputError(model.source + ": the model has no bones" + (model.bones_dropped.empty() ? "" : " (" + model.bones_dropped + ")") +
                         " (its mesh can still be sampled into points)");
    ModelRig out;
    std::vector<std::vector<double>> by_vertices, by_samples;
    out.rig = rig_hierarchy(joints_of(model), model.source, [&](const HierarchyRig& rig, int sphere) {
        if (by_vertices.empty()) by_vertices = axis_distances(model.mesh.vertices, rig.skeleton);
        const std::vector<double>* d = &by_vertices[std::size_t(sphere)];
        if (d->empty()) {
            // No vertex counts for this sphere: a coarse mesh's rings of vertices can all lie nearer the
            // bones' other spheres (FBX/huesitos.fbx's neck: rings 72 below and 48 above its sphere).
            if (by_samples.empty()) by_samples = axis_distances(radius_samples(model), rig.skeleton);
            d = &by_samples[std::size_t(sphere)];
        }
        const double shortest = shortest_bone(rig.skeleton, sphere);
        // A floor: vertices on the axis itself (a flat or degenerate mesh) must not give a radius of 0.
        return d->empty() ? 0.25 * shortest : std::max(upper_median(*d), 0.02 * shortest);
    });
    mark_bridges(model, out.rig);
    out.bone_of_node.assign(model.nodes.size(), -1);
    for (std::size_t k = out.rig.skeleton.bone_count(); k-- > 0;) {
        const int driver = out.rig.driver_of_bone[k];
        if (std::size_t(driver) < model.nodes.size()) out.bone_of_node[std::size_t(driver)] = int(k);
    }
    return out;
}

namespace {

// The four largest of a point's bone weights, renormalised; false when it has none.
bool top_influences(std::vector<std::pair<int, double>> bone_weights, Influences& out) {
    std::sort(bone_weights.begin(), bone_weights.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    double total = 0;
    for (std::size_t i = 0; i < bone_weights.size() && i < kMaxInfluences; ++i) total += bone_weights[i].second;
    if (!(total > 0)) return false;
    out = {};
    for (std::size_t i = 0; i < bone_weights.size() && i < kMaxInfluences; ++i) {
        out.bone[i] = std::uint32_t(bone_weights[i].first);
        out.weight[i] = float(bone_weights[i].second / total);
    }
    return true;
}

}  // namespace

ModelPoints sample_model(const RiggedModel& model, const ModelRig* rig, std::size_t count, unsigned seed) {
    const TriangleMesh& mesh = model.mesh;
    std::vector<double> areas;
    for (const auto& t : mesh.triangles)
        areas.push_back(triangle_area(mesh.vertices[std::size_t(t[0])], mesh.vertices[std::size_t(t[1])], mesh.vertices[std::size_t(t[2])]));
    double total = 0;
    for (double a : areas) total += std::isfinite(a) ? a : 0;
    if (!(total > 0)) throw InputError(model.source + ": the mesh has no triangle of positive area to sample");
    std::mt19937_64 rng(seed);
    std::discrete_distribution<std::size_t> pick(areas.begin(), areas.end());
    std::uniform_real_distribution<double> unit(0, 1);
    ModelPoints out;
    std::vector<std::size_t> unweighted;
    for (std::size_t i = 0; i < count; ++i) {
        const auto& t = mesh.triangles[pick(rng)];
        // Uniform in the triangle: (1 − √u, √u (1 − v), √u v).
        const double su = std::sqrt(unit(rng)), v = unit(rng);
        const double bary[3] = {1 - su, su * (1 - v), su * v};
        Vec3<double> p{0, 0, 0};
        for (int c = 0; c < 3; ++c) p += bary[c] * mesh.vertices[std::size_t(t[c])];
        out.positions.push_back(p);
        if (!rig) continue;
        std::vector<std::pair<int, double>> bone_weights;
        for (int c = 0; c < 3; ++c) {
            if (std::size_t(t[c]) >= model.weights.size()) continue;
            for (const auto& [node, w] : model.weights[std::size_t(t[c])]) {
                const int bone = rig->bone_of_node[std::size_t(node)];
                if (bone < 0) continue;
                auto it = std::find_if(bone_weights.begin(), bone_weights.end(), [&](const auto& bw) { return bw.first == bone; });
                if (it == bone_weights.end()) bone_weights.push_back({bone, bary[c] * w});
                else it->second += bary[c] * w;
            }
        }
        out.influences.emplace_back();
        if (!top_influences(std::move(bone_weights), out.influences.back())) unweighted.push_back(i);
    }
    for (std::size_t i : unweighted) out.influences[i] = auto_influences(rig->rig.skeleton, out.positions[i]);
    return out;
}

namespace {

// A node must move as its parent carries it (rotating about its own joint is free): a translation or a
// scale within its parent would stretch a rigid bone of the sphere-mesh. Within 1e-3 of the body's size (the
// larger extent of its nodes and of its mesh: of the nodes alone, a model whose nodes all lie at one place,
// as glTF's simple_skin sample's two joints do, had a tolerance of 0, and a rounding's slide of 5e-7 cost
// it its animation) it is rounding.
void require_rigid_motion(const RiggedModel& model) {
    std::vector<Vec3<double>> positions;
    for (const ModelNode& n : model.nodes) positions.push_back(n.bind_position);
    const double tolerance = 1e-3 * std::max(largest_extent(positions), largest_extent(model.mesh.vertices));
    for (std::size_t f = 0; f < model.frames.size(); ++f)
        for (std::size_t j = 0; j < model.nodes.size(); ++j) {
            const int parent = model.nodes[j].parent;
            if (parent < 0) continue;
            const Vec3<double> at = model.nodes[j].bind_position;
            const double moved = norm(model.frames[f][j].apply(at) - model.frames[f][std::size_t(parent)].apply(at));
            if (moved > tolerance)
                throw UnsupportedError(model.source + ": frame " + std::to_string(f) + ": node " + quoted_text(model.nodes[j].name) +
                                       " lies " + number_text(moved, 4) + " from where its parent " + quoted_text(model.nodes[std::size_t(parent)].name) +
                                       " carries its bind position (translation or scale keys, or bind matrices that disagree with "
                                       "the node hierarchy): the sphere-mesh's rigid bones cannot follow that animation");
        }
}

}  // namespace

SphereMeshCoverage sphere_mesh_coverage(const Skeleton& skeleton, const std::vector<Vec3<double>>& points) {
    SphereMeshCoverage c;
    for (const Sphere<double>& sphere : skeleton.spheres) c.mean_radius += sphere.radius / double(skeleton.spheres.size());
    std::vector<Cone<double>> cones;
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k)
        if (!skeleton.is_bridge(int(k)))
            cones.push_back(make_cone(skeleton.spheres[std::size_t(skeleton.bones[k][0])], skeleton.spheres[std::size_t(skeleton.bones[k][1])]));
    long long beyond = 0;
    double farthest = 0;
    const long long n = static_cast<long long>(points.size());
#pragma omp parallel for schedule(static) reduction(+ : beyond) reduction(max : farthest)
    for (long long i = 0; i < n; ++i) {
        double outside = INFINITY;
        for (const Cone<double>& cone : cones) outside = std::min(outside, closest_point_on_bone(cone, points[std::size_t(i)]).signed_distance);
        beyond += outside > c.mean_radius;
        farthest = std::max(farthest, outside);
    }
    c.share_beyond_mean_radius = points.empty() ? 0 : double(beyond) / double(points.size());
    c.farthest = farthest;
    return c;
}

Motion model_motion(const ModelRig& rig, const RiggedModel& model) {
    if (model.frames.empty() || !(model.fps > 0)) throw InputError(model.source + ": the model has no animation");
    require_rigid_motion(model);
    const std::vector<RigJoint> joints = joints_of(model);
    std::vector<Pose> frames;
    for (const std::vector<Rigid<double>>& transforms : model.frames) {
        std::vector<Quat<double>> rotations;
        for (std::size_t j = 0; j < joints.size(); ++j)  // an end joint moves as its node
            rotations.push_back(transforms[std::size_t(j < model.nodes.size() ? int(j) : joints[j].parent)].rotation);
        frames.push_back(hierarchy_pose(rig.rig, rotations, transforms[0]));
    }
    return Motion(model.fps, std::move(frames));
}

}  // namespace bs
