// One front for every skinning method of the CPU backend, for the CLI, the viewer and the benchmark: built once
// from the rest data, then deform(pose) per frame. Positions are float (as on the GPU).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host/baseline_skinner.hpp"
#include "host/classic_skinner.hpp"
#include "host/metaball_skinner.hpp"
#include "host/sparse_lbs_skinner.hpp"

namespace bs {

enum class Method { lbs, dqs, baseline, metaball };

// "lbs", "dqs", "baseline", "metaball" (InputError otherwise).
Method parse_method(const std::string& name);
const char* method_name(Method method);

// What a moved-from Skinner says when it is asked to deform (InputError; its size() is 0).
constexpr const char* kMovedFromSkinner = "Skinner: moved from, it holds no skinner (assign one to it)";

// A number no other skinner built in this process has had, carried by moves; 0 once moved from. What a
// GpuSkinner compares to see that its Skinner still holds what it uploaded (an address could be the same
// after a replacement: the allocator hands a freed block back).
class SkinnerIdentity {
public:
    SkinnerIdentity();
    SkinnerIdentity(SkinnerIdentity&& other) noexcept : value_(std::exchange(other.value_, 0)) {}
    SkinnerIdentity& operator=(SkinnerIdentity&& other) noexcept {
        const std::uint64_t value = std::exchange(other.value_, 0);  // a move to itself keeps its value
        value_ = value;
        return *this;
    }
    std::uint64_t value() const { return value_; }

private:
    std::uint64_t value_;
};

// Movable, not copyable. A moved-from Skinner holds no method's skinner: size() 0, its accessors below
// null, identity() 0, deform and GpuSkinner refuse it (kMovedFromSkinner); method() still names the method
// it had; another Skinner may be assigned to it.
class Skinner {
public:
    // `influences` are used by LBS and DQS (computed from the sphere-mesh when empty); baseline
    // skinning encodes the points instead; metaball binds each point to its nearest joint sphere
    // (host/metaball_skinner.hpp); every method checks influences it is given (validate_influences: one
    // set per point, bones of this skeleton, weights summing to 1 within 1e-3; LBS and DQS then scale them to
    // sum to 1: normalize_weights). `source` names the points in error messages (as it is, or quoted and
    // escaped where it holds control characters or bytes that are not UTF-8: shown_source, host/errors.hpp).
    // `baseline_options` choose the baseline method's tables or its direct construction (InputError when
    // out of range; the other methods ignore them, unchecked). InputError for a `method` outside the enum.
    Skinner(Method method, const Skeleton& skeleton, const std::vector<Vec3<double>>& rest,
            std::vector<Influences> influences, const std::string& source,
            const BaselineDeformOptions& baseline_options = {});

    // Baseline skinning from codes saved earlier (host/code_file.hpp), without encoding again.
    Skinner(const Skeleton& skeleton, const SavedCodes& saved, const BaselineDeformOptions& baseline_options = {});

    // LBS with any number of influences per point (host/sparse_lbs_skinner.hpp): method() is Method::lbs.
    // The influences are given (InputError unless one row per point, validated as SparseLbsSkinner does).
    Skinner(const Skeleton& skeleton, const std::vector<Vec3<double>>& rest, SparseInfluences influences, const std::string& source);

    Method method() const { return method_; }
    std::size_t size() const;
    // Every point for `pose`, into size() points at out.stride floats the caller owns (float3, or float4 with
    // w untouched, ...: GpuSkinner::deform's shape on the CPU; host/point_output.hpp, InputError for a null
    // pointer or a stride below 3), or into `out` resized to size() (left as it was if the pose is refused:
    // deform_into). `cache`: the baseline method's tables kept from frame to frame (BaselineTableCache;
    // ignored by the others). Several threads may deform one Skinner at once (std::threads, or inside an
    // OpenMP region), each with its own output and its own cache or none: a cache in use by another deform
    // is refused (InputError). Building, moving or destroying a Skinner must not overlap another use of it.
    void deform(const Pose& pose, PointView<float> out, cpu::Exec exec = {}, BaselineTableCache* cache = nullptr) const;
    void deform(const Pose& pose, std::vector<Vec3<float>>& out, cpu::Exec exec = {}, BaselineTableCache* cache = nullptr) const {
        deform_into(out, size(), [&](PointView<float> view) { deform(pose, view, exec, cache); });
    }

    // The method's own skinner (the one matching method(), sparse() for LBS of any number of influences;
    // the others are null), for backends that upload its per-point data (host/gpu_skinner.hpp).
    const ClassicSkinner<float>* classic() const { return classic_.get(); }
    const BaselineSkinner<float>* baseline() const { return baseline_.get(); }
    const MetaballSkinner<float>* metaball() const { return metaball_.get(); }
    const SparseLbsSkinner<float>* sparse() const { return sparse_.get(); }

    // This skinner's SkinnerIdentity (0 when moved from).
    std::uint64_t identity() const { return identity_.value(); }

private:
    Method method_;
    SkinnerIdentity identity_;
    std::unique_ptr<ClassicSkinner<float>> classic_;
    std::unique_ptr<BaselineSkinner<float>> baseline_;
    std::unique_ptr<MetaballSkinner<float>> metaball_;
    std::unique_ptr<SparseLbsSkinner<float>> sparse_;
};

}  // namespace bs
