// Wyvill's field and the metaball per-point pass (seed 001 §1.3, DESIGN §3): the field's values and
// slopes, locality, the CPU pass against the formula written out, thread-count independence, and the
// CUDA build against the CPU build (skipped cleanly where there is no device).
#include "engine/metaball.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/passes.hpp"
#include "tests/support/cuda_buffers.hpp"
#include "tests/support/geometry_expect.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

// The field as DESIGN §3 writes it, independently of the engine's Horner form.
double wyvill_reference(double r, double R) {
    if (r >= R) return 0;
    double x = r / R;
    return 1 - 4.0 / 9 * std::pow(x, 6) + 17.0 / 9 * std::pow(x, 4) - 22.0 / 9 * std::pow(x, 2);
}

TEST(MetaballField, ValuesAtCentreHalfAndEdge) {
    for (double R : {0.01, 1.0, 37.5}) {
        EXPECT_DOUBLE_EQ(wyvill_field(0.0, R), 1.0);
        EXPECT_NEAR(wyvill_field(R / 2, R), 0.5, 1e-15);
        EXPECT_NEAR(wyvill_field(R * (1 - 1e-15), R), 0.0, 1e-14);
        EXPECT_EQ(wyvill_field(R, R), 0.0);
        EXPECT_EQ(wyvill_field(2 * R, R), 0.0);
        EXPECT_EQ(wyvill_field(0.0f, float(R)), 1.0f);
        EXPECT_NEAR(wyvill_field(float(R) / 2, float(R)), 0.5f, 1e-6f);
        EXPECT_EQ(wyvill_field(float(R), float(R)), 0.0f);
    }
}

TEST(MetaballField, MatchesTheWrittenPolynomialAndDecreases) {
    const double R = 2.5;
    double previous = 1.0;
    for (int i = 0; i <= 1000; ++i) {
        double r = R * i / 1000.0;
        double f = wyvill_field(r, R);
        EXPECT_NEAR(f, wyvill_reference(r, R), 1e-14) << r;
        EXPECT_LE(f, previous) << r;
        EXPECT_GE(f, 0.0) << r;
        previous = f;
    }
}

// Slope by central differences: zero at r = 0 (the field is even in r) and at r = R (C¹ join with the
// zero outside), while in between it is of order 1/R.
TEST(MetaballField, ZeroSlopeAtBothEnds) {
    const double R = 3.0, h = 1e-6 * R;
    auto slope = [&](double r) { return (wyvill_field(r + h, R) - wyvill_field(r - h, R)) / (2 * h); };
    EXPECT_NEAR(slope(R), 0.0, 1e-5 / R);
    EXPECT_NEAR((wyvill_field(h, R) - wyvill_field(0.0, R)) / h, 0.0, 1e-5 / R);
    EXPECT_LT(slope(R / 2), -0.5 / R);  // the test can tell a slope from none
}

TEST(MetaballField, EmptyRegionGivesNoFieldAndNoNan) {
    EXPECT_EQ(wyvill_field(0.0, 0.0), 0.0);
    EXPECT_EQ(wyvill_field(1.0, 0.0), 0.0);
    EXPECT_EQ(wyvill_field(0.0f, 0.0f), 0.0f);
    const std::uint32_t bound[1] = {0};
    MetaballJoint<double> joint{{1, 2, 3}, 0.0, {5, 5, 5}};
    Vec3<double> v = metaball_point(Vec3<double>{1, 2, 3}, bound, 1, &joint);
    EXPECT_EQ(v.x, 1.0);
    EXPECT_EQ(v.y, 2.0);
    EXPECT_EQ(v.z, 3.0);
}

TEST(MetaballPoint, VerticesBeyondTheRadiusDoNotMove) {
    const std::uint32_t bound[2] = {0, 1};
    MetaballJoint<double> joints[2] = {{{0, 0, 0}, 2.0, {1, -2, 3}}, {{10, 0, 0}, 1.0, {4, 4, 4}}};
    testing::Random rng(3);
    for (int i = 0; i < 1000; ++i) {
        Vec3<double> v = rng.uniform(2.0, 5.0) * rng.unit_vector();
        Vec3<double> moved = metaball_point(v, bound, 2, joints);
        EXPECT_EQ(moved.x, v.x);
        EXPECT_EQ(moved.y, v.y);
        EXPECT_EQ(moved.z, v.z);
    }
}

TEST(MetaballPoint, CentreMovesByTheFullDisplacementAndFieldsAdd) {
    const std::uint32_t bound[2] = {0, 1};
    MetaballJoint<double> joints[2] = {{{0, 0, 0}, 2.0, {1, 0, 0}}, {{1, 0, 0}, 2.0, {0, 1, 0}}};
    Vec3<double> at_centre = metaball_point(Vec3<double>{0, 0, 0}, bound, 1, joints);
    EXPECT_EQ(at_centre.x, 1.0);
    Vec3<double> both = metaball_point(Vec3<double>{0, 0, 0}, bound, 2, joints);
    EXPECT_NEAR(both.x, 1.0, 1e-15);
    EXPECT_NEAR(both.y, wyvill_reference(1.0, 2.0), 1e-15);
    Vec3<double> unbound = metaball_point(Vec3<double>{0, 0, 0}, bound, 0, joints);
    EXPECT_EQ(unbound.x, 0.0);
}

// A random scene: joints with radii and displacements, points bound to 0..3 joints each.
struct Scene {
    std::vector<double> rest;  // xyz packed
    std::vector<std::uint32_t> offsets{0}, bound;
    std::vector<MetaballJoint<double>> joints;
    Rigid<double> body = Rigid<double>::identity();  // what carries the displaced points

    std::size_t size() const { return offsets.size() - 1; }
    template <class T>
    Mat34<T> motion() const { return Mat34<T>::from_rigid(Rigid<T>(body)); }
    template <class T>
    std::vector<MetaballJoint<T>> table() const {
        std::vector<MetaballJoint<T>> t;
        for (const auto& j : joints) t.push_back(MetaballJoint<T>(j));
        return t;
    }
};

Scene random_scene(std::size_t count, int joint_count, unsigned seed) {
    testing::Random rng(seed);
    Scene s;
    for (int j = 0; j < joint_count; ++j)
        s.joints.push_back({rng.in_box(3), rng.uniform(0.5, 4), rng.in_box(1)});
    for (std::size_t i = 0; i < count; ++i) {
        Vec3<double> p = rng.in_box(4);
        s.rest.insert(s.rest.end(), {p.x, p.y, p.z});
        int n = int(rng.uniform(0, 4 - 1e-9));
        for (int k = 0; k < n; ++k) s.bound.push_back(std::uint32_t(rng.uniform(0, joint_count - 1e-9)));
        s.offsets.push_back(std::uint32_t(s.bound.size()));
    }
    s.body = {axis_angle(rng.unit_vector(), rng.uniform(0, 3)), rng.in_box(5)};
    return s;
}

TEST(MetaballPass, CpuPassEqualsTheDirectFormula) {
    Scene s = random_scene(5000, 7, 5);
    std::vector<MetaballJoint<double>> table = s.table<double>();
    std::vector<double> out(s.rest.size());
    cpu::deform_metaball({{s.rest.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), table.data(), table.size(),
                          s.motion<double>(), {out.data(), 3}},
                         {});
    std::vector<float> rest_f(s.rest.begin(), s.rest.end()), out_f(s.rest.size());
    std::vector<MetaballJoint<float>> table_f = s.table<float>();
    cpu::deform_metaball({{rest_f.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), table_f.data(),
                          table_f.size(), s.motion<float>(), {out_f.data(), 3}},
                         {});
    for (std::size_t i = 0; i < s.size(); ++i) {
        Vec3<double> v{s.rest[3 * i], s.rest[3 * i + 1], s.rest[3 * i + 2]};
        Vec3<double> expected = v;
        for (std::uint32_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
            const MetaballJoint<double>& j = s.joints[s.bound[k]];
            expected += wyvill_reference(norm(v - j.centre), j.radius) * j.displacement;
        }
        expected = s.body.apply(expected);
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(out[3 * i + c], expected[c], 1e-12) << i;
            EXPECT_NEAR(out_f[3 * i + c], expected[c], 2e-6) << i;
        }
    }
}

TEST(MetaballPass, TheBodysMotionCarriesTheDisplacedPoint) {
    // One point displaced along x in the body's frame by f(1, 2), then turned a quarter about z and moved;
    // one outside every region moves with the body alone.
    const std::vector<double> rest{1, 0, 0, 5, 0, 0};
    const std::vector<std::uint32_t> offsets{0, 1, 2}, bound{0, 0};
    const MetaballJoint<double> joint{{0, 0, 0}, 2.0, {1, 0, 0}};
    const Rigid<double> body{axis_angle(Vec3<double>{0, 0, 1}, 1.5707963267948966), {10, 0, 0}};
    std::vector<double> out(6);
    cpu::deform_metaball({{rest.data(), 3}, offsets.data(), bound.data(), 2, &joint, 1, Mat34<double>::from_rigid(body), {out.data(), 3}}, {});
    const Vec3<double> displaced = Vec3<double>{1, 0, 0} + wyvill_reference(1.0, 2.0) * joint.displacement;
    testing::expect_vec_near({out[0], out[1], out[2]}, body.apply(displaced), 1e-14);
    testing::expect_vec_near({out[3], out[4], out[5]}, Vec3<double>{10, 5, 0}, 1e-14);
}

TEST(MetaballPass, TinyBodiesInFloatReadTheUnitBodysField) {
    // A body 1e-25 units across, in float: the squared distances underflowed (1e-50 is below float's least
    // subnormal) and its points moved by the wrong field, 60% of the body off at 1e-25.
    Scene s = random_scene(2000, 5, 8);
    s.body = Rigid<double>::identity();
    const double scale = 1e-25;
    std::vector<float> rest(s.rest.size()), out(s.rest.size()), unit_rest(s.rest.begin(), s.rest.end()), unit_out(s.rest.size());
    for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = float(s.rest[i] * scale);
    std::vector<MetaballJoint<float>> unit = s.table<float>(), tiny;
    for (const MetaballJoint<double>& j : s.joints)
        tiny.push_back(MetaballJoint<float>(MetaballJoint<double>{scale * j.centre, scale * j.radius, scale * j.displacement}));
    cpu::deform_metaball({{unit_rest.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), unit.data(), unit.size(),
                          s.motion<float>(), {unit_out.data(), 3}},
                         {});
    cpu::deform_metaball({{rest.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), tiny.data(), tiny.size(),
                          s.motion<float>(), {out.data(), 3}},
                         {});
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i] / scale, unit_out[i], 1e-5) << i;
}

TEST(MetaballPass, OutputIsIdenticalForAnyThreadCount) {
    Scene s = random_scene(20000, 9, 6);
    std::vector<float> rest(s.rest.begin(), s.rest.end()), reference(s.rest.size()), out(s.rest.size());
    std::vector<MetaballJoint<float>> table = s.table<float>();
    for (int threads : {1, 2, 3, 8}) {
        std::vector<float>& target = threads == 1 ? reference : out;
        cpu::deform_metaball({{rest.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), table.data(), table.size(),
                              s.motion<float>(), {target.data(), 3}},
                             {threads});
        if (threads > 1) {
            EXPECT_EQ(std::memcmp(reference.data(), out.data(), out.size() * sizeof(float)), 0) << threads;
        }
    }
}

TEST(MetaballPass, CudaMatchesCpu) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    using testing::to_device;
    Scene s = random_scene(100000, 12, 7);
    std::vector<float> rest(s.rest.begin(), s.rest.end()), cpu_out(s.rest.size()), gpu_out(s.rest.size());
    std::vector<MetaballJoint<float>> table = s.table<float>();
    cpu::deform_metaball({{rest.data(), 3}, s.offsets.data(), s.bound.data(), s.size(), table.data(), table.size(),
                          s.motion<float>(), {cpu_out.data(), 3}},
                         {});
    float* rest_d = to_device(rest);
    std::uint32_t* offsets_d = to_device(s.offsets);
    std::uint32_t* bound_d = to_device(s.bound);
    MetaballJoint<float>* table_d = to_device(table);
    float* out_d = nullptr;
    ASSERT_EQ(cudaMalloc(&out_d, rest.size() * sizeof(float)), cudaSuccess);
    cuda::deform_metaball({{rest_d, 3}, offsets_d, bound_d, s.size(), table_d, table.size(), s.motion<float>(), {out_d, 3}}, {});
    ASSERT_EQ(cudaMemcpy(gpu_out.data(), out_d, rest.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::size_t i = 0; i < rest.size(); ++i) ASSERT_NEAR(gpu_out[i], cpu_out[i], 1e-5f) << i;
    for (void* p : {(void*)rest_d, (void*)offsets_d, (void*)bound_d, (void*)table_d, (void*)out_d}) cudaFree(p);
#endif
}

}  // namespace
}  // namespace bs
