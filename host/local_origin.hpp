// Deforming a body far from the origin (README "Points"). The skinners write float positions (as on the
// GPU): about 7 significant digits, so a body 0.5 across, 1e8 from the origin, came out on a grid of 8
// units — every method collapsed such a cylinder onto 2–4 positions along it, at the rest pose. So the
// CLI (`animate`) deforms in coordinates beside the body: the skeleton and the rest points moved by −at
// once, and each pose's root translation taken out of the float pass — the pass turns the body about the
// local origin, and the deformed points are moved to where the root puts that origin in double. Every
// method is equivariant under rigid motions, so that is a change of coordinates, not of the result. An
// embedder who keeps float output (a vertex buffer) renders about such an origin instead (camera-relative
// rendering).
#pragma once

#include <vector>

#include "engine/vec.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs {

struct LocalOrigin {
    // The local coordinates' origin at rest, in the skeleton's coordinates: the centre of the spheres'
    // bounding box, or exactly 0 for a body whose centre lies within its own extent of the origin.
    Vec3<double> at{0, 0, 0};

    static LocalOrigin beside(const Skeleton& skeleton);

    Skeleton to_local(const Skeleton& skeleton) const;  // every sphere moved by −at
    std::vector<Vec3<double>> to_local(std::vector<Vec3<double>> points) const;
    // The pose the float pass takes: the root's rotation alone (about the local origin). Where the root puts
    // the local origin: posed_origin(pose). A pose with no root translation, of a body near the origin, is
    // unchanged (its points come out as Skinner::deform gives them, bit for bit).
    Pose to_local(const Pose& pose) const;
    Vec3<double> posed_origin(const Pose& pose) const { return pose.root.apply(at); }
};

}  // namespace bs
