#include "host/baseline_trace.hpp"

#include <cmath>
#include <string>

#include "host/errors.hpp"

namespace bs {

namespace {

// A cap's meridian through the point's azimuth: the engine's cap deformation (deform_cap_point) of the same
// code at other polar angles t and heights h.
BaselineTrace trace_cap(const BaselineCode& code, const BaselineBone<double>& bone, const BaselineBonePose<double>& pose,
                        int samples) {
    auto posed = [&](double polar, double height) {
        BaselineCode at = code;
        at.t = float(polar);
        at.h = float(height);
        return deform_cap_point(at, bone, pose);
    };
    BaselineTrace trace;
    const double quarter_turn = 1.5707963267948966;
    for (int i = 0; i < samples; ++i) trace.section.push_back(posed(quarter_turn * i / (samples - 1), 0));
    trace.base = posed(code.t, 0);
    trace.point = posed(code.t, code.h);
    trace.direction = normalized(posed(code.t, 1) - trace.base);
    return trace;
}

}  // namespace

template <class T>
BaselineTrace trace_baseline(const BaselineSkinner<T>& skinner, std::size_t index, const Pose& pose, int samples) {
    if (index >= skinner.size())
        throw InputError("trace_baseline: point " + std::to_string(index) + " out of range (" + std::to_string(skinner.size()) +
                         " points)");
    if (samples < 2) throw InputError("trace_baseline: samples must be at least 2, got " + std::to_string(samples));
    const std::vector<BaselineBonePose<double>> poses = skinner.frame(pose);
    const BaselineBone<double>* bones = skinner.bones().data();
    const BaselineCode& code = skinner.codes()[index];
    const int k = code.bone;
    BaselineTrace trace;
    if (code.flags & (kCodeParentCap | kCodeChildCap)) {
        trace = trace_cap(code, bones[k], poses[k], samples);
    } else {
        LocalChain<double> local = posed_neighbourhood(bones, poses.data(), k);
        Section<double> rest = bone_section(bones, k, generator_radial(bones[k], double(code.phi)));
        PosedSection<double> section = make_posed_section(local, bones, poses.data(), k, rest);
        const Rigid<double>& frame = poses[k].frame;
        for (int i = 0; i < samples; ++i)
            trace.section.push_back(frame.apply(place_on_posed_section(section, local, bones, k, section.length() * i / (samples - 1)).base));
        PosedBase<double> b = place_on_posed_section(section, local, bones, k, double(code.t) * section.length());
        trace.base = frame.apply(b.base);
        trace.point = frame.apply(detail_point(code, Vec3<double>(skinner.rest()[index]), bones[k].cone, rest_axes(bones[k]), b));
        trace.direction = frame.apply_vector(b.direction);
    }
    trace.bone = k;
    trace.code = code;
    return trace;
}

template BaselineTrace trace_baseline(const BaselineSkinner<float>&, std::size_t, const Pose&, int);
template BaselineTrace trace_baseline(const BaselineSkinner<double>&, std::size_t, const Pose&, int);

}  // namespace bs
