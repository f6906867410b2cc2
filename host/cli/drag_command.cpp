#include "host/cli/drag_command.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "host/auto_rig.hpp"
#include "host/cli/shared_steps.hpp"
#include "host/cli/options.hpp"
#include "host/cli/report.hpp"
#include "host/bezier_chain.hpp"
#include "host/input_limits.hpp"
#include "host/mesh_io.hpp"
#include "host/metaball_skinner.hpp"
#include "host/output_file.hpp"
#include "host/ply.hpp"

namespace bs::cli {

namespace {

// The points to deform, as a PLY model to write back, and the format to write it in.
struct DragInput {
    PointSet set;
    PlyFormat format;
    std::string source;
};

PlyProperty triangle_list(const std::vector<std::array<int, 3>>& triangles) {
    PlyProperty faces{"vertex_indices", PlyType::Int32, true, PlyType::UInt8, {}, {}};
    for (const std::array<int, 3>& t : triangles) {
        faces.values.insert(faces.values.end(), {double(t[0]), double(t[1]), double(t[2])});
        faces.counts.push_back(3);
    }
    return faces;
}

DragInput read_input(const DragOptions& o) {
    if (!o.points.empty()) {
        PointSet set = read_point_set(o.points);  // weights checked as every command checks them, unused
        set.influences.clear();                   // and written as read, not scaled to sum to 1
        PlyFormat format = set.file.format == PlyFormat::Ascii ? PlyFormat::Ascii : PlyFormat::BinaryLittleEndian;
        return {std::move(set), format, o.points};
    }
    TriangleMesh mesh = load_triangle_mesh(o.mesh);
    if (mesh.faces_skipped > 0)
        report("note: %zu points or lines of %s (faces of fewer than 3 corners) are not written: the output's faces are triangles\n",
               mesh.faces_skipped, o.mesh.c_str());
    PointSet set = make_point_set(mesh.vertices);
    set.file.elements.push_back({"face", mesh.triangles.size(), {triangle_list(mesh.triangles)}});
    return {std::move(set), PlyFormat::BinaryLittleEndian, o.mesh};
}

// The binding file drag reads: --binding, else the extraction's beside the skeleton (where it exists).
std::string binding_file(const DragOptions& o) { return o.binding.empty() ? binding_path_for(o.skeleton) : o.binding; }

// --binding, else the extraction's binding file beside the skeleton, else the nearest joint sphere.
MetaballBinding binding_for(const DragOptions& o, const Skeleton& skeleton, const std::vector<Vec3<double>>& rest) {
    const std::string path = binding_file(o);
    if (o.binding.empty() && !std::filesystem::exists(path)) {
        report("binding: nearest joint sphere\n");
        return nearest_sphere_binding(skeleton, rest);
    }
    report("binding: %s\n", path.c_str());
    if (!o.binding.empty()) {  // given: used as given, saying so where it was made for other vertices
        BindingFile given = read_binding_file(path, rest, skeleton.spheres.size());
        if (given.made_for_other_vertices)
            report("note: %s was made for other vertices (as many, but other positions or another order): used as given\n",
                        path.c_str());
        return std::move(given.binding);
    }
    try {
        return load_binding(path, rest, skeleton.spheres.size());
    } catch (const InputError& e) {  // found, not given: say where it came from and how to pass it by
        throw InputError(std::string(e.what()) + " (the binding found beside the skeleton, as `skeleton` writes it for the vertices it read; "
                         "give --binding " + path + " to use it for these points anyway (points moved by an earlier drag), "
                         "or move that file away to bind them to the nearest joint spheres)");
    }
}

// The library's drag errors name the joint, the chain length and the target by value; the user gave them
// as flags, so the message names the flags too.
template <class Drag>
auto naming_the_flags(const DragOptions& o, Drag drag) {
    try {
        return drag();
    } catch (const InputError& e) {
        std::string flags = "--joint " + std::to_string(o.joint) + " --to " + o.target;
        if (o.chain_given) flags += " --chain " + std::to_string(o.chain);
        throw InputError(flags + " (skeleton " + o.skeleton + "): " + e.what());
    }
}

// --out-skeleton: the skeleton with its joints at `centres`, checked by the skeleton rules before anything
// is written (the paper's propagation can drag a joint onto its neighbour). A next drag of the points
// written starts from it; without it, it started again from the rest skeleton and the same drag moved the
// points a second time.
std::optional<Skeleton> dragged_skeleton(const DragOptions& o, const Skeleton& skeleton, const std::vector<Vec3<double>>& centres) {
    if (o.out_skeleton.empty()) return std::nullopt;
    Skeleton moved = skeleton;
    for (std::size_t j = 0; j < centres.size(); ++j) moved.spheres[j].centre = centres[j];
    try {
        check_skeleton(moved, "--out-skeleton " + o.out_skeleton);
    } catch (const InputError& e) {
        throw InputError(std::string(e.what()) + " (the dragged skeleton; nothing written" +
                         (o.keep_lengths ? ")" : "; add --keep-lengths to keep the bones' lengths)"));
    }
    return moved;
}

}  // namespace

void add_drag_command(CLI::App& app, DragOptions& o) {
    CLI::App* c = app.add_subcommand(
        "drag", "move one joint, propagate along its chain (Bezier, seed 001) and deform the points by metaballs");
    c->add_option("--skeleton", o.skeleton, "skeleton JSON file")->required()->check(CLI::ExistingFile);
    auto* points = c->add_option("--points", o.points, "points PLY file (x y z; other properties and faces are kept)")
                       ->check(CLI::ExistingFile);
    auto* mesh = c->add_option("--mesh", o.mesh, "triangle mesh (OBJ, PLY, OFF, ...; written back as PLY)")
                     ->check(CLI::ExistingFile);
    points->excludes(mesh);
    // Read as counts are (an empty --joint "$J" had dragged the root, as joint 0), within what any skeleton
    // holds (kMaxBones + 1 spheres); the skeleton's own range is the drag's check.
    c->add_option("--joint", o.joint, "index of the sphere to drag")
        ->required()
        ->transform(count_in_range(0, kMaxBones));
    c->add_option("--to", o.target, "new position of the joint: x,y,z")->required();
    c->add_option("--chain", o.chain,
                  "joints on the chain, the dragged one and the held end (which stays) included (default 3, or fewer where the chain ends)")
        ->transform(count_in_range(2, kMaxBones + 1));
    c->add_flag("--keep-lengths", o.keep_lengths, "keep the chain's bone lengths (FABRIK after the paper's propagation)");
    c->add_option("--binding", o.binding,
                  "vertex-to-sphere binding JSON {\"binding\": [sphere index per vertex, -1 for none]} (default: "
                  "S.binding.json beside the skeleton if it exists, as `skeleton` writes it, else the nearest joint sphere)")
        ->check(CLI::ExistingFile);
    c->add_option("--out", o.out, "output PLY")->required()->check(non_empty_path());
    c->add_option("--out-skeleton", o.out_skeleton,
                  "also write the skeleton with the dragged joints where they went, for a next drag of the points written")
        ->check(non_empty_path());
    add_threads_option(c, o.threads);
    c->callback([c, &o] {
        if (c->count("--points") + c->count("--mesh") != 1) throw CLI::RequiredError("--points or --mesh");
        // Without --binding, the binding beside the skeleton is an input too (where there is one).
        const std::vector<NamedInput> inputs{{"--skeleton", o.skeleton}, {"--points", o.points}, {"--mesh", o.mesh}, {"--binding", binding_file(o)}};
        refuse_output_over_input("--out", o.out, inputs);
        if (!o.out_skeleton.empty()) {
            refuse_output_over_input("--out-skeleton", o.out_skeleton, inputs);
            if (same_output_file(o.out_skeleton, o.out)) throw CLI::ValidationError("--out-skeleton", "names the same file as --out");
        }
        o.chain_given = c->count("--chain") > 0;
        parse_xyz("--to", o.target);
    });
}

void run_drag(const DragOptions& o) {
    report_beside({o.out, o.out_skeleton});
    Skeleton skeleton = load_skeleton(o.skeleton, SkeletonRules::Tree);  // automatic rigs have junctions
    DragInput input = read_input(o);
    PointSet& set = input.set;
    const Vec3<double> target = parse_xyz("--to", o.target);
    const int length = o.chain_given ? o.chain : naming_the_flags(o, [&] { return std::min(o.chain, chain_capacity(skeleton, o.joint)); });
    const ChainMode mode = o.keep_lengths ? ChainMode::keep_lengths : ChainMode::paper;
    std::vector<Vec3<double>> centres = naming_the_flags(o, [&] { return drag_joint(skeleton, o.joint, target, length, mode); });

    const std::optional<Skeleton> dragged = dragged_skeleton(o, skeleton, centres);

    MetaballSkinner<double> skinner(skeleton, set.positions, binding_for(o, skeleton, set.positions), input.source);
    const std::vector<Vec3<double>> displacements = sphere_displacements(skeleton, centres);
    skinner.deform(displacements, set.positions, {o.threads});
    // The points and the dragged skeleton are written together or not at all: a skeleton that could not be
    // written had left the points written without it.
    OutputFile points_file(o.out);
    std::optional<OutputFile> skeleton_file;
    if (dragged) skeleton_file.emplace(o.out_skeleton);
    write_point_set(points_file, set, input.format);
    if (dragged) write_skeleton(*skeleton_file, *dragged);
    commit_together(dragged ? std::vector<OutputFile*>{&points_file, &*skeleton_file} : std::vector<OutputFile*>{&points_file});
    note_normals_not_deformed(set);
    std::size_t moved = 0;  // against the skinner's rest points (the input's, in double)
    for (std::size_t i = 0; i < set.positions.size(); ++i) moved += norm(set.positions[i] - skinner.rest()[i]) > 0;

    const std::vector<int> chain = drag_chain(skeleton, o.joint, length);
    report("dragged joint %d along %d joints:", o.joint, length);
    for (int s : chain) report(" %d -> (%.10g, %.10g, %.10g)", s, centres[s].x, centres[s].y, centres[s].z);
    // With --keep-lengths a target the chain cannot reach is reached for (the chain stretched toward it).
    const double miss = norm(centres[std::size_t(o.joint)] - target);
    if (miss > 1e-6 * (1 + norm(target))) {
        const std::vector<Vec3<double>> rest_chain = chain_centres(skeleton, chain);
        report("\nnote: joint %d stops %.6g from --to: %s", o.joint, miss,
                    out_of_reach(rest_chain, target)        ? "out of the chain's reach with its lengths kept"
                    : too_near_to_reach(rest_chain, target) ? "too near the held joint for the chain to fold to it with its lengths kept"
                                                            : "the length-keeping solve did not reach it");
    }
    // The paper's propagation does not keep lengths: a joint dragged onto its neighbour leaves a bone of
    // (nearly) no length, which the skeleton's rules would refuse as an input.
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
        const std::size_t a = std::size_t(chain[i]), b = std::size_t(chain[i + 1]);
        const double rest = norm(skeleton.spheres[a].centre - skeleton.spheres[b].centre), now = norm(centres[a] - centres[b]);
        if (now < 1e-6 * rest)
            report("\nnote: joints %zu and %zu now meet (their bone's length %.3g, %.6g at rest); --keep-lengths keeps it", a, b, now,
                        rest);
    }
    // A region moves nothing at its farthest vertex, and a skeleton extracted from a coarse mesh has spheres
    // that hold no vertex: a drag can leave every point where it was.
    const bool joints_moved = std::any_of(displacements.begin(), displacements.end(), [](const Vec3<double>& d) { return norm(d) > 0; });
    if (moved == 0 && !joints_moved) {
        if (norm(target - skeleton.spheres[std::size_t(o.joint)].centre) == 0)
            report("\nnote: no joint moved: --to is where joint %d already is", o.joint);
        else
            report("\nnote: no joint moved: the chain already reaches as far towards --to as it can");
    } else if (moved == 0) {
        std::size_t bound = 0;  // points bound to a moved joint (a point has one joint here)
        const MetaballBinding& binding = skinner.binding();
        for (std::uint32_t j : binding.joints) bound += norm(displacements[j]) > 0;
        report("\nnote: no point moved: the moved joints' regions hold %zu point%s, and a region's farthest point stays "
                    "(a skeleton from a coarse mesh has spheres that hold none)",
                    bound, bound == 1 ? "" : "s");
    }
    report("\nwrote %zu points to %s\n", set.positions.size(), o.out.c_str());
    if (dragged) {
        report("wrote the dragged skeleton to %s (a next drag: --skeleton %s --points %s", o.out_skeleton.c_str(), o.out_skeleton.c_str(),
                    o.out.c_str());
        if (std::filesystem::exists(binding_file(o))) report(" --binding %s", binding_file(o).c_str());
        report(")\n");
    }
}

}  // namespace bs::cli
