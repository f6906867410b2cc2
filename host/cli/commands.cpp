#include "host/cli/commands.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>

#include <unistd.h>

#include "host/bvh_rig.hpp"
#include "host/cli/options.hpp"
#include "host/cli/report.hpp"
#include "host/cli/shared_steps.hpp"
#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "host/stopwatch.hpp"
#include "host/system_memory.hpp"
#include "host/input_limits.hpp"
#include "host/gpu_skinner.hpp"
#include "host/ply.hpp"
#include "host/local_origin.hpp"
#include "host/skinner.hpp"

namespace bs::cli {

namespace {

void add_common(CLI::App* command, DeformChoice& o, std::vector<std::string> methods) {
    command->add_option("--method", o.method, "skinning method")->transform(CLI::IsMember(methods))->capture_default_str();
    command->add_option("--backend", o.backend, "where the per-point pass runs (auto: the GPU where one is usable)")
        ->transform(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    add_threads_option(command, o.threads);
    CLI::Option* exact =
        command->add_flag("--exact", o.exact, "baseline: construct the bend per point (the reference) instead of per-frame tables");
    CLI::Option* samples = command->add_option("--table-samples", o.table_samples, "baseline: generator-angle (φ) samples per bone in the per-frame tables (the fan's grid: twice as many, at most 65536)")
                               ->transform(count_in_range(std::size_t(kMinTableSamples), std::size_t(kMaxTableSamples)))
                               ->capture_default_str();
    // Both shape baseline's tables; with another method they would silently do nothing.
    command->parse_complete_callback([&o, exact, samples] {
        for (const CLI::Option* option : {exact, samples})
            if (option->count() > 0 && o.method != "baseline")
                throw CLI::ValidationError(option->get_name(), "applies to --method baseline only, not " + o.method);
    });
}

BaselineDeformOptions baseline_options(const DeformChoice& o) {
    BaselineDeformOptions options;
    options.exact = o.exact;
    options.phi_samples = o.table_samples;
    options.fan_samples = fan_samples_for(o.table_samples);
    return options;
}

// Deforms into a host vector on the chosen backend: on the CPU, or on the GPU and copied back.
class FrameDeformer {
public:
    FrameDeformer(const Skinner& skinner, const DeformChoice& o) : skinner_(skinner), threads_(o.threads) {
        if (o.backend == "cpu" || (o.backend == "auto" && cuda::device_count() == 0)) return;
        try {
            gpu_ = std::make_unique<GpuSkinner>(skinner);
            device_out_ = cuda::DeviceArray<Vec3<float>>(gpu_->size());
        } catch (const CudaUnavailable& e) {
            throw UnsupportedError(std::string("--backend cuda: ") + e.what());
        }
    }
    const char* backend() const { return gpu_ ? "the GPU" : "the CPU"; }

    void deform(const Pose& pose, std::vector<Vec3<float>>& out) {
        if (!gpu_) return skinner_.deform(pose, out, {threads_}, &tables_);
        gpu_->deform(pose, {packed_scalars(device_out_.data()), 3});
        out = device_out_.download({});
    }

private:
    const Skinner& skinner_;
    int threads_;
    std::unique_ptr<GpuSkinner> gpu_;
    cuda::DeviceArray<Vec3<float>> device_out_;
    BaselineTableCache tables_;  // baseline on the CPU: what a frame leaves unchanged is kept for the next
};


// Frame `frame` of a motion of `frame_count` frames: frame_NNNNN.ply, its number padded to the digits of the
// motion's last frame (at least 5), so that a folder's names sort in frame order (a BVH capture may hold
// millions of frames).
std::string frame_name(std::size_t frame, std::size_t frame_count) {
    const int width = std::max<int>(5, int(std::to_string(frame_count > 0 ? frame_count - 1 : 0).size()));
    char name[48];
    std::snprintf(name, sizeof name, "frame_%0*zu.ply", width, frame);
    return name;
}

PlyFormat output_format(const std::string& choice, const PlyFile& input) {
    if (choice == "ascii") return PlyFormat::Ascii;
    if (choice == "binary") return PlyFormat::BinaryLittleEndian;
    return input.format == PlyFormat::Ascii ? PlyFormat::Ascii : PlyFormat::BinaryLittleEndian;
}

// Says when `folder` also holds frame files this run did not write (frame_NNNNN.ply, any width, other than
// the names of frames [first, last) of a motion of `frame_count` frames): an earlier run's, left as they
// were, which would otherwise read as frames of this one.
void note_other_frames(const std::filesystem::path& folder, std::size_t first, std::size_t last, std::size_t frame_count) {
    std::size_t others = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 15 || name.compare(0, 6, "frame_") != 0 || name.compare(name.size() - 4, 4, ".ply") != 0) continue;
        std::size_t frame = 0;
        const char* digits = name.c_str() + 6;
        const char* digits_end = name.c_str() + name.size() - 4;
        if (std::from_chars(digits, digits_end, frame).ptr != digits_end) continue;
        if (frame < first || frame >= last || name != frame_name(frame, frame_count)) ++others;
    }
    if (others > 0)
        report("note: %s also holds %zu frame file%s of an earlier run, left as %s\n", folder.string().c_str(), others,
                    others == 1 ? "" : "s", others == 1 ? "it was" : "they were");
}

// The deformed points, each moved by `origin` (in double: host/local_origin.hpp; an origin of 0 adds nothing,
// not even the +0 that would turn a −0 coordinate positive).
void store_positions(const std::vector<Vec3<float>>& deformed, PointSet& set, Vec3<double> origin = {0, 0, 0}) {
    const bool moved = origin.x != 0 || origin.y != 0 || origin.z != 0;
    for (std::size_t i = 0; i < deformed.size(); ++i) set.positions[i] = moved ? Vec3<double>(deformed[i]) + origin : Vec3<double>(deformed[i]);
}

// A pose deformed about `origin`: checked as given first (the local pose has no root translation, whose bound
// the skinner would no longer see), then in the local coordinates.
void deform_about(FrameDeformer& deformer, const LocalOrigin& origin, const Skeleton& skeleton, const Pose& pose,
                  std::vector<Vec3<float>>& out) {
    require_usable_pose(skeleton, pose);
    deformer.deform(origin.to_local(pose), out);
}

// Refuses, before anything is written, frames [first, last) where the method would refuse one part way
// (baseline's folded joints): the frames before it would be written, and the run stopped half done. The
// error keeps its type (its exit code) and begins with `frame_label(f)` ("walk.json: frame 12"), the frame
// named as the user knows it; `pose_of(f)` is the pose as the skinner gets it.
void require_frames_deformable(const Skinner& skinner, std::size_t first, std::size_t last,
                               const std::function<Pose(std::size_t)>& pose_of,
                               const std::function<std::string(std::size_t)>& frame_label) {
    const BaselineSkinner<float>* baseline = skinner.baseline();
    if (!baseline) return;  // the other methods deform any pose a file or capture holds
    for (std::size_t f = first; f < last; ++f) {
        try {
            baseline->check_pose(pose_of(f));
        } catch (const UnsupportedError& e) {
            throw UnsupportedError(frame_label(f) + ": " + e.what());
        } catch (const InputError& e) {
            throw InputError(frame_label(f) + ": " + e.what());
        }
    }
}

}  // namespace

namespace {

// --frames' two bounds as written, nullopt where one is omitted; CLI::ValidationError unless the text is
// "A:B" with whole numbers A < B, either omitted.
std::pair<std::optional<std::size_t>, std::optional<std::size_t>> frame_bounds(const std::string& text) {
    auto refuse = [&] { throw CLI::ValidationError(text + ": expected A:B with whole numbers A < B (either may be omitted)"); };
    auto bound = [&](const std::string& part) -> std::optional<std::size_t> {
        if (part.empty()) return std::nullopt;
        std::size_t value = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (end != part.data() + part.size()) refuse();
        // A whole number too large to hold is past any motion's end (a B there keeps the frames there are).
        if (error == std::errc::result_out_of_range) return std::numeric_limits<std::size_t>::max();
        if (error != std::errc()) refuse();
        return value;
    };
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) refuse();
    const auto first = bound(text.substr(0, colon)), last = bound(text.substr(colon + 1));
    if (first && last && *first >= *last) refuse();
    return {first, last};
}

}  // namespace

std::pair<std::size_t, std::size_t> frame_range(const std::string& text, std::size_t count) {
    const auto [a, b] = frame_bounds(text);
    const std::size_t first = std::min(a.value_or(0), count), last = std::min(b.value_or(count), count);
    if (first >= last)
        throw InputError("--frames " + text + ": no frame of the motion's " + std::to_string(count) + " in that range");
    return {first, last};
}

// The frame files [first, last) of a run into `folder`: a name there may be an input of this run (or a link
// to one), or a folder. Refused (IoError) before anything is written: a folder was found only after the
// frames before it were written.
void check_frame_files(const std::filesystem::path& folder, std::size_t first, std::size_t last, std::size_t frame_count,
                       const std::vector<NamedInput>& inputs) {
    for (std::size_t f = first; f < last; ++f) {
        const std::filesystem::path frame = folder / frame_name(f, frame_count);
        const std::string why = output_over_input(frame.string(), inputs);
        if (!why.empty()) throw IoError(why + " (the --out folder holds an input of this run, or a link to one)");
        std::error_code ignored;
        if (std::filesystem::is_directory(frame, ignored))
            throw IoError(frame.string() + ": is a folder; frame " + std::to_string(f) + " cannot be written there (nothing was written)");
    }
}

std::vector<NamedInput> animate_inputs(const AnimateOptions& o) {
    return {{"--skeleton", o.skeleton}, {"--points", o.points}, {"--pose", o.pose}, {"--motion", o.motion}};
}

void add_animate_command(CLI::App& app, AnimateOptions& o) {
    CLI::App* c = app.add_subcommand("animate", "deform a point set by a pose (one PLY) or a motion (a folder of PLYs)");
    c->add_option("--skeleton", o.skeleton, "skeleton JSON file")->required()->check(CLI::ExistingFile);
    c->add_option("--points", o.points, "points PLY file (x y z; optional bone0..3 / weight0..3)")->required()->check(CLI::ExistingFile);
    auto* pose = c->add_option("--pose", o.pose, "pose JSON file")->check(CLI::ExistingFile);
    auto* motion = c->add_option("--motion", o.motion, "motion JSON file, or a BVH capture of the skeleton `rig` built")
                       ->check(CLI::ExistingFile);
    pose->excludes(motion);
    c->add_option("--frames", o.frames, "A:B: only the motion's frames A to B-1 (either may be omitted)")
        ->needs(motion)
        ->check(CLI::Validator(
            [](std::string& text) {
                try {
                    frame_bounds(text);
                } catch (const CLI::ValidationError& e) {
                    return std::string(e.what());
                }
                return std::string();
            },
            "A:B"));
    c->add_option("--out", o.out, "output PLY (pose) or folder (motion)")->required()->check(non_empty_path());
    c->add_option("--format", o.format, "output PLY format")->transform(CLI::IsMember({"input", "ascii", "binary"}))->capture_default_str();
    c->add_flag("--auto-weights", o.auto_weights,
                "ignore the file's weights (LBS and DQS compute them from the sphere-mesh; baseline and metaball use none)");
    add_common(c, o.deform, {"lbs", "dqs", "baseline", "metaball"});
    c->callback([c, &o] {
        if (c->count("--pose") + c->count("--motion") != 1) throw CLI::RequiredError("--pose or --motion");
        // A capture read as a pose file said only that it is not JSON.
        if (!o.pose.empty() && is_bvh_path(o.pose))
            throw CLI::ValidationError("--pose", o.pose + " is a motion capture (BVH), not a pose: give it as --motion (--frames A:A+1 for one frame)");
        refuse_output_over_input("--out", o.out, animate_inputs(o));
    });
}

void add_demo_command(CLI::App& app, DemoOptions& o) {
    CLI::App* c = app.add_subcommand("demo", "animate a built-in body and write its frames: a human body moved by a motion capture (CMU 01_01 by default), "
                                             "or a chain (bend 0->135°, twist 0->180°)");
    c->add_option("--out", o.out, "output folder")->check(non_empty_path())->capture_default_str();
    c->add_option("--body", o.body, "human: a humanoid on a capture; chain: three bones")
        ->transform(CLI::IsMember({"human", "chain"}))
        ->capture_default_str();
    c->add_option("--capture", o.capture, "the human's motion capture (BVH)")->capture_default_str();
    c->add_option("--points", o.points, "number of points (default 1,000,000 human, 200,000 chain)")
        ->transform(count_in_range(std::size_t(1), kMaxPoints));
    c->add_option("--frames", o.frames, "number of frames (default 6 human, spread over the capture; 24 chain)")
        ->transform(count_in_range(std::size_t(2), std::size_t(100000)));
    add_common(c, o.deform, {"lbs", "dqs", "baseline"});
    c->callback([c, &o] {
        if (o.body == "chain" && c->count("--capture") > 0)
            throw CLI::ValidationError("--capture", "the chain has no capture (it moves the human: --body human)");
    });
}

void run_animate(const AnimateOptions& o) {
    if (!o.pose.empty()) report_beside({o.out});  // with --motion, --out is a folder
    // Every method takes any tree: chains, junctions, a root carrying several bones.
    const Method method = parse_method(o.deform.method);
    Skeleton skeleton = load_skeleton(o.skeleton, SkeletonRules::Tree);
    PointSet set = read_point_set(o.points, o.auto_weights ? WeightColumns::kept_as_read : WeightColumns::read);
    // Baseline and metaball use no weights, but a file's are checked as every method checks them (Skinner):
    // here, once, so that a refusal says how to leave them unread; the skinner then gets none.
    const bool uses_weights = method == Method::lbs || method == Method::dqs;
    if (!uses_weights && !set.influences.empty()) {
        try {
            validate_influences(set.influences, set.positions.size(), skeleton.bone_count(), o.points);
        } catch (const InputError& e) {
            throw InputError(std::string(e.what()) + " (--method " + o.deform.method + " uses no weights: --auto-weights leaves them unread)");
        }
    }
    // Deformed in float about an origin beside the body, written back in double (host/local_origin.hpp).
    const LocalOrigin origin = LocalOrigin::beside(skeleton);
    const Skeleton local_skeleton = origin.to_local(skeleton);
    Skinner skinner(method, local_skeleton, origin.to_local(set.positions), uses_weights ? std::move(set.influences) : std::vector<Influences>{},
                    o.points, baseline_options(o.deform));
    set.influences.clear();  // the file's weight columns are written as read, not as the skinner scaled them
    FrameDeformer deformer(skinner, o.deform);
    const PlyFormat format = output_format(o.format, set.file);
    std::vector<Vec3<float>> deformed;
    if (!o.pose.empty()) {
        const Pose pose = load_pose(o.pose, skeleton);
        deform_about(deformer, origin, skeleton, pose, deformed);
        store_positions(deformed, set, origin.posed_origin(pose));
        write_point_set(o.out, set, format);
        note_normals_not_deformed(set);
        return;
    }
    // A capture is read once: its notes (what its motion leaves out, as rig says them) and its motion.
    std::optional<BvhFile> capture;
    if (is_bvh_path(o.motion)) capture = load_bvh(o.motion, BvhReadAs::motion);
    Motion motion = capture ? capture_motion(*capture, skeleton) : load_motion(o.motion, skeleton);
    if (capture)
        for (const std::string& note : capture_notes(*capture)) report("%s\n", note.c_str());
    const auto [first, last] = o.frames.empty() ? std::pair<std::size_t, std::size_t>{0, motion.frame_count()}
                                                : frame_range(o.frames, motion.frame_count());
    require_frames_deformable(
        skinner, first, last, [&](std::size_t f) { return origin.to_local(motion.frame(f)); },
        [&](std::size_t f) { return o.motion + ": frame " + std::to_string(f); });
    std::filesystem::path folder = prepare_folder(o.out);
    check_frame_files(folder, first, last, motion.frame_count(), animate_inputs(o));
    for (std::size_t f = first; f < last; ++f) {
        const Pose& pose = motion.frame(f);
        deform_about(deformer, origin, skeleton, pose, deformed);
        store_positions(deformed, set, origin.posed_origin(pose));
        write_point_set((folder / frame_name(f, motion.frame_count())).string(), set, format);
    }
    report("wrote %zu frame%s of %zu points to %s\n", last - first, last - first == 1 ? "" : "s", set.positions.size(), o.out.c_str());
    if (!o.frames.empty() && frame_bounds(o.frames).second.value_or(0) > motion.frame_count())
        report("note: --frames %s runs past the motion's %zu frames: wrote frames %zu to %zu\n", o.frames.c_str(),
                    motion.frame_count(), first, last - 1);
    note_other_frames(folder, first, last, motion.frame_count());
    note_normals_not_deformed(set);
}

namespace {

// What the demo animates: a body, its poses and how to describe them.
struct DemoBody {
    Skeleton skeleton;
    std::vector<Pose> poses;
    std::string motion;                      // for the report
    std::vector<std::size_t> capture_frames;  // the human's: the capture's frame each pose is (none for the chain)
};

DemoBody chain_body(int frames) {
    DemoBody body{demo_chain(), {}, "bend 0->135 deg, twist 0->180 deg", {}};
    for (int f = 0; f < frames; ++f) body.poses.push_back(demo_pose(body.skeleton, double(f) / double(frames - 1)));
    return body;
}

// The capture's humanoid; a capture it cannot read suggests the chain.
CapturedBody human_or_chain_hint(const std::string& capture) {
    try {
        return captured_human(capture);
    } catch (const IoError& e) {
        throw IoError(std::string(e.what()) + "; or use --body chain");
    }
}

// How baseline deforms the points, as the demo reports it: by the per-frame tables, for the bones that
// have enough points to repay them (BaselineDeformOptions::min_tabulated_points), or by the direct
// construction. Empty for the other methods.
std::string baseline_route(const Skinner& skinner) {
    const BaselineSkinner<float>* baseline = skinner.baseline();
    if (!baseline) return "";
    if (baseline->deform_options().exact) return " (direct)";
    const std::vector<unsigned char>& tabulated = baseline->tabulated();
    const std::size_t count = std::size_t(std::count(tabulated.begin(), tabulated.end(), 1));
    if (count == tabulated.size()) return " (tables)";
    if (count == 0) return " (direct: too few points a bone for tables)";
    return " (tables for " + std::to_string(count) + " of " + std::to_string(tabulated.size()) + " bones)";
}

// A humanoid rigged on the capture (host/demo_body.hpp), posed by `frames` frames spread evenly over it.
DemoBody human_body(const std::string& capture, int frames) {
    CapturedBody human = human_or_chain_hint(capture);
    const Motion& motion = human.motion;
    DemoBody body{std::move(human.skeleton), {}, "", {}};
    const std::size_t last = motion.frame_count() - 1;
    for (int f = 0; f < frames; ++f) {
        body.capture_frames.push_back(last * std::size_t(f) / std::size_t(frames - 1));
        body.poses.push_back(motion.frame(body.capture_frames.back()));
    }
    body.motion = std::to_string(frames) + " frames spread over the " + std::to_string(motion.frame_count()) + " of " + capture;
    return body;
}

}  // namespace

// The demo's peak memory a point (2026-12-06, 1e6 points, baseline: the human 167 MB, the chain 155 MB; the
// human 186 MB once the rigid field's bones were kept per code, fortieth session).
constexpr double kDemoBytesPerPoint = 190;

void run_demo(const DemoOptions& o) {
    const bool human = o.body == "human";
    const std::size_t points = o.points ? o.points : human ? 1000000 : 200000;
    require_memory_for_points(points, kDemoBytesPerPoint);
    const int frames = o.frames ? o.frames : human ? 6 : 24;
    DemoBody body = human ? human_body(o.capture, frames) : chain_body(frames);
    const Skeleton& skeleton = body.skeleton;
    std::vector<Vec3<double>> rest = demo_points(skeleton, points, 2024);
    auto encode_start = SteadyClock::now();
    Skinner skinner(parse_method(o.deform.method), skeleton, rest, {}, "demo", baseline_options(o.deform));
    const double encode_seconds = seconds_since(encode_start);
    FrameDeformer deformer(skinner, o.deform);
    // A demo frame is named by its file's number, and the capture's frame it shows.
    require_frames_deformable(
        skinner, 0, std::size_t(frames), [&](std::size_t f) { return body.poses[f]; },
        [&](std::size_t f) {
            const std::string frame = "frame " + std::to_string(f);
            return human ? frame + " (frame " + std::to_string(body.capture_frames[f]) + " of " + o.capture + ")" : frame;
        });
    std::filesystem::path folder = prepare_folder(o.out);
    check_frame_files(folder, 0, std::size_t(frames), std::size_t(frames), {{"--capture", o.capture}});
    save_skeleton((folder / "skeleton.json").string(), skeleton);
    PointSet set = make_point_set(rest);
    write_point_set((folder / "rest.ply").string(), set, PlyFormat::BinaryLittleEndian);

    std::vector<Vec3<float>> deformed;
    double deform_seconds = 0;
    for (int f = 0; f < frames; ++f) {
        auto start = SteadyClock::now();
        deformer.deform(body.poses[std::size_t(f)], deformed);
        deform_seconds += seconds_since(start);
        store_positions(deformed, set);
        write_point_set((folder / frame_name(std::size_t(f), std::size_t(frames))).string(), set, PlyFormat::BinaryLittleEndian);
    }
    double points_per_second = double(points) * frames / deform_seconds;
    // The human moves as its capture does (CMU 01_01 by default, whose subject jumps more than it walks).
    const std::string who = human ? "a human moving by " + std::filesystem::path(o.capture).filename().string() : "a chain";
    report("baseskin demo: %s, %s%s on %s, %zu point%s x %d frames (%s)\n", who.c_str(), o.deform.method.c_str(),
                baseline_route(skinner).c_str(), deformer.backend(), points, points == 1 ? "" : "s", frames, body.motion.c_str());
    report("wrote %s/{skeleton.json, rest.ply, %s ... %s}\n", o.out.c_str(), frame_name(0, std::size_t(frames)).c_str(),
                frame_name(std::size_t(frames) - 1, std::size_t(frames)).c_str());
    note_other_frames(folder, 0, std::size_t(frames), std::size_t(frames));
    report("encoding: %.3g points/s; deformation: %.3g points/s (%.2f ms per frame%s)\n", double(points) / encode_seconds,
                points_per_second, 1e3 * deform_seconds / frames,
                std::string(deformer.backend()) == "the GPU" ? ", the copy back to the host included" : "");
}

}  // namespace bs::cli
