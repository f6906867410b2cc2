// baseskin-bench: encoding and deformation throughput of each method on each backend, at several sizes,
// as ratios to LBS and to a copy bandwidth measured in the same run (absolute times are only meaningful
// on the machine they were taken on).
//
// Each size: the demo chain's surface points with relief; the demo's half-way pose (joint 1 bent 67.5°,
// bone 2 twisted 90°) plus a root motion, which every method deforms, its frames alternating with the pose
// a thousandth further on (every bone's table inputs change each frame, as in an animation); one warm-up,
// then `repeats` timed frames; the median is reported, beside the fastest and slowest (a row whose median frame took
// kNoisyFrames × its fastest is listed under "Timings to distrust"). "encode" is the one-off rest-time work on the host, on
// --threads like the rows (OpenMP's team): automatic weights
// for LBS and DQS (shared by the two; libigl's "encode", lbs_matrix, is given ours and computes none), the
// per-point codes for baseline, the nearest-sphere binding and radii for metaball; each timed up to three
// times (no more than `repeats`) from nothing, no warm-up, the medians reported. "baseline" deforms through the per-frame tables (their
// construction on the host is part of each frame's time, and "tables ms" is that construction alone, on
// --threads cores: it does not grow with the points; a GPU frame builds them on all the host's cores),
// "baseline-exact" constructs the bend per point. "lbs-sparse" is LBS of any number of influences
// (host/sparse_lbs_skinner.hpp) given LBS's own weights without their zero entries: the same points as
// "lbs", so its ratio is the price of the general layout over the 4-influence fast path.
// A GPU frame is timed from the host around deform() and a stream synchronisation, so it includes the
// pose table's upload and the launch. "bytes/point" counts what a pass reads and writes per point (rest
// point, influences or code, on the GPU the baseline's evaluation order too, output; for libigl's rows its own
// float64 dense arrays: lbs_matrix's row of 4m and the output, the point, its m weights and the output for
// dqs, m the bones); GB/s is that over the
// median time, and "of copy" that as a fraction of the same backend's copy bandwidth (memcpy on the CPU, on
// as many threads as the passes, each its own slice; a device-to-device copy on the GPU; each counted as
// bytes read + written, over a buffer of the same size as the method's traffic: "of copy" compares a pass with
// moving as many bytes, in cache where they fit it, not with the memory's bandwidth; a row above 1 is listed
// under "Timings to distrust").
//
// Memory (benchmarks/heap_counter.hpp counts the host heap): "resident" is what the skinner holds after
// encoding, per point (its copy of the rest points, influences or codes, the binding); "encode peak" the
// most the encoding had allocated at once beyond what was live before it, per point; "frame" the most one
// more frame allocated beyond what was live before it (tables, scratch; the output buffer exists by then:
// it is the caller's, 12 bytes a point). On the GPU, "device" is what the GpuSkinner holds after its frames
// (GpuSkinner::device_bytes), per point; the caller's output buffer is not counted. A value a row does not
// measure (libigl's memory and tables, its dqs's encode, the device on the CPU) is null in the JSON, empty in
// the CSV and "-" in the printed tables.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <omp.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "benchmarks/heap_counter.hpp"
#include "benchmarks/quality.hpp"
#include "host/cli/options.hpp"
#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "host/gpu_skinner.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"
#include "host/skinner.hpp"
#include "host/stopwatch.hpp"
#include "host/weights.hpp"

namespace {

using bs::seconds_since;
using bs::SteadyClock;

// The median of `seconds` (of an even count, the mean of the middle two, as Python's statistics.median
// takes it for the peer).
double median(std::vector<double> seconds) {
    const std::size_t half = seconds.size() / 2;
    std::sort(seconds.begin(), seconds.end());
    return seconds.size() % 2 ? seconds[half] : (seconds[half - 1] + seconds[half]) / 2;
}

// The times of `repeats` runs of something: their median (what the rows report) and their range.
struct Timing {
    double median, fastest, slowest;
};

// The times of `repeats` runs of `frame`, after one untimed warm-up run (page-in, first touch of the
// output, lazy initialisation) unless `warm_up` is false.
template <class Frame>
Timing timed(int repeats, const Frame& frame, bool warm_up = true) {
    if (warm_up) frame();
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        auto start = SteadyClock::now();
        frame();
        seconds.push_back(seconds_since(start));
    }
    const auto [fastest, slowest] = std::minmax_element(seconds.begin(), seconds.end());
    return {median(seconds), *fastest, *slowest};
}

template <class Frame>
double median_seconds(int repeats, const Frame& frame, bool warm_up = true) {
    return timed(repeats, frame, warm_up).median;
}

// A row is flagged where its median frame took this many times its fastest: on a busy machine a team of
// threads waits for a core (frames of exactly 8 ms were seen on 2 shared cores), and the median of a few
// frames, and every ratio made of it, can be off by orders of magnitude. (One slow frame among several
// leaves the median alone.)
constexpr double kNoisyFrames = 1.5;

// Encodes are timed this many times at most (the median reported; fewer where --repeats is smaller): an
// encode of 1e7 points takes seconds.
constexpr int kEncodeRepeats = 3;

// The body the bench deforms and its two poses. Timed frames alternate between the two, as an animation
// would, and every bone's table inputs differ between them, so a baseline GpuSkinner, which keeps a bone's
// tables while its inputs rest (BaselineTableCache), builds every bone's each frame, as the CPU rows do.
struct BenchBody {
    std::string name;
    bs::Skeleton skeleton;
    bs::Pose pose, next_pose;
};

// The demo's chain (three bones) at s = 0.5 of the demo's motion and a thousandth further (s = 0.501):
// joint 1's swing and bone 2's twist change.
bs::Pose chain_pose(const bs::Skeleton& skeleton, double s) {
    bs::Pose pose = bs::demo_pose(skeleton, s);
    pose.root.translation = {0.5, -0.25, 1.0};
    return pose;
}

// "chain", or "human": the human demo's humanoid (27 bones, junctions at the hips and the chest) at the
// middle frame of its capture and the frame after it (where a capture moves every joint between frames,
// as CMU's does, every bone's tables are built each frame).
BenchBody bench_body(const std::string& body, const std::string& capture) {
    if (body == "chain") {
        bs::Skeleton chain = bs::demo_chain();
        const bs::Pose pose = chain_pose(chain, 0.5), next = chain_pose(chain, 0.501);
        return {"the demo's chain (3 bones)", std::move(chain), pose, next};
    }
    bs::CapturedBody human = bs::captured_human(capture);
    // Two frames at least: of one, both poses were that frame, and a GPU row would keep its tables.
    if (human.motion.frame_count() < 2)
        throw bs::InputError(capture + ": " + std::to_string(human.motion.frame_count()) +
                             " frame: the bench times two poses of the human, two frames of its capture");
    const std::size_t frames = human.motion.frame_count(), middle = frames / 2, after = middle + 1 < frames ? middle + 1 : middle - 1;
    const bs::Pose pose = human.motion.frame(middle), next = human.motion.frame(after);
    return {"the humanoid on " + capture + " (" + std::to_string(human.skeleton.bone_count()) + " bones), frames " + std::to_string(middle) +
                " and " + std::to_string(after),
            std::move(human.skeleton), pose, next};
}

// What baseline's blended codes read of their kept field bones, per point of the body: their entries, and
// a word each; on the CPU, in the caller's order, the blended codes lie scattered and nearly every cache
// line of the words is read (counted whole), on the GPU they are sorted together (counted for the blended).
double baseline_field_bytes(const bs::BaselineSkinner<float>& baseline, bool cuda) {
    const auto& codes = baseline.codes();
    const bs::KeptFieldBones& kept = baseline.field_bones();
    const double words =
        cuda ? double(std::count_if(codes.begin(), codes.end(), [](const bs::BaselineCode& c) { return c.rigid_blend != 0.0f; })) : double(kept.refs.size());
    return (words * sizeof(std::uint32_t) + double(kept.pool.size() * sizeof(bs::FieldWeight))) / double(codes.size());
}

// Bytes one pass reads and writes per point (per-frame tables excluded: they are reported apart). On the
// GPU the baseline pass also reads its evaluation order (kernels/coherent_order.hpp); its blended codes read
// their kept field bones (baseline_field_bytes). Not counted: what the
// GPU's second baseline launch reads again for the points the first left (their codes, rest points and order,
// and 8 bytes of index written and read), so "of copy" is a lower bound there. LBS of any number of
// influences reads its offset and, per pair, a bone index and a weight (the average pair count a point).
double pass_bytes_per_point(const bs::Skinner& skinner, bool cuda) {
    const double point = 3 * sizeof(float);
    if (const bs::SparseLbsSkinner<float>* sparse = skinner.sparse())
        return point + sizeof(std::uint32_t) +
               double(sparse->influences().bones.size()) * (sizeof(std::uint32_t) + sizeof(float)) / double(sparse->size()) + point;
    switch (skinner.method()) {
        case bs::Method::lbs:
        case bs::Method::dqs: return point + sizeof(bs::Influences) + point;
        case bs::Method::baseline: return point + sizeof(bs::BaselineCode) + (cuda ? sizeof(std::uint32_t) : 0) + point + baseline_field_bytes(*skinner.baseline(), cuda);
        case bs::Method::metaball: return point + 2 * sizeof(std::uint32_t) + point;  // one binding per point
    }
    return 0;
}

// Copy bandwidth in bytes/s (read + write) over `bytes`, on as many threads as the passes (`threads`, 0: all
// cores), each copying its own slice: a one-thread memcpy is a fraction of what several cores move, and the
// passes' "of copy" came out above 1 against it.
double cpu_copy_bandwidth(std::size_t bytes, int repeats, int threads) {
    std::vector<char> from(bytes, 1), to(bytes);
    const int slices = threads > 0 ? threads : omp_get_max_threads();
    double s = median_seconds(repeats, [&] {
#pragma omp parallel for schedule(static) num_threads(slices)
        for (int k = 0; k < slices; ++k) {
            const std::size_t begin = bytes * std::size_t(k) / std::size_t(slices), end = bytes * std::size_t(k + 1) / std::size_t(slices);
            std::memcpy(to.data() + begin, from.data() + begin, end - begin);
        }
    });
    return 2.0 * double(bytes) / s;
}

double gpu_copy_bandwidth(std::size_t bytes, int repeats) {
    bs::cuda::DeviceArray<char> from(bytes), to(bytes);
    bs::cuda::fill_bytes(from.data(), 1, bytes, {});
    double s = median_seconds(repeats, [&] {
        bs::cuda::copy_on_device(to.data(), from.data(), bytes, {});
        bs::cuda::synchronize({});
    });
    return 2.0 * double(bytes) / s;
}

// The share of the points the GPU's first launch takes (its common path, deform_common_baseline_point; the
// rest go to the second, kernels/launch.hpp), counted on the host over the first million points.
double common_path_share(const bs::BaselineSkinner<float>& baseline, const std::vector<bs::BaselineBonePose<double>>& poses,
                         const bs::BaselineFrameTables& tables) {
    const std::size_t counted = std::min<std::size_t>(baseline.size(), 1000000);
    const bs::BaselineTables<double> view = tables.view();
    std::size_t taken = 0;
    for (std::size_t i = 0; i < counted; ++i) {
        bs::Vec3<double> posed;
        taken += bs::deform_common_baseline_point(baseline.codes()[i], bs::Vec3<double>(baseline.rest()[i]), baseline.bones().data(),
                                                  poses.data(), view, posed);
    }
    return double(taken) / double(counted);
}

// The per-frame tables a pose needs: their bytes (what a GPU frame uploads) and, for baseline with tables,
// the seconds to build them on the host (median of `repeats` on `threads`), the part of a frame that does
// not grow with the points (on either backend: the GPU front uploads them); 0 s for the other methods and
// for baseline-exact, which builds none.
struct FrameTableCost {
    double bytes = 0, seconds = 0;
    double common_path_share = -1;  // baseline with tables: common_path_share; -1 otherwise
    double kept_seconds = 0;        // baseline with tables: the seconds when one joint turned since the frame before
};
FrameTableCost frame_table_cost(const bs::Skinner& skinner, const bs::Pose& pose, int repeats, int threads) {
    if (const bs::BaselineSkinner<float>* baseline = skinner.baseline()) {
        const std::vector<bs::BaselineBonePose<double>> poses = baseline->frame(pose);
        bs::BaselineFrameTables tables;
        FrameTableCost cost;
        if (!baseline->deform_options().exact) {
            cost.seconds = median_seconds(repeats, [&] { tables = baseline->frame_tables(poses, {threads}); });
            cost.common_path_share = common_path_share(*baseline, poses, tables);
            // An editor's frame: the last tabulated bone's twist turned a little since the frame before (back
            // and forth), the other bones' tables kept (BaselineTableCache). No bone tabulated: nothing to keep.
            const std::vector<unsigned char>& tabulated = baseline->tabulated();
            const auto last = std::find(tabulated.rbegin(), tabulated.rend(), 1);
            bs::Pose turned = pose;
            if (last != tabulated.rend()) turned.joints[std::size_t(tabulated.rend() - last - 1)].twist_radians += 1e-3;
            const std::vector<bs::BaselineBonePose<double>> frames[2] = {poses, baseline->frame(turned)};
            bs::BaselineTableCache cache;
            int next = 0;
            cost.kept_seconds = median_seconds(repeats, [&] {
                cache.update(baseline->bones(), frames[next ^= 1], baseline->deform_options(), {threads}, tabulated);
            });
        }
        cost.bytes = double(tables.bytes() + poses.size() * sizeof(bs::BaselineBonePose<double>));
        return cost;
    }
    // What the GPU front uploads a frame (host/gpu_skinner.cpp): a matrix a bone for LBS, a dual quaternion
    // for DQS, a joint's entry and the body's motion for metaball.
    if (const bs::SparseLbsSkinner<float>* sparse = skinner.sparse()) return {double(sparse->lbs_frame(pose).size() * sizeof(bs::Mat34<float>)), 0};
    if (const bs::ClassicSkinner<float>* classic = skinner.classic())
        return {skinner.method() == bs::Method::dqs ? double(classic->dqs_frame(pose).size() * sizeof(bs::DualQuat<float>))
                                                    : double(classic->lbs_frame(pose).size() * sizeof(bs::Mat34<float>)),
                0};
    return {double(skinner.metaball()->joint_table(pose).size() * sizeof(bs::MetaballJoint<float>) + sizeof(bs::Mat34<float>)), 0};
}

// The libigl peer (benchmarks/peer_libigl.py) on the same points, weights and pose: its rows, or nothing
// with a note on stderr when it cannot run.
void write_f64(const std::filesystem::path& path, const std::vector<double>& values) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(double)));
}

std::vector<double> flat(const std::vector<bs::Vec3<double>>& points) {
    std::vector<double> out;
    for (const auto& p : points) out.insert(out.end(), {p.x, p.y, p.z});
    return out;
}
std::vector<double> flat(const std::vector<bs::Vec3<float>>& points) {
    std::vector<double> out;
    for (const auto& p : points) out.insert(out.end(), {double(p.x), double(p.y), double(p.z)});
    return out;
}

struct PeerResult {
    bool ran = false;
    double matrix_seconds = 0, lbs_seconds = 0, dqs_seconds = 0, lbs_difference = 0, dqs_difference = 0;
    std::string skipped;  // why it did not run
};

// benchmarks/peer_libigl.py: where an installed bench has it (<prefix>/share/baseskin, beside its bin/),
// else in the source tree it was built from.
std::filesystem::path peer_script() {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path installed = fs::read_symlink("/proc/self/exe", error).parent_path().parent_path() / BASESKIN_INSTALL_DATADIR /
                               "baseskin" / "peer_libigl.py";
    if (!error && fs::exists(installed, error)) return installed;
    return fs::path(BASESKIN_SOURCE_DIR) / "benchmarks" / "peer_libigl.py";
}

// `text` as one word for /bin/sh: in single quotes, each quote in it closed, escaped and reopened.
std::string shell_quoted(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// The peer's result as its script writes it, or one not run where a member is missing, not a number, or
// not finite and positive (times) or finite (differences).
PeerResult peer_result(const nlohmann::json& j) {
    PeerResult r;
    auto number = [&](const char* key, bool positive) {
        const bool usable = j.is_object() && j.contains(key) && j[key].is_number() && std::isfinite(j[key].get<double>()) &&
                            (!positive || j[key].get<double>() > 0);
        return usable ? j[key].get<double>() : std::nan("");
    };
    const double values[] = {number("lbs_matrix_seconds", true), number("lbs_seconds", true), number("dqs_seconds", true),
                             number("lbs_max_difference", false), number("dqs_max_difference", false)};
    if (std::any_of(std::begin(values), std::end(values), [](double v) { return std::isnan(v); })) return r;
    return {true, values[0], values[1], values[2], values[3], values[4], ""};
}

// The file the shell runs for `program`: the program itself where it names a path (holds a '/'), else the
// first executable of that name in PATH's folders; "" where there is none. For the output-over-input check:
// a --peer-python found through PATH had been replaced by the --csv of the same path.
std::string program_file(const std::string& program) {
    if (program.find('/') != std::string::npos) return program;
    // Split by hand: every empty piece, a trailing one included, is the current folder (getline drops a
    // trailing one); without PATH the shell searches the system's default path.
    std::string folders;
    if (const char* path = std::getenv("PATH")) {
        folders = path;
    } else {
        folders.resize(::confstr(_CS_PATH, nullptr, 0));
        if (!folders.empty()) ::confstr(_CS_PATH, folders.data(), folders.size());
        folders = folders.c_str();
    }
    for (std::size_t start = 0;;) {
        const std::size_t end = std::min(folders.find(':', start), folders.size());
        const std::string folder = folders.substr(start, end - start);
        const std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / program;
        if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate.string();
        if (end == folders.size()) return "";
        start = end + 1;
    }
}

// A check that --peer-python names a program: an empty one (an unset shell variable) had been taken as not
// given, the run going on without its peer, as an empty --json or --csv had gone without its file.
CLI::Validator non_empty_program() {
    return CLI::Validator(
        [](std::string& text) {
            return text.empty() ? std::string("expected a program (a path, or a name found through PATH), got an empty one") : std::string();
        },
        "PROGRAM");
}

PeerResult run_libigl_peer(const std::string& python, const bs::Skeleton& skeleton, const bs::Pose& pose,
                           const std::vector<bs::Vec3<double>>& rest, const std::vector<bs::Influences>& influences,
                           const std::vector<bs::Vec3<float>>& ours_lbs, const std::vector<bs::Vec3<float>>& ours_dqs, int repeats,
                           int threads) {
    namespace fs = std::filesystem;
    const std::size_t n = rest.size(), m = skeleton.bone_count();
    // A folder of this run's own (two runs at one size shared one, and the first to end removed the other's).
    std::string pattern = (fs::temp_directory_path() / "baseskin-peer-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw bs::IoError(pattern + ": cannot create the peer's folder: " + std::strerror(errno));
    const fs::path dir = pattern;
    std::vector<double> weights(n * m, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j < bs::kMaxInfluences; ++j) weights[i * m + influences[i].bone[j]] += influences[i].weight[j];
    std::vector<double> lbs_T, dqs_q, dqs_t;
    for (const bs::Rigid<double>& g : bs::posed_bones(skeleton, pose)) {
        std::array<bs::Vec3<double>, 3> columns{bs::rotate(g.rotation, bs::Vec3<double>{1, 0, 0}),
                                                bs::rotate(g.rotation, bs::Vec3<double>{0, 1, 0}),
                                                bs::rotate(g.rotation, bs::Vec3<double>{0, 0, 1})};
        for (const auto& c : columns) lbs_T.insert(lbs_T.end(), {c.x, c.y, c.z});  // rows of Aᵀ: the columns of R
        lbs_T.insert(lbs_T.end(), {g.translation.x, g.translation.y, g.translation.z});
        dqs_q.insert(dqs_q.end(), {g.rotation.x, g.rotation.y, g.rotation.z, g.rotation.w});
        dqs_t.insert(dqs_t.end(), {g.translation.x, g.translation.y, g.translation.z});
    }
    write_f64(dir / "rest", flat(rest));
    write_f64(dir / "weights", weights);
    write_f64(dir / "lbs_T", lbs_T);
    write_f64(dir / "dqs_q", dqs_q);
    write_f64(dir / "dqs_t", dqs_t);
    write_f64(dir / "ours_lbs", flat(ours_lbs));
    write_f64(dir / "ours_dqs", flat(ours_dqs));
    std::ofstream(dir / "meta.json") << nlohmann::json{{"points", n}, {"bones", m}}.dump();
    // Every word quoted for the shell: a path with a space, or shell syntax in --peer-python, is one word.
    // On as many threads as our passes: numpy's BLAS (OpenBLAS, MKL) and libigl's own parallel_for (its dqs)
    // take every core unless told.
    std::string thread_limit;
    if (threads > 0)
        for (const char* variable : {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "IGL_NUM_THREADS"})
            thread_limit += std::string(variable) + "=" + std::to_string(threads) + " ";
    const std::string command = thread_limit + shell_quoted(python) + " " + shell_quoted(peer_script().string()) + " " +
                                shell_quoted(dir.string()) + " " + std::to_string(repeats) + " > " + shell_quoted((dir / "result.json").string());
    PeerResult r;
    if (std::system(command.c_str()) == 0) r = peer_result(nlohmann::json::parse(std::ifstream(dir / "result.json"), nullptr, false));
    if (!r.ran) {
        r.skipped = "`" + command + "` failed or wrote no usable result";
        std::fprintf(stderr, "baseskin-bench: the libigl peer did not run (%s): skipped\n", r.skipped.c_str());
    }
    fs::remove_all(dir);
    return r;
}

// A value a row does not measure: null in the JSON, empty in the CSV, "-" in the tables.
constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// `value` in printf's `format`, or "-" where it was not measured.
std::string cell(const char* format, double value) {
    if (std::isnan(value)) return "-";
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

struct Row {
    std::string body;
    std::size_t points;
    std::string method, backend;
    double encode_points_per_s;
    Timing deform;  // a frame's seconds
    double bytes_per_point, copy_bandwidth, lbs_seconds;
    double frame_table_bytes;  // what a frame uploads besides nothing per point
    double frame_table_seconds;  // building them on the host (frame_table_cost)
    double resident_bytes_per_point, encode_peak_bytes_per_point, frame_peak_bytes;  // host heap
    double device_bytes_per_point;  // GPU rows only, else kNotMeasured

    double ns_per_point() const { return 1e9 * deform.median / double(points); }
    double points_per_s() const { return double(points) / deform.median; }
    double gb_per_s() const { return bytes_per_point * double(points) / deform.median / 1e9; }
    double copy_fraction() const { return gb_per_s() * 1e9 / copy_bandwidth; }
    double time_over_lbs() const { return deform.median / lbs_seconds; }
    bool noisy() const { return deform.median > kNoisyFrames * deform.fastest; }
    // Either reason print_tables lists a row under "Timings to distrust" for.
    bool distrusted() const { return noisy() || copy_fraction() > 1; }
};

// What a run was, for its files: the body as the tables name it, its threads and its frames a size, and
// the machine it ran on (the GPU's empty where no cuda rows ran): absolute figures are that machine's.
struct RunContext {
    std::string body;
    int threads, repeats;
    std::string cpu, gpu;
    int table_samples, min_tabulated_points;  // the "baseline" rows' tables (not baseline-exact's: it has none): φ samples
                                              // (the fan grid's: bs::fan_samples_for them)
};

// This machine's processor as /proc/cpuinfo names it ("model name") and its logical CPUs; "unknown
// processor" where the file has no such line (another system, or an architecture that names it otherwise).
std::string cpu_description() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, model = "unknown processor";
    while (std::getline(cpuinfo, line)) {
        const std::size_t colon = line.find(':');
        if (line.rfind("model name", 0) != 0 || colon == std::string::npos) continue;
        const std::size_t first = line.find_first_not_of(" \t", colon + 1);
        if (first != std::string::npos) model = line.substr(first);
        break;
    }
    return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " logical CPUs";
}

nlohmann::json to_json(const Row& r, const RunContext& run) {
    return {{"body", r.body},
            {"body_description", run.body},
            {"cpu", run.cpu},
            {"gpu", run.gpu.empty() ? nlohmann::json() : nlohmann::json(run.gpu)},
            {"threads", run.threads},
            {"repeats", run.repeats},
            {"baseline_table_samples", r.method == "baseline" ? nlohmann::json(run.table_samples) : nlohmann::json()},
            {"baseline_fan_samples", r.method == "baseline" ? nlohmann::json(bs::fan_samples_for(run.table_samples)) : nlohmann::json()},
            {"baseline_min_tabulated_points", r.method == "baseline" ? nlohmann::json(run.min_tabulated_points) : nlohmann::json()},
            {"points", r.points},
            {"method", r.method},
            {"backend", r.backend},
            {"encode_points_per_s", r.encode_points_per_s},
            {"deform_seconds", r.deform.median},
            {"deform_seconds_fastest", r.deform.fastest},
            {"deform_seconds_slowest", r.deform.slowest},
            {"deform_ns_per_point", r.ns_per_point()},
            {"deform_points_per_s", r.points_per_s()},
            {"bytes_per_point", r.bytes_per_point},
            {"gb_per_s", r.gb_per_s()},
            {"copy_gb_per_s", r.copy_bandwidth / 1e9},
            {"fraction_of_copy", r.copy_fraction()},
            {"time_over_lbs", r.time_over_lbs()},
            {"frame_table_bytes", r.frame_table_bytes},
            {"frame_table_seconds", r.frame_table_seconds},
            {"host_resident_bytes_per_point", r.resident_bytes_per_point},
            {"host_encode_peak_bytes_per_point", r.encode_peak_bytes_per_point},
            {"host_frame_peak_bytes", r.frame_peak_bytes},
            {"device_bytes_per_point", r.device_bytes_per_point}};
}

// The CSV's columns are the JSON's members but body_description, cpu and gpu (free text: commas, quotes),
// in the JSON's order but for baseline's three table settings, last (added after the others: columns read
// by position keep their places); a member that is null in the JSON is an empty field.
void write_csv(std::ostream& out, const std::vector<Row>& rows, const RunContext& run) {
    out << "body,threads,repeats,points,method,backend,encode_points_per_s,deform_seconds,deform_seconds_fastest,deform_seconds_slowest,"
           "deform_ns_per_point,deform_points_per_s,bytes_per_point,gb_per_s,copy_gb_per_s,fraction_of_copy,time_over_lbs,frame_table_bytes,"
           "frame_table_seconds,host_resident_bytes_per_point,host_encode_peak_bytes_per_point,host_frame_peak_bytes,device_bytes_per_point,"
           "baseline_table_samples,baseline_fan_samples,baseline_min_tabulated_points\n";
    for (const Row& r : rows) {
        out << r.body << ',' << run.threads << ',' << run.repeats << ',' << r.points << ',' << r.method << ',' << r.backend;
        for (double value : {r.encode_points_per_s, r.deform.median, r.deform.fastest, r.deform.slowest, r.ns_per_point(), r.points_per_s(), r.bytes_per_point, r.gb_per_s(),
                             r.copy_bandwidth / 1e9, r.copy_fraction(), r.time_over_lbs(), r.frame_table_bytes, r.frame_table_seconds,
                             r.resident_bytes_per_point, r.encode_peak_bytes_per_point, r.frame_peak_bytes, r.device_bytes_per_point}) {
            out << ',';
            if (!std::isnan(value)) out << value;
        }
        if (r.method == "baseline")
            out << ',' << run.table_samples << ',' << bs::fan_samples_for(run.table_samples) << ',' << run.min_tabulated_points;
        else
            out << ",,,";
        out << '\n';
    }
}

// An output file (host/output_file.hpp) opened before the run, so that a path it cannot write fails at once
// instead of after the measurements (IoError); none for an empty path.
std::unique_ptr<bs::OutputFile> open_output(const std::string& path) {
    return path.empty() ? nullptr : std::make_unique<bs::OutputFile>(path);
}

// Drops repeated values, keeping the first of each in its place.
template <class T> void keep_first_of_each(std::vector<T>& values) {
    std::vector<T> kept;
    for (const T& v : values)
        if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
    values = std::move(kept);
}

// The bench's command line.
struct BenchOptions {
    std::vector<std::size_t> sizes{10000, 100000, 1000000};
    std::vector<std::string> backends{"cpu"};
    std::vector<std::string> methods{"lbs", "lbs-sparse", "dqs", "baseline", "baseline-exact", "metaball"};
    int repeats = 7, threads = 0;
    std::string json_path, csv_path, peer_python;
    std::string gpu_tables = "host";
    int min_tabulated_points = bs::kDefaultMinTabulatedPoints;
    int table_samples = bs::kDefaultPhiSamples;
    std::string body_name = "chain";
    std::string capture = bs::kDemoCapture;
    bool quality = false;
    std::size_t quality_points = 40000;
};

// The method and backend lists as the run takes them: lbs first (the ratios need it), each once; the cuda
// rows dropped with a note where no device runs them (UnsupportedError where they were all).
void settle_lists(BenchOptions& o) {
    if (std::find(o.methods.begin(), o.methods.end(), "lbs") == o.methods.end()) o.methods.insert(o.methods.begin(), "lbs");
    std::stable_partition(o.methods.begin(), o.methods.end(), [](const std::string& m) { return m == "lbs"; });
    keep_first_of_each(o.sizes);  // a repeated value would repeat its rows under the same keys
    keep_first_of_each(o.methods);
    keep_first_of_each(o.backends);
    const bool want_cuda = std::find(o.backends.begin(), o.backends.end(), "cuda") != o.backends.end();
    if (want_cuda && bs::cuda::device_count() == 0) {
        if (o.backends.size() == 1) throw bs::UnsupportedError("--backend cuda: no CUDA device (or the CUDA backend is not built)");
        std::fprintf(stderr, "baseskin-bench: no CUDA device (or the CUDA backend is not built): cuda rows skipped\n");
        o.backends.erase(std::remove(o.backends.begin(), o.backends.end(), "cuda"), o.backends.end());
    }
    if (o.gpu_tables == "device" && std::find(o.backends.begin(), o.backends.end(), "cuda") == o.backends.end())
        std::fprintf(stderr, "baseskin-bench: --gpu-tables device has no effect without cuda rows\n");
}

// One size's points and what its methods share: the automatic weights (LBS and DQS; computed by the first
// that needs them, timed) and LBS's frame time on each backend (the ratios' reference).
struct SizeRun {
    std::size_t n;
    std::vector<bs::Vec3<double>> rest;
    std::vector<bs::Influences> influences;
    double influences_seconds = 0;
    double lbs_seconds[2] = {0, 0};  // cpu, cuda
};

// A row's name as the Skinner knows its method ("baseline-exact" is baseline, "lbs-sparse" LBS).
bs::Method method_of(const std::string& name) {
    return bs::parse_method(name == "baseline-exact" ? "baseline" : name == "lbs-sparse" ? "lbs" : name);
}

// A method's skinner for one size, and what its encoding took: points a second (the weights' time included
// for LBS and DQS), and the host heap it left resident and peaked at, per point.
struct Encoded {
    bs::Skinner skinner;
    double points_per_s, resident_bytes_per_point, peak_bytes_per_point;
};
Encoded encode(const BenchOptions& o, const bs::Skeleton& skeleton, SizeRun& size, const std::string& name) {
    const bool exact = name == "baseline-exact", sparse = name == "lbs-sparse";
    const bs::Method method = method_of(name);
    const bool classic = method == bs::Method::lbs || method == bs::Method::dqs;
    const int encode_repeats = std::min(o.repeats, kEncodeRepeats);
    if (classic && size.influences.empty())
        size.influences_seconds = median_seconds(encode_repeats, [&] { size.influences = bs::auto_influences(skeleton, size.rest); }, false);
    bs::BaselineDeformOptions options;
    options.exact = exact;
    options.min_tabulated_points = o.min_tabulated_points;
    options.phi_samples = o.table_samples;
    options.fan_samples = bs::fan_samples_for(o.table_samples);
    const std::size_t live_before_encode = bs::bench::heap_live_bytes();
    bs::bench::reset_heap_peak();
    const auto build = [&] {
        std::vector<bs::Influences> given = classic && !sparse ? size.influences : std::vector<bs::Influences>{};  // the skinner's own
        return sparse ? bs::Skinner(skeleton, size.rest, bs::to_sparse(size.influences), "bench")
                      : bs::Skinner(method, skeleton, size.rest, std::move(given), "bench", options);
    };
    auto start = SteadyClock::now();
    bs::Skinner skinner = build();
    std::vector<double> builds{seconds_since(start)};
    const double n = double(size.n);
    const double resident = double(bs::bench::heap_live_bytes() - live_before_encode) / n;
    const double peak = double(bs::bench::heap_peak_bytes() - live_before_encode) / n;
    for (int r = 1; r < encode_repeats; ++r) {
        start = SteadyClock::now();
        build();
        builds.push_back(seconds_since(start));
    }
    const double points_per_s = n / (median(std::move(builds)) + (classic ? size.influences_seconds : 0.0));
    return {std::move(skinner), points_per_s, resident, peak};
}

// The method's row on `backend`: its frames alternating between the body's two poses, timed; a further
// frame's heap peak; the copy reference of its bytes; on the GPU what the GpuSkinner holds. An LBS row
// sets the size's reference for the ratios.
Row measure_row(const BenchOptions& o, const BenchBody& body, SizeRun& size, const std::string& name, const Encoded& encoded,
                const FrameTableCost& tables, const std::string& backend) {
    const bs::Skinner& skinner = encoded.skinner;
    const std::size_t n = size.n;
    const bool cuda = backend == "cuda";
    const double bytes = pass_bytes_per_point(skinner, cuda);
    double copy, device = kNotMeasured;
    std::function<void()> frame;
    std::unique_ptr<bs::GpuSkinner> gpu;
    bs::cuda::DeviceArray<float> gpu_out;
    std::vector<bs::Vec3<float>> cpu_out;
    bool odd = false;  // which of the two poses the next frame takes
    auto next = [&]() -> const bs::Pose& { return (odd = !odd) ? body.next_pose : body.pose; };
    if (cuda) {
        gpu = std::make_unique<bs::GpuSkinner>(skinner);
        gpu->set_tables_on_device(o.gpu_tables == "device");
        gpu_out = bs::cuda::DeviceArray<float>(3 * n);
        frame = [&] {
            gpu->deform(next(), {gpu_out.data(), 3}, {});
            bs::cuda::synchronize({});
        };
    } else {
        frame = [&] { skinner.deform(next(), cpu_out, {o.threads}); };
    }
    const Timing seconds = timed(o.repeats, frame);
    const std::size_t live_before_frame = bs::bench::heap_live_bytes();
    bs::bench::reset_heap_peak();
    frame();
    const double frame_peak = double(bs::bench::heap_peak_bytes() - live_before_frame);
    if (cuda) {
        device = double(gpu->device_bytes()) / double(n);
        copy = gpu_copy_bandwidth(std::size_t(bytes * double(n) / 2), o.repeats);
    } else {
        copy = cpu_copy_bandwidth(std::size_t(bytes * double(n) / 2), o.repeats, o.threads);
    }
    if (name == "lbs") size.lbs_seconds[cuda] = seconds.median;
    // A GPU baseline row with its tables built on the device: labelled so, and what a frame uploads is its
    // poses and posed neighbourhoods; the tables' build is inside the frame's time (not measured apart).
    const bool device_tables = cuda && o.gpu_tables == "device" && name == "baseline";
    FrameTableCost row_tables = tables;
    if (device_tables)
        row_tables = {double(skinner.baseline()->bones().size() * (sizeof(bs::BaselineBonePose<double>) + sizeof(bs::LocalChain<double>))),
                      kNotMeasured};
    return {o.body_name, n, name, device_tables ? "cuda-device-tables" : backend, encoded.points_per_s, seconds, bytes, copy,
            size.lbs_seconds[cuda], row_tables.bytes, row_tables.seconds, encoded.resident_bytes_per_point, encoded.peak_bytes_per_point,
            frame_peak, device};
}

// The first of a row's figures its files hold (by the JSON's name) that is infinite; null where none is. A
// peer's times, finite and positive, can still overflow one (1,000 points over 1e-320 s): the CSV had
// written "inf", and the JSON null, as if the figure were not measured.
const char* infinite_figure(const Row& r) {
    const std::pair<const char*, double> figures[] = {{"encode_points_per_s", r.encode_points_per_s}, {"deform_ns_per_point", r.ns_per_point()},
                                                      {"deform_points_per_s", r.points_per_s()},      {"gb_per_s", r.gb_per_s()},
                                                      {"fraction_of_copy", r.copy_fraction()},         {"time_over_lbs", r.time_over_lbs()}};
    for (const auto& [name, value] : figures)
        if (std::isinf(value)) return name;
    return nullptr;
}

// Goes on without the peer from `n` points on, saying why in the tables' notes.
void skip_peer(BenchOptions& o, std::size_t n, const std::string& why, std::vector<std::string>& peer_notes) {
    peer_notes.push_back("libigl at " + std::to_string(n) + " points and beyond: skipped (" + why + ")");
    o.peer_python.clear();
}

// libigl's rows at this size, beside ours on the same points, weights and pose (a note where it did not
// run or its result is not usable; then it is not tried again at the larger sizes: each writes its data set
// out first, 1.2 GB at 1e7).
void add_peer_rows(BenchOptions& o, const BenchBody& body, const SizeRun& size, std::vector<Row>& rows,
                   std::vector<std::string>& peer_notes) {
    if (o.peer_python.empty() || size.influences.empty() || size.lbs_seconds[0] == 0) return;
    const bs::Skeleton& skeleton = body.skeleton;
    const std::size_t n = size.n;
    std::vector<bs::Vec3<float>> ours_lbs, ours_dqs;
    const bs::Skinner lbs(bs::Method::lbs, skeleton, size.rest, size.influences, "bench");
    lbs.deform(body.pose, ours_lbs, {o.threads});
    bs::Skinner(bs::Method::dqs, skeleton, size.rest, size.influences, "bench").deform(body.pose, ours_dqs, {o.threads});
    // The peer gets the weights our skinners use: the given ones scaled to sum to 1 (normalize_weights).
    PeerResult peer = run_libigl_peer(o.peer_python, skeleton, body.pose, size.rest, lbs.classic()->influences(), ours_lbs, ours_dqs,
                                      o.repeats, o.threads);
    if (!peer.ran) return skip_peer(o, n, peer.skipped, peer_notes);
    // What libigl's own passes move a point, in its float64 dense layout (m bones): the product M·T reads
    // the point's row of lbs_matrix (4m doubles) and writes 3; dqs reads the point (3) and its row of the
    // dense weights (m) and writes 3. Each row's copy reference moves as many bytes.
    const double bones = double(skeleton.bone_count()), lbs_bytes = 8 * (4 * bones + 3), dqs_bytes = 8 * (3 + bones + 3);
    const double lbs_copy = cpu_copy_bandwidth(std::size_t(lbs_bytes * double(n) / 2), o.repeats, o.threads);
    const double dqs_copy = cpu_copy_bandwidth(std::size_t(dqs_bytes * double(n) / 2), o.repeats, o.threads);
    const double x = kNotMeasured;  // libigl's tables, heap and device are not measured; dqs has no encode
    // The peer reports medians alone: its range is not measured.
    const Row peer_rows[] = {{o.body_name, n, "libigl-lbs", "cpu", double(n) / peer.matrix_seconds, {peer.lbs_seconds, x, x}, lbs_bytes,
                              lbs_copy, size.lbs_seconds[0], x, x, x, x, x, x},
                             {o.body_name, n, "libigl-dqs", "cpu", x, {peer.dqs_seconds, x, x}, dqs_bytes, dqs_copy, size.lbs_seconds[0],
                              x, x, x, x, x, x}};
    // Its times are finite and positive (peer_result), but a figure made of them can still overflow.
    for (const Row& row : peer_rows)
        if (const char* figure = infinite_figure(row)) {
            const std::string why = "its times give " + row.method + " an infinite " + figure + " at " + std::to_string(n) +
                                    " points: lbs_matrix_seconds " + bs::number_text(peer.matrix_seconds) + ", lbs_seconds " +
                                    bs::number_text(peer.lbs_seconds) + ", dqs_seconds " + bs::number_text(peer.dqs_seconds);
            std::fprintf(stderr, "baseskin-bench: the libigl peer's result is not usable (%s): skipped\n", why.c_str());
            return skip_peer(o, n, why, peer_notes);
        }
    rows.insert(rows.end(), std::begin(peer_rows), std::end(peer_rows));
    char note[160];
    std::snprintf(note, sizeof note, "libigl at %zu points: largest distance from our LBS %.3g, from our DQS %.3g", n, peer.lbs_difference,
                  peer.dqs_difference);
    peer_notes.push_back(note);
}

// The row of `method` on `backend` at `points`; null where the run has none.
const Row* find_row(const std::vector<Row>& rows, std::size_t points, const std::string& method, const std::string& backend) {
    for (const Row& r : rows)
        if (r.points == points && r.method == method && r.backend == backend) return &r;
    return nullptr;
}

// The speed targets, read from this run's rows at each size that has them (the issue sets the CPU's
// at 1e6 points on a two-core machine, the GPU's at 1e8 on an H200: at other sizes and machines they are a
// guide), each met or not, and marked where a row's timing is to be distrusted.
void print_targets(const std::vector<Row>& rows) {
    struct Target {
        std::size_t points;
        std::string backend, what, measured;
        bool met, distrusted;
    };
    std::vector<Target> targets;
    std::vector<std::size_t> sizes;
    for (const Row& r : rows)
        if (std::find(sizes.begin(), sizes.end(), r.points) == sizes.end()) sizes.push_back(r.points);
    for (std::size_t n : sizes) {
        const Row* lbs = find_row(rows, n, "lbs", "cpu");
        const Row* baseline = find_row(rows, n, "baseline", "cpu");
        const Row* peer_dqs = find_row(rows, n, "libigl-dqs", "cpu");
        if (lbs) {
            const double millions = lbs->points_per_s() / 1e6;
            targets.push_back({n, "cpu", "our LBS-4 at or above a SIMD engine's range (ozz-animation: 150–300 M points/s on the two-core machine)",
                               cell("%.3g", millions) + " M points/s", millions >= 150, lbs->distrusted()});
        }
        if (lbs && baseline)
            targets.push_back({n, "cpu", "baseline ≤ 10× the time of our LBS-4", cell("%.3g", baseline->time_over_lbs()) + "×",
                               baseline->time_over_lbs() <= 10, baseline->distrusted() || lbs->distrusted()});
        if (baseline && peer_dqs) {
            const double ratio = baseline->points_per_s() / peer_dqs->points_per_s();
            targets.push_back({n, "cpu", "baseline ≥ 2× libigl's dqs in points/s", cell("%.3g", ratio) + "×", ratio >= 2, baseline->distrusted()});
        }
        const Row* gpu_lbs = find_row(rows, n, "lbs", "cuda");
        for (const char* backend : {"cuda", "cuda-device-tables"}) {
            const Row* gpu_baseline = find_row(rows, n, "baseline", backend);
            if (!gpu_lbs || !gpu_baseline) continue;
            targets.push_back({n, backend, "baseline moves its bytes at ≥ 50% of the copy bandwidth",
                               cell("%.0f", 100 * gpu_baseline->copy_fraction()) + "%", gpu_baseline->copy_fraction() >= 0.5,
                               gpu_baseline->distrusted()});
            targets.push_back({n, backend, "baseline ≤ 2× the time of our LBS-4", cell("%.3g", gpu_baseline->time_over_lbs()) + "×",
                               gpu_baseline->time_over_lbs() <= 2, gpu_baseline->distrusted() || gpu_lbs->distrusted()});
        }
    }
    if (targets.empty()) return;
    std::printf("\nTargets (the issue's: the CPU's at 1e6 points on a two-core machine, the GPU's at 1e8 on an H200), in this run:\n\n");
    std::printf("| points | backend | target | measured | |\n|---:|---|---|---:|---|\n");
    for (const Target& t : targets)
        std::printf("| %zu | %s | %s | %s | %s%s |\n", t.points, t.backend.c_str(), t.what.c_str(), t.measured.c_str(), t.met ? "met" : "not met",
                    t.distrusted ? " (a timing to distrust)" : "");
}

// The markdown tables on stdout: throughput (with the rows whose timings are not to be trusted, and why),
// the targets, memory, the peer's notes.
void print_tables(const std::vector<Row>& rows, const RunContext& run, const std::vector<std::string>& peer_notes) {
    std::printf("Body: %s. CPU rows on %d thread%s, encoding included; %d timed frames a row.\n", run.body.c_str(), run.threads,
                run.threads == 1 ? "" : "s", run.repeats);
    std::printf("Machine: %s%s%s.\n", run.cpu.c_str(), run.gpu.empty() ? "" : "; GPU: ", run.gpu.c_str());
    if (std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.method == "baseline"; }))
        std::printf("Baseline's tables: %d φ and %d fan samples a bone, for the bones read by at least %d points.\n", run.table_samples,
                    bs::fan_samples_for(run.table_samples), run.min_tabulated_points);
    std::printf("\n");
    std::printf("| points | method | backend | encode points/s | deform ns/point | fastest–slowest ns/point | deform points/s | GB/s | of copy | "
                "time / LBS | frame tables kB | tables ms |\n");
    std::printf("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::vector<std::string> timing_notes;
    for (const Row& r : rows) {
        const double per_point = 1e9 / double(r.points);
        const std::string range = std::isnan(r.deform.fastest) ? "-" : cell("%.3g", per_point * r.deform.fastest) + "–" + cell("%.3g", per_point * r.deform.slowest);
        std::printf("| %zu | %s | %s | %s | %.3g | %s | %.3g | %.3g | %.3g | %.3g | %s | %s |\n", r.points, r.method.c_str(), r.backend.c_str(),
                    cell("%.3g", r.encode_points_per_s).c_str(), r.ns_per_point(), range.c_str(), r.points_per_s(), r.gb_per_s(), r.copy_fraction(),
                    r.time_over_lbs(), cell("%.4g", r.frame_table_bytes / 1e3).c_str(), cell("%.3g", 1e3 * r.frame_table_seconds).c_str());
        const std::string row = std::to_string(r.points) + " " + r.method + " " + r.backend;
        if (r.noisy())
            timing_notes.push_back(row + ": its median frame took " + cell("%.3g", r.deform.median / r.deform.fastest) +
                                   "× its fastest (a busy machine?): its median and ratios are unreliable");
        if (r.copy_fraction() > 1)
            timing_notes.push_back(row + ": moved its bytes faster than the copy reference (" + cell("%.3g", r.copy_fraction()) +
                                   "×): the copy's frames were slowed, or the pass reads less than it is counted");
    }
    if (!timing_notes.empty()) {
        std::printf("\nTimings to distrust:\n\n");
        for (const std::string& note : timing_notes) std::printf("- %s\n", note.c_str());
    }
    print_targets(rows);
    std::printf("\nMemory (host heap; device: what the GpuSkinner holds; libigl rows not measured):\n\n");
    std::printf("| points | method | backend | resident B/point | encode peak B/point | frame peak kB | device B/point |\n");
    std::printf("|---:|---|---|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
        if (r.method.rfind("libigl", 0) != 0)
            std::printf("| %zu | %s | %s | %.1f | %.1f | %.4g | %s |\n", r.points, r.method.c_str(), r.backend.c_str(),
                        r.resident_bytes_per_point, r.encode_peak_bytes_per_point, r.frame_peak_bytes / 1e3,
                        cell("%.1f", r.device_bytes_per_point).c_str());
    std::printf("\nPeer (the rows above when it ran):\n\n");
    for (const std::string& note : peer_notes) std::printf("- %s\n", note.c_str());
    if (std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.method == "libigl-lbs"; }))
        std::printf("- libigl-lbs's encode is lbs_matrix alone, given our weights; our lbs and dqs encode computes those weights\n");
    std::fflush(stdout);  // the tables before the files, where a file is the same stream (--json /dev/stdout)
}

// --json and --csv, where given (opened before the run).
void write_files(bs::OutputFile* json_out, bs::OutputFile* csv_out, const std::vector<Row>& rows, const RunContext& run) {
    if (json_out) {
        nlohmann::json doc = nlohmann::json::array();
        for (const Row& r : rows) doc.push_back(to_json(r, run));
        json_out->write(doc.dump(2) + "\n");
        json_out->commit();
    }
    if (csv_out) {
        std::ostringstream csv;
        write_csv(csv, rows, run);
        csv_out->write(csv.str());
        csv_out->commit();
    }
}

// The run the options ask for; throws the host's errors (host/errors.hpp) for main to report.
int run_bench(BenchOptions o) {
    if (o.quality) {
        bs::bench::print_quality(bs::bench::measure_quality(o.quality_points, o.threads));
        return 0;
    }
    // Encoding's passes take OpenMP's team (the API gives them no thread count): held to --threads like the rows.
    if (o.threads > 0) omp_set_num_threads(o.threads);
    const BenchBody body = bench_body(o.body_name, o.capture);  // before the outputs: a capture it cannot read leaves none
    const std::unique_ptr<bs::OutputFile> json_out = open_output(o.json_path), csv_out = open_output(o.csv_path);
    settle_lists(o);
    // The machine, asked before the measurements: a device that cannot say what it is costs its name, not
    // the run.
    const bool gpu_rows = std::find(o.backends.begin(), o.backends.end(), "cuda") != o.backends.end();  // settled: a device runs them
    std::string gpu;
    if (gpu_rows) {
        try {
            gpu = bs::cuda::device_description();
        } catch (const bs::CudaError& e) {
            gpu = std::string("unknown GPU (") + e.what() + ")";
        }
    }
    const RunContext run{body.name, o.threads > 0 ? o.threads : omp_get_max_threads(), o.repeats, cpu_description(), gpu, o.table_samples,
                         o.min_tabulated_points};
    std::vector<Row> rows;
    std::vector<std::string> peer_notes;
    if (o.peer_python.empty()) peer_notes.push_back("libigl: not run (no --peer-python given)");
    for (std::size_t n : o.sizes) {
        SizeRun size{n, bs::demo_points(body.skeleton, n, 7), {}};
        for (const std::string& name : o.methods) {
            const Encoded encoded = encode(o, body.skeleton, size, name);
            const FrameTableCost tables = frame_table_cost(encoded.skinner, body.pose, o.repeats, o.threads);
            if (tables.common_path_share >= 0)
                std::fprintf(stderr,
                             "baseskin-bench: baseline at %zu points: the GPU's common path takes %.1f%% of the points; a frame's tables "
                             "take %.3g ms from nothing, %.3g ms with one joint turned since the frame before (the other bones' kept)\n",
                             n, 100.0 * tables.common_path_share, 1e3 * tables.seconds, 1e3 * tables.kept_seconds);
            for (const std::string& backend : o.backends) rows.push_back(measure_row(o, body, size, name, encoded, tables, backend));
        }
        add_peer_rows(o, body, size, rows, peer_notes);
    }
    print_tables(rows, run, peer_notes);
    write_files(json_out.get(), csv_out.get(), rows, run);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bs::remove_temporaries_on_signals();
    CLI::App app{"baseskin-bench: encoding and deformation throughput per method and backend, as ratios to LBS"};
    BenchOptions o;
    app.add_option("--sizes", o.sizes, "point counts")->transform(bs::cli::count_in_range(std::size_t(1), bs::kMaxPoints))->capture_default_str();
    app.add_option("--backend", o.backends, "cpu, cuda (several allowed)")->check(CLI::IsMember({"cpu", "cuda"}))->capture_default_str();
    app.add_option("--methods", o.methods, "methods to run (lbs always runs first: the ratios need it; lbs-sparse is LBS of any "
                                           "number of influences, given the same weights as lbs)")
        ->check(CLI::IsMember({"lbs", "lbs-sparse", "dqs", "baseline", "baseline-exact", "metaball"}))->capture_default_str();
    app.add_option("--repeats", o.repeats, "timed frames per size (median reported)")->transform(bs::cli::count_in_range(std::size_t(1), std::size_t(1000)))->capture_default_str();
    bs::cli::add_threads_option(&app, o.threads, "CPU threads of the CPU rows and of encoding (0: all cores)");
    // An empty path (an unset shell variable) is refused, not taken as "not given".
    app.add_option("--json", o.json_path, "write the rows as JSON")->check(bs::cli::non_empty_path());
    app.add_option("--csv", o.csv_path, "write the rows as CSV")->check(bs::cli::non_empty_path());
    app.add_option("--peer-python", o.peer_python, "a Python with libigl 2.5 (pip install libigl==2.5.1 'numpy<2'): "
                                                   "adds libigl's LBS and DQS as peer rows on the CPU")
        ->check(non_empty_program());
    app.add_option("--gpu-tables", o.gpu_tables, "where the GPU rows build baseline's per-frame tables: host (uploaded) or device "
                                                 "(their rows are labelled cuda-device-tables)")
        ->check(CLI::IsMember({"host", "device"}))
        ->capture_default_str();
    app.add_option("--min-tabulated-points", o.min_tabulated_points,
                   "baseline: a bone read by fewer points takes the direct construction instead of per-frame tables (0: every bone tabulated)")
        ->transform(bs::cli::count_in_range(std::size_t(0), std::size_t(std::numeric_limits<int>::max())))
        ->capture_default_str();
    app.add_option("--table-samples", o.table_samples, "baseline: generator-angle (φ) samples per bone in the per-frame tables (the fan's grid: twice as many, at most 65536)")
        ->transform(bs::cli::count_in_range(std::size_t(bs::kMinTableSamples), std::size_t(bs::kMaxTableSamples)))
        ->capture_default_str();
    app.add_option("--body", o.body_name, "chain: the demo's three bones; human: the human demo's humanoid on its capture")
        ->check(CLI::IsMember({"chain", "human"}))
        ->capture_default_str();
    app.add_option("--capture", o.capture, "the human's motion capture (BVH; with --body human)")
        ->check(bs::cli::non_empty_path())
        ->capture_default_str();
    CLI::Option* quality = app.add_flag("--quality", o.quality, "instead of throughput: deformation quality of baseline, LBS and DQS "
                                                               "(benchmarks/quality.hpp), a markdown table on stdout");
    app.add_option("--quality-points", o.quality_points, "points per quality scenario (with --quality)")
        ->transform(bs::cli::count_in_range(std::size_t(100), std::size_t(10000000)))
        ->capture_default_str()
        ->needs(quality);
    app.callback([&app, &o, quality] {
        if (o.body_name == "chain" && app.count("--capture") > 0)
            throw CLI::ValidationError("--capture", "the chain has no capture (it moves the human: --body human)");
        // The quality table has its own scenarios and prints them: the throughput options would do nothing.
        if (quality->count() > 0)
            for (const char* option : {"--sizes", "--backend", "--methods", "--repeats", "--json", "--csv", "--peer-python", "--gpu-tables",
                                       "--min-tabulated-points", "--table-samples", "--body", "--capture"})
                if (app.count(option) > 0)
                    throw CLI::ValidationError(option, "not with --quality (its scenarios are fixed; it takes --quality-points and --threads)");
        // Options of rows the run does not have did nothing (the CLI refuses --table-samples for other methods).
        const auto listed = [](const std::vector<std::string>& values, const char* value) {
            return std::find(values.begin(), values.end(), value) != values.end();
        };
        for (const char* option : {"--min-tabulated-points", "--table-samples"})
            if (app.count(option) > 0 && !listed(o.methods, "baseline"))
                throw CLI::ValidationError(option, "applies to the baseline rows (--methods baseline), which this run has not");
        if (app.count("--gpu-tables") > 0 && !listed(o.backends, "cuda"))
            throw CLI::ValidationError("--gpu-tables", "applies to the GPU rows (--backend cuda), which this run has not");
        for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--json", o.json_path}, {"--csv", o.csv_path}})
            if (!path.empty())
                bs::cli::refuse_output_over_input(option, path, {{"--capture", o.capture}, {"--peer-python", program_file(o.peer_python)}});
        if (!o.json_path.empty() && !o.csv_path.empty() && bs::cli::same_output_file(o.json_path, o.csv_path))
            throw CLI::ValidationError("--csv", o.csv_path + " is the same file as --json (" + o.json_path + "): one would replace the other");
    });
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {  // help (0), or a bad command line: the CLI's exit code 1
        return app.exit(e) == 0 ? bs::kExitOk : bs::kExitUsage;
    }
    // Errors (a capture that cannot be read, an output that cannot be written) are reported with the CLI's exit
    // codes (host/errors.hpp).
    return bs::run_reporting_errors("baseskin-bench", [&o] { return run_bench(o); });
}
