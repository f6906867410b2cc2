#include "host/demo_body.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "host/bvh_rig.hpp"
#include "host/errors.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

namespace {

constexpr double kPi = pi_value<double>();

// A bone's solid in its axial half-plane: axial coordinate along the axis from the parent centre,
// radial distance from the axis. The hull of two spheres is the union of both balls and the quadrilateral
// parent centre – tangency point 1 – tangency point 2 – child centre (DESIGN §2 cone facts).
struct BoneSolid {
    Vec3<double> c1, axis;
    double r1, r2, length, sin_theta, cos_theta;

    BoneSolid(const Sphere<double>& a, const Sphere<double>& b)
        : c1(a.centre), axis(normalized(b.centre - a.centre)), r1(a.radius), r2(b.radius),
          length(norm(b.centre - a.centre)), sin_theta((a.radius - b.radius) / length),
          cos_theta(std::sqrt(1 - sin_theta * sin_theta)) {}

    bool strictly_contains(Vec3<double> p, double margin) const {
        Vec3<double> d = p - c1;
        double x = dot(d, axis);
        double y = norm(d - x * axis);
        if (norm(d) < r1 - margin) return true;
        if (norm(p - (c1 + length * axis)) < r2 - margin) return true;
        double slant_coordinate = x * cos_theta - y * sin_theta;  // 0 at C1/T1, length·cosθ at C2/T2
        return slant_coordinate > 0 && slant_coordinate < length * cos_theta &&
               x * sin_theta + y * cos_theta < r1 - margin;
    }
};

struct Sampler {
    std::mt19937_64 rng;
    double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng); }
    Vec3<double> direction() {
        double z = 2 * uniform() - 1, phi = 2 * kPi * uniform(), s = std::sqrt(1 - z * z);
        return {s * std::cos(phi), s * std::sin(phi), z};
    }
};

// A point of the bone's lateral cone surface, uniform by area: the tangency-circle radius varies
// linearly along the slant, so the slant parameter is drawn with density proportional to it.
SurfaceSample sample_cone(const BoneSolid& b, Sampler& s) {
    double rho1 = b.r1 * b.cos_theta, rho2 = b.r2 * b.cos_theta;
    double u = s.uniform(), v;
    if (std::fabs(rho2 - rho1) < 1e-12 * rho1) {
        v = u;
    } else {  // inverse CDF of density ∝ rho1 + (rho2 - rho1) v on [0, 1]
        v = (std::sqrt(rho1 * rho1 + u * (rho2 * rho2 - rho1 * rho1)) - rho1) / (rho2 - rho1);
    }
    Vec3<double> centre1 = b.c1 + b.r1 * b.sin_theta * b.axis;
    Vec3<double> centre2 = b.c1 + (b.length + b.r2 * b.sin_theta) * b.axis;
    Vec3<double> e1 = any_orthogonal(b.axis), e2 = cross(b.axis, e1);
    double phi = 2 * kPi * s.uniform();
    Vec3<double> radial = std::cos(phi) * e1 + std::sin(phi) * e2;
    double rho = rho1 + (rho2 - rho1) * v;
    return {(1 - v) * centre1 + v * centre2 + rho * radial, b.sin_theta * b.axis + b.cos_theta * radial};
}

}  // namespace

Skeleton demo_chain() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{7.5, 0, 0}, 0.7}, {{10, 0, 0}, 0.45}},
                         {{0, 1}, {1, 2}, {2, 3}}, {"shoulder", "elbow", "wrist", "tip"}, "built-in demo chain");
}

// Samples are drawn in blocks of kSampleBlock, each from a generator of its own (block 0 from
// mt19937_64(seed), as the serial loop before blocks was, block b > 0 from seed_seq{seed, b}), so that the
// blocks run on all cores and the samples are the same for any thread count: at 1e8 points the serial loop
// took about 21 s of the GPU check (about 0.2 s per 1e6 points here). Sets of up to one block are those of
// the serial loop, to the bit.
constexpr std::size_t kSampleBlock = std::size_t(1) << 16;

std::vector<SurfaceSample> sample_surface(const Skeleton& skeleton, std::size_t count, unsigned seed) {
    check_skeleton(skeleton, "surface samples");
    std::vector<BoneSolid> solids;
    std::vector<bool> on_body(skeleton.spheres.size(), false);  // a sphere of a bone that is no bridge
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        if (skeleton.is_bridge(int(k))) continue;
        const auto& bone = skeleton.bones[k];
        solids.emplace_back(skeleton.spheres[std::size_t(bone[0])], skeleton.spheres[std::size_t(bone[1])]);
        on_body[std::size_t(bone[0])] = on_body[std::size_t(bone[1])] = true;
    }
    // Primitives: every sphere, then every cone; areas as weights (0 for a sphere of bridges only).
    std::vector<double> areas;
    for (std::size_t i = 0; i < skeleton.spheres.size(); ++i)
        areas.push_back(on_body[i] ? 4 * kPi * skeleton.spheres[i].radius * skeleton.spheres[i].radius : 0.0);
    for (const BoneSolid& b : solids)
        areas.push_back(kPi * (b.r1 + b.r2) * b.cos_theta * b.length * b.cos_theta);
    const std::discrete_distribution<std::size_t> pick_primitive(areas.begin(), areas.end());
    auto sample_one = [&](std::discrete_distribution<std::size_t>& pick, Sampler& s) {
        while (true) {
            std::size_t primitive = pick(s.rng);
            SurfaceSample sample;
            double scale;
            if (primitive < skeleton.spheres.size()) {
                const Sphere<double>& sp = skeleton.spheres[primitive];
                Vec3<double> d = s.direction();
                sample = {sp.centre + sp.radius * d, d};
                scale = sp.radius;
            } else {
                const BoneSolid& b = solids[primitive - skeleton.spheres.size()];
                sample = sample_cone(b, s);
                scale = std::min(b.r1, b.r2);
            }
            if (std::none_of(solids.begin(), solids.end(), [&](const BoneSolid& b) { return b.strictly_contains(sample.position, 1e-9 * scale); }))
                return sample;
        }
    };
    std::vector<SurfaceSample> out(count);
    const long long blocks = static_cast<long long>((count + kSampleBlock - 1) / kSampleBlock);
#pragma omp parallel for schedule(dynamic)
    for (long long b = 0; b < blocks; ++b) {
        std::seed_seq block_seed{seed, unsigned(b)};
        Sampler s{b == 0 ? std::mt19937_64(seed) : std::mt19937_64(block_seed)};
        std::discrete_distribution<std::size_t> pick = pick_primitive;
        const std::size_t first = std::size_t(b) * kSampleBlock, last = std::min(count, first + kSampleBlock);
        for (std::size_t i = first; i < last; ++i) out[i] = sample_one(pick, s);
    }
    return out;
}

std::vector<Vec3<double>> demo_points(const Skeleton& skeleton, std::size_t count, unsigned seed) {
    double mean_radius = 0;
    for (const Sphere<double>& sp : skeleton.spheres) mean_radius += sp.radius / double(skeleton.spheres.size());
    std::vector<SurfaceSample> bumps = sample_surface(skeleton, 48, seed + 1);
    const double height = 0.15 * mean_radius, width = 0.3 * mean_radius;
    std::vector<SurfaceSample> surface = sample_surface(skeleton, count, seed);
    std::vector<Vec3<double>> points(surface.size());
    const long long n = static_cast<long long>(surface.size());
#pragma omp parallel for schedule(static)  // each point on its own: the same points for any thread count
    for (long long i = 0; i < n; ++i) {
        double relief = 0;
        for (const SurfaceSample& b : bumps) {
            // Bumps further than 9 widths weigh below exp(-40) = 4e-18 (48 of them: 2e-16 of a relief of
            // at most 1, times a height of 0.15 radii): left out, as 48 exps a point were 12% of the demo.
            const double exponent = norm2(surface[i].position - b.position) / (2 * width * width);
            if (exponent < 40) relief += std::exp(-exponent);
        }
        points[i] = surface[i].position + height * std::min(relief, 1.0) * surface[i].normal;
    }
    return points;
}

Pose demo_pose(const Skeleton& skeleton, double s) {
    if (skeleton.bone_count() < 3)
        throw InputError("demo pose: it bends joint 1 and twists bone 2 of a chain (demo_chain); the skeleton has " +
                         std::to_string(skeleton.bone_count()) + " bone" + (skeleton.bone_count() == 1 ? "" : "s"));
    Pose pose = Pose::rest(skeleton);
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, s * 135.0 * kPi / 180);
    pose.joints[2].twist_radians = s * kPi;
    return pose;
}

CapturedBody captured_human(const std::string& capture) {
    if (!std::filesystem::exists(capture))
        throw IoError(capture + ": no such capture (Debian's assimp-testmodels has " + kDemoCapture + ": ./run installs it)");
    BvhFile file = load_bvh(capture);
    BvhRig rig = rig_bvh(file);
    Motion motion = bvh_motion(rig, file);
    return {std::move(rig.skeleton), std::move(motion)};
}

}  // namespace bs
