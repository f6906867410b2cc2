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
}

std::array<Vec3<double>, 2> Scene::rest_bounds() const {
    const std::array<Vec3<double>, 2> bones = bounds(skeleton_);
    Box box = box_of(rest_);
    box.add(bones[0]);
    box.add(bones[1]);
    return {box.lo, box.hi};
}

const Skinner& Scene::skinner(Method method) {
    std::unique_ptr<Skinner>& slot = skinners_[method];
    if (!slot) slot = std::make_unique<Skinner>(method, skeleton_, rest_, influences_, name_);
    return *slot;
}

void Scene::deform(Method method, const Pose& pose, std::vector<Vec3<float>>& out, int threads) {
    skinner(method).deform(pose, out, {threads}, &baseline_tables_);
}

void Scene::deform_into(Method method, const Pose& pose, cuda::GlBuffer& buffer, cuda::Exec exec) {
    const Skinner& cpu = skinner(method);
    std::unique_ptr<GpuSkinner>& slot = gpu_skinners_[method];
    if (!slot) slot = std::make_unique<GpuSkinner>(cpu, exec);
    deform_into_gl_buffer(*slot, buffer, pose, 3, exec);
}

DragResult Scene::drag(int joint, Vec3<double> target, int chain_length, bool keep_lengths, std::vector<Vec3<float>>& out,
                       int threads) {
    const int length = std::min(chain_length, chain_capacity(skeleton_, joint));
    DragResult result;
    result.centres = drag_joint(skeleton_, joint, target, length, keep_lengths ? ChainMode::keep_lengths : ChainMode::paper);
    result.chain = drag_chain(skeleton_, joint, length);
    skinner(Method::metaball).metaball()->deform(sphere_displacements(skeleton_, result.centres), out, {threads});
    return result;
}

BaselineTrace Scene::trace(std::size_t index, const Pose& pose) {
    return trace_baseline(*skinner(Method::baseline).baseline(), index, pose);
}

}  // namespace bs::view
