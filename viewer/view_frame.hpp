// The coordinates the viewer draws in (camera-relative rendering): the file's coordinates less an origin
// held in double, so that what becomes float (the points' buffer, the sphere-mesh, the grid, the camera)
// is small beside the body shown. Drawn in float about the file's own origin, a body 1 across at x = 1e6
// lay on float's grid of 0.06 there (its points snapped and jittered); about an origin beside it, it is
// drawn as the same body near the origin is. The origin is LocalOrigin's (host/local_origin.hpp, as
// `animate` deforms about): exactly 0 for a body whose centre lies within its own extent of the origin, so
// such a body is drawn as it was, float for float.
#pragma once

#include <glm/glm.hpp>

#include <vector>

#include "host/local_origin.hpp"
#include "host/skeleton.hpp"

namespace bs::view {

struct ViewFrame {
    Vec3<double> origin{0, 0, 0};  // in the file's coordinates

    // The frame beside a body whose spheres are `spheres` (a skeleton as posed: where it is shown).
    static ViewFrame beside(const Skeleton& spheres) { return {LocalOrigin::beside(spheres).at}; }

    bool at_file_origin() const { return is_zero(origin); }
    // A file point in the frame: the difference in double, rounded once (origin 0: float(p), as before).
    Vec3<float> to_view_point(Vec3<double> p) const { return Vec3<float>(p - origin); }
    glm::vec3 to_view(Vec3<double> p) const {
        const Vec3<float> v = to_view_point(p);
        return {v.x, v.y, v.z};
    }
    // A point of the frame in the file's coordinates (exact but for the sum's rounding in double; at the
    // file's origin the point itself, a -0 kept).
    Vec3<double> to_file(glm::vec3 v) const {
        const Vec3<double> p{double(v.x), double(v.y), double(v.z)};
        return at_file_origin() ? p : origin + p;
    }

    static bool is_zero(Vec3<double> v) { return v.x == 0 && v.y == 0 && v.z == 0; }
};

// Float points moved by `shift` (in double, each rounded once); none moved for a zero shift.
inline void shift_points(std::vector<Vec3<float>>& points, Vec3<double> shift) {
    if (ViewFrame::is_zero(shift)) return;
    for (Vec3<float>& p : points) p = Vec3<float>(Vec3<double>(p) + shift);
}

}  // namespace bs::view
