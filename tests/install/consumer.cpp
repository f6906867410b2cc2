// Uses the installed engine as an embedding renderer would: encode once, deform per frame, and check the
// rest pose gives the points back.
#include <cmath>
#include <cstdio>

#include "host/demo_body.hpp"
#include "host/gpu_skinner.hpp"
#include "host/skinner.hpp"

int main() {
    bs::Skeleton skeleton = bs::demo_chain();
    std::vector<bs::Vec3<double>> rest = bs::demo_points(skeleton, 2000, 3);
    bs::Skinner skinner(bs::Method::baseline, skeleton, rest, {}, "consumer");
    std::vector<bs::Vec3<float>> out;
    skinner.deform(bs::Pose::rest(skeleton), out);
    double worst = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) worst = std::fmax(worst, bs::norm(bs::Vec3<double>(out[i]) - rest[i]));
    std::printf("consumer: %zu points, worst rest error %.3g\n", rest.size(), worst);
    // The GPU front, as the README's GPU example uses it: it links on every build and says where no device
    // is usable. A package whose kernels target left the CUDA backend off its consumers' link failed here.
    try {
        bs::GpuSkinner gpu(skinner);
        std::printf("consumer: %zu points on the GPU\n", gpu.size());
    } catch (const bs::CudaUnavailable& e) {
        std::printf("consumer: no GPU (%s)\n", e.what());
    }
    return worst < 1e-4 ? 0 : 1;
}
