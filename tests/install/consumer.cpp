// Uses the installed engine as an embedding renderer would: encode once, deform per frame, and check the
// rest pose gives the points back.
#include <cmath>
#include <cstdio>

#include "host/demo_body.hpp"
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
    return worst < 1e-4 ? 0 : 1;
}
