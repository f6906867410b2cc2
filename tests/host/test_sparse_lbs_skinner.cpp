// LBS with any number of influences per point (host/sparse_lbs_skinner.hpp): it agrees with the
// 4-influence fast path where a point has at most four, with a direct sum of weighted bone transforms
// where it has more, writes a caller's strided output as its vector (the Skinner front's sparse form too),
// runs on the GPU as on the CPU (its pass, and GpuSkinner), and refuses every malformed influence set.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "host/classic_skinner.hpp"
#include "host/errors.hpp"
#include "host/gpu_skinner.hpp"
#include "host/pose_table.hpp"
#include "host/sparse_lbs_skinner.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/cuda_buffers.hpp"
#include "tests/support/points.hpp"
#include "tests/support/random.hpp"

namespace bs {
namespace {

// A chain of `bones` bones along x, and random poses of it.
Skeleton long_straight_chain(int bones) {
    std::vector<Sphere<double>> spheres;
    std::vector<std::array<int, 2>> pairs;
    for (int i = 0; i <= bones; ++i) spheres.push_back({{2.0 * i, 0, 0}, 0.5});
    for (int i = 0; i < bones; ++i) pairs.push_back({i, i + 1});
    return make_skeleton(spheres, pairs, {}, "test chain");
}

Pose random_pose(const Skeleton& s, testing::Random& rng) {
    Pose pose = Pose::rest(s);
    for (auto& j : pose.joints) {
        j.swing = axis_angle(Vec3<double>{0, 0, 1}, rng.uniform(-1, 1));
        j.twist_radians = rng.uniform(-2, 2);
    }
    pose.root = {rng.rotation(), rng.in_box(2)};
    return pose;
}

// `pairs_per_point` random influences per point (distinct bones), weights summing to 1.
SparseInfluences random_influences(std::size_t points, int bones, int pairs_per_point, testing::Random& rng) {
    SparseInfluences out;
    for (std::size_t i = 0; i < points; ++i) {
        std::vector<std::pair<std::uint32_t, float>> pairs;
        double total = 0;
        for (int j = 0; j < pairs_per_point; ++j) {
            double w = rng.uniform(0.05, 1);
            pairs.push_back({std::uint32_t((i + j) % bones), float(w)});
            total += w;
        }
        for (auto& p : pairs) p.second = float(p.second / total);
        out.add(pairs);
    }
    return out;
}

TEST(SparseLbsSkinner, AgreesWithTheFourInfluencePath) {
    Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points = testing::points_around(s, 3000, 5);
    const std::vector<Influences> weights = auto_influences(s, points);
    ClassicSkinner<double> four(s, points, weights, "test");
    SparseLbsSkinner<double> sparse(s, points, to_sparse(weights), "test");
    testing::Random rng(3);
    for (int i = 0; i < 5; ++i) {
        Pose pose = random_pose(s, rng);
        std::vector<Vec3<double>> a, b;
        four.deform(pose, ClassicMethod::lbs, a);
        sparse.deform(pose, b);
        for (std::size_t p = 0; p < points.size(); ++p) ASSERT_LT(norm(a[p] - b[p]), 1e-12) << p;
    }
}

// Point p as LBS defines it: the sum of its weighted bone transforms.
Vec3<double> weighted_sum(const SparseInfluences& influences, const std::vector<Rigid<double>>& posed, std::size_t p, Vec3<double> rest) {
    Vec3<double> want{0, 0, 0};
    for (std::uint32_t j = influences.offsets[p]; j < influences.offsets[p + 1]; ++j)
        want += double(influences.weights[j]) * posed[influences.bones[j]].apply(rest);
    return want;
}

// As the four-influence path's (test_classic_skinner.cpp): weights within 1e-3 of a sum of 1 are scaled to it.
TEST(SparseLbsSkinner, WeightsAcceptedNearASumOfOneAreScaledToOne) {
    Skeleton s = testing::straight_chain();
    for (Sphere<double>& sphere : s.spheres) sphere.centre.x += 1000;
    const std::vector<Vec3<double>> point{{1002, 1, 0}};
    SparseInfluences weights;
    weights.add({{0, 0.3f}, {1, 0.3f}, {2, 0.4009f}});
    SparseLbsSkinner<double> skinner(s, point, weights, "test");
    EXPECT_NEAR(double(skinner.influences().weights[0]) + skinner.influences().weights[1] + skinner.influences().weights[2], 1.0, 1e-7);
    std::vector<Vec3<double>> out;
    skinner.deform(Pose::rest(s), out);
    EXPECT_LT(norm(out[0] - point[0]), 1e-4);  // the floats' rounding of the scaled weights; 0.9 before
}

// A pair of weight 0 may name any bone, in range or not (only weighing pairs' indices are checked); the
// float pass on the CPU reads every pair's matrix, so the skinner points such pairs at bone 0.
TEST(SparseLbsSkinner, APairOfWeightZeroNamingNoBoneIsAcceptedAndChangesNothing) {
    Skeleton s = long_straight_chain(6);
    testing::Random rng(10);
    const std::vector<Vec3<double>> points = testing::points_around(s, 400, 6);
    SparseInfluences tidy = random_influences(points.size(), 6, 3, rng), untidy;
    for (std::size_t i = 0; i < points.size(); ++i) {
        std::vector<std::pair<std::uint32_t, float>> pairs{{4000000000u, 0.0f}};
        for (std::uint32_t j = tidy.offsets[i]; j < tidy.offsets[i + 1]; ++j) pairs.push_back({tidy.bones[j], tidy.weights[j]});
        pairs.push_back({std::uint32_t(77 + i), 0.0f});
        untidy.add(pairs);
    }
    SparseLbsSkinner<float> want_skinner(s, points, tidy, "test"), got_skinner(s, points, untidy, "test");
    const Pose pose = random_pose(s, rng);
    std::vector<Vec3<float>> want, got;
    want_skinner.deform(pose, want);
    got_skinner.deform(pose, got);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(std::memcmp(&got[i], &want[i], sizeof got[i]) == 0) << i;
}

TEST(SparseLbsSkinner, EightInfluencesEqualTheWeightedSumOfBoneTransforms) {
    Skeleton s = long_straight_chain(10);
    testing::Random rng(9);
    std::vector<Vec3<double>> points;
    for (int i = 0; i < 2000; ++i) points.push_back(rng.in_box(8));
    SparseInfluences influences = random_influences(points.size(), 10, 8, rng);
    SparseLbsSkinner<double> skinner(s, points, influences, "test");
    Pose pose = random_pose(s, rng);
    std::vector<Vec3<double>> out;
    skinner.deform(pose, out);
    std::vector<Rigid<double>> posed = posed_bones(s, pose);
    // The given weights, which the skinner scales to sum to 1 (normalize_weights): within their floats' rounding.
    for (std::size_t p = 0; p < points.size(); ++p) {
        double total = 0;
        for (std::uint32_t j = influences.offsets[p]; j < influences.offsets[p + 1]; ++j) total += influences.weights[j];
        for (std::uint32_t j = influences.offsets[p]; j < influences.offsets[p + 1]; ++j)
            ASSERT_NEAR(skinner.influences().weights[j], influences.weights[j] / total, 1e-7) << p;
        ASSERT_LT(norm(out[p] - weighted_sum(influences, posed, p, points[p]) / total), 1e-5) << p;
    }
}

TEST(SparseLbsSkinner, WritesAStridedOutputAsItsVectorAndTheSkinnerFrontAsItself) {
    const Skeleton s = long_straight_chain(6);
    testing::Random rng(22);
    const std::vector<Vec3<double>> points = testing::points_around(s, 2000, 23);
    const SparseInfluences influences = random_influences(points.size(), 6, 6, rng);
    const SparseLbsSkinner<float> sparse(s, points, influences, "test");
    const Skinner front(s, points, influences, "test");
    ASSERT_EQ(front.method(), Method::lbs);
    ASSERT_NE(front.sparse(), nullptr);
    const Pose pose = random_pose(s, rng);
    std::vector<Vec3<float>> packed, through_front;
    sparse.deform(pose, packed);
    front.deform(pose, through_front);
    const std::vector<Rigid<double>> posed = posed_bones(s, pose);
    for (std::size_t i = 0; i < points.size(); ++i)
        ASSERT_LT(norm(Vec3<double>(through_front[i]) - weighted_sum(influences, posed, i, points[i])), 1e-5 * testing::diagonal(s)) << i;
    std::vector<float> strided(5 * points.size(), 1234.5f);
    sparse.deform(pose, PointView<float>{strided.data(), 5});
    for (std::size_t i = 0; i < points.size(); ++i) {
        ASSERT_EQ(std::memcmp(&strided[5 * i], &packed[i], 3 * sizeof(float)), 0) << i;
        ASSERT_EQ(strided[5 * i + 3], 1234.5f);
        ASSERT_EQ(strided[5 * i + 4], 1234.5f);
    }
    EXPECT_THROW(sparse.deform(pose, PointView<float>{nullptr, 3}), InputError);
    EXPECT_THROW(sparse.deform(pose, PointView<float>{strided.data(), 2}), InputError);
    // A pose of another bone count: the caller's longer vector keeps its size and contents.
    Pose wrong = pose;
    wrong.joints.pop_back();
    std::vector<Vec3<float>> longer(points.size() + 9, Vec3<float>{7, 8, 9});
    EXPECT_THROW(sparse.deform(wrong, longer), InputError);
    ASSERT_EQ(longer.size(), points.size() + 9);
    for (const Vec3<float>& p : longer) ASSERT_TRUE(p.x == 7 && p.y == 8 && p.z == 9);
}

// The GPU front of LBS of any number of influences (Skinner's sparse form) against the CPU, into a
// poisoned float4 buffer; several bodies in one launch take up to four influences and refuse it.
TEST(SparseLbsSkinnerCuda, TheGpuFrontMatchesTheCpuAndBodiesInOneLaunchRefuseIt) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    const Skeleton s = long_straight_chain(8);
    testing::Random rng(24);
    const std::vector<Vec3<double>> points = testing::points_around(s, 20000, 25);
    const Skinner front(s, points, random_influences(points.size(), 8, 7, rng), "test");
    GpuSkinner gpu(front);
    cuda::DeviceArray<float> out(4 * points.size());
    cuda::fill_bytes(out.data(), 0xff, out.bytes(), {});  // NaN everywhere
    const Pose pose = random_pose(s, rng);
    gpu.deform(pose, {out.data(), 4});
    const std::vector<float> got = out.download({});
    std::vector<Vec3<float>> want;
    front.deform(pose, want);
    for (std::size_t i = 0; i < points.size(); ++i) {
        ASSERT_LT(norm(Vec3<double>{got[4 * i], got[4 * i + 1], got[4 * i + 2]} - Vec3<double>(want[i])), 1e-5 * testing::diagonal(s)) << i;
        ASSERT_TRUE(std::isnan(got[4 * i + 3])) << "the fourth component must be left alone";
    }
    EXPECT_GT(gpu.device_bytes(), points.size() * (12 + 4 + 7 * 8));
    GpuBodies bodies;
    EXPECT_THROW(bodies.deform({&gpu}, {pose}, {PointView<float>{out.data(), 4}}), UnsupportedError);
#endif
}

TEST(SparseLbsSkinnerCuda, GpuPassMatchesTheCpu) {
    if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device (or the CUDA backend is not built)";
#if defined(BASESKIN_HAVE_CUDA)
    using testing::to_device;
    testing::Random rng(21);
    const std::size_t n = 50000;
    std::vector<float> rest;
    for (std::size_t i = 0; i < n; ++i) {
        Vec3<double> p = rng.in_box(5);
        rest.insert(rest.end(), {float(p.x), float(p.y), float(p.z)});
    }
    SparseInfluences inf = random_influences(n, 12, 7, rng);
    std::vector<Mat34<float>> table;
    for (int b = 0; b < 12; ++b) table.push_back(Mat34<float>::from_rigid(Rigid<float>(Rigid<double>{rng.rotation(), rng.in_box(3)})));
    std::vector<float> cpu_out(3 * n), gpu_out(3 * n);
    cpu::deform_lbs(SparseLbsJob<float>{{rest.data(), 3}, inf.offsets.data(), inf.bones.data(), inf.weights.data(), n, table.data(),
                                        table.size(), {cpu_out.data(), 3}},
                    {});
    float* d_rest = to_device(rest);
    std::uint32_t* d_offsets = to_device(inf.offsets);
    std::uint32_t* d_bones = to_device(inf.bones);
    float* d_weights = to_device(inf.weights);
    Mat34<float>* d_table = to_device(table);
    float* d_out = nullptr;
    ASSERT_EQ(cudaMalloc(&d_out, gpu_out.size() * sizeof(float)), cudaSuccess);
    cuda::deform_lbs(SparseLbsJob<float>{{d_rest, 3}, d_offsets, d_bones, d_weights, n, d_table, table.size(), {d_out, 3}}, {});
    ASSERT_EQ(cudaMemcpy(gpu_out.data(), d_out, gpu_out.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::size_t i = 0; i < gpu_out.size(); ++i) ASSERT_NEAR(gpu_out[i], cpu_out[i], 1e-4f) << i;
    for (void* p : {(void*)d_rest, (void*)d_offsets, (void*)d_bones, (void*)d_weights, (void*)d_table, (void*)d_out}) cudaFree(p);
#endif
}

struct SparseInvalid : ::testing::Test {
    Skeleton s = testing::bent_chain();
    std::vector<Vec3<double>> points{{1, 0.5, 0}, {3, 0.5, 0}};
    SparseInfluences valid() {
        SparseInfluences inf;
        inf.add({{0, 0.5f}, {1, 0.5f}});
        inf.add({{1, 1.0f}});
        return inf;
    }
    void expect_refused(const SparseInfluences& inf, const std::string& message) {
        try {
            SparseLbsSkinner<float>(s, points, inf, "weights.ply");
            ADD_FAILURE() << "accepted; expected: " << message;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("weights.ply"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
};

TEST_F(SparseInvalid, ValidSetIsAccepted) { EXPECT_NO_THROW(SparseLbsSkinner<float>(s, points, valid(), "weights.ply")); }

TEST_F(SparseInvalid, WrongPointCount) {
    SparseInfluences inf = valid();
    inf.offsets.pop_back();
    inf.bones.pop_back();
    inf.weights.pop_back();
    expect_refused(inf, "2 points need 3 influence offsets (a first 0, then one end per point), got 2");
    // No offsets at all, not even the first 0.
    SparseInfluences none{{}, {}, {}};
    try {
        validate_influences(none, 0, s.bone_count(), "pts");
        ADD_FAILURE() << "empty offsets were taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("0 points need 1 influence offsets"), std::string::npos) << e.what();
    }
}

// A point count of SIZE_MAX: point_count + 1 wrapped to 0, which empty offsets matched, and offsets[0] was
// then read from them.
TEST_F(SparseInvalid, APointCountWhoseSuccessorWrapsIsRefused) {
    SparseInfluences none{{}, {}, {}};
    try {
        validate_influences(none, SIZE_MAX, s.bone_count(), "pts");
        ADD_FAILURE() << "empty offsets were taken for SIZE_MAX points";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("pts: 18446744073709551615 points need 18446744073709551615 + 1 influence offsets (a first 0, "
                                             "then one end per point), got 0"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(SparseInvalid, OffsetsNotStartingAtZero) {
    SparseInfluences inf = valid();
    inf.offsets[0] = 1;
    expect_refused(inf, "must start at 0");
}

TEST_F(SparseInvalid, DecreasingOffsets) {
    SparseInfluences inf;
    inf.offsets = {0, 3, 2};  // ends at the pair count, but vertex 0's range would run past it
    inf.bones = {0, 1};
    inf.weights = {0.5f, 0.5f};
    expect_refused(inf, "vertex 1: influence offsets decrease (3 then 2)");
}

TEST_F(SparseInvalid, OffsetsNotEndingAtThePairCount) {
    SparseInfluences inf = valid();
    inf.bones.push_back(0);
    inf.weights.push_back(0.0f);
    expect_refused(inf, "offsets end at 3");
}

TEST_F(SparseInvalid, BoneOutOfRange) {
    SparseInfluences inf = valid();
    inf.bones[1] = 7;
    expect_refused(inf, "bone index 7 out of range");
}

TEST_F(SparseInvalid, NegativeWeight) {
    SparseInfluences inf = valid();
    inf.weights[0] = -0.5f;
    inf.weights[1] = 1.5f;
    expect_refused(inf, "weight must be finite and >= 0");
}

TEST_F(SparseInvalid, NanWeight) {
    SparseInfluences inf = valid();
    inf.weights[2] = std::nanf("");
    expect_refused(inf, "vertex 1: influence 0: weight must be finite");
}

TEST_F(SparseInvalid, WeightsNotSummingToOne) {
    SparseInfluences inf = valid();
    inf.weights[0] = 0.25f;
    expect_refused(inf, "weights sum to 0.75");
}

}  // namespace
}  // namespace bs
