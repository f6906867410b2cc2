// What the cursor points at, without OpenGL: a joint sphere (to drag it), a point (to show its
// baseline), and where a dragged joint goes. Positions in the scene's units.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "viewer/camera.hpp"

namespace bs::view {

struct PickSphere {
    glm::vec3 centre;
    float radius;
};

// The sphere whose surface the ray meets first in front of its origin; -1 when it meets none.
// A ray starting inside a sphere meets it at its exit.
int pick_sphere(const Ray& ray, const std::vector<PickSphere>& spheres);

// The point nearest the eye among those within `tolerance` of the ray (in front of its origin); -1 when
// there is none. `points` holds `count` packed xyz triples.
long pick_point(const Ray& ray, const float* points, std::size_t count, float tolerance);

// Where the ray meets the plane through `anchor` with normal `normal` (a joint dragged on the plane
// facing the camera); `anchor` itself when the ray is parallel to the plane or the plane is behind it.
glm::vec3 drag_target(const Ray& ray, glm::vec3 anchor, glm::vec3 normal);

}  // namespace bs::view
