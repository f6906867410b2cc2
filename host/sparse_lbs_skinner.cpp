#include "host/sparse_lbs_skinner.hpp"

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/pose_table.hpp"

namespace bs {

template <class T>
SparseLbsSkinner<T>::SparseLbsSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, SparseInfluences influences,
                                      const std::string& source)
    : skeleton_(std::move(skeleton)), influences_(std::move(influences)) {
    validate_influences(influences_, rest.size(), skeleton_.bone_count(), source);
    rest_ = checked_rest_points<T>(rest, source);
}

template <class T>
void SparseLbsSkinner<T>::deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec) const {
    if (pose.joints.size() != skeleton_.bone_count())
        throw InputError("pose has " + std::to_string(pose.joints.size()) + " bones, skeleton has " +
                         std::to_string(skeleton_.bone_count()));
    std::vector<Mat34<T>> table = lbs_table<T>(posed_bones(skeleton_, pose));
    out.resize(rest_.size());
    cpu::deform_lbs(SparseLbsJob<T>{{packed_scalars(rest_.data()), 3}, influences_.offsets.data(), influences_.bones.data(),
                                    influences_.weights.data(), rest_.size(), table.data(), table.size(), {packed_scalars(out.data()), 3}},
                    exec);
}

template class SparseLbsSkinner<float>;
template class SparseLbsSkinner<double>;

}  // namespace bs
