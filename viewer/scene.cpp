#include "viewer/scene.hpp"

#include <algorithm>
#include <cmath>

#include "host/box.hpp"
#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "host/ply.hpp"
#include "host/weights.hpp"

namespace bs::view {

namespace {

std::uint32_t most_weighted_bone(const Influences& in) {
    int best = 0;
    for (int i = 1; i < kMaxInfluences; ++i)
        if (in.weight[i] > in.weight[best]) best = i;
    return in.bone[best];
}

// Whether two poses are one, to rounding: rotations whose quaternions' |dot product| is within 1e-9 of 1
// (about 1e-4 rad apart), twists within 1e-9 rad, roots within 1e-9 of their distance from the origin.
bool same_pose(const Pose& a, const Pose& b) {
    constexpr double kTolerance = 1e-9;
    auto same_rotation = [](const Quat<double>& p, const Quat<double>& q) {  // q and −q are one rotation
        return std::fabs(std::fabs(p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z) - 1) <= kTolerance;
    };
    if (a.joints.size() != b.joints.size() || !same_rotation(a.root.rotation, b.root.rotation) ||
        norm(a.root.translation - b.root.translation) > kTolerance * (1 + norm(a.root.translation)))
        return false;
    for (std::size_t j = 0; j < a.joints.size(); ++j)
        if (!same_rotation(a.joints[j].swing, b.joints[j].swing) ||
            std::fabs(a.joints[j].twist_radians - b.joints[j].twist_radians) > kTolerance)
            return false;
    return true;
}

// The box of `points` less the ⌊n/1000⌋ lowest and highest coordinates on each axis (Scene::rest_bounds).
Box box_of_most(const std::vector<Vec3<double>>& points) {
    Box box;
    if (points.empty()) return box;
    const std::size_t n = points.size(), left_out = n / 1000;
    std::vector<double> values(n);
    for (int a = 0; a < 3; ++a) {
        for (std::size_t i = 0; i < n; ++i) values[i] = points[i][a];
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(left_out), values.end());
        box.lo[a] = values[left_out];
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(n - 1 - left_out), values.end());
        box.hi[a] = values[n - 1 - left_out];
    }
    return box;
}

}  // namespace

Motion demo_motion(const Skeleton& skeleton) {
    constexpr int kFramesEachWay = 60;
    std::vector<Pose> frames;
    for (int f = 0; f <= 2 * kFramesEachWay; ++f) {
        int from_rest = f <= kFramesEachWay ? f : 2 * kFramesEachWay - f;
        frames.push_back(demo_pose(skeleton, double(from_rest) / kFramesEachWay));
    }
    return Motion(30.0, std::move(frames));
}

double contact_sheet_time(const Motion& motion, int tile, int tiles) {
    if (tiles < 2) return 0.0;
    const double duration = motion.duration_seconds();
    return motion.frame_count() > 1 && same_pose(motion.frame(0), motion.frame(motion.frame_count() - 1))
               ? duration * tile / tiles
               : duration * tile / (tiles - 1);
}

Scene::Scene(const SceneSource& source) {
    if (!source.capture.empty()) {
        name_ = source.capture;
        CapturedBody human = captured_human(source.capture);
        skeleton_ = std::move(human.skeleton);
        rest_ = demo_points(skeleton_, source.demo_points, 2024);
        motion_ = std::move(human.motion);
    } else if (source.skeleton.empty()) {
        name_ = "built-in demo chain";
        skeleton_ = demo_chain();
        rest_ = demo_points(skeleton_, source.demo_points, 2024);
        motion_ = demo_motion(skeleton_);
    } else {
        name_ = source.points;
        skeleton_ = load_skeleton(source.skeleton, SkeletonRules::Tree);
        PointSet set = read_point_set(source.points);
        rest_ = std::move(set.positions);
        influences_ = std::move(set.influences);
        if (!source.motion.empty()) motion_ = load_motion(source.motion, skeleton_);
    }
    if (influences_.empty()) influences_ = auto_influences(skeleton_, rest_);
    point_bones_.reserve(rest_.size());
    for (const Influences& in : influences_) point_bones_.push_back(most_weighted_bone(in));
    const std::array<Vec3<double>, 2> bones = bounds(skeleton_);
    Box box = box_of_most(rest_);
    box.add(bones[0]);
    box.add(bones[1]);
    rest_bounds_ = {box.lo, box.hi};
    origin_ = LocalOrigin::beside(skeleton_);
}

const Skinner& Scene::skinner(Method method) {
    std::unique_ptr<Skinner>& slot = skinners_[method];
    if (slot) return *slot;
    if (ViewFrame::is_zero(origin_.at))  // the file's own coordinates: no copy of the points
        slot = std::make_unique<Skinner>(method, skeleton_, rest_, influences_, name_);
    else
        slot = std::make_unique<Skinner>(method, origin_.to_local(skeleton_), origin_.to_local(rest_), influences_, name_);
    return *slot;
}

Pose Scene::pose_in(const Pose& pose, const ViewFrame& view) const {
    // Checked as given: the local pose's root translation is no longer the one the bound applies to.
    require_usable_pose(skeleton_, pose);
    if (ViewFrame::is_zero(origin_.at) && view.at_file_origin()) return pose;
    // root(x + at) − view = R x + (root(at) − view): the rotation about the local origin, then the rest in double.
    Pose moved = origin_.to_local(pose);
    moved.root.translation = origin_.posed_origin(pose) - view.origin;
    return moved;
}

void Scene::deform(Method method, const Pose& pose, const ViewFrame& view, std::vector<Vec3<float>>& out, int threads) {
    skinner(method).deform(pose_in(pose, view), out, {threads}, &baseline_tables_);
}

void Scene::deform_into(Method method, const Pose& pose, const ViewFrame& view, cuda::GlBuffer& buffer, cuda::Exec exec) {
    const Skinner& cpu = skinner(method);
    std::unique_ptr<GpuSkinner>& slot = gpu_skinners_[method];
    if (!slot) slot = std::make_unique<GpuSkinner>(cpu, exec);
    deform_into_gl_buffer(*slot, buffer, pose_in(pose, view), 3, exec);
}

DragResult Scene::drag(int joint, Vec3<double> target, int chain_length, bool keep_lengths, const ViewFrame& view,
                       std::vector<Vec3<float>>& out, int threads) {
    const int length = std::min(chain_length, chain_capacity(skeleton_, joint));
    DragResult result;
    result.centres = drag_joint(skeleton_, joint, target, length, keep_lengths ? ChainMode::keep_lengths : ChainMode::paper);
    result.chain = drag_chain(skeleton_, joint, length);
    // Displacements move the local rest points as the file's: the points come out about the local origin.
    skinner(Method::metaball).metaball()->deform(sphere_displacements(skeleton_, result.centres), out, {threads});
    shift_points(out, origin_.at - view.origin);
    return result;
}

BaselineTrace Scene::trace(std::size_t index, const Pose& pose, const ViewFrame& view) {
    return trace_baseline(*skinner(Method::baseline).baseline(), index, pose_in(pose, view));
}

}  // namespace bs::view
