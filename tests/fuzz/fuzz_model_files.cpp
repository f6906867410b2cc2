// libFuzzer target: mesh and model files read through assimp (host/mesh_io.hpp, host/model_io.hpp). The
// input's first byte picks the extension assimp chooses its reader by (o: OBJ, f: OFF, p: PLY, s: STL,
// m: SMD, d: Collada, g: glTF; anything else: OBJ); the rest is the file. An accepted mesh must have
// triangles whose indices are in range and finite vertices; an accepted rigged model must satisfy the
// same for its mesh, one weight set per vertex, and finite node transforms on every frame.
//
// assimp is the distribution's build, not instrumented, and runs in a child process (host/child_process.hpp)
// given BASESKIN_ASSIMP_SECONDS = 3 here (below libFuzzer's -timeout): its hangs and crashes come back as
// InputError, which is the documented answer. The fuzzer's coverage guidance sees only our side in this
// process (the PLY path, the checks before assimp, the rig, the sampling and the motion); the conversion of
// assimp's scene runs in the child, where only the contract of its result is checked.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "host/mesh_io.hpp"
#include "host/model_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

const char* extension_for(char c) {
    switch (c) {
        case 'f': return ".off";
        case 'p': return ".ply";
        case 's': return ".stl";
        case 'm': return ".smd";
        case 'd': return ".dae";
        case 'g': return ".gltf";
        default: return ".obj";
    }
}

void check_mesh(const bs::TriangleMesh& mesh) {
    using bs::fuzz::require;
    require(!mesh.triangles.empty(), "an accepted mesh without triangles");
    for (const auto& t : mesh.triangles)
        for (int v : t) require(v >= 0 && std::size_t(v) < mesh.vertices.size(), "a triangle index out of range");
    for (const bs::Vec3<double>& p : mesh.vertices) require(bs::all_finite(p), "a vertex that is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    if (size == 0) return 0;
    static const bool limited = ::setenv("BASESKIN_ASSIMP_SECONDS", "3", 1) == 0;
    fuzz::require(limited, "cannot set BASESKIN_ASSIMP_SECONDS");
    static const std::string base = fuzz::scratch_path("");
    const std::string path = base + extension_for(char(data[0]));
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
    TriangleMesh mesh;
    if (fuzz::accepted([&] { mesh = load_triangle_mesh(path); })) check_mesh(mesh);
    RiggedModel model;
    if (fuzz::accepted([&] { model = load_rigged_model(path); })) {
        if (!model.mesh.triangles.empty()) check_mesh(model.mesh);
        fuzz::require(model.weights.empty() || model.weights.size() == model.mesh.vertices.size(),
                      "a model whose weights are not one set per vertex");
        for (const auto& vertex : model.weights)
            for (const auto& [node, weight] : vertex)
                fuzz::require(node >= 0 && std::size_t(node) < model.nodes.size() && weight > 0 && std::isfinite(weight),
                              "a vertex weight of no node, or not positive");
        for (const auto& frame : model.frames) {
            fuzz::require(frame.size() == model.nodes.size(), "a frame without one transform per node");
            for (const Rigid<double>& node : frame)
                fuzz::require(fuzz::unit(node.rotation) && all_finite(node.translation), "a node transform that is not finite");
        }
        // What `baseskin rig` then does with it.
        ModelRig rig;
        const bool rigged = !model.nodes.empty() && fuzz::accepted([&] { rig = rig_model(model); });
        if (rigged) fuzz::check_skeleton(rig.rig.skeleton);
        ModelPoints points;
        if (fuzz::accepted([&] { points = sample_model(model, rigged ? &rig : nullptr, 64, 1); }))
            for (const Vec3<double>& p : points.positions) fuzz::require(all_finite(p), "a sampled point that is not finite");
        std::optional<Motion> motion;
        if (rigged && !model.frames.empty() && fuzz::accepted([&] { motion = model_motion(rig, model); }))
            for (std::size_t f = 0; f < motion->frame_count(); ++f) fuzz::check_pose(motion->frame(f), rig.rig.skeleton);
    }
    std::remove(path.c_str());
    return 0;
}
