#include "host/gpu_skinner.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "host/errors.hpp"
#include "kernels/coherent_order.hpp"

namespace bs {

void GpuSkinner::require_same_skinner() const {
    if (skinner_.identity() != identity_)
        throw InputError("GpuSkinner: its Skinner was moved from or replaced since it was built (build another GpuSkinner)");
}

GpuSkinner::GpuSkinner(const Skinner& skinner, cuda::Exec exec) : skinner_(skinner), identity_(skinner.identity()), count_(0) {
    if (const ClassicSkinner<float>* classic = skinner.classic()) {
        count_ = classic->size();
        rest_ = cuda::DeviceArray<Vec3<float>>(classic->rest(), exec);
        influences_ = cuda::DeviceArray<Influences>(classic->influences(), exec);
    } else if (const BaselineSkinner<float>* baseline = skinner.baseline()) {
        count_ = baseline->size();
        upload_in_coherent_order(*baseline, exec);
        if (!baseline->deform_options().exact) split_ = cuda::DeviceArray<std::uint32_t>(count_ + 1);  // no tables, no split
        bones_ = cuda::DeviceArray<BaselineBone<double>>(baseline->bones(), exec);
        tables_.tabulated = cuda::DeviceArray<unsigned char>(baseline->tabulated(), exec);  // fixed for the Skinner's life
        cuda::reserve_baseline_stack();
        cuda::reserve_table_stack();  // for set_tables_on_device, which may come between frames
    } else if (const SparseLbsSkinner<float>* sparse = skinner.sparse()) {
        count_ = sparse->size();
        rest_ = cuda::DeviceArray<Vec3<float>>(sparse->rest(), exec);
        sparse_offsets_ = cuda::DeviceArray<std::uint32_t>(sparse->influences().offsets, exec);
        sparse_bones_ = cuda::DeviceArray<std::uint32_t>(sparse->influences().bones, exec);
        sparse_weights_ = cuda::DeviceArray<float>(sparse->influences().weights, exec);
    } else if (const MetaballSkinner<float>* metaball = skinner.metaball()) {
        count_ = metaball->size();
        rest_ = cuda::DeviceArray<Vec3<float>>(metaball->rest(), exec);
        binding_offsets_ = cuda::DeviceArray<std::uint32_t>(metaball->binding().offsets, exec);
        binding_joints_ = cuda::DeviceArray<std::uint32_t>(metaball->binding().joints, exec);
    } else {
        throw InputError(kMovedFromSkinner);
    }
    cuda::synchronize(exec);  // the host copies above are temporaries
}

namespace {
// `from` gathered into `order` on the device (kernels/coherent_order.hpp); `from` may go once it returns.
template <class T>
cuda::DeviceArray<T> gathered(const cuda::DeviceArray<T>& from, const cuda::DeviceArray<std::uint32_t>& order, cuda::Exec exec) {
    cuda::DeviceArray<T> to(from.size());
    cuda::gather(from.data(), order.data(), from.size(), to.data(), exec);
    cuda::synchronize(exec);
    return to;
}
}  // namespace

// One caller-ordered array on the device at a time: at most 52 bytes a point while sorting and gathering
// (the field refs and their pool, 4 bytes a point and ~8 a kept field bone, after).
void GpuSkinner::upload_in_coherent_order(const BaselineSkinner<float>& baseline, cuda::Exec exec) {
    order_ = cuda::DeviceArray<std::uint32_t>(count_);
    {
        const cuda::DeviceArray<BaselineCode> codes(baseline.codes(), exec);
        cuda::coherent_order(codes.data(), count_, order_.data(), exec);
        codes_ = gathered(codes, order_, exec);
    }
    rest_ = gathered(cuda::DeviceArray<Vec3<float>>(baseline.rest(), exec), order_, exec);
    field_refs_ = gathered(cuda::DeviceArray<std::uint32_t>(baseline.field_bones().refs, exec), order_, exec);
    field_pool_ = cuda::DeviceArray<FieldWeight>(baseline.field_bones().pool, exec);
}

std::size_t GpuSkinner::device_bytes() const {
    const DeviceTables& t = tables_;
    return rest_.bytes() + influences_.bytes() + sparse_offsets_.bytes() + sparse_bones_.bytes() + sparse_weights_.bytes() + codes_.bytes() + order_.bytes() + field_refs_.bytes() + field_pool_.bytes() + split_.bytes() + bones_.bytes() + lbs_frame_.bytes() + dqs_frame_.bytes() +
           baseline_frame_.bytes() + binding_offsets_.bytes() + binding_joints_.bytes() + metaball_frame_.bytes() +
           t.locals.bytes() + t.sections.bytes() + t.fine.bytes() + t.extents.bytes() + t.fine_extents.bytes() + t.fans.bytes() + t.fine_fans.bytes() + t.cells.bytes() +
           t.fan_cells.bytes() + t.direct.bytes() + t.fan_direct.bytes() + t.fan_angles.bytes() + t.middles.bytes() + t.fan_checks.bytes() +
           t.verdicts.bytes() + t.tabulated.bytes();
}

void GpuSkinner::require_writable(PointView<float> out) const {
    require_output(out, count_, "GpuSkinner");
    if (count_ > 0 && cuda::device_cannot_write(out.data))
        throw InputError("GpuSkinner: the output is host memory the device cannot write; give a device buffer (cudaMalloc), managed or "
                         "page-locked memory");
}

LbsJob<float> GpuSkinner::lbs_job(const Pose& pose, PointView<float> out, cuda::Exec exec) {
    require_same_skinner();
    if (skinner_.method() != Method::lbs) throw InputError(std::string("lbs_job of a ") + method_name(skinner_.method()) + " skinner");
    if (!skinner_.classic()) throw InputError("lbs_job of an LBS skinner of any number of influences (GpuBodies takes up to four a point)");
    const std::vector<Mat34<float>> frame = skinner_.classic()->lbs_frame(pose);
    uploads_.frame(exec).upload(lbs_frame_, frame);
    return {{packed_scalars(rest_.data()), 3}, influences_.data(), count_, lbs_frame_.data(), frame.size(), out};
}

BaselineJob<float> GpuSkinner::baseline_job(const Pose& pose, PointView<float> out, cuda::Exec exec) {
    require_same_skinner();
    if (skinner_.method() != Method::baseline)
        throw InputError(std::string("baseline_job of a ") + method_name(skinner_.method()) + " skinner");
    const BaselineSkinner<float>& baseline = *skinner_.baseline();
    cuda::FrameUploads::Frame frame = uploads_.frame(exec);
    std::vector<BaselineBonePose<double>> poses = baseline.frame(pose);
    frame.upload(baseline_frame_, poses);
    const BaselineDeformOptions& options = baseline.deform_options();
    BaselineTables<double> tables;  // empty: the direct construction
    if (!options.exact) {
        if (tables_on_device_) {
            tables = build_tables_on_device(poses, frame, exec);
        } else {
            const BaselineTableCache::Hold hold(host_tables_);  // until the tables are staged (one thread at a time)
            tables = upload_tables(host_tables_.update(baseline.bones(), poses, options, {}, baseline.tabulated()), frame);
        }
    }
    return {{packed_scalars(rest_.data()), 3}, codes_.data(), count_, bones_.data(), baseline_frame_.data(), poses.size(), out, tables,
            order_.data(), split_.size() ? SplitScratch{split_.data(), split_.data() + count_} : SplitScratch{}, field_refs_.data(),
            field_pool_.data()};
}

namespace {
// A frame cannot be recorded into a CUDA graph: its uploads go through page-locked blocks that later frames
// rewrite (a replayed graph would upload another frame's tables), and it waits on events recorded three
// frames back and may allocate, neither of which a capture may hold.
void require_not_capturing(cuda::Exec exec, const char* who) {
    if (cuda::stream_is_capturing(exec))
        throw InputError(std::string(who) + ": the stream is being captured into a CUDA graph; a frame cannot be (call it outside the capture)");
}
}  // namespace

void GpuSkinner::deform(const Pose& pose, PointView<float> out, cuda::Exec exec) {
    require_not_capturing(exec, "GpuSkinner::deform");
    require_writable(out);
    deform_unchecked(pose, out, exec);
}

void GpuSkinner::deform_unchecked(const Pose& pose, PointView<float> out, cuda::Exec exec) {
    require_same_skinner();
    switch (skinner_.method()) {
        case Method::lbs: {
            const SparseLbsSkinner<float>* sparse = skinner_.sparse();
            if (!sparse) return cuda::deform_lbs(lbs_job(pose, out, exec), exec);
            const std::vector<Mat34<float>> frame = sparse->lbs_frame(pose);
            uploads_.frame(exec).upload(lbs_frame_, frame);
            return cuda::deform_lbs(SparseLbsJob<float>{{packed_scalars(rest_.data()), 3}, sparse_offsets_.data(), sparse_bones_.data(),
                                                        sparse_weights_.data(), count_, lbs_frame_.data(), frame.size(), out},
                                    exec);
        }
        case Method::baseline: return cuda::deform_baseline(baseline_job(pose, out, exec), exec);
        case Method::dqs: {
            const std::vector<DualQuat<float>> frame = skinner_.classic()->dqs_frame(pose);
            uploads_.frame(exec).upload(dqs_frame_, frame);
            return cuda::deform_dqs({{packed_scalars(rest_.data()), 3}, influences_.data(), count_, dqs_frame_.data(), frame.size(), out}, exec);
        }
        case Method::metaball: {
            const std::vector<MetaballJoint<float>> joints = skinner_.metaball()->joint_table(pose);
            uploads_.frame(exec).upload(metaball_frame_, joints);
            return cuda::deform_metaball({{packed_scalars(rest_.data()), 3}, binding_offsets_.data(), binding_joints_.data(), count_,
                                          metaball_frame_.data(), joints.size(), MetaballSkinner<float>::body_motion(pose), out},
                                         exec);
        }
    }
}

void deform_into_gl_buffer(GpuSkinner& skinner, cuda::GlBuffer& buffer, const Pose& pose, std::size_t stride, cuda::Exec exec) {
    require_not_capturing(exec, "deform_into_gl_buffer");
    std::size_t bytes = 0;
    float* mapped = static_cast<float*>(buffer.map(exec, bytes));
    try {
        require_output(PointView<float>{mapped, stride}, skinner.size(), "deform_into_gl_buffer");  // a stride whose span wraps
        const std::size_t needed = skinner.size() * stride * sizeof(float);
        if (stride < 3 || bytes < needed)
            throw InputError("deform_into_gl_buffer: the buffer holds " + std::to_string(bytes) + " bytes; " +
                             std::to_string(skinner.size()) + " points at a stride of " + std::to_string(stride) +
                             " floats (at least 3) need " + std::to_string(needed));
        skinner.deform_unchecked(pose, {mapped, stride}, exec);  // CUDA's own mapping of the buffer: device memory
    } catch (...) {
        try {
            buffer.unmap(exec);
        } catch (const CudaError&) {  // the first error is the one to report
        }
        throw;
    }
    buffer.unmap(exec);
}

namespace {

// The bytes from the first point's x to the last point's z of `size` points at `out` (size > 0), as
// integers: pointers into different buffers are not ordered by <.
std::pair<std::uintptr_t, std::uintptr_t> output_span(PointView<float> out, std::size_t size) {
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(out.data);
    return {first, first + ((size - 1) * out.stride + 3) * sizeof(float)};
}

}  // namespace

void require_separate_outputs(const std::vector<std::size_t>& sizes, const std::vector<PointView<float>>& outs, const std::string& who) {
    if (sizes.size() != outs.size())
        throw std::invalid_argument(who + ": " + std::to_string(sizes.size()) + " sizes for " + std::to_string(outs.size()) + " outputs");
    std::vector<std::size_t> order;
    for (std::size_t b = 0; b < outs.size(); ++b)
        if (sizes[b] > 0) order.push_back(b);
    // In the order of their first bytes, a span that meets any later one meets the next one.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return output_span(outs[a], sizes[a]) < output_span(outs[b], sizes[b]); });
    for (std::size_t k = 1; k < order.size(); ++k) {
        const std::size_t a = order[k - 1], b = order[k];
        const auto [a_first, a_end] = output_span(outs[a], sizes[a]);
        const std::uintptr_t b_first = output_span(outs[b], sizes[b]).first;
        if (b_first < a_end)
            throw InputError(who + ": the outputs of bodies " + std::to_string(std::min(a, b)) + " and " + std::to_string(std::max(a, b)) +
                             " overlap: body " + std::to_string(b) + "'s begins " + std::to_string(b_first - a_first) + " bytes into body " +
                             std::to_string(a) + "'s " + std::to_string(a_end - a_first) + " (" + std::to_string(sizes[a]) +
                             (sizes[a] == 1 ? " point" : " points") + " at a stride of " + std::to_string(outs[a].stride) + " floats); each body needs memory of its own");
    }
}

void GpuBodies::deform(const std::vector<GpuSkinner*>& bodies, const std::vector<Pose>& poses, const std::vector<PointView<float>>& outs,
                       cuda::Exec exec) {
    if (poses.size() != bodies.size() || outs.size() != bodies.size())
        throw InputError("GpuBodies::deform: " + std::to_string(bodies.size()) + " bodies, " + std::to_string(poses.size()) +
                         " poses and " + std::to_string(outs.size()) + " outputs");
    if (bodies.empty()) return;  // after the sizes: no bodies but some poses or outputs had passed unrefused
    for (std::size_t b = 0; b < bodies.size(); ++b)
        if (bodies[b] == nullptr) throw InputError("GpuBodies::deform: body " + std::to_string(b) + " is a null pointer");
    const Method method = bodies[0]->method();
    if (method != Method::lbs && method != Method::baseline)
        throw UnsupportedError("GpuBodies: several bodies in one launch are LBS or baseline bodies");
    for (const GpuSkinner* body : bodies)
        if (body->skinner_.sparse())
            throw UnsupportedError("GpuBodies: an LBS body of any number of influences a point deforms alone (GpuSkinner::deform); "
                                   "several in one launch take up to four");
    std::vector<std::size_t> starts{0};
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        GpuSkinner* body = bodies[b];
        if (body->method() != method) throw InputError("GpuBodies::deform: every body must use one method");
        // A body's frame tables live in its own buffers: a second pose of it would overwrite the first.
        if (std::find(bodies.begin(), bodies.begin() + b, body) != bodies.begin() + b)
            throw InputError("GpuBodies::deform: body " + std::to_string(b) + " appears twice (one GpuSkinner per posed body)");
        body->require_writable(outs[b]);
        starts.push_back(starts.back() + body->size());
    }
    std::vector<std::size_t> sizes;
    for (const GpuSkinner* body : bodies) sizes.push_back(body->size());
    require_separate_outputs(sizes, outs, "GpuBodies::deform");
    require_not_capturing(exec, "GpuBodies::deform");
    const int count = int(bodies.size());
    // Each body uploads its frame's tables through its own FrameUploads, then this call's frame the jobs.
    auto upload_jobs = [&](auto& device_jobs, const auto& jobs) {
        cuda::FrameUploads::Frame frame = uploads_.frame(exec);
        frame.upload(starts_, starts);
        frame.upload(device_jobs, jobs);
    };
    if (method == Method::lbs) {
        std::vector<LbsJob<float>> jobs;
        for (int b = 0; b < count; ++b) jobs.push_back(bodies[b]->lbs_job(poses[b], outs[b], exec));
        upload_jobs(lbs_jobs_, jobs);
        return cuda::deform_lbs(BodiesJob<LbsJob<float>>{lbs_jobs_.data(), starts_.data(), count, starts.back()}, exec);
    }
    std::vector<BaselineJob<float>> jobs;
    for (int b = 0; b < count; ++b) jobs.push_back(bodies[b]->baseline_job(poses[b], outs[b], exec));
    upload_jobs(baseline_jobs_, jobs);
    // Without tables (exact bodies) every point takes the long path: one launch, as for one body.
    SplitScratch split{};
    if (std::any_of(jobs.begin(), jobs.end(), [](const BaselineJob<float>& job) { return job.tables.phi_samples > 0; })) {
        split_.reserve_at_least(starts.back() + 1);
        split = {split_.data(), split_.data() + starts.back()};
    }
    cuda::deform_baseline(BodiesJob<BaselineJob<float>>{baseline_jobs_.data(), starts_.data(), count, starts.back(), split}, exec);
}

BaselineTables<double> GpuSkinner::DeviceTables::view(int phi_samples, int fan_samples) const {
    return {phi_samples,    fan_samples, locals.data(),       sections.data(), extents.data(),   fans.data(),       cells.data(),
            fine.data(),    fine_extents.data(), direct.data(), fan_cells.data(), fine_fans.data(), fan_direct.data(), fan_angles.data()};
}

BaselineTables<double> GpuSkinner::upload_tables(const BaselineFrameTables& host, cuda::FrameUploads::Frame& frame) {
    DeviceTables& d = tables_;
    frame.upload(d.locals, host.locals);
    frame.upload(d.sections, host.sections);
    frame.upload(d.fine, host.fine);
    frame.upload(d.extents, host.extents);
    frame.upload(d.fine_extents, host.fine_extents);
    frame.upload(d.fans, host.fans);
    frame.upload(d.fine_fans, host.fine_fans);
    frame.upload(d.cells, host.cells);
    frame.upload(d.fan_cells, host.fan_cells);
    frame.upload(d.direct, host.direct);
    frame.upload(d.fan_direct, host.fan_direct);
    frame.upload(d.fan_angles, host.fan_angles);
    return d.view(host.phi_samples, host.fan_samples);
}

BaselineTables<double> GpuSkinner::build_tables_on_device(const std::vector<BaselineBonePose<double>>& poses,
                                                          cuda::FrameUploads::Frame& frame, cuda::Exec exec) {
    const BaselineSkinner<float>& baseline = *skinner_.baseline();
    const BaselineDeformOptions& options = baseline.deform_options();
    const std::vector<BaselineBone<double>>& bones = baseline.bones();
    const std::vector<unsigned char>& tabulated = baseline.tabulated();
    // As on the host: no bone tabulated, no tables.
    if (std::none_of(tabulated.begin(), tabulated.end(), [](unsigned char flag) { return flag != 0; })) return {};
    const std::size_t room = in_place_room(bones.size() * std::size_t(options.phi_samples));
    const std::size_t fan_room = in_place_room(bones.size() * std::size_t(options.fan_samples));
    const InPlaceTableSizes size = in_place_table_sizes(bones.size(), options.phi_samples, options.fan_samples, room, fan_room);
    DeviceTables& d = tables_;
    frame.upload(d.locals, local_chains(bones, poses));
    if (d.fan_angles.size() != std::size_t(options.fan_samples))  // the same every frame: uploaded once
        frame.upload(d.fan_angles, fan_grid_angles(options.fan_samples));
    d.sections.reserve_at_least(size.sections);
    d.middles.reserve_at_least(size.sections);
    d.extents.reserve_at_least(size.sections);
    d.cells.reserve_at_least(size.sections);
    d.fans.reserve_at_least(size.fans);
    d.fan_cells.reserve_at_least(size.fans);
    d.fan_checks.reserve_at_least(size.fan_checks);
    d.verdicts.reserve_at_least(size.verdicts);
    d.fine.reserve_at_least(size.fine);
    d.fine_extents.reserve_at_least(size.fine);
    d.fine_fans.reserve_at_least(size.fine_fans);
    d.direct.reserve_at_least(size.direct);
    d.fan_direct.reserve_at_least(size.fan_direct);
    d.refined_per_bone.reserve_at_least(size.refined_per_bone);
    d.ordinals.reserve_at_least(size.verdicts);
    BaselineTableJob samples{bones_.data(),          baseline_frame_.data(), d.locals.data(),   bones.size(),
                             options.phi_samples,    options.fan_samples,    d.sections.data(), d.middles.data(),
                             d.fans.data(),          d.fan_checks.data()};
    samples.tabulated = d.tabulated.data();
    cuda::build_baseline_tables_in_place({samples, options.cell_tolerance, d.verdicts.data(), d.extents.data(), d.cells.data(), d.fan_cells.data(),
                                          d.fine.data(), d.fine_extents.data(), d.fine_fans.data(), d.direct.data(), d.fan_direct.data(),
                                          room, fan_room, d.refined_per_bone.data(), d.ordinals.data()},
                                         exec);
    return d.view(options.phi_samples, options.fan_samples);
}

}  // namespace bs
