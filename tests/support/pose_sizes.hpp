// Poses of another size than the skeleton's, for the helpers that must refuse them (a pose one bone short
// had been read past its joints; an empty one crashed).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "host/errors.hpp"
#include "host/pose.hpp"
#include "tests/support/message_of.hpp"

namespace bs::testing {

// Expects `use` to refuse, as require_joint_per_bone does, the rest pose of `skeleton` one bone short and
// a pose of no joints.
inline void expect_poses_of_another_size_refused(const Skeleton& skeleton, const std::function<void(const Pose&)>& use) {
    Pose short_pose = Pose::rest(skeleton);
    short_pose.joints.pop_back();
    for (const Pose& pose : {short_pose, Pose{}}) {
        const std::string expected = "pose: Pose::joints has size " + std::to_string(pose.joints.size()) + ", expected " +
                                     std::to_string(skeleton.bone_count());
        const std::string message = message_of<InputError>([&] { use(pose); });
        EXPECT_NE(message.find(expected), std::string::npos) << message;
    }
}

}  // namespace bs::testing
