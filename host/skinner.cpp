#include "host/skinner.hpp"

#include <atomic>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/weights.hpp"

namespace bs {

Method parse_method(const std::string& name) {
    if (name == "lbs") return Method::lbs;
    if (name == "dqs") return Method::dqs;
    if (name == "baseline") return Method::baseline;
    if (name == "metaball") return Method::metaball;
    throw InputError("unknown skinning method " + quoted_text(name) + " (expected lbs, dqs, baseline or metaball)");
}

const char* method_name(Method method) {
    switch (method) {
        case Method::lbs: return "lbs";
        case Method::dqs: return "dqs";
        case Method::baseline: return "baseline";
        case Method::metaball: return "metaball";
    }
    return "?";
}

SkinnerIdentity::SkinnerIdentity() {
    static std::atomic<std::uint64_t> next{1};
    value_ = next.fetch_add(1, std::memory_order_relaxed);
}

Skinner::Skinner(Method method, const Skeleton& skeleton, const std::vector<Vec3<double>>& rest,
                 std::vector<Influences> influences, const std::string& given_source,
                 const BaselineDeformOptions& baseline_options)
    : method_(method) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    // A value outside the enumeration (a cast) was deformed as DQS.
    if (method != Method::lbs && method != Method::dqs && method != Method::baseline && method != Method::metaball)
        throw InputError("Skinner: method " + std::to_string(static_cast<int>(method)) + " is none of lbs, dqs, baseline, metaball");
    check_skeleton(skeleton, skeleton_source(source));  // before the weights or the binding are made from it
    // Weights given with the points are checked by every method, used or not: weights naming bones the
    // skeleton lacks mean the points were made for another skeleton (LBS and DQS refused such a file,
    // baseline and metaball took it silently).
    if (!influences.empty() && method != Method::lbs && method != Method::dqs)
        validate_influences(influences, rest.size(), skeleton.bone_count(), source);
    if (method == Method::baseline) {
        baseline_ = std::make_unique<BaselineSkinner<float>>(skeleton, rest, source);
        baseline_->set_deform_options(baseline_options);
        return;
    }
    if (method == Method::metaball) {
        metaball_ = std::make_unique<MetaballSkinner<float>>(skeleton, rest, nearest_sphere_binding(skeleton, rest), source);
        return;
    }
    if (influences.empty()) {
        check_rest_points(rest, source);  // before the weights are made from them, so a bad point is named as one
        influences = auto_influences(skeleton, rest);
    }
    classic_ = std::make_unique<ClassicSkinner<float>>(skeleton, rest, std::move(influences), source);
}

Skinner::Skinner(const Skeleton& skeleton, const SavedCodes& saved, const BaselineDeformOptions& baseline_options)
    : method_(Method::baseline), baseline_(std::make_unique<BaselineSkinner<float>>(skeleton, saved)) {
    baseline_->set_deform_options(baseline_options);
}

Skinner::Skinner(const Skeleton& skeleton, const std::vector<Vec3<double>>& rest, SparseInfluences influences, const std::string& source)
    : method_(Method::lbs), sparse_(std::make_unique<SparseLbsSkinner<float>>(skeleton, rest, std::move(influences), source)) {}

std::size_t Skinner::size() const {
    if (baseline_) return baseline_->size();
    if (metaball_) return metaball_->size();
    if (sparse_) return sparse_->size();
    return classic_ ? classic_->size() : 0;  // moved from
}

void Skinner::deform(const Pose& pose, PointView<float> out, cpu::Exec exec, BaselineTableCache* cache) const {
    if (baseline_) return baseline_->deform(pose, out, exec, cache);
    if (metaball_) return metaball_->deform(pose, out, exec);
    if (sparse_) return sparse_->deform(pose, out, exec);
    if (!classic_) throw InputError(kMovedFromSkinner);
    classic_->deform(pose, method_ == Method::lbs ? ClassicMethod::lbs : ClassicMethod::dqs, out, exec);
}

}  // namespace bs
