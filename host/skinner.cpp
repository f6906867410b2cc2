#include "host/skinner.hpp"

#include "host/errors.hpp"
#include "host/weights.hpp"

namespace bs {

Method parse_method(const std::string& name) {
    if (name == "lbs") return Method::lbs;
    if (name == "dqs") return Method::dqs;
    if (name == "baseline") return Method::baseline;
    throw InputError("unknown skinning method \"" + name + "\" (expected lbs, dqs or baseline)");
}

const char* method_name(Method method) {
    switch (method) {
        case Method::lbs: return "lbs";
        case Method::dqs: return "dqs";
        case Method::baseline: return "baseline";
    }
    return "?";
}

Skinner::Skinner(Method method, const Skeleton& skeleton, const std::vector<Vec3<double>>& rest,
                 std::vector<Influences> influences, const std::string& source)
    : method_(method) {
    if (method == Method::baseline) {
        baseline_ = std::make_unique<BaselineSkinner<float>>(skeleton, rest, source);
        return;
    }
    if (influences.empty()) influences = auto_influences(skeleton, rest);
    classic_ = std::make_unique<ClassicSkinner<float>>(skeleton, rest, std::move(influences), source);
}

void Skinner::deform(const Pose& pose, std::vector<Vec3<float>>& out, cpu::Exec exec) const {
    if (baseline_) return baseline_->deform(pose, out, exec);
    classic_->deform(pose, method_ == Method::lbs ? ClassicMethod::lbs : ClassicMethod::dqs, out, exec);
}

}  // namespace bs
