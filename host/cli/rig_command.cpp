#include "host/cli/rig_command.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "host/bvh_rig.hpp"
#include "host/cli/shared_steps.hpp"
#include "host/cli/options.hpp"
#include "host/cli/report.hpp"
#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/json_io.hpp"
#include "host/model_io.hpp"
#include "host/output_file.hpp"
#include "host/ply.hpp"
#include "host/weights.hpp"

namespace bs::cli {

namespace {

// The files a rig writes in its folder: a model without bones gets points.ply alone, one without an
// animation (or one whose motion file would be too large to read back) no motion.json.
constexpr const char* kRigFiles[] = {"skeleton.json", "points.ply", "motion.json"};

// Whether `path` reads as the JSON file a rig writes under that name: a skeleton's spheres and bones,
// a motion's fps and frames (a file of the user's own under that name is no earlier rig's). A motion file
// too large for the JSON reader (an earlier version of rig wrote one of 276 MB) is known by its start, as
// write_motion begins every motion file.
bool reads_as_rig_file(const std::filesystem::path& path) {
    try {
        std::error_code error;
        if (path.filename() == "motion.json" && std::filesystem::file_size(path, error) > kMaxJsonFileBytes && !error) {
            std::ifstream in(path, std::ios::binary);
            std::string start(64, '\0');
            in.read(start.data(), std::streamsize(start.size()));
            start.resize(std::size_t(in.gcount()));
            return start.rfind("{\"fps\": ", 0) == 0 && start.find(", \"bone_count\": ") != std::string::npos;
        }
        const json_io::json doc = json_io::load(path.string());
        const bool skeleton = path.filename() == "skeleton.json";
        return doc.is_object() && doc.contains(skeleton ? "spheres" : "fps") && doc.contains(skeleton ? "bones" : "frames");
    } catch (const std::exception&) {
        return false;
    }
}

// Removes the JSON files of kRigFiles that this run did not write (`written`) from `folder` where they
// read as an earlier rig's, saying so: animate would read them with this one's points (a capture's
// skeleton with a box's points). Another file under such a name is left, and said.
void remove_earlier_rig_files(const std::filesystem::path& folder, const std::vector<std::string>& written) {
    for (const char* file : kRigFiles) {
        std::error_code error;
        if (std::find(written.begin(), written.end(), file) != written.end() || !std::filesystem::is_regular_file(folder / file, error))
            continue;
        if (!reads_as_rig_file(folder / file))
            report("note: %s is not this rig's (left as it was)\n", (folder / file).string().c_str());
        else if (std::filesystem::remove(folder / file, error))
            report("note: removed %s of an earlier rig (it does not belong to this body)\n", (folder / file).string().c_str());
        else
            report("note: %s of an earlier rig could not be removed (%s): it does not belong to this body\n",
                        (folder / file).string().c_str(), error.message().c_str());
    }
}

// Writes a rig's files into `folder` as a set (commit_together): each whole in its temporary before any
// replaces its file, so that a full disk or a failed write leaves every earlier file as it was (animate
// would read a mix of two rigs' files together); where putting one in place fails once others were (a
// rename refused), the earlier rig's files left under the later names are removed. Returns the names
// written, for remove_earlier_rig_files. `skeleton` and `motion` may be null (a model without bones, or
// without an animation).
std::vector<std::string> write_rig_files(const std::filesystem::path& folder, const Skeleton* skeleton, const PointSet& points,
                                         const Motion* motion) {
    std::vector<std::string> names;
    std::vector<std::unique_ptr<OutputFile>> files;
    const auto open = [&](const char* name) -> OutputFile& {
        names.emplace_back(name);
        return *files.emplace_back(std::make_unique<OutputFile>((folder / name).string()));
    };
    if (skeleton) write_skeleton(open("skeleton.json"), *skeleton);
    write_point_set(open("points.ply"), points, PlyFormat::BinaryLittleEndian);
    if (motion) write_motion(open("motion.json"), *motion);
    std::vector<OutputFile*> set;
    for (const std::unique_ptr<OutputFile>& file : files) set.push_back(file.get());
    commit_together(set);
    return names;
}

// The body a rig builds is read back by animate, whose readers bound every coordinate (host/input_limits.hpp):
// a body beyond the bound (a capture whose offsets are near it, with the body's radii around them) is
// refused here, before anything is written, rather than written and then refused.
void require_readable_body(const std::vector<Vec3<double>>& points, const std::string& source) {
    for (const Vec3<double>& p : points)
        if (!within_input_magnitude(p))
            throw InputError(source + ": the body built on it reaches (" + number_text(p.x, 6) + ", " + number_text(p.y, 6) + ", " +
                             number_text(p.z, 6) + "), beyond what the point readers take (" + input_magnitude_text() + "): scale it down");
}

// Why a rig writes no motion.json for `motion`: empty where animate reads that file back; else that the file
// would pass the JSON reader's limit (a rig of a ten-minute capture wrote 276 MB that animate then refused).
std::string motion_file_too_large(const Motion& motion) {
    const std::uintmax_t bytes = motion_file_bytes(motion);
    if (bytes <= kMaxJsonFileBytes) return "";
    return "no motion.json: its " + std::to_string(motion.frame_count()) + " frames would take " + std::to_string(bytes) +
           " bytes, more than the " + std::to_string(kMaxJsonFileBytes) + " a JSON file may have (README, \"Input limits\")";
}

// The share of a model's points beyond the sphere-mesh (SphereMeshCoverage) above which rig says so: Debian's
// rigged samples have 0-4.6%, Half-Life's man.mdl had 15.6% before its leaf bones followed their vertices.
constexpr double kUncoveredNoted = 0.05;

// rig's peak memory a point (2026-12-06, CMU 01_01 at 1e6 points: 204 MB).
constexpr double kRigBytesPerPoint = 210;

// The model's meshes that no bone weighs and no node of its skeleton carries, named in a note.
void note_meshes_left_out(const RiggedModel& model) {
    if (model.meshes_left_out.empty()) return;
    std::string names;
    for (const std::string& name : model.meshes_left_out) names += (names.empty() ? "" : ", ") + quoted_text(name);
    report("note: %zu mesh%s left out (%s): not skinned, and under no node of the skeleton (a mesh under one rides it)\n",
           model.meshes_left_out.size(), model.meshes_left_out.size() == 1 ? "" : "es", names.c_str());
}

void rig_model_file(const RigOptions& o) {
    RiggedModel model = load_rigged_model(o.model);
    // A model whose bones give no skeleton (none, or all at one place) can still be sampled into points.
    std::string why_no_skeleton =
        !model.bones_dropped.empty() ? "its bones were dropped (" + model.bones_dropped + ")"
        : model.nodes.empty()        ? "it has no bones (none that assimp reads)"
                                     : "";
    ModelRig rig;
    if (why_no_skeleton.empty()) try {
        rig = rig_model(model);
    } catch (const InputError& e) {
        std::string reason = e.what();  // the model's path is said once, below
        if (reason.rfind(o.model + ": ", 0) == 0) reason.erase(0, o.model.size() + 2);
        why_no_skeleton = "its bones give no skeleton (" + reason + ")";
    }
    if (!why_no_skeleton.empty()) {
        note_meshes_left_out(model);
        ModelPoints points = sample_model(model, nullptr, o.points, o.seed);
        require_readable_body(points.positions, o.model);
        const std::filesystem::path folder = prepare_folder(o.out);
        const std::vector<std::string> written = write_rig_files(folder, nullptr, make_point_set(points.positions), nullptr);
        report("rig: %s: %s: wrote %s/points.ply (%zu points over its mesh) only\n", o.model.c_str(), why_no_skeleton.c_str(),
                    o.out.c_str(), points.positions.size());
        remove_earlier_rig_files(folder, written);
        return;
    }
    ModelPoints points = sample_model(model, &rig, o.points, o.seed);
    require_readable_body(points.positions, o.model);
    PointSet set = make_point_set(points.positions);
    set.influences = points.influences;
    report("rig: %s: %zu vertices, %zu triangles, %zu nodes (%zu merged: at zero length from a parent or a sibling), %zu spheres, %zu bones (%zu bridges), %d junctions\n",
                o.model.c_str(), model.mesh.vertices.size(), model.mesh.triangles.size(), model.nodes.size(), rig.rig.merged.size(),
                rig.rig.skeleton.spheres.size(), rig.rig.skeleton.bone_count(), rig.rig.skeleton.bridges.size(), junction_count(rig.rig.skeleton));
    note_meshes_left_out(model);
    // A skeleton that leaves part of its mesh out (a limb without a bone): baseline skinning moves such
    // points with the rigid field of the nearest bones, which is no limb's motion.
    const SphereMeshCoverage coverage = sphere_mesh_coverage(rig.rig.skeleton, points.positions);
    if (coverage.share_beyond_mean_radius > kUncoveredNoted)
        report("note: %.1f%% of the points lie more than the spheres' mean radius (%.4g) outside the sphere-mesh, up to %.4g: "
                    "its bones do not reach all of the mesh (the model's hierarchy has no bone there)\n",
                    100 * coverage.share_beyond_mean_radius, coverage.mean_radius, coverage.farthest);
    std::optional<Motion> motion;
    std::string why_no_motion = model.frames.empty() ? "the model has no animation" : "";
    if (why_no_motion.empty()) try {
        motion = model_motion(rig, model);
    } catch (const UnsupportedError& e) {
        why_no_motion = std::string("no motion.json: ") + e.what();
    }
    if (motion) {
        why_no_motion = motion_file_too_large(*motion);
        if (!why_no_motion.empty()) motion.reset();
    }
    const std::filesystem::path folder = prepare_folder(o.out);
    const std::vector<std::string> written = write_rig_files(folder, &rig.rig.skeleton, set, motion ? &*motion : nullptr);
    if (!motion) {
        report("%s: wrote %s/{skeleton.json, points.ply}\n", why_no_motion.c_str(), o.out.c_str());
    } else {
        report("motion: %zu frames at %.4g frames/s; points: %zu over the mesh\n", motion->frame_count(), motion->fps(), points.positions.size());
        report("wrote %s/{skeleton.json, points.ply, motion.json}\n", o.out.c_str());
    }
    remove_earlier_rig_files(folder, written);
}

}  // namespace

void add_rig_command(CLI::App& app, RigOptions& o) {
    CLI::App* c = app.add_subcommand("rig", "build a body (sphere-mesh, points, motion) from a BVH capture or a rigged model");
    c->add_option("--model", o.model, "BVH capture, or a rigged model (FBX, Collada, glTF, X, SMD, ...)")->required()->check(CLI::ExistingFile);
    c->add_option("--points", o.points, "points sampled over the body's surface")
        ->transform(count_in_range(std::size_t(1), kMaxPoints))
        ->capture_default_str();
    // Read as counts are: an empty --seed had been taken as seed 0, not refused.
    c->add_option("--seed", o.seed, "seed of the point sampling")
        ->transform(count_in_range(0, std::numeric_limits<unsigned>::max()))
        ->capture_default_str();
    c->add_option("--out", o.out, "output folder")->required()->check(non_empty_path());
    c->callback([&o] {
        for (const char* file : kRigFiles) refuse_output_over_input("--out", (std::filesystem::path(o.out) / file).string(), {{"--model", o.model}});
    });
}

void run_rig(const RigOptions& o) {
    require_memory_for_points(o.points, kRigBytesPerPoint);
    require_folder_can_be_made(o.out);  // before the work: an --out that cannot be a folder was said after it
    if (!is_bvh_path(o.model)) return rig_model_file(o);
    BvhFile capture = load_bvh(o.model);
    BvhRig rig = rig_bvh(capture);
    // A capture too long for a motion (joints without channels make bones without values: animate refuses
    // it too) or for a motion file (animate reads the capture itself) still gives its body.
    const std::string too_long = motion_size_problem(capture.frame_count, rig.skeleton.bone_count());
    std::string why_no_motion = too_long.empty() ? "" : "no motion.json: its " + too_long;
    std::optional<Motion> motion;
    if (too_long.empty()) {
        motion = bvh_motion(rig, capture);
        why_no_motion = motion_file_too_large(*motion);
        if (!why_no_motion.empty()) why_no_motion += "; animate reads the capture itself (--motion " + o.model + ")";
    }
    std::vector<Vec3<double>> rest = demo_points(rig.skeleton, o.points, o.seed);
    require_readable_body(rest, o.model);
    PointSet set = make_point_set(rest);
    set.influences = auto_influences(rig.skeleton, rest);

    const std::filesystem::path folder = prepare_folder(o.out);
    const std::vector<std::string> written = write_rig_files(folder, &rig.skeleton, set, why_no_motion.empty() ? &*motion : nullptr);

    report("rig: %s: %zu joints (%zu merged: at zero length from a parent or a sibling), %zu spheres, %zu bones, %d junctions\n", o.model.c_str(),
                capture.joints.size(), rig.merged.size(), rig.skeleton.spheres.size(), rig.skeleton.bone_count(),
                junction_count(rig.skeleton));
    report("motion: %zu frames at %.4g frames/s; points: %zu over the surface\n", capture.frame_count, 1.0 / capture.frame_time, rest.size());
    for (const std::string& note : capture_notes(capture)) report("%s\n", note.c_str());
    if (why_no_motion.empty())
        report("wrote %s/{skeleton.json, points.ply, motion.json}\n", o.out.c_str());
    else
        report("%s: wrote %s/{skeleton.json, points.ply}\n", why_no_motion.c_str(), o.out.c_str());
    remove_earlier_rig_files(folder, written);
}

}  // namespace bs::cli
