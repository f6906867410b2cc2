#include "host/classic_skinner.hpp"

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/pose_table.hpp"
#include "host/weights.hpp"

namespace bs {

template <class T>
ClassicSkinner<T>::ClassicSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest,
                                  std::vector<Influences> influences, const std::string& given_source)
    : skeleton_(std::move(skeleton)), influences_(std::move(influences)) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    check_skeleton(skeleton_, skeleton_source(source));
    prepare_for_skinning(influences_, rest.size(), skeleton_.bone_count(), source);
    rest_ = checked_rest_points<T>(rest, source);
}

template <class T>
std::vector<Rigid<double>> ClassicSkinner<T>::posed(const Pose& pose) const {
    require_usable_pose(skeleton_, pose);
    return posed_bones(skeleton_, pose);
}

template <class T>
std::vector<Mat34<T>> ClassicSkinner<T>::lbs_frame(const Pose& pose) const {
    return lbs_table<T>(posed(pose));
}

template <class T>
std::vector<DualQuat<T>> ClassicSkinner<T>::dqs_frame(const Pose& pose) const {
    return dqs_table<T>(posed(pose));
}

template <class T>
void ClassicSkinner<T>::deform(const Pose& pose, ClassicMethod method, PointView<T> out, cpu::Exec exec) const {
    require_output(out, size(), "ClassicSkinner");
    ConstPointView<T> rest{packed_scalars(rest_.data()), 3};
    if (method == ClassicMethod::lbs) {
        std::vector<Mat34<T>> table = lbs_frame(pose);
        cpu::deform_lbs(LbsJob<T>{rest, influences_.data(), rest_.size(), table.data(), table.size(), out}, exec);
    } else {
        std::vector<DualQuat<T>> table = dqs_frame(pose);
        cpu::deform_dqs(DqsJob<T>{rest, influences_.data(), rest_.size(), table.data(), table.size(), out}, exec);
    }
}

template class ClassicSkinner<float>;
template class ClassicSkinner<double>;

}  // namespace bs
