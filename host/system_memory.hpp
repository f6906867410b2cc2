// How much memory this process may use: the machine's, or its container's where that is lower. Bounds
// what a child reader may take (host/child_process.hpp) and what a run may ask for.
#pragma once

#include <string>

namespace bs {

// The memory this process may use, in bytes: the machine's physical memory, or its control group's limit
// where that is lower (a container's: cgroup_memory_limit), 0 where neither is known.
double usable_memory();
// The lowest memory limit of the control groups named in `self_cgroup` (the text of /proc/self/cgroup) and
// of every group above them, read from the files under `cgroup_root` (normally /sys/fs/cgroup): cgroup
// v2's `memory.max` (line "0::PATH"), v1's `memory/.../memory.limit_in_bytes` (a line whose controllers
// include "memory"). +inf where no such file holds a number ("max", missing, unreadable).
double cgroup_memory_limit(const std::string& cgroup_root, const std::string& self_cgroup);

// Empty where a run needing about `bytes` fits in `usable` bytes (0: unknown, anything fits), else what to
// say: "about X GB, more than this process may use (Y GB: the machine's memory or its container's
// limit)". A run asked for beyond it is refused before it starts: past it an allocation fails part way,
// or a container's out-of-memory killer ends the run without a word.
std::string memory_shortfall(double bytes, double usable);

}  // namespace bs
