#include "viewer/picking.hpp"

#include <cmath>
#include <limits>

namespace bs::view {

int pick_sphere(const Ray& ray, const std::vector<PickSphere>& spheres) {
    int best = -1;
    float nearest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < spheres.size(); ++i) {
        // |o + s d − c|² = r²  with |d| = 1:  s² + 2 b s + c = 0.
        glm::vec3 oc = ray.origin - spheres[i].centre;
        float b = glm::dot(oc, ray.direction);
        float c = glm::dot(oc, oc) - spheres[i].radius * spheres[i].radius;
        float discriminant = b * b - c;
        if (discriminant < 0) continue;
        float root = std::sqrt(discriminant);
        float s = -b - root >= 0 ? -b - root : -b + root;
        if (s < 0 || s >= nearest) continue;
        nearest = s;
        best = int(i);
    }
    return best;
}

long pick_point(const Ray& ray, const float* points, std::size_t count, float tolerance) {
    long best = -1;
    float nearest = std::numeric_limits<float>::infinity();
    const float tolerance2 = tolerance * tolerance;
    for (std::size_t i = 0; i < count; ++i) {
        glm::vec3 p(points[3 * i], points[3 * i + 1], points[3 * i + 2]);
        glm::vec3 op = p - ray.origin;
        float s = glm::dot(op, ray.direction);
        if (s < 0 || s >= nearest) continue;
        glm::vec3 off_ray = op - s * ray.direction;
        if (glm::dot(off_ray, off_ray) > tolerance2) continue;
        nearest = s;
        best = long(i);
    }
    return best;
}

glm::vec3 drag_target(const Ray& ray, glm::vec3 anchor, glm::vec3 normal) {
    float facing = glm::dot(ray.direction, normal);
    if (std::fabs(facing) < 1e-6f) return anchor;
    float s = glm::dot(anchor - ray.origin, normal) / facing;
    return s > 0 ? ray.origin + s * ray.direction : anchor;
}

}  // namespace bs::view
