// The coordinates the viewer draws in (camera-relative rendering): the file's coordinates less an origin
// held in double, so that what becomes float (the points' buffer, the sphere-mesh, the grid, the camera)
// is small beside the body shown. Drawn in float about the file's own origin, a body 1 across at x = 1e6
// lay on float's grid of 0.06 there (its points snapped and jittered); about an origin beside it, it is
// drawn as the same body near the origin is. The origin is LocalOrigin's (host/local_origin.hpp, as
// `animate` deforms about): exactly 0 for a body whose centre lies within its own extent of the origin, so
// such a body is drawn as it was, float for float.
#pragma once

#include <glm/glm.hpp>

#include "host/local_origin.hpp"
#include "host/skeleton.hpp"

namespace bs::view {

struct ViewFrame {
    Vec3<double> origin{0, 0, 0};  // in the file's coordinates

    // The frame beside a body whose spheres are `spheres` (a skeleton as posed: where it is shown).
    static ViewFrame beside(const Skeleton& spheres) { return {LocalOrigin::beside(spheres).at}; }

    bool at_file_origin() const { return origin.x == 0 && origin.y == 0 && origin.z == 0; }
    // A file point in the frame: the difference in double, rounded once (origin 0: float(p), as before).
    glm::vec3 to_view(Vec3<double> p) const { return {float(p.x - origin.x), float(p.y - origin.y), float(p.z - origin.z)}; }
    Vec3<float> to_view_point(Vec3<double> p) const { return {float(p.x - origin.x), float(p.y - origin.y), float(p.z - origin.z)}; }
    // A point of the frame in the file's coordinates (exact but for the sum's rounding in double).
    Vec3<double> to_file(glm::vec3 v) const { return {origin.x + double(v.x), origin.y + double(v.y), origin.z + double(v.z)}; }
};

}  // namespace bs::view
