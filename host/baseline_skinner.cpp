#include "host/baseline_skinner.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "host/errors.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

namespace {
// InputError unless there is one bone pose per bone (local_chains and the table builds read a pose per bone).
void require_pose_per_bone(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses) {
    if (poses.size() != bones.size())
        throw InputError("baseline tables: " + std::to_string(poses.size()) + " bone poses for " + std::to_string(bones.size()) +
                         " bones");
}
}  // namespace

std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const std::vector<BaselineBone<double>>& bones,
                                                           const Pose& given) {
    require_joint_per_bone(skeleton, given);
    const Pose pose = with_twists_split(skeleton, given);
    std::vector<Rigid<double>> posed = posed_bones(skeleton, pose);
    std::vector<BaselineBonePose<double>> table(skeleton.bone_count());
    for (std::size_t k = 0; k < table.size(); ++k) {
        double twist = pose.joints[k].twist_radians;
        Rigid<double> untwist = rotation_about(axis_angle(skeleton.rest_axis(int(k)), -twist),
                                               skeleton.spheres[skeleton.bones[k][0]].centre);
        table[k] = bone_pose(bones.data(), int(k), compose(posed[k], untwist), twist, pose.joints[k].swing);
    }
    return table;
}

std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const Pose& pose) {
    return baseline_pose_table(skeleton, make_baseline_bones(skeleton), pose);
}

std::size_t BaselineFrameTables::bytes() const {
    return locals.size() * sizeof(LocalChain<double>) + (sections.size() + fine.size()) * sizeof(PosedSection<double>) +
           (extents.size() + fine_extents.size()) * sizeof(SectionExtent<double>) +
           (fans.size() + fine_fans.size()) * sizeof(FanSample<double>) + (cells.size() + fan_cells.size()) * sizeof(int) +
           direct.size() + fan_direct.size() + fan_angles.size() * sizeof(CosSin);
}

std::vector<LocalChain<double>> local_chains(const std::vector<BaselineBone<double>>& bones,
                                             const std::vector<BaselineBonePose<double>>& poses) {
    require_pose_per_bone(bones, poses);
    std::vector<LocalChain<double>> locals(bones.size());
    for (std::size_t k = 0; k < bones.size(); ++k) locals[k] = posed_neighbourhood(bones.data(), poses.data(), int(k));
    return locals;
}

std::vector<CosSin> fan_grid_angles(int fan_samples) {
    std::vector<CosSin> angles(static_cast<std::size_t>(fan_samples));
    for (int j = 0; j < fan_samples; ++j) {
        const double angle = grid_angle(j, fan_samples);
        angles[std::size_t(j)] = {std::cos(angle), std::sin(angle)};
    }
    return angles;
}

namespace {
void require_min_tabulated_points(int min_points) {
    if (min_points < 0) throw InputError("baseline tables: the fewest points of a tabulated bone must be >= 0, got " + std::to_string(min_points));
}
}  // namespace

void validate_deform_options(const BaselineDeformOptions& options) {
    for (int samples : {options.phi_samples, options.fan_samples})
        if (samples < kMinTableSamples || samples > kMaxTableSamples)
            throw InputError("baseline table samples must be in [" + std::to_string(kMinTableSamples) + ", " +
                             std::to_string(kMaxTableSamples) + "], got " + std::to_string(samples));
    if (!(options.cell_tolerance > 0))
        throw InputError("baseline table cell tolerance must be > 0, got " + number_text(options.cell_tolerance));
    require_min_tabulated_points(options.min_tabulated_points);
}

std::vector<std::size_t> table_readers(const std::vector<BaselineCode>& codes, std::size_t bone_count) {
    std::vector<std::size_t> readers(bone_count, 0);
    for (const BaselineCode& code : codes)
        if (!(code.flags & (kCodeParentCap | kCodeChildCap)) && code.bone < bone_count) ++readers[code.bone];
    return readers;
}

std::vector<unsigned char> tabulated_bones(const std::vector<BaselineCode>& codes, std::size_t bone_count, int min_points) {
    require_min_tabulated_points(min_points);
    const std::vector<std::size_t> readers = table_readers(codes, bone_count);
    std::vector<unsigned char> tabulated(bone_count);
    for (std::size_t k = 0; k < bone_count; ++k) tabulated[k] = readers[k] >= std::size_t(min_points);
    return tabulated;
}

namespace {

// Each coarse cell's kind of stencil (coarse_cell_kind), from its bone's samples. The
// per-point pass trusts a coarse cell's two samples to share their structure (stencil_at): a cell whose
// samples differ fails its check and is refined, and a logic_error (an internal error) says so if not.
template <class Sample>
void mark_coarse_stencils(const std::vector<Sample>& samples, int per_bone, std::vector<int>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
        if (!is_coarse(cells[c])) continue;
        const Sample* bone_samples = &samples[c / per_bone * per_bone];
        const int j = int(c % per_bone);
        const CellSamples<Sample> around = cell_samples(bone_samples, per_bone, j);
        if (!same_structure(*around.a, *around.b))
            throw std::logic_error("baseline tables: coarse cell " + std::to_string(j) + " of bone " + std::to_string(c / per_bone) +
                                   " joins two samples of different structure (its check must refine it)");
        cells[c] = coarse_cell_kind(bone_samples, per_bone, j);
    }
}

}  // namespace

namespace {

// The refined cells' samples (or marks), `per_cell` a cell, in the order of `refined`: a rebuilt bone's from
// `now` (its refined cells in that order), another's moved from `before` at the ordinal it had there.
template <class Sample>
std::vector<Sample> merged_refined(const std::vector<int>& refined, const std::vector<char>& rebuilt, int per_bone, std::size_t per_cell,
                                   const std::vector<Sample>& now, const std::vector<Sample>& before, const std::vector<int>& old_cells) {
    std::vector<Sample> merged;
    merged.reserve(refined.size() * per_cell);
    std::size_t next_now = 0;
    for (int c : refined) {
        const Sample* from = rebuilt[std::size_t(c / per_bone)] ? &now[next_now++ * per_cell] : &before[std::size_t(old_cells[std::size_t(c)]) * per_cell];
        merged.insert(merged.end(), from, from + per_cell);
    }
    return merged;
}

// Which bones a frame builds (BaselineTableCache): `list` ascending, `flags` per bone; every bone is a build
// from nothing. `tabulated` per bone: the others are left out of the tables (kUntabulatedCell), and a bone
// neither rebuilt nor left out keeps what the frame before built.
struct RebuiltBones {
    const std::vector<int>& list;
    std::vector<char> flags;
    const std::vector<unsigned char>& tabulated;
    bool every() const { return list.size() == flags.size(); }
};

// Passes 1 to 3 (samples, middle checks, quarter checks) for the rebuilt bones, their coarse samples into
// `tables`; the verdict of every cell, a kept bone's from its cells in the frame before (`old_cells`,
// `old_fan_cells`: refined or not, the only final verdicts).
std::vector<int> sample_and_check(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                                  const BaselineDeformOptions& options, cpu::Exec exec, const RebuiltBones& rebuilt,
                                  const std::vector<int>& old_cells, const std::vector<int>& old_fan_cells, BaselineFrameTables& tables) {
    const int n_phi = options.phi_samples, n_fan = options.fan_samples;
    const std::size_t section_cells = tables.sections.size(), fan_cells = tables.fans.size(), listed = rebuilt.list.size();
    // Into the tables when every bone is rebuilt, else in list order first.
    std::vector<PosedSection<double>> listed_sections(rebuilt.every() ? 0 : listed * n_phi);
    std::vector<FanSample<double>> listed_fans(rebuilt.every() ? 0 : listed * n_fan);
    PosedSection<double>* sections = rebuilt.every() ? tables.sections.data() : listed_sections.data();
    FanSample<double>* fans = rebuilt.every() ? tables.fans.data() : listed_fans.data();
    const int* list = rebuilt.every() ? nullptr : rebuilt.list.data();
    std::vector<PosedSection<double>> middles(listed * n_phi);
    std::vector<FanSample<double>> fan_checks(listed * n_fan * kCellChecks);
    cpu::build_baseline_tables(
        {bones.data(), poses.data(), tables.locals.data(), listed, n_phi, n_fan, sections, middles.data(), fans, fan_checks.data(), list}, exec);
    std::vector<int> verdicts(listed * (n_phi + n_fan));
    cpu::check_baseline_cells({bones.data(), listed, n_phi, n_fan, sections, middles.data(), fans, fan_checks.data(), options.cell_tolerance,
                               verdicts.data(), list},
                              exec);
    if (!rebuilt.every()) {
        // A bone left out is never refined; a kept bone's verdicts are its cells' in the frame before (the
        // rebuilt bones' are copied below).
        auto kept_verdict = [&](const std::vector<int>& old, std::size_t c, int per_bone) {
            const std::size_t k = c / std::size_t(per_bone);
            if (!rebuilt.tabulated[k] || rebuilt.flags[k]) return int(kCellSmooth);
            return is_coarse(old[c]) ? int(kCellSmooth) : int(kCellRefine);
        };
        std::vector<int> all_verdicts(section_cells + fan_cells);
        for (std::size_t c = 0; c < section_cells; ++c) all_verdicts[c] = kept_verdict(old_cells, c, n_phi);
        for (std::size_t c = 0; c < fan_cells; ++c) all_verdicts[section_cells + c] = kept_verdict(old_fan_cells, c, n_fan);
        for (std::size_t b = 0; b < listed; ++b) {
            const std::size_t k = std::size_t(rebuilt.list[b]);
            std::copy_n(&listed_sections[b * n_phi], n_phi, &tables.sections[k * n_phi]);
            std::copy_n(&listed_fans[b * n_fan], n_fan, &tables.fans[k * n_fan]);
            std::copy_n(&verdicts[b * n_phi], n_phi, &all_verdicts[k * n_phi]);
            std::copy_n(&verdicts[listed * n_phi + b * n_fan], n_fan, &all_verdicts[section_cells + k * n_fan]);
        }
        verdicts = std::move(all_verdicts);
    }
    std::vector<int> undecided;
    for (std::size_t c = 0; c < section_cells; ++c)
        if (verdicts[c] == kCellCheckQuarters) undecided.push_back(int(c));
    cpu::check_baseline_quarters({bones.data(), poses.data(), tables.locals.data(), n_phi, tables.sections.data(), undecided.data(),
                                  undecided.size(), options.cell_tolerance, verdicts.data()},
                                 exec);
    return verdicts;
}

// Passes 4 and 5 for the rebuilt bones' refined cells, then every refined cell's samples and marks in cell
// order (`cells` and `fan_cells` map a cell to that ordinal; a coarse cell's kind is set later): a rebuilt
// bone's new, a kept bone's moved from the frame before.
void refine_cells(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                  const BaselineDeformOptions& options, cpu::Exec exec, const RebuiltBones& rebuilt, const std::vector<int>& verdicts,
                  const std::vector<int>& old_cells, const std::vector<int>& old_fan_cells, BaselineFrameTables& tables) {
    const int n_phi = options.phi_samples, n_fan = options.fan_samples;
    auto list_refined = [&](std::size_t first, std::size_t count, std::vector<int>& ordinal) {
        std::vector<int> refined;
        ordinal.assign(count, kCoarseLinearCell);
        for (std::size_t c = 0; c < count; ++c) {
            if (verdicts[first + c] == kCellSmooth) continue;  // any other verdict refines: never a cell left unchecked
            ordinal[c] = int(refined.size());
            refined.push_back(int(c));
        }
        return refined;
    };
    const std::size_t section_cells = tables.sections.size();
    const std::vector<int> refined = list_refined(0, section_cells, tables.cells);
    const std::vector<int> refined_fans = list_refined(section_cells, tables.fans.size(), tables.fan_cells);
    auto of_rebuilt = [&](const std::vector<int>& cells, int per_bone) {
        if (rebuilt.every()) return cells;
        std::vector<int> now;
        for (int c : cells)
            if (rebuilt.flags[std::size_t(c / per_bone)]) now.push_back(c);
        return now;
    };
    const std::vector<int> to_refine = of_rebuilt(refined, n_phi), fans_to_refine = of_rebuilt(refined_fans, n_fan);
    std::vector<PosedSection<double>> fine(to_refine.size() * kSamplesPerRefinedCell);
    std::vector<FanSample<double>> fine_fans(fans_to_refine.size() * kSamplesPerRefinedCell);
    std::vector<unsigned char> direct(to_refine.size() * kRefineFactor), fan_direct(fans_to_refine.size() * kRefineFactor);
    BaselineRefineJob refine{bones.data(),     poses.data(),          tables.locals.data(),  n_phi,
                             n_fan,            to_refine.data(),      to_refine.size(),      fans_to_refine.data(),
                             fans_to_refine.size(), fine.data(),      fine_fans.data(),      direct.data(),
                             fan_direct.data(), options.cell_tolerance};
    cpu::refine_baseline_cells(refine, exec);
    cpu::check_baseline_subcells(refine, exec);
    if (rebuilt.every()) {
        tables.fine = std::move(fine);
        tables.fine_fans = std::move(fine_fans);
        tables.direct = std::move(direct);
        tables.fan_direct = std::move(fan_direct);
        return;
    }
    tables.fine = merged_refined(refined, rebuilt.flags, n_phi, kSamplesPerRefinedCell, fine, tables.fine, old_cells);
    tables.direct = merged_refined(refined, rebuilt.flags, n_phi, kRefineFactor, direct, tables.direct, old_cells);
    tables.fine_fans = merged_refined(refined_fans, rebuilt.flags, n_fan, kSamplesPerRefinedCell, fine_fans, tables.fine_fans, old_fan_cells);
    tables.fan_direct = merged_refined(refined_fans, rebuilt.flags, n_fan, kRefineFactor, fan_direct, tables.fan_direct, old_fan_cells);
}

// A frame's tables into `tables`, building the bones listed in `rebuilt` (ascending, tabulated) and keeping
// the other tabulated bones' samples, verdicts and refined cells from what `tables` holds: the tables of a
// frame with the same bones, options and tabulated bones in which each of those bones had the same table
// inputs (BaselineTableCache). Every tabulated bone listed: a build from nothing. No bone tabulated: no
// tables (phi_samples 0; every point takes the direct construction).
void build_tables(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses,
                  const BaselineDeformOptions& options, cpu::Exec exec, const std::vector<int>& rebuilt,
                  const std::vector<unsigned char>& tabulated, BaselineFrameTables& tables) {
    if (std::none_of(tabulated.begin(), tabulated.end(), [](unsigned char flag) { return flag != 0; })) {
        tables = BaselineFrameTables{};
        return;
    }
    const int n_phi = options.phi_samples, n_fan = options.fan_samples;
    RebuiltBones which{rebuilt, std::vector<char>(bones.size(), 0), tabulated};
    for (int k : rebuilt) which.flags[std::size_t(k)] = 1;
    const std::vector<int> old_cells = which.every() ? std::vector<int>{} : tables.cells;
    const std::vector<int> old_fan_cells = which.every() ? std::vector<int>{} : tables.fan_cells;
    tables.phi_samples = n_phi;
    tables.fan_samples = n_fan;
    tables.locals = local_chains(bones, poses);
    tables.sections.resize(bones.size() * std::size_t(n_phi));
    tables.fans.resize(bones.size() * std::size_t(n_fan));
    const std::vector<int> verdicts = sample_and_check(bones, poses, options, exec, which, old_cells, old_fan_cells, tables);
    refine_cells(bones, poses, options, exec, which, verdicts, old_cells, old_fan_cells, tables);
    // A bone left out: its cells say so, and its samples (never built, nor their extents) are left empty,
    // whatever an earlier frame of the cache held there.
    for (std::size_t k = 0; k < bones.size(); ++k)
        if (!tabulated[k]) {
            std::fill_n(&tables.cells[k * n_phi], n_phi, kUntabulatedCell);
            std::fill_n(&tables.fan_cells[k * n_fan], n_fan, kUntabulatedCell);
            std::fill_n(&tables.sections[k * n_phi], n_phi, PosedSection<double>{});
            std::fill_n(&tables.fans[k * n_fan], n_fan, FanSample<double>{});
        }
    auto extents_of = [](const std::vector<PosedSection<double>>& samples, auto built) {
        std::vector<SectionExtent<double>> extents(samples.size());
        for (std::size_t i = 0; i < samples.size(); ++i)
            if (built(i)) extents[i] = section_extent(samples[i]);
        return extents;
    };
    tables.extents = extents_of(tables.sections, [&](std::size_t i) { return tabulated[i / std::size_t(n_phi)] != 0; });
    tables.fine_extents = extents_of(tables.fine, [](std::size_t) { return true; });
    mark_coarse_stencils(tables.sections, n_phi, tables.cells);
    mark_coarse_stencils(tables.fans, n_fan, tables.fan_cells);
    if (tables.fan_angles.size() != std::size_t(n_fan)) tables.fan_angles = fan_grid_angles(n_fan);
}

// The bones to tabulate after checking the inputs: `tabulated`, or every bone where it is empty.
std::vector<unsigned char> tabulated_or_every(const std::vector<BaselineBone<double>>& bones,
                                              const std::vector<BaselineBonePose<double>>& poses, const BaselineDeformOptions& options,
                                              const std::vector<unsigned char>& tabulated) {
    validate_deform_options(options);
    require_pose_per_bone(bones, poses);
    if (tabulated.empty()) return std::vector<unsigned char>(bones.size(), 1);
    if (tabulated.size() != bones.size())
        throw InputError("baseline tables: " + std::to_string(tabulated.size()) + " tabulation flags for " + std::to_string(bones.size()) +
                         " bones");
    return tabulated;
}

// What bone k's tables are made of besides the rest bones: its twist and swing, and its chain child's swing
// (posed_neighbourhood and segment_turn read those, and the bend schedules made from the swings and their
// step counts), bit for bit.
constexpr std::size_t kTableInputsPerBone = 11;
void append_table_inputs(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineBonePose<double>>& poses, std::size_t k,
                         std::vector<double>& inputs) {
    const BendSchedule<double>& own = poses[k].bend;
    const BendSchedule<double> none{};
    const BendSchedule<double>& child = bones[k].next >= 0 ? poses[std::size_t(bones[k].next)].bend : none;
    inputs.insert(inputs.end(), {poses[k].twist, own.swing.w, own.swing.x, own.swing.y, own.swing.z, double(own.steps), child.swing.w,
                                 child.swing.x, child.swing.y, child.swing.z, double(child.steps)});
}

}  // namespace

BaselineFrameTables build_frame_tables(const std::vector<BaselineBone<double>>& bones,
                                       const std::vector<BaselineBonePose<double>>& poses, const BaselineDeformOptions& options,
                                       cpu::Exec exec, const std::vector<unsigned char>& tabulated) {
    const std::vector<unsigned char> which = tabulated_or_every(bones, poses, options, tabulated);
    std::vector<int> listed;
    for (std::size_t k = 0; k < bones.size(); ++k)
        if (which[k]) listed.push_back(int(k));
    BaselineFrameTables tables;
    build_tables(bones, poses, options, exec, listed, which, tables);
    return tables;
}

BaselineTableCache::Hold::Hold(BaselineTableCache& cache) : cache_(cache) {
    if (cache_.held_.held.exchange(true, std::memory_order_acquire))
        throw InputError("BaselineTableCache: already in use by another deform (another thread's?): give each thread a cache of its own");
}

BaselineTableCache::Hold::~Hold() { cache_.held_.held.store(false, std::memory_order_release); }

const BaselineFrameTables& BaselineTableCache::update(const std::vector<BaselineBone<double>>& bones,
                                                      const std::vector<BaselineBonePose<double>>& poses,
                                                      const BaselineDeformOptions& options, cpu::Exec exec,
                                                      const std::vector<unsigned char>& tabulated) {
    const std::vector<unsigned char> which = tabulated_or_every(bones, poses, options, tabulated);
    std::vector<double> inputs;
    inputs.reserve(bones.size() * kTableInputsPerBone);
    for (std::size_t k = 0; k < bones.size(); ++k) append_table_inputs(bones, poses, k, inputs);
    const bool same_body = bones_.size() == bones.size() &&
                           std::memcmp(bones_.data(), bones.data(), bones.size() * sizeof(BaselineBone<double>)) == 0 &&
                           options_.phi_samples == options.phi_samples && options_.fan_samples == options.fan_samples &&
                           std::memcmp(&options_.cell_tolerance, &options.cell_tolerance, sizeof(double)) == 0 && tabulated_ == which;
    std::vector<int> rebuilt;
    for (std::size_t k = 0; k < bones.size(); ++k)
        if (which[k] &&
            (!same_body || std::memcmp(&inputs[k * kTableInputsPerBone], &inputs_[k * kTableInputsPerBone], kTableInputsPerBone * sizeof(double)) != 0))
            rebuilt.push_back(int(k));
    // Before building: if it throws, nothing of the old frame is taken for the new one's.
    bones_.clear();
    inputs_.clear();
    build_tables(bones, poses, options, exec, rebuilt, which, tables_);
    bones_ = bones;
    inputs_ = std::move(inputs);
    options_ = options;
    tabulated_ = which;
    bones_rebuilt_ = rebuilt.size();
    return tables_;
}

namespace {
// The largest angle between bone k's generators and its chain parent's under the pose, in degrees (0 for
// a bone with none): the angle between their axes, plus, on the side where the two cones' slopes add, the
// difference of their half-angles θ (Cone::sin_theta; the generators meet the axes at θ). For cylinders, or
// bones that taper alike, that is the axes' angle. Where it nears half a turn the belt on that side wraps
// half the joint sphere, its two generators become parallel, and the construction jumps from the convex
// side's arc to a concave crossing at infinity (seen on a chain of radii 0.7, 1.5, 0.7 straight at rest,
// bent 149.7°: 2.6 between poses 0.01° apart; 0.5, 2, 0.5 at 121.1°; 0.1, 2.9, 0.1 at 46.2°: at generator
// angles of 181–184°). Until 2026-12-05 the axes' angle alone was bounded, and those poses were taken.
// Kept as its two terms for messages: a fold of 227.5° between axes bent 90° read as a mistake.
struct JointAngle {
    double axes = 0, slopes = 0;  // degrees
    double degrees() const { return axes + slopes; }
};
JointAngle joint_angle(const Skeleton& skeleton, const std::vector<BaselineBone<double>>& bones, const Pose& pose, std::size_t k) {
    const int parent = bones[k].previous;
    if (parent < 0) return {};
    // In the parent's frame the parent's axis is at rest and the child's is turned by its swing.
    const Vec3<double> a = skeleton.rest_axis(parent), b = rotate(pose.joints[k].swing, skeleton.rest_axis(int(k)));
    const double to_degrees = 180 / pi_value<double>();
    return {std::atan2(norm(cross(a, b)), dot(a, b)) * to_degrees,
            std::fabs(std::asin(bones[k].cone.sin_theta) - std::asin(bones[std::size_t(parent)].cone.sin_theta)) * to_degrees};
}

// "joint "NAME" (between bones P and K)": the chain joint before bone k, for messages. The name's control
// characters (any a JSON string may hold) and bytes that are not UTF-8 show as \xHH (quoted_text,
// host/errors.hpp): a NUL cut the message there, and a name's escape sequences reached the terminal.
std::string joint_name(const Skeleton& skeleton, const std::vector<BaselineBone<double>>& bones, std::size_t k) {
    const std::size_t sphere = std::size_t(skeleton.bones[k][0]);
    const std::string name = sphere < skeleton.names.size() && !skeleton.names[sphere].empty() ? skeleton.names[sphere]
                                                                                              : "sphere " + std::to_string(sphere);
    return "joint " + quoted_text(name) + " (between bones " + std::to_string(bones[k].previous) + " and " + std::to_string(k) + ")";
}
}  // namespace

template <class T>
BaselineSkinner<T>::BaselineSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, const std::string& given_source,
                                    const EncodeOptions& options)
    : skeleton_(std::move(skeleton)) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    check_skeleton(skeleton_, skeleton_source(source));
    bones_ = make_baseline_bones(skeleton_);
    check_rest_shape();
    codes_ = encode_points(bones_, rest, source, options);  // checks the points (host/input_limits.hpp)
    keep_rest(rest);
}

template <class T>
BaselineSkinner<T>::BaselineSkinner(Skeleton skeleton, const SavedCodes& saved)
    : skeleton_(std::move(skeleton)), codes_(saved.codes) {
    check_skeleton(skeleton_, "saved codes' skeleton");
    validate_saved_codes(saved, skeleton_, "saved codes");
    bones_ = make_baseline_bones(skeleton_);
    check_rest_shape();
    keep_rest(saved.rest);
}

template <class T>
template <class P>
void BaselineSkinner<T>::keep_rest(const std::vector<Vec3<P>>& rest) {
    tabulated_ = tabulated_bones(codes_, bones_.size(), options_.min_tabulated_points);
    rest_.reserve(rest.size());
    for (const Vec3<P>& p : rest) rest_.push_back(Vec3<T>(p));
    field_bones_ = keep_field_bones(bones_, codes_, rest_);
}

template <class T>
SavedCodes BaselineSkinner<T>::saved_codes() const {
    SavedCodes saved{{}, codes_, skeleton_fingerprint(skeleton_)};
    saved.rest.reserve(rest_.size());
    for (const Vec3<T>& p : rest_) saved.rest.push_back(Vec3<float>(p));
    return saved;
}

template <class T>
void BaselineSkinner<T>::check_pose(const Pose& pose) const {
    require_usable_pose(skeleton_, pose);
    check_folds(pose, "this pose");
}

template <class T>
void BaselineSkinner<T>::check_rest_shape() const {
    for (std::size_t k = 0; k < skeleton_.bone_count(); ++k) {
        const Sphere<double>& a = skeleton_.spheres[std::size_t(skeleton_.bones[k][0])];
        const Sphere<double>& b = skeleton_.spheres[std::size_t(skeleton_.bones[k][1])];
        const double difference = std::fabs(a.radius - b.radius), margin = (norm(b.centre - a.centre) - difference) / difference;
        if (difference > 0 && margin < kMinConeMargin)
            throw UnsupportedError("the skeleton's rest shape has bone " + std::to_string(k) + " (spheres " + std::to_string(skeleton_.bones[k][0]) +
                                   " and " + std::to_string(skeleton_.bones[k][1]) + ") with one sphere all but swallowing the other: their centres " +
                                   "are farther apart than their radii differ by " + number_text(margin, 3) + " of that difference, and the "
                                   "baseline method needs " + number_text(kMinConeMargin) + " (the DQS and LBS methods take it)");
    }
    const std::array<Vec3<double>, 2> box = bounds(skeleton_);
    const double size = norm(box[1] - box[0]);
    for (std::size_t i = 0; i < skeleton_.spheres.size(); ++i)
        if (skeleton_.spheres[i].radius < kMinRelativeRadius * size)
            throw UnsupportedError("the skeleton's sphere " + std::to_string(i) + " has radius " + number_text(skeleton_.spheres[i].radius, 3) +
                                   ", below " + number_text(kMinRelativeRadius) + " of the skeleton's size (" + number_text(size, 3) +
                                   "): the baseline construction does not give the rest pose back there (the DQS and LBS methods take it)");
    check_folds(Pose::rest(skeleton_), "the skeleton's rest shape");
}

template <class T>
void BaselineSkinner<T>::check_folds(const Pose& pose, const std::string& what) const {
    for (std::size_t k = 0; k < bones_.size(); ++k) {
        const JointAngle joint = joint_angle(skeleton_, bones_, pose, k);
        const double angle = joint.degrees();
        if (angle > kMaxJointAngleDegrees) {
            // Six digits, or as many as it takes to tell the angle from the limit (170.0001 read "170").
            const std::string shown = number_text(angle, 6) != number_text(kMaxJointAngleDegrees) ? number_text(angle, 6) : number_text(angle);
            const std::string terms = joint.slopes > 0 ? " (their axes " + number_text(joint.axes, 4) + " apart, plus " +
                                                             number_text(joint.slopes, 4) + " where the cones' slopes add)"
                                                       : "";
            throw UnsupportedError(what + " folds a joint to " + shown + " degrees between consecutive bones' generators" + terms + ", at " +
                                   joint_name(skeleton_, bones_, k) + "; the baseline method accepts up to " +
                                   number_text(kMaxJointAngleDegrees) + " (the DQS and LBS methods take it)");
        }
    }
    for (std::size_t k = 0; k < bones_.size(); ++k) {
        int parent = bones_[k].previous;
        if (parent >= 0 && !pose_joint(bones_[parent].cone, bones_[k].cone, pose.joints[k].swing).pivot.cuts_sphere)
            throw UnsupportedError(what + " folds " + joint_name(skeleton_, bones_, k) +
                                   " so far that the plane where their cones meet misses the joint "
                                   "sphere; the baseline construction needs it (the DQS and LBS methods take it)");
    }
}

template <class T>
std::vector<BaselineBonePose<double>> BaselineSkinner<T>::frame(const Pose& pose) const {
    check_pose(pose);
    return baseline_pose_table(skeleton_, bones_, pose);
}

template <class T>
void BaselineSkinner<T>::set_deform_options(const BaselineDeformOptions& options) {
    validate_deform_options(options);
    options_ = options;
    tabulated_ = tabulated_bones(codes_, bones_.size(), options_.min_tabulated_points);
}

template <class T>
BaselineFrameTables BaselineSkinner<T>::frame_tables(const std::vector<BaselineBonePose<double>>& poses, cpu::Exec exec) const {
    return options_.exact ? BaselineFrameTables{} : build_frame_tables(bones_, poses, options_, exec, tabulated_);
}

template <class T>
void BaselineSkinner<T>::deform(const Pose& pose, PointView<T> out, cpu::Exec exec, BaselineTableCache* cache) const {
    require_output(out, size(), "BaselineSkinner");
    std::vector<BaselineBonePose<double>> table = frame(pose);
    BaselineFrameTables built;  // without a cache
    const BaselineFrameTables* tables = &built;
    std::optional<BaselineTableCache::Hold> hold;  // the cache's tables are read until the points are written
    if (cache && !options_.exact) {
        hold.emplace(*cache);
        tables = &cache->update(bones_, table, options_, exec, tabulated_);
    } else {
        built = frame_tables(table, exec);
    }
    cpu::deform_baseline(BaselineJob<T>{{packed_scalars(rest_.data()), 3}, codes_.data(), rest_.size(), bones_.data(), table.data(),
                                        table.size(), out, tables->view(), nullptr, {}, field_bones_.refs.data(), field_bones_.pool.data()},
                         exec);
}

template class BaselineSkinner<float>;
template class BaselineSkinner<double>;

}  // namespace bs
