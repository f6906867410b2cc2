#include "host/baseline_trace.hpp"

#include <cmath>
#include <string>

#include "host/errors.hpp"

namespace bs {

namespace {

// A cap's meridian through the point's azimuth, posed as deform_cap_point poses the point.
BaselineTrace trace_cap(const BaselineCode& code, const BaselineBone<double>& bone, const BaselineBonePose<double>& pose,
                        int samples) {
    const bool child = (code.flags & kCodeChildCap) != 0;
    const Sphere<double>& sphere = child ? bone.cone.child : bone.cone.parent;
    const Vec3<double> pole = child ? bone.cone.axis : -bone.cone.axis;
    const Vec3<double> radial = generator_radial(bone, double(code.phi));
    auto posed = [&](double polar, double height) {
        Vec3<double> u = std::cos(polar) * pole + std::sin(polar) * radial;
        Vec3<double> local = sphere.centre + (sphere.radius + height) * u;
        if (child) local = rotate_about_axis(bone, pose.twist, local);
        return pose.frame.apply(local);
    };
    BaselineTrace trace;
    const double quarter_turn = 1.5707963267948966;
    for (int i = 0; i < samples; ++i) trace.section.push_back(posed(quarter_turn * i / (samples - 1), 0));
    trace.base = posed(code.t, 0);
    trace.point = posed(code.t, code.h);
    trace.direction = posed(code.t, 1) - trace.base;  // unit: one unit of height along the radius
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
            trace.section.push_back(frame.apply(place_on_posed_section(section, local, section.length() * i / (samples - 1)).base));
        PosedBase<double> b = place_on_posed_section(section, local, double(code.t) * section.length());
        trace.base = frame.apply(b.base);
        trace.point = frame.apply(b.base + double(code.h) * b.direction);
        trace.direction = frame.apply_vector(b.direction);
    }
    trace.bone = k;
    trace.code = code;
    return trace;
}

template BaselineTrace trace_baseline(const BaselineSkinner<float>&, std::size_t, const Pose&, int);
template BaselineTrace trace_baseline(const BaselineSkinner<double>&, std::size_t, const Pose&, int);

}  // namespace bs
