#include "host/cli/skeleton_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "host/auto_rig.hpp"
#include "host/baseline_skinner.hpp"
#include "host/cli/options.hpp"
#include "host/cli/report.hpp"
#include "host/errors.hpp"
#include "host/mesh_io.hpp"
#include "host/output_file.hpp"
#include "host/ply.hpp"
#include "host/reeb_graph.hpp"
#include "host/stopwatch.hpp"

namespace bs::cli {

namespace {

// The binding's file: --out-binding, else beside the skeleton (S.json → S.binding.json).
std::string binding_file_of(const SkeletonOptions& o) { return o.out_binding.empty() ? binding_path_for(o.out) : o.out_binding; }

struct Extraction {
    ReebGraph graph;
    AutoRig rig;
    std::vector<Vec3<double>> vertices;  // the mesh's (welded) vertices, or the points: what the binding binds
};

Extraction extract(const SkeletonOptions& o) {
    ReebOptions reeb;
    reeb.intervals = o.intervals;
    reeb.radius_coefficient = o.radius_coefficient;
    reeb.threads = o.threads;
    AutoRigOptions rig;
    rig.threads = o.threads;
    Extraction e;
    if (!o.mesh.empty()) {
        TriangleMesh mesh = load_triangle_mesh(o.mesh);
        e.graph = extract_reeb_graph(mesh, reeb, o.mesh);
        e.rig = build_auto_rig(e.graph, mesh, o.mesh, rig);
        e.vertices = std::move(mesh.vertices);
    } else {
        PointSet set = read_point_set(o.points);
        e.graph = extract_reeb_graph(set.positions, reeb, o.points);
        e.rig = build_auto_rig(e.graph, set.positions, o.points, rig);
        e.vertices = std::move(set.positions);
    }
    return e;
}

// What the extraction left aside or found odd, one clause each; empty when nothing.
std::string notes(const SurfaceReport& r) {
    std::string text;
    auto add = [&](std::size_t count, const char* what) {
        if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    };
    add(r.faces_skipped, "points or lines of the file skipped (faces of fewer than 3 corners)");
    add(r.coincident_samples, "coincident samples merged");
    add(r.degenerate_triangles, "degenerate triangles skipped");
    add(r.isolated_vertices, "isolated vertices left unbound");
    add(r.debris_parts, "small disconnected parts left unbound");
    add(r.non_manifold_edges, "non-manifold edges");
    add(r.merged_tiny_nodes, "tiny nodes merged");
    return text;
}

}  // namespace

void add_skeleton_command(CLI::App& app, SkeletonOptions& o) {
    CLI::App* c = app.add_subcommand("skeleton", "extract a sphere-mesh skeleton from a mesh or a point set "
                                                 "(Reeb graph) and write it with its vertex binding");
    auto* mesh = c->add_option("--mesh", o.mesh, "triangle mesh (OBJ, PLY, OFF, STL, glTF, ...)")->check(CLI::ExistingFile);
    auto* points = c->add_option("--points", o.points, "point set PLY file (x y z)")->check(CLI::ExistingFile);
    mesh->excludes(points);
    c->add_option("--intervals", o.intervals, "k: equal intervals of the normalised geodesic function")
        ->transform(count_in_range(std::size_t(kMinIntervals), std::size_t(kMaxIntervals)))
        ->capture_default_str();
    c->add_option("--radius-coeff", o.radius_coefficient, "c: base-vertex radius r = sqrt(c * area)")
        ->check(finite_in_range(kMinRadiusCoefficient, kMaxRadiusCoefficient))
        ->capture_default_str();
    add_threads_option(c, o.threads);
    c->add_option("--out", o.out, "skeleton JSON; the binding goes to OUT with .json replaced by .binding.json (other names: .binding.json appended) unless --out-binding names it")
        ->required()
        ->check(non_empty_path());
    c->add_option("--out-binding", o.out_binding, "the binding's file instead (needed where --out is not a regular file: standard output, a device, a pipe)")
        ->check(non_empty_path());
    c->callback([c, &o] {
        if (c->count("--mesh") + c->count("--points") != 1) throw CLI::RequiredError("--mesh or --points");
        std::error_code missing;
        // A folder is no place for the skeleton's file, whatever --out-binding says (it was told "is not a
        // regular file: give --out-binding FILE", and with that flag the folder was refused in turn).
        if (std::filesystem::is_directory(o.out, missing))
            throw CLI::ValidationError("--out", o.out + " is a folder: --out names the skeleton's JSON file (" +
                                                    (std::filesystem::path(o.out) / "skeleton.json").string() + ", say)");
        // Beside standard output, a device or a pipe there is no place for the binding's file
        // (/dev/stdout.binding.json failed after the whole extraction).
        const bool out_is_stdout = is_standard_output(o.out);
        if (o.out_binding.empty() &&
            (out_is_stdout || (std::filesystem::exists(o.out, missing) && !std::filesystem::is_regular_file(o.out, missing))))
            throw CLI::ValidationError("--out", o.out + (out_is_stdout ? " is standard output" : " is not a regular file") +
                                                    ": give --out-binding FILE for the binding");
        const char* binding_option = o.out_binding.empty() ? "--out" : "--out-binding";
        const std::vector<NamedInput> inputs{{"--mesh", o.mesh}, {"--points", o.points}};
        refuse_output_over_input("--out", o.out, inputs);
        const std::string binding_file = binding_file_of(o);
        refuse_output_over_input(binding_option, binding_file, inputs);
        if (same_output_file(binding_file, o.out)) throw CLI::ValidationError(binding_option, "the binding's file is the same file as --out");
    });
}

void run_skeleton(const SkeletonOptions& o) {
    const std::string binding_path = binding_file_of(o);
    report_beside({o.out, binding_path});
    // Opened before the extraction: an --out that cannot be written was said after it (9 s on a large mesh).
    OutputFile skeleton_file(o.out), binding_file(binding_path);
    const auto start = SteadyClock::now();
    Extraction e = extract(o);
    const double seconds = seconds_since(start);
    write_skeleton(skeleton_file, e.rig.skeleton);
    write_binding(binding_file, e.rig, e.graph, e.vertices);
    commit_together({&skeleton_file, &binding_file});
    // The graph's loops are cut after nested spheres merge, which closes some of them: "4 loops, 2 cut" read as
    // two loops left in the skeleton.
    const int cut = int(e.rig.cut_edges.size()), merged_away = e.graph.loops - cut;
    const std::string loops = std::to_string(e.graph.loops) + " loops" + (merged_away > 0 ? ": " : ", ") + std::to_string(cut) + " cut" +
                              (merged_away > 0 ? ", " + std::to_string(merged_away) + " closed where nested spheres merged" : "");
    report("skeleton: %zu spheres, %zu bones, %d junctions from %zu samples (%zu Reeb nodes, %s) in %.2f s\n",
                e.rig.skeleton.spheres.size(), e.rig.skeleton.bones.size(), junction_count(e.rig.skeleton), e.vertices.size(),
                e.graph.nodes.size(), loops.c_str(), seconds);
    std::string note = notes(e.graph.report);
    if (e.rig.detached_parts > 0)
        note += (note.empty() ? "" : ", ") + std::to_string(e.rig.detached_parts) + " small detached parts of the graph left unbound";
    if (!note.empty()) report("note: %s\n", note.c_str());
    // An extracted skeleton may fold a joint at rest beyond what baseline skinning takes: say so now, not
    // at the first animate.
    try {
        BaselineSkinner<float>(e.rig.skeleton, {}, o.out);
    } catch (const UnsupportedError& refused) {
        report("note: baseline skinning refuses this skeleton: %s; other --intervals give another skeleton\n", refused.what());
    }
    report("wrote %s and %s\n", o.out.c_str(), binding_path.c_str());
}

}  // namespace bs::cli
