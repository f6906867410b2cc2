// Baseline skinning of a point set on the CPU backend: encodes the rest points once (double), then
// deforms them per pose with the per-point pass (points in float or double, geometry in double).
// Bends, twists of any size and rigid motions are deformed, on chains and on trees with junctions; a pose
// that folds a chain joint (not a junction: its rigid field takes any angle) beyond
// kMaxJointAngleDegrees between consecutive posed bones' generators, or so far that the plane where two cones meet
// misses their joint sphere (tapered bones reach that first), is refused (UnsupportedError): the
// separator and pivot-circle construction breaks down there. A skeleton whose rest shape already folds a
// joint so far is refused when the skinner is built, with the same message about its rest shape, and so is
// one with a bone whose spheres all but swallow one another (kMinConeMargin), or with a sphere too small
// for the body (kMinRelativeRadius).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/code_file.hpp"
#include "host/point_output.hpp"
#include "host/pose.hpp"
#include "kernels/passes.hpp"

namespace bs {

// Largest angle between consecutive posed bones' generators the baseline method accepts: their axes' angle
// plus the difference of their cones' half-angles (the axes' angle for cylinders and bones that taper alike).
constexpr double kMaxJointAngleDegrees = 170.0;

// The least margin the baseline method accepts between a bone's centre distance d and its radius
// difference |Δr| (skeletons refuse d <= |Δr|: one sphere swallows the other), as (d − |Δr|) / |Δr|. Nearer
// that, the cone's generators are under 5e-5 of the bone's length and its neighbours' constructions cancel
// catastrophically: measured on a disc bone (radii 1 and 0.5) before a cylinder, the rest pose came back
// within 1e-5 at a margin of 1e-9, 1.5e-4 at 1e-11, 1.5e-2 (3% of the radius) at 1e-15.
constexpr double kMinConeMargin = 1e-9;

// The least radius the baseline method accepts, relative to the diagonal of the skeleton's bounds: the
// construction's error grows as the radius falls. Measured (2026-12-06) on the demo chain (diagonal 11.8)
// with its first sphere shrunk: the rest pose came back within 2e-7 of the diagonal at 1e-11 of it, 6.5e-6
// at 2.5e-13, 2.5e-5 at 8.5e-14 (over DESIGN's 1e-5), 1.1% at 1e-16. Skeletons take radii down to 1e-15
// (host/input_limits.hpp), whatever the body's size.
constexpr double kMinRelativeRadius = 1e-10;

// Per-frame table: each bone's posed frame without its own twist, that twist, and its swing with the bend's
// continuation steps at its chain joint (BendSchedule), for `bones` = make_baseline_bones(skeleton). The pose
// is read with its twists split from its swings (with_twists_split, host/pose.hpp). InputError unless the
// pose has a joint per bone of the skeleton (require_joint_per_bone); the rest of it is taken as it is
// (a skinner checks it whole first: require_usable_pose).
std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const std::vector<BaselineBone<double>>& bones,
                                                           const Pose& pose);
// The same, making the bones (tests and one-off callers; a skinner passes its own).
std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const Pose& pose);

// How the per-point pass gets the bend: looked up in per-frame tables (the default), or constructed per
// point (`exact`, the reference the tables are tested against). Sample counts in [kMinTableSamples,
// kMaxTableSamples]; cell_tolerance > 0 (infinity: refine only where a section changes structure);
// min_tabulated_points >= 0; InputError otherwise. The error each leaves is measured in
// tests/host/test_baseline_table.cpp and RESULTS.md.
//
// A bone's tables cost about as much to build each frame as the direct construction of
// kDefaultMinTabulatedPoints of its points (RESULTS.md, "Tables for the bones that repay them"), so a bone
// read by fewer points than min_tabulated_points (tabulated_bones: its codes that are no cap) is left out
// of the tables and its points take the direct construction; 0 tabulates every bone. No bone tabulated: no
// tables at all.
constexpr int kDefaultMinTabulatedPoints = 700;
struct BaselineDeformOptions {
    bool exact = false;
    int phi_samples = kDefaultPhiSamples;
    int fan_samples = kDefaultFanSamples;
    double cell_tolerance = kDefaultCellTolerance;
    int min_tabulated_points = kDefaultMinTabulatedPoints;
};
// Fewest samples a table may have. A cell passes on its middle alone where that is well inside the
// tolerance (engine/baseline/table.hpp, kMiddleMargin), and an error that is odd about the middle passes
// unseen: at an unbent joint the arcs' directions turn with φ, and their cubic combination misses between the samples (as N⁻⁴) but
// not at the middle: by 1e-3 of the radius at 8 samples, 3.4e-5 at 16, 2.5e-6 at 32 (the demo chain at rest,
// against the direct construction), about 1e-11 at 256. A cell_tolerance below that error is not
// met there. One minimum for both grids (the fan's cells keep all three checks, but take the same count).
constexpr int kMinTableSamples = 32;
constexpr int kMaxTableSamples = 1 << 16;
// The fan grid that goes with a φ grid of `phi_samples` where one count is given (the CLI's and the bench's
// `--table-samples`): as many times finer as the defaults' (engine/baseline/table.hpp), within
// kMaxTableSamples.
constexpr int fan_samples_for(int phi_samples) {
    constexpr int factor = kDefaultFanSamples / kDefaultPhiSamples;
    return phi_samples > kMaxTableSamples / factor ? kMaxTableSamples : factor * phi_samples;
}
static_assert(fan_samples_for(kDefaultPhiSamples) == kDefaultFanSamples, "one count gives the default grids");

// InputError unless the options are in the ranges above.
void validate_deform_options(const BaselineDeformOptions& options);

// Per bone, how many codes read its tables: the codes of that bone that are no cap (a cap point reads none);
// bone_count entries.
std::vector<std::size_t> table_readers(const std::vector<BaselineCode>& codes, std::size_t bone_count);
// Per bone, 1 where at least `min_points` codes read its tables (table_readers), else 0. InputError for a
// negative min_points.
std::vector<unsigned char> tabulated_bones(const std::vector<BaselineCode>& codes, std::size_t bone_count, int min_points);

// One frame's tables on the host (engine/baseline/table.hpp), built by the CPU backend's table passes.
struct BaselineFrameTables {
    int phi_samples = 0, fan_samples = 0;
    std::vector<LocalChain<double>> locals;
    std::vector<PosedSection<double>> sections;
    std::vector<SectionExtent<double>> extents;  // section_extent of each section, and of each fine one
    std::vector<SectionExtent<double>> fine_extents;
    std::vector<FanSample<double>> fans;
    std::vector<int> cells;  // a coarse cell's kind (is_coarse), kUntabulatedCell or a refined cell's ordinal (BaselineTables)
    std::vector<PosedSection<double>> fine;
    std::vector<unsigned char> direct;
    std::vector<int> fan_cells;
    std::vector<FanSample<double>> fine_fans;
    std::vector<unsigned char> fan_direct;
    std::vector<CosSin> fan_angles;  // fan_samples

    BaselineTables<double> view() const {
        return {phi_samples, fan_samples,         locals.data(), sections.data(),  extents.data(),   fans.data(),
                cells.data(), fine.data(),          fine_extents.data(), direct.data(), fan_cells.data(), fine_fans.data(),
                fan_direct.data(), fan_angles.data()};
    }
    // What a per-point pass reads: everything above.
    std::size_t bytes() const;
};

// cos and sin of the fan grid's angles (BaselineTables::fan_angles): the same for every bone and frame.
std::vector<CosSin> fan_grid_angles(int fan_samples);

// Each bone's posed neighbourhood for a frame (one LocalChain per bone). InputError unless there is one
// bone pose per bone, as for build_frame_tables.
std::vector<LocalChain<double>> local_chains(const std::vector<BaselineBone<double>>& bones,
                                             const std::vector<BaselineBonePose<double>>& poses);
// `tabulated`: per bone, whether to build its tables (tabulated_bones; empty: every bone). A bone left out
// holds kUntabulatedCell in every cell (its samples are not built); none tabulated, no tables (phi_samples 0).
BaselineFrameTables build_frame_tables(const std::vector<BaselineBone<double>>& bones,
                                       const std::vector<BaselineBonePose<double>>& poses, const BaselineDeformOptions& options,
                                       cpu::Exec exec = {}, const std::vector<unsigned char>& tabulated = {});

// A frame's tables kept for the next one. A bone's tables depend on the frame through its twist and swing and
// its chain child's swing alone (its posed neighbourhood and the turn of its segment); a bone whose three are,
// bit for bit, those of the frame before, with the same bones and options, keeps its samples, verdicts and
// refined cells, and only the others are built (tables equal to build_frame_tables' to the bit: tested in
// tests/host/test_baseline_table_cache.cpp). `poses` come from the skinner (BaselineSkinner::frame, or
// baseline_pose_table for these bones): the bend schedules are taken as a function of their swing and step
// count. An editor that turns one joint rebuilds one bone (a twist) or two (a swing: the bone and its chain
// parent); a capture rebuilds the bones around its moving joints. One cache per thread: it may serve several
// bodies in turn (a body or options other than the last frame's are a build from nothing), never two
// deforms at once — a deform holds its cache (Hold) from update() until its points are written, and a second
// one meanwhile is refused (InputError) instead of freeing the tables under the first (one cache shared by
// four threads had crashed every time, a thread-safety probe). The reference update() returns is valid
// until its next call. It holds one frame's tables
// (BaselineFrameTables::bytes, about 0.2–0.3 MB a bone at the defaults). `tabulated` and InputError as
// build_frame_tables'; a change of the tabulated bones is a build from nothing.
class BaselineTableCache {
public:
    const BaselineFrameTables& update(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                                      const BaselineDeformOptions& options, cpu::Exec exec = {},
                                      const std::vector<unsigned char>& tabulated = {});
    // Bones the last update built (the others kept their tables).
    std::size_t bones_rebuilt() const { return bones_rebuilt_; }

    // The cache taken by one deform while it lives; InputError where another holds it. update() itself
    // takes none: a caller of it holds the cache while it reads the tables.
    class Hold {
    public:
        explicit Hold(BaselineTableCache& cache);
        ~Hold();
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;

    private:
        BaselineTableCache& cache_;
    };

private:
    // Whether a Hold has the cache. A cache copied or moved into being starts clear, and an assignment
    // keeps the target's own flag: a cache is copied or moved only while no deform holds it.
    struct HeldFlag {
        std::atomic<bool> held{false};
        HeldFlag() = default;
        HeldFlag(const HeldFlag&) noexcept {}
        HeldFlag& operator=(const HeldFlag&) noexcept { return *this; }
    };
    HeldFlag held_;
    BaselineFrameTables tables_;
    std::vector<BaselineBone<double>> bones_;  // what tables_ was built for (empty: nothing to keep)
    std::vector<double> inputs_;               // per bone, the frame's inputs to its tables
    BaselineDeformOptions options_;
    std::vector<unsigned char> tabulated_;
    std::size_t bones_rebuilt_ = 0;
};

template <class T>
class BaselineSkinner {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be packed xyz");

public:
    BaselineSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, const std::string& source,
                    const EncodeOptions& options = {});
    // From codes saved earlier (host/code_file.hpp; checked again here: validate_saved_codes).
    BaselineSkinner(Skeleton skeleton, const SavedCodes& saved);

    // What save_codes writes.
    SavedCodes saved_codes() const;

    std::size_t size() const { return rest_.size(); }
    const std::vector<BaselineCode>& codes() const { return codes_; }
    const std::vector<BaselineBone<double>>& bones() const { return bones_; }
    const Skeleton& skeleton() const { return skeleton_; }
    const std::vector<Vec3<T>>& rest() const { return rest_; }
    // The blended codes' field bones, found once when the skinner is built (keep_field_bones).
    const KeptFieldBones& field_bones() const { return field_bones_; }

    // Whether the method takes a pose: InputError for another bone count or a non-finite value,
    // UnsupportedError for a joint folded beyond what the method accepts (see above); nothing otherwise.
    void check_pose(const Pose& pose) const;
    // The per-frame bone table of a pose, after check_pose.
    std::vector<BaselineBonePose<double>> frame(const Pose& pose) const;
    // That frame's tables under the deform options, for the tabulated bones (empty, phi_samples 0, when the
    // options ask for `exact` or no bone is tabulated).
    BaselineFrameTables frame_tables(const std::vector<BaselineBonePose<double>>& poses, cpu::Exec exec = {}) const;

    const BaselineDeformOptions& deform_options() const { return options_; }
    void set_deform_options(const BaselineDeformOptions& options);
    // tabulated_bones of the codes under the deform options' min_tabulated_points.
    const std::vector<unsigned char>& tabulated() const { return tabulated_; }

    // Deforms every point for `pose` into size() points at out.stride (host/point_output.hpp; InputError for a
    // null pointer or a stride below 3), or into `out` resized to size() (left as it was if the pose is
    // refused: deform_into). With a cache (the caller's, one per thread), the frame's tables keep what the
    // frame before left unchanged.
    void deform(const Pose& pose, PointView<T> out, cpu::Exec exec = {}, BaselineTableCache* cache = nullptr) const;
    void deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec = {}, BaselineTableCache* cache = nullptr) const {
        deform_into(out, size(), [&](PointView<T> view) { deform(pose, view, exec, cache); });
    }

private:
    // check_pose's folds, the message naming `what` folds them ("this pose", "the skeleton's rest shape").
    void check_folds(const Pose& pose, const std::string& what) const;
    // The rest shape, when the skinner is built: every bone's cone margin (kMinConeMargin) and spheres' radii
    // (kMinRelativeRadius), then its folds.
    void check_rest_shape() const;
    // What both constructors keep once the codes are made or loaded: the rest points (as T), the bones
    // that repay tables, and each blended code's field bones.
    template <class P> void keep_rest(const std::vector<Vec3<P>>& rest);

    Skeleton skeleton_;
    std::vector<BaselineBone<double>> bones_;
    std::vector<Vec3<T>> rest_;
    std::vector<BaselineCode> codes_;
    KeptFieldBones field_bones_;
    BaselineDeformOptions options_;
    std::vector<unsigned char> tabulated_;
};

extern template class BaselineSkinner<float>;
extern template class BaselineSkinner<double>;

}  // namespace bs
