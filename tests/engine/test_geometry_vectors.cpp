// The geometry primitives against the independent test vectors of seed 000 (shared/testvectors/
// seed000-geometry.json): cones, separator plane, pivot circle, belts (incl. the fan). Double to 1e-9;
// float to 1e-5 of the local radius against double computed from the float-rounded inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/geometry/belt.hpp"
#include "engine/geometry/fan.hpp"

namespace bs {
namespace {

using nlohmann::json;

const json& geometry_vectors() {
    static const json vectors = [] {
        const std::string path = std::string(BASESKIN_TESTVECTORS_DIR) + "/seed000-geometry.json";
        std::ifstream file(path);
        if (!file) throw std::runtime_error("test vectors not found: " + path + " (../shared/testvectors beside the checkout)");
        return json::parse(file);
    }();
    return vectors;
}

Vec3<double> vec3(const json& j) { return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()}; }

// A named quantity, flattened, with its length scale: the local radius for positions and lengths, 1 for
// dimensionless values (unit vectors, sines). Tolerances are multiples of the scale.
struct Quantity {
    std::string name;
    std::vector<double> values;
    double scale;
};

struct Quantities {
    std::vector<Quantity> items;
    template <class T> void add(const std::string& name, Vec3<T> v, double scale) {
        items.push_back({name, {double(v.x), double(v.y), double(v.z)}, scale});
    }
    template <class T> void add(const std::string& name, T v, double scale) {
        items.push_back({name, {double(v)}, scale});
    }
};

// The inputs of the file in scalar T: the chain's spheres, each belt's surface point and fan point.
template <class T>
struct ChainInput {
    Sphere<T> spheres[3];
    Vec3<T> surface_point[2];
    Vec3<T> fan_point;  // above the concave belt's segment U–crossing
};

template <class T> ChainInput<T> read_input(const json& j) {
    ChainInput<T> in;
    for (int i = 0; i < 3; ++i) {
        const json& s = j["skeleton"]["spheres"][i];
        in.spheres[i] = {Vec3<T>(vec3(s)), T(s[3].get<double>())};
    }
    for (int b = 0; b < 2; ++b) in.surface_point[b] = Vec3<T>(vec3(j["belts"][b]["point_on_surface"]));
    in.fan_point = Vec3<T>(vec3(j["belts"][1]["fan"]["p"]));
    return in;
}

template <class T> ChainInput<double> to_double(const ChainInput<T>& in) {
    ChainInput<double> out;
    for (int i = 0; i < 3; ++i) out.spheres[i] = {Vec3<double>(in.spheres[i].centre), double(in.spheres[i].radius)};
    for (int b = 0; b < 2; ++b) out.surface_point[b] = Vec3<double>(in.surface_point[b]);
    out.fan_point = Vec3<double>(in.fan_point);
    return out;
}

const char* const kEndNames[2] = {"parent", "child"};

// Everything the file states, computed by the engine, in the file's order and names.
template <class T> Quantities compute_quantities(const ChainInput<T>& in) {
    Quantities q;
    Cone<T> cones[2] = {make_cone(in.spheres[0], in.spheres[1]), make_cone(in.spheres[1], in.spheres[2])};
    for (int k = 0; k < 2; ++k) {
        const Cone<T>& c = cones[k];
        std::string name = "cones[" + std::to_string(k) + "].";
        double r_min = std::min(double(c.parent.radius), double(c.child.radius));
        EXPECT_TRUE(c.valid);
        q.add(name + "axis", c.axis, 1.0);
        q.add(name + "length", c.length, r_min);
        q.add(name + "sin", c.sin_theta, 1.0);
        q.add(name + "cos", c.cos_theta, 1.0);
        HomogeneousPoint<T> apex = apex_homogeneous(c);
        q.add(name + "apex", apex.xyz / apex.w, double(c.parent.radius));
        for (int e = 0; e < 2; ++e) {
            BoneEnd end = e == 0 ? BoneEnd::Parent : BoneEnd::Child;
            Circle<T> circle = tangency_circle(c, end);
            std::string circle_name = name + "tangency_circle_" + kEndNames[e];
            q.add(circle_name + ".centre", circle.centre, double(end_sphere(c, end).radius));
            q.add(circle_name + ".radius", circle.radius, double(end_sphere(c, end).radius));
        }
    }
    SeparatorPlane<T> separator = separator_plane(cones[0], cones[1]);
    PivotCircle<T> pivot = pivot_circle(separator, in.spheres[1].radius);
    EXPECT_TRUE(separator.valid);
    EXPECT_TRUE(pivot.cuts_sphere);
    double r_joint = double(in.spheres[1].radius);
    q.add("separator.normal", separator.normal, 1.0);
    q.add("separator.offset_from_centre", separator.offset_from_centre, r_joint);
    q.add("separator.pivot_circle_centre", pivot.circle.centre, r_joint);
    q.add("separator.pivot_circle_radius", pivot.circle.radius, r_joint);

    for (int b = 0; b < 2; ++b) {
        std::string name = "belts[" + std::to_string(b) + "].";
        SheafPlane<T> plane = sheaf_plane(cones[0], cones[1], in.surface_point[b]);
        EXPECT_FALSE(plane.degenerate);
        Belt<T> belt = belt_at_joint(cones[0], cones[1], separator, plane, ChainBone::Incoming);
        EXPECT_EQ(belt.flags, 0u) << name;
        EXPECT_EQ(belt.concave, b == 1) << name;
        q.add(name + "plane_normal", plane.normal, 1.0);
        q.add(name + "U", belt.U, double(in.spheres[0].radius));
        q.add(name + "V", belt.V, r_joint);
        q.add(name + "X", belt.X, r_joint);
        q.add(name + "Y", belt.Y, double(in.spheres[2].radius));
        q.add(name + "anchor", belt.anchor, r_joint);
        if (!belt.concave) continue;
        SegmentEnd<T> far{belt.U, direction_from_centre(in.spheres[0].centre, belt.U)};
        SegmentEnd<T> crossing{belt.anchor, direction_from_centre(in.spheres[1].centre, belt.anchor)};
        FanProjection<T> fan = fan_projection(far, crossing, in.fan_point);
        EXPECT_TRUE(fan.valid);
        double r_far = double(in.spheres[0].radius);
        q.add(name + "fan.I", fan.centre.xyz / fan.centre.w, r_far);
        q.add(name + "fan.base_point", fan.base_point, r_far);
        q.add(name + "fan.h", fan.height, r_far);
    }
    return q;
}

// The same list read from the file.
Quantities expected_quantities(const json& j) {
    Quantities q;
    for (int k = 0; k < 2; ++k) {
        const json& c = j["cones"][k];
        std::string name = "cones[" + std::to_string(k) + "].";
        q.add(name + "axis", vec3(c["axis"]), 1.0);
        q.add(name + "length", c["length"].get<double>(), 1.0);
        q.add(name + "sin", c["sin"].get<double>(), 1.0);
        q.add(name + "cos", c["cos"].get<double>(), 1.0);
        q.add(name + "apex", vec3(c["apex"]), 1.0);
        for (int e = 0; e < 2; ++e) {
            const json& circle = c[std::string("tangency_circle_") + kEndNames[e]];
            std::string circle_name = name + "tangency_circle_" + kEndNames[e];
            q.add(circle_name + ".centre", vec3(circle[0]), 1.0);
            q.add(circle_name + ".radius", circle[1].get<double>(), 1.0);
        }
    }
    const json& s = j["separator_at_sphere_1"];
    q.add("separator.normal", vec3(s["normal"]), 1.0);
    q.add("separator.offset_from_centre", s["offset_from_centre"].get<double>(), 1.0);
    q.add("separator.pivot_circle_centre", vec3(s["pivot_circle_centre"]), 1.0);
    q.add("separator.pivot_circle_radius", s["pivot_circle_radius"].get<double>(), 1.0);
    for (int b = 0; b < 2; ++b) {
        const json& belt = j["belts"][b];
        std::string name = "belts[" + std::to_string(b) + "].";
        q.add(name + "plane_normal", vec3(belt["plane_normal"]), 1.0);
        for (const char* point : {"U", "V", "X", "Y"}) q.add(name + point, vec3(belt[point]), 1.0);
        bool concave = belt["concave"].get<bool>();
        q.add(name + "anchor", vec3(belt[concave ? "crossing" : "anchor"]), 1.0);
        if (!concave) continue;
        const json& fan = belt["fan"];
        q.add(name + "fan.I", vec3(fan["I"]), 1.0);
        q.add(name + "fan.base_point", vec3(fan["base_point"]), 1.0);
        q.add(name + "fan.h", fan["h"].get<double>(), 1.0);
    }
    return q;
}

// Compares value by value; the tolerance is `relative` times the computed list's scale, or `absolute`
// when that is larger.
void expect_close(const Quantities& computed, const Quantities& reference, double relative, double absolute) {
    ASSERT_EQ(computed.items.size(), reference.items.size());
    for (std::size_t i = 0; i < computed.items.size(); ++i) {
        const Quantity& c = computed.items[i];
        const Quantity& r = reference.items[i];
        ASSERT_EQ(c.name, r.name);
        ASSERT_EQ(c.values.size(), r.values.size()) << c.name;
        double tolerance = std::max(relative * c.scale, absolute);
        for (std::size_t v = 0; v < c.values.size(); ++v)
            EXPECT_NEAR(c.values[v], r.values[v], tolerance) << c.name << "[" << v << "]";
    }
}

TEST(GeometryTestVectors, FileHasEveryQuantity) {
    const json& j = geometry_vectors();
    ASSERT_EQ(j["cones"].size(), 2u);
    ASSERT_EQ(j["belts"].size(), 2u);
    EXPECT_FALSE(j["belts"][0]["concave"].get<bool>());
    EXPECT_TRUE(j["belts"][1]["concave"].get<bool>());
    // The fan's p is exactly on its fan line: the file's p = base_point + h · direction.
    const json& fan = j["belts"][1]["fan"];
    Vec3<double> p = vec3(fan["p"]), b = vec3(fan["base_point"]), I = vec3(fan["I"]);
    EXPECT_NEAR(norm(cross(p - b, b - I)), 0.0, 1e-9 * norm(b - I));
}

TEST(GeometryTestVectors, DoubleMatchesTo1e9) {
    const json& j = geometry_vectors();
    expect_close(compute_quantities(read_input<double>(j)), expected_quantities(j), 0.0, 1e-9);
}

TEST(GeometryTestVectors, FloatMatchesDoubleOfRoundedInputsTo1e5OfLocalRadius) {
    ChainInput<float> rounded = read_input<float>(geometry_vectors());
    Quantities in_float = compute_quantities(rounded);
    Quantities in_double = compute_quantities(to_double(rounded));
    expect_close(in_float, in_double, 1e-5, 0.0);
}

}  // namespace
}  // namespace bs
