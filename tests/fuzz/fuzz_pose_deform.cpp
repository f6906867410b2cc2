// libFuzzer target: pose files (host/pose.hpp) of fuzz_skeleton(), applied. An accepted pose deforms a
// fixed set of points over and around the skeleton by baseline skinning, through the per-frame tables and
// by the direct construction; the skinner may refuse the pose with a documented error (a chain joint
// folded beyond what the method accepts), and otherwise every point must come out finite wherever the
// root's translation is of a body's size. Its seeds are pose_json's (corpus/pose_deform links there).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "host/baseline_skinner.hpp"
#include "host/json_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

// 725 points near and around every bone: 8 generators, 6 places along the axis (beyond both ends too),
// 5 distances from the axis (0.3, 0.95, 1, 1.2 and 3 times the radius interpolated between the two
// spheres': inside, near the surface, far over it), each sphere's centre (on an axis) and one point far
// from the body.
std::vector<bs::Vec3<double>> fuzz_points(const bs::Skeleton& skeleton) {
    using namespace bs;
    std::vector<Vec3<double>> points;
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        const Sphere<double> a = skeleton.spheres[std::size_t(skeleton.bones[k][0])];
        const Sphere<double> b = skeleton.spheres[std::size_t(skeleton.bones[k][1])];
        const Vec3<double> axis = skeleton.rest_axis(int(k));
        const Vec3<double> u = any_orthogonal(axis), v = cross(axis, u);
        for (int g = 0; g < 8; ++g) {
            const double angle = 2 * 3.141592653589793 * g / 8 + 0.1;
            const Vec3<double> radial = std::cos(angle) * u + std::sin(angle) * v;
            for (double s : {-0.1, 0.0, 0.25, 0.5, 0.75, 1.1}) {
                const double radius = a.radius + std::clamp(s, 0.0, 1.0) * (b.radius - a.radius);
                for (double height : {0.3, 0.95, 1.0, 1.2, 3.0})
                    points.push_back(a.centre + s * (b.centre - a.centre) + height * radius * radial);
            }
        }
    }
    for (const Sphere<double>& s : skeleton.spheres) points.push_back(s.centre);
    points.push_back(skeleton.spheres[0].centre + Vec3<double>{100, -50, 20});
    return points;
}

bs::BaselineSkinner<float> make_skinner(const bs::Skeleton& skeleton) {
    bs::BaselineSkinner<float> skinner(skeleton, fuzz_points(skeleton), "fuzz points");
    skinner.set_deform_options(bs::fuzz::coarse_deform_options());  // tables are built per input
    return skinner;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace bs;
    static const Skeleton skeleton = fuzz::fuzz_skeleton();
    static BaselineSkinner<float> skinner = make_skinner(skeleton);
    std::istringstream in(fuzz::bytes_of(data, size));
    Pose pose;
    if (!fuzz::accepted([&] { pose = parse_pose(json_io::parse(in, "fuzz.json"), skeleton, {"fuzz.json", ""}); })) return 0;
    const bool body_sized = norm(pose.root.translation) < 1e6;
    std::vector<Vec3<float>> out;
    for (bool exact : {false, true}) {
        BaselineDeformOptions options = skinner.deform_options();
        options.exact = exact;
        skinner.set_deform_options(options);
        if (!fuzz::accepted([&] { skinner.deform(pose, out, cpu::Exec{1}); })) return 0;
        fuzz::require(out.size() == skinner.size(), "a deformation without one point per rest point");
        for (const Vec3<float>& p : out) fuzz::require(!body_sized || all_finite(p), "a pose of a body's size deformed a point to one that is not finite");
    }
    return 0;
}
