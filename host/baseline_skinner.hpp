// Baseline skinning of a point set on the CPU backend: encodes the rest points once (double), then
// deforms them per pose with the per-point pass (float or double). Until the bend work lands, poses
// that bend a joint by more than kBendTolerance are refused (UnsupportedError): twists of any size, root
// motions and the first bone's swing (a rigid motion of the whole chain) are deformed.
#pragma once

#include <string>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/pose.hpp"
#include "kernels/passes.hpp"

namespace bs {

// Largest joint bend (radians, host/pose.hpp max_joint_bend) the twist-only deformation accepts.
constexpr double kBendTolerance = 1e-6;

// Per-frame table: each bone's posed frame without its own twist, and that twist.
std::vector<BaselineBonePose<double>> baseline_pose_table(const Skeleton& skeleton, const Pose& pose);

template <class T>
class BaselineSkinner {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "Vec3 must be packed xyz");

public:
    BaselineSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, const std::string& source,
                    const EncodeOptions& options = {});

    std::size_t size() const { return rest_.size(); }
    const std::vector<BaselineCode>& codes() const { return codes_; }
    const std::vector<BaselineBone<double>>& bones() const { return bones_; }
    const Skeleton& skeleton() const { return skeleton_; }

    void deform(const Pose& pose, std::vector<Vec3<T>>& out, cpu::Exec exec = {}) const;

private:
    Skeleton skeleton_;
    std::vector<BaselineBone<double>> bones_;
    std::vector<Vec3<T>> rest_;
    std::vector<BaselineCode> codes_;
};

extern template class BaselineSkinner<float>;
extern template class BaselineSkinner<double>;

}  // namespace bs
