// LBS with any number of influences per point (the 4-influence ClassicSkinner is the fast path): for
// rigs whose vertices are bound to more than four bones, as exported by some modelling tools.
// Owns the rest points (in T) and the compressed influences, validated at construction (InputError
// naming `source`), their weights scaled to sum to 1 (normalize_weights) and pairs of weight 0 pointed at
// bone 0 (point_unused_pairs_at_bone_zero, as influences() gives them); deform() builds the per-frame bone table and runs the per-point pass on all cores.
// Through Skinner's sparse form it also runs on the GPU (host/gpu_skinner.hpp).
#pragma once

#include <string>
#include <vector>

#include "host/point_output.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"
#include "host/weights.hpp"
#include "kernels/passes.hpp"

namespace bs {

template <class T>
class SparseLbsSkinner {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be packed xyz");

public:
    SparseLbsSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, SparseInfluences influences,
                     const std::string& source);

    std::size_t size() const { return rest_.size(); }
    const SparseInfluences& influences() const { return influences_; }
    const std::vector<Vec3<T>>& rest() const { return rest_; }

    // The per-frame bone table of a pose (one entry per bone; InputError for another bone count).
    std::vector<Mat34<T>> lbs_frame(const Pose& pose) const;

    // Deforms every point for `pose` into size() points at out.stride (host/point_output.hpp; InputError for a
    // null pointer or a stride below 3), or into `out` resized to size() (left as it was if the pose is
    // refused: deform_into).
    void deform(const Pose& pose, PointView<T> out, cpu::Exec exec = {}) const;
    void deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec = {}) const {
        deform_into(out, size(), [&](PointView<T> view) { deform(pose, view, exec); });
    }

private:
    Skeleton skeleton_;
    std::vector<Vec3<T>> rest_;
    SparseInfluences influences_;
};

extern template class SparseLbsSkinner<float>;
extern template class SparseLbsSkinner<double>;

}  // namespace bs
