// The panel's per-joint bend and per-bone twist, without OpenGL, turned into a pose of the skeleton
// (host/pose.hpp) on top of a base pose (the rest pose, or the motion's pose at the timeline's time).
//
// Bone k's controls act at its parent sphere (the joint it turns about): `bend_degrees` swings the bone
// away from its rest direction about an axis ⟂ its rest axis, that axis chosen by `direction_degrees`
// about the rest axis (0: any_orthogonal(rest axis), 90: rest axis × that); `twist_degrees` turns it
// about its own axis (unwrapped: any size). The bend is applied after the base pose's swing, in the
// parent's frame, and the product split again into swing and twist about the rest axis; the twists add.
#pragma once

#include <vector>

#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs::view {

struct BoneControl {
    float bend_degrees = 0;
    float direction_degrees = 0;
    float twist_degrees = 0;
};

class PoseControls {
public:
    explicit PoseControls(const Skeleton& skeleton) : skeleton_(&skeleton), bones_(skeleton.bone_count()) {}

    std::vector<BoneControl>& bones() { return bones_; }
    const std::vector<BoneControl>& bones() const { return bones_; }
    void reset() { bones_.assign(bones_.size(), BoneControl{}); }
    bool at_rest() const;

    // `base` with every bone's control added.
    Pose apply(const Pose& base) const;

private:
    const Skeleton* skeleton_;
    std::vector<BoneControl> bones_;
};

}  // namespace bs::view
