// The bend construction against the independently computed test vectors (seed000-bend.json).
#include "engine/baseline/bend.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace bs {
namespace {

using nlohmann::json;

Vec3<double> v3(const json& a) { return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()}; }

void expect_near(Vec3<double> a, Vec3<double> b, double tol, const std::string& what) {
    EXPECT_LT(norm(a - b), tol) << what << ": got (" << a.x << ", " << a.y << ", " << a.z << ") want (" << b.x << ", " << b.y
                                << ", " << b.z << ")";
}

TEST(BaselineBendVectors, TargetsMatchTheIndependentConstruction) {
    std::ifstream in(BASESKIN_TESTVECTORS_DIR "/seed000-bend.json");
    ASSERT_TRUE(in) << "test vectors not found";
    json doc = json::parse(in);
    const json& spheres = doc["skeleton"]["spheres"];
    auto sphere = [&](int i) { return Sphere<double>{v3(spheres[i]), spheres[i][3].get<double>()}; };
    Cone<double> parent = make_cone(sphere(0), sphere(1)), child = make_cone(sphere(1), sphere(2));
    const json& b = doc["pose"]["bones"][0];
    Quat<double> swing = axis_angle(normalized(v3(b["axis"])), b["degrees"].get<double>() * 3.14159265358979323846 / 180);
    for (const json& c : doc["cases"]) {
        SCOPED_TRACE(c["case"].get<std::string>());
        Vec3<double> V = v3(c["V"]);
        Vec3<double> radial = normalized((V - parent.child.centre) - dot(V - parent.child.centre, parent.axis) * parent.axis);
        BendTargets<double> t = bend_targets(parent, child, swing, rest_belt_from(parent, child, radial, ChainBone::Incoming));
        ASSERT_TRUE(t.valid);
        expect_near(t.E_m, v3(c["E_m"]), 1e-9, "E_m");
        expect_near(t.V_prime, v3(c["V_prime"]), 1e-9, "V'");
        expect_near(t.X_prime, v3(c["X_prime"]), 1e-9, "X'");
        EXPECT_NEAR(t.parent_angle, c["theta_V_radians"].get<double>(), 1e-9);
        EXPECT_NEAR(t.child_angle, c["theta_X_radians"].get<double>(), 1e-9);
    }
}

TEST(BaselineBendVectors, NoSwingNoTargets) {
    Cone<double> parent = make_cone(Sphere<double>{{0, 0, 0}, 1.5}, Sphere<double>{{5, 0, 0}, 1.0});
    Cone<double> child = make_cone(Sphere<double>{{5, 0, 0}, 1.0}, Sphere<double>{{8.5, 2.5, 0}, 0.6});
    BendTargets<double> t = bend_targets(parent, child, Quat<double>::identity(),
                                         rest_belt_from(parent, child, Vec3<double>{0, 0.6, 0.8}, ChainBone::Incoming));
    EXPECT_EQ(t.parent_angle, 0.0);
    EXPECT_EQ(t.child_angle, 0.0);
}

}  // namespace
}  // namespace bs
