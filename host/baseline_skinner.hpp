// Baseline skinning of a point set on the CPU backend: encodes the rest points once (double), then
// deforms them per pose with the per-point pass (points in float or double, geometry in double).
// Bends, twists of any size and rigid motions are deformed; a pose that folds a joint beyond
// kMaxJointAngleDegrees between consecutive posed bone axes, or so far that the plane where two cones meet
// misses their joint sphere (tapered bones reach that first), is refused (UnsupportedError): the
// separator and pivot-circle construction breaks down there.
#pragma once

#include <string>
#include <vector>

#include "host/baseline_rig.hpp"
#include "host/pose.hpp"
#include "kernels/passes.hpp"

namespace bs {

// Largest angle between consecutive posed bone axes the baseline method accepts.
constexpr double kMaxJointAngleDegrees = 170.0;

// Largest angle (degrees) between consecutive posed bone axes over the chain.
double max_joint_angle_degrees(const Skeleton& skeleton, const Pose& pose);

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
    const std::vector<Vec3<T>>& rest() const { return rest_; }

    // The per-frame bone table of a pose, after checking it (InputError: bone count; UnsupportedError: a
    // joint folded beyond what the method accepts, see above).
    std::vector<BaselineBonePose<double>> frame(const Pose& pose) const;

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
