#include "host/gpu_skinner.hpp"

#include "host/errors.hpp"

namespace bs {

namespace {
std::vector<float> flat(const std::vector<Vec3<float>>& points) {
    std::vector<float> out;
    out.reserve(3 * points.size());
    for (const Vec3<float>& p : points) out.insert(out.end(), {p.x, p.y, p.z});
    return out;
}
}  // namespace

GpuSkinner::GpuSkinner(const Skinner& skinner, cuda::Exec exec) : skinner_(skinner), count_(0) {
    if (const ClassicSkinner<float>* classic = skinner.classic()) {
        count_ = classic->size();
        rest_ = cuda::DeviceArray<float>(flat(classic->rest()), exec);
        influences_ = cuda::DeviceArray<Influences>(classic->influences(), exec);
    } else if (const BaselineSkinner<float>* baseline = skinner.baseline()) {
        count_ = baseline->size();
        rest_ = cuda::DeviceArray<float>(flat(baseline->rest()), exec);
        codes_ = cuda::DeviceArray<BaselineCode>(baseline->codes(), exec);
        bones_ = cuda::DeviceArray<BaselineBone<double>>(baseline->bones(), exec);
    } else {
        throw UnsupportedError(std::string("the CUDA backend has no host path for the ") + method_name(skinner.method()) +
                               " method yet (use --backend cpu)");
    }
    cuda::synchronize(exec);  // the host copies above are temporaries
}

std::size_t GpuSkinner::device_bytes() const {
    return rest_.bytes() + influences_.bytes() + codes_.bytes() + bones_.bytes();
}

double GpuSkinner::device_bytes_per_point() const {
    return count_ ? double(rest_.bytes() + influences_.bytes() + codes_.bytes()) / double(count_) : 0.0;
}

void GpuSkinner::deform(const Pose& pose, PointView<float> out, cuda::Exec exec) {
    ConstPointView<float> rest{rest_.data(), 3};
    if (const ClassicSkinner<float>* classic = skinner_.classic()) {
        if (skinner_.method() == Method::lbs) {
            lbs_frame_.assign(classic->lbs_frame(pose), exec);
            cuda::deform_lbs({rest, influences_.data(), count_, lbs_frame_.data(), lbs_frame_.size(), out}, exec);
        } else {
            dqs_frame_.assign(classic->dqs_frame(pose), exec);
            cuda::deform_dqs({rest, influences_.data(), count_, dqs_frame_.data(), dqs_frame_.size(), out}, exec);
        }
        return;
    }
    const BaselineSkinner<float>& baseline = *skinner_.baseline();
    std::vector<BaselineBonePose<double>> poses = baseline.frame(pose);
    baseline_frame_.assign(poses, exec);
    BaselineTables<double> tables{};
    if (!baseline.deform_options().exact) tables = upload_tables(build_frame_tables(baseline.bones(), poses, baseline.deform_options()), exec);
    cuda::deform_baseline(
        {rest, codes_.data(), count_, bones_.data(), baseline_frame_.data(), poses.size(), out, tables}, exec);
}

BaselineTables<double> GpuSkinner::upload_tables(const BaselineFrameTables& host, cuda::Exec exec) {
    DeviceTables& d = tables_;
    d.locals.assign(host.locals, exec);
    d.sections.assign(host.sections, exec);
    d.fine.assign(host.fine, exec);
    d.fans.assign(host.fans, exec);
    d.fine_fans.assign(host.fine_fans, exec);
    d.cells.assign(host.cells, exec);
    d.fan_cells.assign(host.fan_cells, exec);
    d.direct.assign(host.direct, exec);
    d.fan_direct.assign(host.fan_direct, exec);
    return {host.phi_samples, host.fan_samples, d.locals.data(),    d.sections.data(),  d.fans.data(),      d.cells.data(),
            d.fine.data(),    d.direct.data(),  d.fan_cells.data(), d.fine_fans.data(), d.fan_direct.data()};
}

}  // namespace bs
