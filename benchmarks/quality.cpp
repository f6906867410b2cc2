#include "benchmarks/quality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "host/demo_body.hpp"
#include "host/errors.hpp"
#include "host/model_io.hpp"
#include "host/skinner.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs::bench {

namespace {

constexpr double kPi = pi_value<double>();

// A skeleton and the poses it is measured in (one, or frames of a motion: the metrics then pool every
// point of every frame; penetration is the share over all of them).
struct Scenario {
    std::string name;
    Skeleton skeleton;
    std::vector<Pose> poses;
    int twisted_bone;  // -1: no cross-section metric
};

// Blender's animated tube (assimp-testmodels) on the rig `baseskin rig` builds for it, every frame of its
// own animation.
constexpr const char* kAnimatedModel = "/usr/share/assimp/models/FBX/animation_with_skeleton.fbx";

// CMU's 01_01 capture (Debian's assimp-testmodels, kDemoCapture) on the humanoid `baseskin rig` builds for
// it (captured_human), every 50th frame, and the tube with its animation; none where a file is missing.
std::vector<Scenario> capture_scenarios() {
    std::vector<Scenario> out;
    if (std::filesystem::exists(kDemoCapture)) {
        CapturedBody human = captured_human(kDemoCapture);
        std::vector<Pose> poses;
        for (std::size_t f = 0; f < human.motion.frame_count(); f += 50) poses.push_back(human.motion.frame(f));
        out.push_back({"CMU 01_01 humanoid, " + std::to_string(poses.size()) + " frames of its capture", human.skeleton, poses, -1});
    }
    if (std::filesystem::exists(kAnimatedModel)) try {
        RiggedModel model = load_rigged_model(kAnimatedModel);
        ModelRig rig = rig_model(model);
        Motion motion = model_motion(rig, model);
        std::vector<Pose> poses;
        for (std::size_t f = 0; f < motion.frame_count(); ++f) poses.push_back(motion.frame(f));
        out.push_back({"FBX animation_with_skeleton, " + std::to_string(poses.size()) + " frames of its animation", rig.rig.skeleton, poses, -1});
    } catch (const UnsupportedError&) {  // a build without assimp (./run gpu-check) has no model reader
    }
    return out;
}

Skeleton two_cylinders() { return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 1.0}, {{8, 0, 0}, 1.0}}, {{0, 1}, {1, 2}}, {}, "cylinders"); }

Skeleton cone_chain() {
    return make_skeleton({{{0, 0, 0}, 1.0}, {{4, 0, 0}, 0.7}, {{7, 0, 0}, 0.4}}, {{0, 1}, {1, 2}}, {}, "cones");
}

std::vector<Scenario> scenarios() {
    std::vector<Scenario> out;
    {
        Skeleton s = two_cylinders();
        Pose p = Pose::rest(s);
        p.joints[1].twist_radians = kPi;
        out.push_back({"cylinders, twist 180°", s, {p}, 1});
    }
    for (double degrees : {90.0, 120.0, 150.0}) {
        Skeleton s = two_cylinders();
        Pose p = Pose::rest(s);
        p.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, degrees * kPi / 180);
        out.push_back({"cylinders, bend " + std::to_string(int(degrees)) + "°", s, {p}, -1});
    }
    {
        Skeleton s = cone_chain();
        Pose p = Pose::rest(s);
        p.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, kPi / 2);
        p.joints[1].twist_radians = kPi / 2;
        out.push_back({"cones 1 : 0.7 : 0.4, bend 90° + twist 90°", s, {p}, -1});
    }
    for (Scenario& sc : capture_scenarios()) out.push_back(std::move(sc));
    return out;
}

std::vector<Cone<double>> cones_of(const Skeleton& s, const std::vector<Rigid<double>>& g) {
    std::vector<Cone<double>> cones;
    for (std::size_t k = 0; k < s.bone_count(); ++k) {
        Sphere<double> a = s.spheres[s.bones[k][0]], b = s.spheres[s.bones[k][1]];
        cones.push_back(make_cone(Sphere<double>{g[k].apply(a.centre), a.radius}, Sphere<double>{g[k].apply(b.centre), b.radius}));
    }
    return cones;
}

// Signed distance of p to bone k's cone, infinite for a bridge (no part of the body).
double bone_distance(const Skeleton& s, const std::vector<Cone<double>>& cones, std::size_t k, Vec3<double> p) {
    return s.is_bridge(int(k)) ? INFINITY : closest_point_on_bone(cones[k], p).signed_distance;
}

// Signed distance of p to the body (`cones`: one per bone of s), leaving out bone `skip`.
double body_distance(const Skeleton& s, const std::vector<Cone<double>>& cones, Vec3<double> p, int skip = -1) {
    double best = INFINITY;
    for (std::size_t k = 0; k < cones.size(); ++k)
        if (int(k) != skip) best = std::min(best, bone_distance(s, cones, k, p));
    return best;
}

int nearest_bone(const Skeleton& s, const std::vector<Cone<double>>& cones, Vec3<double> p) {
    int best = -1;
    double nearest = INFINITY;
    for (std::size_t k = 0; k < cones.size(); ++k)
        if (const double d = bone_distance(s, cones, k, p); best < 0 || d < nearest) best = int(k), nearest = d;
    return best;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::size_t i = std::min(v.size() - 1, std::size_t(q * double(v.size())));
    std::nth_element(v.begin(), v.begin() + i, v.end());
    return v[i];
}

// Points a, b pairs: b is a's partner 1e-3 radii away along a surface tangent, at the same height.
struct PointSet {
    std::vector<Vec3<double>> points;  // a0, b0, a1, b1, ...
    std::vector<double> heights;
};

PointSet make_points(const Skeleton& s, const std::vector<Cone<double>>& rest_cones, std::size_t pairs, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    PointSet out;
    for (const SurfaceSample& sample : sample_surface(s, pairs, seed)) {
        const double r = smaller_radius(rest_cones[nearest_bone(s, rest_cones, sample.position)]);
        Vec3<double> t = cross(sample.normal, Vec3<double>{unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5});
        if (!(norm(t) > 1e-9)) continue;
        const double h = 0.15 * r * unit(rng);
        Vec3<double> a = sample.position + h * sample.normal;
        Vec3<double> b = a + (1e-3 * r) * normalized(t);
        out.points.push_back(a);
        out.points.push_back(b);
    }
    for (Vec3<double> p : out.points) out.heights.push_back(body_distance(s, rest_cones, p));
    return out;
}

QualityRow measure(const Scenario& sc, Method method, const PointSet& set, int threads) {
    const Skeleton& s = sc.skeleton;
    std::vector<Cone<double>> rest_cones = cones_of(s, posed_bones(s, Pose::rest(s)));
    Skinner skinner(method, s, set.points, {}, sc.name);
    std::vector<Vec3<float>> at_rest, posed;
    skinner.deform(Pose::rest(s), at_rest, {threads});

    double diagonal = 0;
    for (const auto& a : s.spheres)
        for (const auto& b : s.spheres) diagonal = std::max(diagonal, norm(a.centre - b.centre) + a.radius + b.radius);
    QualityRow row{sc.name, method_name(method), 0, 0, 0, 0, 0, 0, 0, 0};
    // A non-finite point at rest is an infinite error (std::max would pass over a NaN).
    for (std::size_t i = 0; i < set.points.size(); ++i) {
        const double error = norm(Vec3<double>(at_rest[i]) - set.points[i]) / diagonal;
        row.rest_error = std::isnan(error) ? INFINITY : std::max(row.rest_error, error);
    }
    std::vector<double> height_errors, stretches;
    std::size_t penetrating = 0, judged = 0;
    double section_rest = 0, section_posed = 0;
    for (const Pose& pose : sc.poses) {
    std::vector<Cone<double>> posed_cones = cones_of(s, posed_bones(s, pose));
    skinner.deform(pose, posed, {threads});
    const auto finite = [](const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
    for (std::size_t i = 0; i < set.points.size(); ++i) {
        Vec3<double> p = set.points[i], q = Vec3<double>(posed[i]);
        if (!finite(q)) {  // counted apart, and judged by no other metric (a NaN would poison the percentiles)
            ++row.nan_count;
            continue;
        }
        ++judged;
        const int own = nearest_bone(s, rest_cones, p);
        const double r = smaller_radius(rest_cones[own]);
        height_errors.push_back(std::fabs(body_distance(s, posed_cones, q) - set.heights[i]) / r);
        if (posed_cones.size() > 1 && body_distance(s, posed_cones, q, own) < -0.02 * r) ++penetrating;
        if (i % 2 == 1 && finite(Vec3<double>(posed[i - 1]))) {
            Vec3<double> pa = set.points[i - 1], qa = Vec3<double>(posed[i - 1]);
            stretches.push_back(norm(q - qa) / norm(p - pa));
        }
        if (sc.twisted_bone >= 0) {
            // Around the twisted bone's joint (its parent sphere), where LBS's candy wrapper pinches; the
            // chain is straight there, so the axis is the same at rest and posed.
            const Cone<double>& c = rest_cones[sc.twisted_bone];
            Vec3<double> d = p - c.parent.centre, e = q - c.parent.centre;
            if (std::fabs(dot(d, c.axis)) < 0.5 * c.parent.radius) {
                section_rest += norm(d - dot(d, c.axis) * c.axis);
                section_posed += norm(e - dot(e, c.axis) * c.axis);
            }
        }
    }
    }
    row.height_p99 = percentile(height_errors, 0.99);
    row.height_max = height_errors.empty() ? 0 : *std::max_element(height_errors.begin(), height_errors.end());
    row.penetration = judged > 0 ? double(penetrating) / double(judged) : NAN;
    row.stretch_p99 = percentile(stretches, 0.99);
    row.squeeze_p01 = percentile(stretches, 0.01);
    row.section = section_rest > 0 ? section_posed / section_rest : NAN;
    return row;
}

}  // namespace

std::vector<QualityRow> measure_quality(std::size_t points_per_scenario, int threads) {
    std::vector<QualityRow> rows;
    for (const Scenario& sc : scenarios()) {
        std::vector<Cone<double>> rest_cones = cones_of(sc.skeleton, posed_bones(sc.skeleton, Pose::rest(sc.skeleton)));
        PointSet set = make_points(sc.skeleton, rest_cones, points_per_scenario / 2, 17);
        for (Method method : {Method::baseline, Method::lbs, Method::dqs}) rows.push_back(measure(sc, method, set, threads));
    }
    return rows;
}

void print_quality(const std::vector<QualityRow>& rows) {
    std::printf("| scenario | method | rest error / diag | height error p99 / r | height error max / r | section kept | "
                "penetration | stretch p99 | squeeze p01 | NaN |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const QualityRow& r : rows) {
        char section[32] = "—";
        if (std::isfinite(r.section)) std::snprintf(section, sizeof section, "%.3f", r.section);
        std::printf("| %s | %s | %.2g | %.3g | %.3g | %s | %.2f%% | %.3g | %.3g | %zu |\n", r.scenario.c_str(), r.method.c_str(),
                    r.rest_error, r.height_p99, r.height_max, section, 100 * r.penetration, r.stretch_p99, r.squeeze_p01, r.nan_count);
    }
    std::printf("\nEvery scenario's points lie over its sphere-mesh's surface (pairs 1e-3 radii apart, heights up to 0.15 radii), the same for\n"
                "the three methods; LBS and DQS take automatic weights. The real motions' rows are their skeletons and motions, not their\n"
                "meshes or an artist's weights; the FBX tube's two chains part by up to 9 radii under its animation, a gap in the posed\n"
                "sphere-mesh that every method's height errors there measure. Metrics: benchmarks/quality.hpp.\n");
}

}  // namespace bs::bench
