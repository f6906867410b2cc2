// Closed test surfaces made here, no downloaded data: capsules and tori as triangle meshes of revolution,
// Y-shaped tubes by marching tetrahedra over a signed distance, and uniform point samplings of a capsule.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <vector>

#include "host/mesh_io.hpp"
#include "tests/support/random.hpp"

namespace bs::testing {

using SignedDistance = std::function<double(const Vec3<double>&)>;

// The zero level set of `sdf` (negative inside) over the box [lo, hi] sampled every `step`: marching
// tetrahedra over the Kuhn split of each grid cube into six tetrahedra, which is conforming, so the
// surface is closed and manifold wherever the box contains it. Vertices sit on grid edges, shared by key.
inline TriangleMesh marching_tetrahedra(const SignedDistance& sdf, Vec3<double> lo, Vec3<double> hi, double step) {
    // An irrational shift keeps grid points off the level set of the simple shapes used here.
    lo = lo - Vec3<double>{0.3183 * step, 0.2718 * step, 0.1414 * step};
    const int nx = int(std::ceil((hi.x - lo.x) / step)) + 1, ny = int(std::ceil((hi.y - lo.y) / step)) + 1,
              nz = int(std::ceil((hi.z - lo.z) / step)) + 1;
    auto id = [&](int x, int y, int z) { return (long long)(z * ny + y) * nx + x; };
    auto point = [&](long long g) {
        long long x = g % nx, y = (g / nx) % ny, z = g / (nx * ny);
        return lo + Vec3<double>{double(x) * step, double(y) * step, double(z) * step};
    };
    std::vector<double> value(std::size_t(nx) * ny * nz);
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) value[id(x, y, z)] = sdf(point(id(x, y, z)));

    TriangleMesh mesh;
    std::unordered_map<long long, int> vertex_on_edge;
    const long long grid_size = (long long)nx * ny * nz;
    auto crossing = [&](long long a, long long b) {
        if (a > b) std::swap(a, b);
        auto [it, inserted] = vertex_on_edge.emplace(a * grid_size + b, int(mesh.vertices.size()));
        if (inserted) {
            double t = value[a] / (value[a] - value[b]);
            mesh.vertices.push_back(point(a) + t * (point(b) - point(a)));
        }
        return it->second;
    };
    static const int kTets[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7}, {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};
    for (int z = 0; z + 1 < nz; ++z)
        for (int y = 0; y + 1 < ny; ++y)
            for (int x = 0; x + 1 < nx; ++x) {
                long long corner[8];
                for (int c = 0; c < 8; ++c) corner[c] = id(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1));
                for (const auto& tet : kTets) {
                    std::vector<long long> in, out;
                    for (int c : tet) (value[corner[c]] < 0 ? in : out).push_back(corner[c]);
                    if (in.size() == 1 || in.size() == 3) {
                        const auto& lone = in.size() == 1 ? in : out;
                        const auto& rest = in.size() == 1 ? out : in;
                        mesh.triangles.push_back({crossing(lone[0], rest[0]), crossing(lone[0], rest[1]),
                                                  crossing(lone[0], rest[2])});
                    } else if (in.size() == 2) {
                        int ac = crossing(in[0], out[0]), ad = crossing(in[0], out[1]);
                        int bd = crossing(in[1], out[1]), bc = crossing(in[1], out[0]);
                        mesh.triangles.push_back({ac, ad, bd});
                        mesh.triangles.push_back({ac, bd, bc});
                    }
                }
            }
    return mesh;
}

inline double distance_to_segment(const Vec3<double>& p, const Vec3<double>& a, const Vec3<double>& b) {
    const Vec3<double> ab = b - a;
    const double t = std::clamp(dot(p - a, ab) / dot(ab, ab), 0.0, 1.0);
    return norm(p - (a + t * ab));
}

constexpr double kPi = 3.14159265358979323846;

// A closed surface of revolution about x: rings of `segments` vertices at axial positions xs (ascending)
// with radii rs, closed by a pole vertex at x = pole_low before the first ring and pole_high after the last.
inline TriangleMesh revolution_mesh(const std::vector<double>& xs, const std::vector<double>& rs, double pole_low,
                                    double pole_high, int segments) {
    TriangleMesh mesh;
    mesh.vertices.push_back({pole_low, 0, 0});
    for (std::size_t r = 0; r < xs.size(); ++r)
        for (int s = 0; s < segments; ++s) {
            const double angle = 2 * kPi * s / segments;
            mesh.vertices.push_back({xs[r], rs[r] * std::cos(angle), rs[r] * std::sin(angle)});
        }
    mesh.vertices.push_back({pole_high, 0, 0});
    const int last = int(mesh.vertices.size()) - 1;
    auto ring = [&](std::size_t r, int s) { return 1 + int(r) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) mesh.triangles.push_back({0, ring(0, s + 1), ring(0, s)});
    for (std::size_t r = 0; r + 1 < xs.size(); ++r)
        for (int s = 0; s < segments; ++s) {
            // Diagonals alternate like a checkerboard, so edge paths have no preferred helical direction.
            if ((r + s) % 2 == 0) {
                mesh.triangles.push_back({ring(r, s), ring(r, s + 1), ring(r + 1, s + 1)});
                mesh.triangles.push_back({ring(r, s), ring(r + 1, s + 1), ring(r + 1, s)});
            } else {
                mesh.triangles.push_back({ring(r, s), ring(r, s + 1), ring(r + 1, s)});
                mesh.triangles.push_back({ring(r, s + 1), ring(r + 1, s + 1), ring(r + 1, s)});
            }
        }
    for (int s = 0; s < segments; ++s) mesh.triangles.push_back({last, ring(xs.size() - 1, s), ring(xs.size() - 1, s + 1)});
    return mesh;
}

// Capsule along x: axis from (-half_length, 0, 0) to (half_length, 0, 0), radius `radius`; `segments`
// vertices per ring, rings spaced about as far apart as the vertices of a ring.
inline TriangleMesh capsule_mesh(double radius, double half_length, int segments) {
    const double spacing = 2 * kPi * radius / segments;
    const int cap_rings = std::max(2, int(std::round(kPi / 2 * radius / spacing)));
    const int side_rings = std::max(1, int(std::round(2 * half_length / spacing)));
    std::vector<double> xs, rs;
    for (int i = 1; i < cap_rings; ++i) {  // low cap, from the pole towards the equator
        const double polar = kPi / 2 * i / cap_rings;
        xs.push_back(-half_length - radius * std::cos(polar));
        rs.push_back(radius * std::sin(polar));
    }
    for (int i = 0; i <= side_rings; ++i) {
        xs.push_back(-half_length + 2 * half_length * i / side_rings);
        rs.push_back(radius);
    }
    for (int i = cap_rings - 1; i >= 1; --i) {
        const double polar = kPi / 2 * i / cap_rings;
        xs.push_back(half_length + radius * std::cos(polar));
        rs.push_back(radius * std::sin(polar));
    }
    return revolution_mesh(xs, rs, -half_length - radius, half_length + radius, segments);
}

// Three tubes of radius `radius` from the origin to `arm` along 90°, 210° and 330° in the xy plane.
inline std::array<Vec3<double>, 3> y_tube_ends(double arm) {
    std::array<Vec3<double>, 3> ends;
    for (int i = 0; i < 3; ++i) {
        const double angle = (90.0 + 120.0 * i) * kPi / 180;
        ends[i] = {arm * std::cos(angle), arm * std::sin(angle), 0};
    }
    return ends;
}

inline TriangleMesh y_tube_mesh(double radius, double arm, double step) {
    const auto ends = y_tube_ends(arm);
    auto sdf = [=](const Vec3<double>& p) {
        double d = distance_to_segment(p, {0, 0, 0}, ends[0]);
        for (int i = 1; i < 3; ++i) d = std::min(d, distance_to_segment(p, {0, 0, 0}, ends[i]));
        return d - radius;
    };
    const double m = radius + 2 * step;
    return marching_tetrahedra(sdf, {-arm - m, -arm - m, -m}, {arm + m, arm + m, m}, step);
}

// Torus about z: ring radius `ring`, tube radius `tube`; a grid of ring_segments × tube_segments.
inline TriangleMesh torus_mesh(double ring, double tube, int ring_segments, int tube_segments) {
    TriangleMesh mesh;
    for (int i = 0; i < ring_segments; ++i)
        for (int j = 0; j < tube_segments; ++j) {
            const double u = 2 * kPi * i / ring_segments, v = 2 * kPi * j / tube_segments;
            const double r = ring + tube * std::cos(v);
            mesh.vertices.push_back({r * std::cos(u), r * std::sin(u), tube * std::sin(v)});
        }
    auto at = [&](int i, int j) { return (i % ring_segments) * tube_segments + (j % tube_segments); };
    for (int i = 0; i < ring_segments; ++i)
        for (int j = 0; j < tube_segments; ++j) {
            mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
            mesh.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
        }
    return mesh;
}

// `count` points uniform by area over the capsule of capsule_mesh().
inline std::vector<Vec3<double>> capsule_points(double radius, double half_length, int count, unsigned seed) {
    Random rng(seed);
    const double side = 2 * kPi * radius * 2 * half_length;
    const double caps = 4 * kPi * radius * radius;
    std::vector<Vec3<double>> points;
    for (int i = 0; i < count; ++i) {
        Vec3<double> u = rng.unit_vector();
        if (rng.uniform(0, side + caps) < side) {
            const double angle = rng.uniform(0, 2 * kPi);
            points.push_back({rng.uniform(-half_length, half_length), radius * std::cos(angle), radius * std::sin(angle)});
        } else {
            points.push_back(Vec3<double>{u.x >= 0 ? half_length : -half_length, 0, 0} + radius * u);
        }
    }
    return points;
}

// The capsule the rig and Reeb-graph tests share: radius 1, hemisphere centres at x = ±2, 48 segments
// around; built once.
inline constexpr double kCapsuleRadius = 1.0, kCapsuleHalfLength = 2.0;

inline const TriangleMesh& capsule() {
    static const TriangleMesh mesh = capsule_mesh(kCapsuleRadius, kCapsuleHalfLength, 48);
    return mesh;
}

}  // namespace bs::testing
