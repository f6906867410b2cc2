// A body from a rigged model (host/model_rig.hpp), on a tiny model made here: a cylinder of radius 1 along
// y with three nodes. Its rig has the expected spheres, radii fitted to the mesh, points on the mesh with
// interpolated weights, and a motion whose bones move exactly as the model's nodes.
#include <gtest/gtest.h>

#include <cmath>

#include "host/errors.hpp"
#include "host/metaball_skinner.hpp"
#include "host/model_rig.hpp"
#include "tests/support/message_of.hpp"

namespace bs {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSegments = 24, kRings = 13;  // rings at y = 0, 0.5, ..., 6

// Nodes Base (0,0,0) → Mid (0,3,0) → Top (0,6,0); vertices below y = 3 bound to Base, above to Mid,
// blended over y in [2, 4]. Frame 0 is the bind pose; frame 1 turns Mid 90° about z (Top follows).
RiggedModel cylinder_model() {
    RiggedModel m;
    m.source = "cylinder model";
    for (int r = 0; r < kRings; ++r)
        for (int s = 0; s < kSegments; ++s) {
            const double a = 2 * kPi * s / kSegments, y = 0.5 * r;
            m.mesh.vertices.push_back({std::cos(a), y, std::sin(a)});
            const float upper = float(std::clamp((y - 2) / 2, 0.0, 1.0));
            std::vector<std::pair<int, float>> w;
            if (upper < 1) w.push_back({0, 1 - upper});
            if (upper > 0) w.push_back({1, upper});
            m.weights.push_back(w);
        }
    for (int r = 0; r + 1 < kRings; ++r)
        for (int s = 0; s < kSegments; ++s) {
            int a = r * kSegments + s, b = r * kSegments + (s + 1) % kSegments;
            m.mesh.triangles.push_back({a, b, b + kSegments});
            m.mesh.triangles.push_back({a, b + kSegments, a + kSegments});
        }
    m.nodes = {{"Base", -1, {0, 0, 0}}, {"Mid", 0, {0, 3, 0}}, {"Top", 1, {0, 6, 0}}};
    m.fps = 24;
    const Rigid<double> identity = Rigid<double>::identity();
    const Quat<double> turn = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
    const Rigid<double> about_mid{turn, Vec3<double>{0, 3, 0} - rotate(turn, Vec3<double>{0, 3, 0})};
    m.frames = {{identity, identity, identity}, {identity, about_mid, about_mid}};
    return m;
}

TEST(ModelRig, SpheresAtTheNodesWithRadiiFittedToTheMesh) {
    RiggedModel model = cylinder_model();
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    ASSERT_EQ(s.bone_count(), 2u);
    for (const Sphere<double>& sphere : s.spheres) EXPECT_NEAR(sphere.radius, 1.0, 1e-9) << "the mesh's radius";
    EXPECT_EQ(rig.bone_of_node[0], 0);
    EXPECT_EQ(rig.bone_of_node[1], 1);
}

TEST(ModelRig, SiblingsAtOnePlaceShareOneSphere) {
    // Top and Twin are both Mid's children at (0, 6, 0): two copies of one bone, unmerged (as
    // FBX/huesitos.fbx's Bone.002 and Bone.003); Twin carries a bone of its own onward.
    RiggedModel model = cylinder_model();
    model.nodes.push_back({"Twin", 1, {0, 6, 0}});
    model.nodes.push_back({"TwinTip", 3, {2, 6, 0}});
    for (auto& frame : model.frames) frame.resize(model.nodes.size(), Rigid<double>::identity());
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 4u) << "Base, Mid, Top (Twin's too), TwinTip";
    ASSERT_EQ(s.bone_count(), 3u);
    EXPECT_EQ(rig.rig.merged, std::vector<std::string>{"Twin"});
    EXPECT_EQ(rig.rig.sphere_of_joint[3], rig.rig.sphere_of_joint[2]);
    EXPECT_EQ(s.bones[2][0], rig.rig.sphere_of_joint[2]) << "Twin's bone starts at the shared sphere";
    EXPECT_EQ(rig.rig.driver_of_bone[2], 3) << "and turns with Twin";
}

// The cylinder's two halves as two chains under a common ancestor (an armature node at the base): Lower
// (0, 0.1, 0) → LowerTip (0, 2.9, 0) carries the vertices below y = 3, Upper (0, 3, 0) → Top (0, 6, 0)
// those above, and the armature's bone to Upper runs inside the lower half.
RiggedModel two_chain_model(bool armature_weighted) {
    RiggedModel m = cylinder_model();
    m.nodes = {{"Armature", -1, {0, 0, 0}}, {"Lower", 0, {0, 0.1, 0}}, {"LowerTip", 1, {0, 2.9, 0}}, {"Upper", 0, {0, 3, 0}}, {"Top", 3, {0, 6, 0}}};
    for (auto& vertex : m.weights)
        for (auto& [node, w] : vertex) node = node == 0 ? 1 : 3;  // Base's vertices to Lower, Mid's to Upper
    if (armature_weighted) m.weights[0] = {{0, 1.0f}};
    m.frames.clear();
    return m;
}

TEST(ModelRig, BonesFromAnUnweightedCommonAncestorAreBridges) {
    ModelRig rig = rig_model(two_chain_model(false));
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.bone_count(), 4u) << "Armature → Lower, Lower → LowerTip, Armature → Upper, Upper → Top";
    std::vector<std::string> bridged;
    for (int k : s.bridges) bridged.push_back(s.names[std::size_t(s.bones[std::size_t(k)][1])]);
    EXPECT_EQ(bridged, (std::vector<std::string>{"Lower", "Upper"}));
}

TEST(ModelRig, AWeightedCommonAncestorTurnsNoBridge) {
    EXPECT_TRUE(rig_model(two_chain_model(true)).rig.skeleton.bridges.empty()) << "the mesh follows the armature node";
}

// A cylinder of radius 1 tessellated so coarsely along its axis (rings at y = 0, 1.2, 4.8, 6) that no
// vertex counts for the sphere at Mid (y = 3): the rings are nearer Base and Top.
TEST(ModelRig, ASphereNoVertexCountsForTakesItsRadiusFromTheSurface) {
    RiggedModel model = cylinder_model();
    model.mesh = {};
    const double ring_y[] = {0, 1.2, 4.8, 6};
    for (double y : ring_y)
        for (int k = 0; k < kSegments; ++k) {
            const double a = 2 * kPi * k / kSegments;
            model.mesh.vertices.push_back({std::cos(a), y, std::sin(a)});
        }
    for (int r = 0; r + 1 < 4; ++r)
        for (int k = 0; k < kSegments; ++k) {
            int a = r * kSegments + k, b = r * kSegments + (k + 1) % kSegments;
            model.mesh.triangles.push_back({a, b, b + kSegments});
            model.mesh.triangles.push_back({a, b + kSegments, a + kSegments});
        }
    model.weights.assign(model.mesh.vertices.size(), {{0, 1.0f}});
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    // The surface's distance from the axis runs from cos(π/24) (a facet's middle) to 1 (its edges).
    for (const Sphere<double>& sphere : s.spheres) EXPECT_NEAR(sphere.radius, 1.0, 0.01) << "the mesh's radius";
}

// Mid's vertices (weight >= 1/2: the rings from y = 3 to 6) lie up the axis from it, reaching 3 along it
// at 1 from it: the end joint is 2 up, where a sphere of the mesh's radius reaches the mesh's end.
TEST(ModelRig, AWeightedLeafGetsAnEndJointTowardsItsVertices) {
    RiggedModel model = cylinder_model();
    model.nodes.pop_back();  // Mid becomes a weighted leaf
    for (auto& frame : model.frames) frame.pop_back();
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    EXPECT_EQ(s.names[2], "Mid_end");
    EXPECT_NEAR(norm(s.spheres[2].centre - Vec3<double>{0, 5, 0}), 0, 1e-12);
    EXPECT_EQ(rig.bone_of_node[1], 1) << "Mid's vertices move with the bone to its end";
}

// A leaf whose vertices lie all round it (rings from y = 2.5 to 3.5 about Mid at y = 3: their mean is the
// node) gives no way to go: the end joint goes on along the bone arriving at it by half its length (the
// way had been rounding noise, tilting a cube's end bone 52°).
TEST(ModelRig, ALeafWhoseVerticesLieAllRoundItGoesOnAlongItsBone) {
    RiggedModel model = cylinder_model();
    model.nodes.pop_back();
    for (auto& frame : model.frames) frame.pop_back();
    for (std::size_t v = 0; v < model.weights.size(); ++v)
        model.weights[v] = {{std::fabs(model.mesh.vertices[v].y - 3) <= 0.5 ? 1 : 0, 1.0f}};
    const Skeleton& s = rig_model(model).rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    EXPECT_NEAR(norm(s.spheres[2].centre - Vec3<double>{0, 4.5, 0}), 0, 1e-12);
}

// A leaf whose own vertices run across the bone arriving at it (a leg's node at the hip, below a
// sideways pelvis bone, as Half-Life's man.mdl has it): its end joint goes down the leg, not on along the
// pelvis, and the sphere-mesh holds the whole leg (along the pelvis, by half its length, the end joint
// made a short sideways bone and left most of the leg out).
TEST(ModelRig, ALeafWhoseVerticesRunAcrossItsBoneGetsAnEndJointAlongThem) {
    RiggedModel model = cylinder_model();
    model.nodes = {{"Pelvis", -1, {-2, 0, 0}}, {"Leg", 0, {0, 0, 0}}};
    for (auto& vertex : model.weights) vertex = {{1, 1.0f}};
    model.frames.clear();
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    EXPECT_EQ(s.names[2], "Leg_end");
    EXPECT_NEAR(norm(s.spheres[2].centre - Vec3<double>{0, 5, 0}), 0, 1e-12) << "the leg's reach less its radius, up it";
    const SphereMeshCoverage coverage = sphere_mesh_coverage(s, sample_model(model, &rig, 2000, 3).positions);
    EXPECT_EQ(coverage.share_beyond_mean_radius, 0.0);
    EXPECT_LT(coverage.farthest, 0.6);
}

// Weights blended linearly along the whole bone (Base 1 − y/6, Mid y/6, Mid a leaf at the cylinder's top):
// Mid's own vertices (half or more of their weight) are the bone's upper half, below it. The way to them
// would fold the end joint back into the bone (a probe's tube: refused by baseline as a fold past 180°):
// it goes on along the bone instead. Weights that add up to 3 give the same skeleton (the half is of each
// vertex's own total: raw weights of 1/2 had moved it).
TEST(ModelRig, ALeafWhoseVerticesLieBackAlongItsBoneGoesOnAlongIt) {
    for (const float total : {1.0f, 3.0f}) {
        RiggedModel model = cylinder_model();
        model.nodes = {{"Base", -1, {0, 0, 0}}, {"Mid", 0, {0, 6, 0}}};
        model.frames.clear();
        for (std::size_t v = 0; v < model.weights.size(); ++v) {
            const float up = float(model.mesh.vertices[v].y / 6);
            model.weights[v].clear();
            if (up < 1) model.weights[v].push_back({0, total * (1 - up)});
            if (up > 0) model.weights[v].push_back({1, total * up});
        }
        const Skeleton& s = rig_model(model).rig.skeleton;
        ASSERT_EQ(s.spheres.size(), 3u) << "weights adding up to " << total;
        EXPECT_EQ(s.names[2], "Mid_end");
        EXPECT_NEAR(norm(s.spheres[2].centre - Vec3<double>{0, 9, 0}), 0, 1e-12) << "weights adding up to " << total;
    }
}

// The share of points beyond the spheres' mean radius outside the sphere-mesh, and the farthest: a bridge
// holds none of them.
TEST(ModelRig, CoverageCountsThePointsOutsideTheSphereMesh) {
    Skeleton s = make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{4, 4, 0}, 1.0}}, {{0, 1}, {1, 2}}, {}, "two bones");
    const std::vector<Vec3<double>> points{{2, 0.5, 0}, {2, 1.5, 0}, {2, 3.5, 0}, {-4, 0, 0}};
    SphereMeshCoverage c = sphere_mesh_coverage(s, points);
    EXPECT_DOUBLE_EQ(c.mean_radius, 1.0);
    EXPECT_DOUBLE_EQ(c.share_beyond_mean_radius, 0.25) << "(-4, 0) alone: (2, 3.5) is 2.5 beyond the first bone but 1 beyond the second";
    EXPECT_NEAR(c.farthest, 3.0, 1e-12);
    set_bridges(s, {1}, "two bones");
    c = sphere_mesh_coverage(s, points);
    EXPECT_DOUBLE_EQ(c.share_beyond_mean_radius, 0.5) << "the bridge holds no point: (2, 3.5) is 2.5 beyond the first";
    EXPECT_NEAR(c.farthest, 3.0, 1e-12);
}

TEST(ModelRig, AWeightedNodeWhoseChildrenAllMergedGetsAnEndJoint) {
    RiggedModel model = cylinder_model();
    model.nodes[2] = {"MidTip", 1, {0, 3, 0}};  // at Mid's place: merges into it, Mid would turn no bone
    ModelRig rig = rig_model(model);
    const Skeleton& s = rig.rig.skeleton;
    ASSERT_EQ(s.spheres.size(), 3u);
    EXPECT_EQ(s.names[2], "Mid_end");
    EXPECT_NEAR(norm(s.spheres[2].centre - Vec3<double>{0, 5, 0}), 0, 1e-12);
    ASSERT_GE(rig.bone_of_node[1], 0) << "Mid's vertices need a bone that moves as Mid";
    ModelPoints points = sample_model(model, &rig, 500, 2);
    for (std::size_t i = 0; i < points.positions.size(); ++i)
        if (points.positions[i].y > 4.5) {
            EXPECT_EQ(points.influences[i].bone[0], std::uint32_t(rig.bone_of_node[1])) << i;
        }
}

TEST(ModelRig, VerticesOnTheAxisDoNotGiveARadiusOfZero) {
    RiggedModel model = cylinder_model();
    for (auto& v : model.mesh.vertices) v = {0, v.y, 0};  // a degenerate mesh: every vertex on the axis
    model.mesh.vertices.push_back({1, 1, 0});             // one triangle with area, to sample
    model.mesh.triangles.push_back({0, int(model.mesh.vertices.size()) - 1, kSegments});
    model.weights.resize(model.mesh.vertices.size());
    ModelRig rig = rig_model(model);
    for (const Sphere<double>& s : rig.rig.skeleton.spheres) EXPECT_GT(s.radius, 0);
}

TEST(ModelRig, ANodeMovingWithinItsParentIsRefusedForTheMotion) {
    RiggedModel model = cylinder_model();
    model.frames[1][2] = {Quat<double>::identity(), Vec3<double>{0, 2, 0}};  // Top slides up while Mid holds
    model.frames[1][1] = Rigid<double>::identity();
    ModelRig rig = rig_model(model);
    const std::string message = testing::message_of<UnsupportedError>([&] { model_motion(rig, model); });
    EXPECT_NE(message.find("cylinder model: frame 1: node \"Top\" lies 2 from where its parent \"Mid\" carries its bind position"),
              std::string::npos)
        << message;
}

// glTF's simple_skin sample: its two joints lie at one place, so its nodes span nothing, and a rounding's
// slide (5e-7 there) was refused as a motion within the parent: the body's size is its mesh's too.
TEST(ModelRig, NodesAtOnePlaceKeepAnAnimationThatSlidesThemByARounding) {
    RiggedModel model = cylinder_model();
    model.nodes[1].bind_position = model.nodes[2].bind_position = {0, 0, 0};
    const Quat<double> turn = axis_angle(Vec3<double>{0, 0, 1}, kPi / 4);
    const Rigid<double> identity = Rigid<double>::identity(), turned{turn, Vec3<double>{0, 0, 0}};
    const Rigid<double> slid{turn, Vec3<double>{5e-7, 0, 0}};  // Top's rounding: 5e-7 from where Mid carries it
    model.frames = {{identity, identity, identity}, {identity, turned, slid}};
    ModelRig rig = rig_model(model);
    EXPECT_EQ(model_motion(rig, model).frame_count(), 2u);
    model.frames[1][2].translation = {0.01, 0, 0};  // beyond 1e-3 of the body's 6: refused
    EXPECT_THROW(model_motion(rig, model), UnsupportedError);
}

TEST(ModelRig, PointsLieOnTheMeshWithTheModelsWeights) {
    RiggedModel model = cylinder_model();
    ModelRig rig = rig_model(model);
    ModelPoints points = sample_model(model, &rig, 5000, 3);
    ASSERT_EQ(points.positions.size(), 5000u);
    ASSERT_EQ(points.influences.size(), 5000u);
    const double chord = std::cos(kPi / kSegments);  // the facets' distance to the axis at their middle
    for (std::size_t i = 0; i < points.positions.size(); ++i) {
        const Vec3<double>& p = points.positions[i];
        const double rho = std::hypot(p.x, p.z);
        ASSERT_GE(rho, chord - 1e-12) << i;
        ASSERT_LE(rho, 1 + 1e-12) << i;
        ASSERT_GE(p.y, -1e-12);
        ASSERT_LE(p.y, 6 + 1e-12);
        const Influences& in = points.influences[i];
        if (p.y < 2) {  // bound to Base alone: the first bone
            ASSERT_EQ(in.bone[0], 0u) << i;
            ASSERT_FLOAT_EQ(in.weight[0], 1.0f) << i;
        }
        if (p.y > 4) {
            ASSERT_EQ(in.bone[0], 1u) << i;
        }
        ASSERT_NEAR(in.weight[0] + in.weight[1] + in.weight[2] + in.weight[3], 1.0f, 1e-6f) << i;
    }
}

// Where a triangle's corners weigh more than four bones together (four weights a vertex, three corners), a
// sampled point keeps the four heaviest: a strip of eight nodes along y, each vertex 0.7 on its own row's
// node and 0.1 on three others. The row's own node is the heaviest near its row, and the kept weights are in
// falling order (the four lightest had been kept, the heaviest dropped, in a version sorted the wrong way).
TEST(ModelRig, ASampledPointKeepsItsFourHeaviestBones) {
    RiggedModel model;
    model.source = "strip";
    constexpr int kRows = 8;
    for (int k = 0; k < kRows; ++k) model.nodes.push_back({"n" + std::to_string(k), k - 1, {0, double(k), 0}});
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < 2; ++c) {
            model.mesh.vertices.push_back({double(c), double(r), 0});
            std::vector<std::pair<int, float>> w{{r, 0.7f}};
            for (int o = 1; o <= 3; ++o) w.push_back({(r + 2 * o + c) % kRows, 0.1f});
            model.weights.push_back(w);
        }
    for (int r = 0; r + 1 < kRows; ++r) {
        model.mesh.triangles.push_back({2 * r, 2 * r + 1, 2 * r + 3});
        model.mesh.triangles.push_back({2 * r, 2 * r + 3, 2 * r + 2});
    }
    const ModelRig rig = rig_model(model);
    const ModelPoints points = sample_model(model, &rig, 2000, 7);
    int checked = 0;
    for (std::size_t i = 0; i < points.positions.size(); ++i) {
        const Influences& in = points.influences[i];
        for (int k = 1; k < kMaxInfluences; ++k) ASSERT_LE(in.weight[k], in.weight[k - 1]) << "point " << i;
        const double y = points.positions[i].y;
        const int row = int(std::lround(y)), bone = rig.bone_of_node[std::size_t(row)];
        if (bone < 0 || std::fabs(y - row) > 0.25) continue;  // between rows two nodes weigh alike
        ASSERT_EQ(int(in.bone[0]), bone) << "point " << i << " at y " << y << ": not its row's node first";
        ++checked;
    }
    EXPECT_GT(checked, 500);
}

TEST(ModelRig, TheMotionMovesEveryBoneAsItsNode) {
    RiggedModel model = cylinder_model();
    ModelRig rig = rig_model(model);
    Motion motion = model_motion(rig, model);
    ASSERT_EQ(motion.frame_count(), 2u);
    EXPECT_DOUBLE_EQ(motion.fps(), 24);
    std::vector<Vec3<double>> rest = posed_centres(rig.rig.skeleton, motion.frame(0));
    EXPECT_NEAR(norm(rest[2] - Vec3<double>{0, 6, 0}), 0, 1e-12);
    std::vector<Vec3<double>> turned = posed_centres(rig.rig.skeleton, motion.frame(1));
    EXPECT_NEAR(norm(turned[1] - Vec3<double>{0, 3, 0}), 0, 1e-12);
    EXPECT_NEAR(norm(turned[2] - Vec3<double>{-3, 3, 0}), 0, 1e-12);
    // Every bone's posed transform is its driving node's.
    std::vector<Rigid<double>> bones = posed_bones(rig.rig.skeleton, motion.frame(1));
    for (std::size_t k = 0; k < bones.size(); ++k) {
        const Rigid<double>& want = model.frames[1][std::size_t(rig.rig.driver_of_bone[k])];
        for (Vec3<double> p : {Vec3<double>{1, 0, 0}, Vec3<double>{0, 5, 1}, Vec3<double>{-2, 1, 3}})
            EXPECT_NEAR(norm(bones[k].apply(p) - want.apply(p)), 0, 1e-12) << "bone " << k;
    }
}

TEST(ModelRig, AModelWithoutBonesCanStillBeSampled) {
    RiggedModel model = cylinder_model();
    model.nodes.clear();
    model.weights.clear();
    model.frames.clear();
    EXPECT_THROW(rig_model(model), InputError);
    ModelPoints points = sample_model(model, nullptr, 100, 1);
    EXPECT_EQ(points.positions.size(), 100u);
    EXPECT_TRUE(points.influences.empty());
}

TEST(ModelRig, AModelWithoutAnimationHasNoMotion) {
    RiggedModel model = cylinder_model();
    model.frames.clear();
    ModelRig rig = rig_model(model);
    EXPECT_THROW(model_motion(rig, model), InputError);
}

TEST(ModelRig, AMeshWithoutAreaCannotBeSampled) {
    RiggedModel model = cylinder_model();
    for (auto& v : model.mesh.vertices) v = {0, 0, 0};
    EXPECT_THROW(sample_model(model, nullptr, 10, 1), InputError);
}

}  // namespace
}  // namespace bs
