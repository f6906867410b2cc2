// Classical skinning (LBS, DQS) of a point set on the CPU backend: owns the rest points (in T) and their
// influences, builds the per-frame bone table from a pose and runs the per-point pass on all cores.
#pragma once

#include <string>
#include <vector>

#include "host/point_output.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"
#include "kernels/passes.hpp"

namespace bs {

enum class ClassicMethod { lbs, dqs };

template <class T>
class ClassicSkinner {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be packed xyz");

public:
    // Influences are validated against the skeleton (InputError naming `source`), their weights scaled to
    // sum to 1 (normalize_weights) and their unused slots pointed at bone 0 (point_unused_pairs_at_bone_zero);
    // influences() gives them so.
    ClassicSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, std::vector<Influences> influences,
                   const std::string& source);

    std::size_t size() const { return rest_.size(); }
    const Skeleton& skeleton() const { return skeleton_; }

    const std::vector<Vec3<T>>& rest() const { return rest_; }
    const std::vector<Influences>& influences() const { return influences_; }

    // The per-frame bone tables of a pose (one entry per bone; InputError if the pose has another bone count).
    std::vector<Mat34<T>> lbs_frame(const Pose& pose) const;
    std::vector<DualQuat<T>> dqs_frame(const Pose& pose) const;

    // Deforms every point for `pose` into size() points at out.stride (host/point_output.hpp; InputError for a
    // null pointer or a stride below 3), or into `out` resized to size() (left as it was if the pose is
    // refused: deform_into).
    void deform(const Pose& pose, ClassicMethod method, PointView<T> out, cpu::Exec exec = {}) const;
    void deform(const Pose& pose, ClassicMethod method, std::vector<Vec3<T>>& out, cpu::Exec exec = {}) const {
        deform_into(out, size(), [&](PointView<T> view) { deform(pose, method, view, exec); });
    }

private:
    std::vector<Rigid<double>> posed(const Pose& pose) const;

    Skeleton skeleton_;
    std::vector<Vec3<T>> rest_;
    std::vector<Influences> influences_;
};

extern template class ClassicSkinner<float>;
extern template class ClassicSkinner<double>;

}  // namespace bs
