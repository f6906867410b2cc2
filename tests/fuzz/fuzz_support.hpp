// What the libFuzzer targets of tests/fuzz share (built and run by ./run fuzz; BASESKIN_FUZZ in CMake).
//
// A parser's documented answers to bad input are InputError, IoError and UnsupportedError
// (host/errors.hpp). Anything else is a finding: another exception, a crash, a sanitizer report (the
// targets are built with ASan and UBSan), a timeout, a leak, or an accepted input whose result breaks
// the contract its header states (checked by require()). A finding prints what broke and aborts, so
// libFuzzer records the input that caused it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unistd.h>

#include "host/baseline_skinner.hpp"
#include "host/errors.hpp"
#include "host/pose.hpp"
#include "host/skeleton.hpp"

namespace bs::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
}

inline void require(bool ok, const char* what) {
    if (!ok) finding(what);
}

// Runs `parse`; true if it returned, false if it threw a documented error; a finding otherwise.
template <class Parse>
bool accepted(Parse parse) {
    try {
        parse();
        return true;
    } catch (const InputError&) {
    } catch (const IoError&) {
    } catch (const UnsupportedError&) {
    } catch (const std::exception& e) {
        finding(std::string("undocumented exception: ") + e.what());
    } catch (...) {
        finding("an exception that is not a std::exception");
    }
    return false;
}

inline std::string bytes_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// A file of this process's own for round trips (libFuzzer's -jobs run targets as separate processes).
inline std::string scratch_path(const char* suffix) {
    return "/tmp/baseskin-fuzz-" + std::to_string(getpid()) + suffix;
}

// The skeleton the pose, motion and saved-codes targets read against: three bones, bent, unequal radii.
// The seeds in corpus/ were made for it (make_seeds.cpp): changing it invalidates the saved codes seed.
inline Skeleton fuzz_skeleton() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 0.9}, {{6.5, 2, 0}, 0.7}, {{8, 4, 0.5}, 0.45}},
                         {{0, 1}, {1, 2}, {2, 3}}, {"hip", "knee", "ankle", "toe"}, "fuzz skeleton");
}

// Baseline tables for the targets that deform: coarse (the fan's at the smallest count its series serves),
// so that a table built per input keeps a run short, and for every bone (the targets' bodies have a few
// hundred points a bone, which the default would send to the direct construction alone).
inline BaselineDeformOptions coarse_deform_options() {
    BaselineDeformOptions options;
    options.min_tabulated_points = 0;
    options.phi_samples = 32;
    options.fan_samples = kSeriesGridSamples;
    return options;
}

inline bool finite_quaternion(const Quat<double>& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

inline bool unit(const Quat<double>& q) { return finite_quaternion(q) && std::fabs(norm(q) - 1) < 1e-9; }

// A parsed pose (host/pose.hpp): one joint per bone, unit rotations, finite twists and translation.
inline void check_pose(const Pose& pose, const Skeleton& skeleton) {
    require(pose.joints.size() == skeleton.bone_count(), "a pose without one joint per bone");
    require(unit(pose.root.rotation), "a pose whose root rotation is not a unit quaternion");
    require(all_finite(pose.root.translation), "a pose whose root translation is not finite");
    for (const JointRotation<double>& j : pose.joints) {
        require(unit(j.swing), "a pose whose swing is not a unit quaternion");
        require(std::isfinite(j.twist_radians), "a pose whose twist is not finite");
    }
}

// A skeleton make_skeleton accepted (host/skeleton.hpp): consistent topology, and the derived values
// consumers rely on (unit rest axes, finite bounds) are usable.
inline void check_skeleton(const Skeleton& s) {
    const std::size_t n = s.spheres.size(), b = s.bone_count();
    require(s.root_sphere >= 0 && std::size_t(s.root_sphere) < n, "a skeleton without a root");
    require(s.names.empty() || s.names.size() == n, "a skeleton with names not one per sphere");
    require(s.parent_bone.size() == b && s.bone_order.size() == b, "a skeleton without its derived topology");
    std::string seen(b, '\0');
    for (int k : s.bone_order) {
        require(k >= 0 && std::size_t(k) < b && !seen[std::size_t(k)], "a bone order that is not a permutation");
        const int parent = s.parent_bone[std::size_t(k)];
        require(parent < 0 || seen[std::size_t(parent)], "a bone ordered before its parent bone");
        seen[std::size_t(k)] = 1;
    }
    for (std::size_t k = 0; k < b; ++k) {
        const Vec3<double> axis = s.rest_axis(int(k));
        require(all_finite(axis) && std::fabs(norm(axis) - 1) < 1e-9, "a bone whose rest axis is not a unit vector");
    }
    const auto box = bounds(s);
    require(std::isfinite(norm(box[1] - box[0])), "a skeleton whose bounds are not finite");
    for (std::size_t i = 0; i < s.bridges.size(); ++i)
        require(s.bridges[i] >= 0 && std::size_t(s.bridges[i]) < b && (i == 0 || s.bridges[i - 1] < s.bridges[i]),
                "bridges not ascending bone indices");
    require(s.bridges.size() < b, "every bone a bridge");
}

}  // namespace bs::fuzz
