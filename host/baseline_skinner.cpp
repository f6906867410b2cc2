#include "host/baseline_skinner.hpp"

#include <cmath>

#include "host/errors.hpp"

namespace bs {

std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const Pose& pose) {
    std::vector<Rigid<double>> posed = posed_bones(skeleton, pose);
    std::vector<BaselineBonePose<double>> table(skeleton.bone_count());
    for (std::size_t k = 0; k < table.size(); ++k) {
        double twist = pose.joints[k].twist_radians;
        Rigid<double> untwist = rotation_about(axis_angle(skeleton.rest_axis(int(k)), -twist),
                                               skeleton.spheres[skeleton.bones[k][0]].centre);
        table[k] = {compose(posed[k], untwist), twist};
    }
    return table;
}

template <class T>
BaselineSkinner<T>::BaselineSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, const std::string& source,
                                    const EncodeOptions& options)
    : skeleton_(std::move(skeleton)) {
    bones_ = make_baseline_bones(skeleton_);
    codes_ = encode_points(bones_, rest, source, options);
    rest_.reserve(rest.size());
    for (const Vec3<double>& p : rest) rest_.push_back(Vec3<T>(p));
}

template <class T>
void BaselineSkinner<T>::deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec) const {
    if (pose.joints.size() != skeleton_.bone_count())
        throw InputError("pose has " + std::to_string(pose.joints.size()) + " bones, skeleton has " +
                         std::to_string(skeleton_.bone_count()));
    double bend = max_joint_bend(skeleton_, pose);
    if (bend > kBendTolerance)
        throw UnsupportedError("the baseline method deforms twists, root motions and the first bone's swing; this pose "
                               "bends a joint by " + std::to_string(bend * 180 / 3.14159265358979) +
                               " degrees (bends are not supported yet; use --method dqs or lbs)");
    std::vector<BaselineBonePose<double>> table = baseline_pose_table(skeleton_, pose);
    out.resize(rest_.size());
    cpu::deform_baseline(BaselineJob<T>{{&rest_.data()->x, 3}, codes_.data(), rest_.size(), bones_.data(), table.data(),
                                        table.size(), {&out.data()->x, 3}},
                         exec);
}

template class BaselineSkinner<float>;
template class BaselineSkinner<double>;

}  // namespace bs
