#include "host/sparse_lbs_skinner.hpp"

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/pose_table.hpp"
#include "host/weights.hpp"

namespace bs {

template <class T>
SparseLbsSkinner<T>::SparseLbsSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, SparseInfluences influences,
                                      const std::string& given_source)
    : skeleton_(std::move(skeleton)), influences_(std::move(influences)) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    check_skeleton(skeleton_, skeleton_source(source));
    prepare_for_skinning(influences_, rest.size(), skeleton_.bone_count(), source);
    // Kept for the skinner's life: built pair by pair, their spare capacity was a quarter of what it held.
    influences_.offsets.shrink_to_fit();
    influences_.bones.shrink_to_fit();
    influences_.weights.shrink_to_fit();
    rest_ = checked_rest_points<T>(rest, source);
}

template <class T>
std::vector<Mat34<T>> SparseLbsSkinner<T>::lbs_frame(const Pose& pose) const {
    require_usable_pose(skeleton_, pose);
    return lbs_table<T>(posed_bones(skeleton_, pose));
}

template <class T>
void SparseLbsSkinner<T>::deform(const Pose& pose, PointView<T> out, cpu::Exec exec) const {
    const std::vector<Mat34<T>> table = lbs_frame(pose);
    require_output(out, size(), "SparseLbsSkinner");
    cpu::deform_lbs(SparseLbsJob<T>{{packed_scalars(rest_.data()), 3}, influences_.offsets.data(), influences_.bones.data(),
                                    influences_.weights.data(), rest_.size(), table.data(), table.size(), out},
                    exec);
}

template class SparseLbsSkinner<float>;
template class SparseLbsSkinner<double>;

}  // namespace bs
