#include "host/local_origin.hpp"

#include <algorithm>
#include <cmath>

namespace bs {

LocalOrigin LocalOrigin::beside(const Skeleton& skeleton) {
    LocalOrigin origin;
    if (skeleton.spheres.empty()) return origin;
    const auto [lo, hi] = bounds(skeleton);
    const Vec3<double> centre = 0.5 * (lo + hi);
    const double extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    if (std::max({std::fabs(centre.x), std::fabs(centre.y), std::fabs(centre.z)}) > extent) origin.at = centre;
    return origin;
}

Skeleton LocalOrigin::to_local(const Skeleton& skeleton) const {
    Skeleton local = skeleton;
    for (Sphere<double>& s : local.spheres) s.centre = s.centre - at;
    return local;
}

std::vector<Vec3<double>> LocalOrigin::to_local(std::vector<Vec3<double>> points) const {
    for (Vec3<double>& p : points) p = p - at;
    return points;
}

Pose LocalOrigin::to_local(const Pose& pose) const {
    // root(x + at) = R x + root(at): the rotation about the local origin, then posed_origin.
    Pose local = pose;
    local.root.translation = {0, 0, 0};
    return local;
}

}  // namespace bs
