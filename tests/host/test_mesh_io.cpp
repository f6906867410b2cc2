#include "host/mesh_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "host/errors.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

// A unit cube as eight corners and six quads (1-based for OBJ, 0-based for OFF and PLY).
const char* kCubeCorners = "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n";
const int kCubeQuads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

std::string cube_obj() {
    std::string text;
    for (const char* c = kCubeCorners; *c;) {
        const char* end = std::strchr(c, '\n');
        text += "v " + std::string(c, end) + "\n";
        c = end + 1;
    }
    for (const auto& q : kCubeQuads)
        text += "f " + std::to_string(q[0] + 1) + " " + std::to_string(q[1] + 1) + " " + std::to_string(q[2] + 1) + " " +
                std::to_string(q[3] + 1) + "\n";
    return text;
}

std::string cube_off() {
    std::string text = std::string("OFF\n8 6 0\n") + kCubeCorners;
    for (const auto& q : kCubeQuads)
        text += "4 " + std::to_string(q[0]) + " " + std::to_string(q[1]) + " " + std::to_string(q[2]) + " " +
                std::to_string(q[3]) + "\n";
    return text;
}

double total_area(const TriangleMesh& mesh) {
    double area = 0;
    for (const auto& t : mesh.triangles)
        area += 0.5 * norm(cross(mesh.vertices[t[1]] - mesh.vertices[t[0]], mesh.vertices[t[2]] - mesh.vertices[t[0]]));
    return area;
}

std::string load_error(const std::string& suffix, const std::string& text) {
    std::string path = testing::write_temp(suffix, text);
    try {
        load_triangle_mesh(path);
    } catch (const InputError& e) {
        std::string message = e.what();
        EXPECT_EQ(message.rfind(path, 0), 0u) << "message must start with the file: " << message;
        return message;
    }
    return "";
}

TEST(MeshIo, ObjCornersAreWeldedAndQuadsFanned) {
    // assimp delivers OBJ as one vertex per face corner; the loader welds them back to the 8 corners.
    TriangleMesh mesh = load_triangle_mesh(testing::write_temp("cube.obj", cube_obj()));
    EXPECT_EQ(mesh.vertices.size(), 8u);
    EXPECT_EQ(mesh.triangles.size(), 12u);
    EXPECT_NEAR(total_area(mesh), 6.0, 1e-12);
}

TEST(MeshIo, OffKeepsTheFileVertices) {
    TriangleMesh mesh = load_triangle_mesh(testing::write_temp("cube.off", cube_off()));
    ASSERT_EQ(mesh.vertices.size(), 8u);
    EXPECT_EQ(mesh.vertices[6].x, 1.0);
    EXPECT_EQ(mesh.vertices[6].z, 1.0);
    EXPECT_EQ(mesh.triangles.size(), 12u);
    EXPECT_NEAR(total_area(mesh), 6.0, 1e-12);
}

// A soup OFF (each quad its own four corners) keeps its 24 vertices: a binding lines up with the file's
// list (README); welded, as assimp's OBJ soups are, it came back with the 8 distinct corners.
TEST(MeshIo, OffSoupKeepsTheFileVertices) {
    std::vector<std::string> corners;
    for (const char* c = kCubeCorners; *c;) {
        const char* end = std::strchr(c, '\n');
        corners.emplace_back(c, end);
        c = end + 1;
    }
    std::string vertices, faces;
    for (int q = 0; q < 6; ++q) {
        faces += "4";
        for (int i = 0; i < 4; ++i) vertices += corners[kCubeQuads[q][i]] + "\n", faces += " " + std::to_string(4 * q + i);
        faces += "\n";
    }
    TriangleMesh mesh = load_triangle_mesh(testing::write_temp("soup.off", "OFF\n24 6 0\n" + vertices + faces));
    ASSERT_EQ(mesh.vertices.size(), 24u);
    EXPECT_EQ(mesh.vertices[23].x, 0.0);
    EXPECT_EQ(mesh.vertices[23].y, 1.0);
    EXPECT_EQ(mesh.vertices[23].z, 1.0);
    EXPECT_EQ(mesh.triangles.size(), 12u);
    EXPECT_NEAR(total_area(mesh), 6.0, 1e-12);
}

TEST(MeshIo, PlyKeepsVertexOrderAndUnreferencedVertices) {
    // A tetrahedron plus an unreferenced vertex (index 2): per-vertex results must line up with the file.
    TriangleMesh mesh = load_triangle_mesh(testing::write_temp("tetra.ply",
        "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 4\nproperty list uchar int vertex_indices\nend_header\n"
        "0 0 0\n1 0 0\n7 7 7\n0 1 0\n0 0 1\n3 0 3 1\n3 0 1 4\n3 1 3 4\n3 0 4 3\n"));
    ASSERT_EQ(mesh.vertices.size(), 5u);
    EXPECT_EQ(mesh.vertices[2].x, 7.0);
    EXPECT_EQ(mesh.vertices[4].z, 1.0);
    EXPECT_EQ(mesh.triangles.size(), 4u);
    EXPECT_EQ(mesh.triangles[0], (std::array<int, 3>{0, 3, 1}));
}

// Exporters name a PLY face's corners `vertex_indices` or `vertex_index`: both are faces.
TEST(MeshIo, PlyFacesNamedVertexIndexAreFacesToo) {
    TriangleMesh mesh = load_triangle_mesh(testing::write_temp("tetra_vertex_index.ply",
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 4\nproperty list uchar int vertex_index\nend_header\n"
        "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 1 2 3\n3 0 3 2\n"));
    ASSERT_EQ(mesh.triangles.size(), 4u);
    EXPECT_EQ(mesh.triangles[3], (std::array<int, 3>{0, 3, 2}));
}

// A U (a 3 × 3 square with a notch 1 wide and 2 deep from the top: area 7) in a tilted plane far from the
// origin, its corners listed from each of them in turn.
std::vector<Vec3<double>> tilted_u() {
    const double plane[8][2] = {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    const Vec3<double> u = normalized(Vec3<double>{1, 2, 2}), v = normalized(cross(Vec3<double>{0, 0, 1}, u));
    std::vector<Vec3<double>> corners;
    for (const auto& c : plane) corners.push_back(Vec3<double>{10, -20, 30} + c[0] * u + c[1] * v);
    return corners;
}

TEST(MeshIo, AConcavePolygonIsCutIntoTrianglesThatTileIt) {
    const std::vector<Vec3<double>> corners = tilted_u();
    const Vec3<double> normal = cross(corners[1] - corners[0], corners[7] - corners[0]);  // the U's own side
    for (int first = 0; first < 8; ++first) {
        std::vector<int> order;
        for (int c = 0; c < 8; ++c) order.push_back((first + c) % 8);
        std::vector<std::array<int, 3>> triangles;
        triangulate_polygon(corners, order, triangles);
        ASSERT_EQ(triangles.size(), 6u) << "from corner " << first;
        TriangleMesh mesh{corners, triangles};
        // Triangles of the polygon's orientation whose areas add up to its own tile it (a fan from a
        // corner by the notch turns some the other way and covers 9 or more).
        for (const auto& t : triangles)
            EXPECT_GT(dot(cross(corners[t[1]] - corners[t[0]], corners[t[2]] - corners[t[0]]), normal), 0) << "from corner " << first;
        EXPECT_NEAR(total_area(mesh), 7.0, 1e-12) << "from corner " << first;
    }
}

TEST(MeshIo, AConvexPolygonIsFannedFromItsFirstCorner) {
    const std::vector<Vec3<double>> pentagon{{0, 0, 0}, {2, 0, 0}, {3, 1, 0}, {1, 3, 0}, {-1, 1, 0}};
    std::vector<std::array<int, 3>> triangles;
    triangulate_polygon(pentagon, {0, 1, 2, 3, 4}, triangles);
    EXPECT_EQ(triangles, (std::vector<std::array<int, 3>>{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}));
}

// A corner repeated in a row, or the first again at the end (as OBJ writers do), counts once: its turns
// against an edge of no length are 0, which made the U look convex, and fanned it covered more than 7.
TEST(MeshIo, ARepeatedCornerDoesNotHideAConcavity) {
    const std::vector<Vec3<double>> corners = tilted_u();
    for (const std::vector<int>& order : {std::vector<int>{0, 1, 2, 3, 4, 4, 5, 6, 7}, std::vector<int>{4, 5, 5, 6, 7, 0, 1, 2, 3, 4},
                                          std::vector<int>{5, 6, 7, 0, 1, 2, 3, 4, 5}}) {
        std::vector<std::array<int, 3>> triangles;
        triangulate_polygon(corners, order, triangles);
        EXPECT_EQ(triangles.size(), 6u);
        EXPECT_NEAR(total_area(TriangleMesh{corners, triangles}), 7.0, 1e-12);
    }
}

// A polygon that crosses itself has no tiling: what ear clipping leaves is fanned, every corner kept.
TEST(MeshIo, APolygonThatCrossesItselfKeepsEveryCorner) {
    const double pi = 3.14159265358979323846;
    std::vector<Vec3<double>> star;  // a pentagram: each corner joined to the one two along
    for (int k = 0; k < 5; ++k) star.push_back({std::cos(4 * pi * k / 5), std::sin(4 * pi * k / 5), 0});
    const std::vector<Vec3<double>> bowtie{{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}};  // no area in any plane
    // Concave, and crossing itself: a loop whose tail turns back through it (a figure eight). Ear clipping
    // runs out of ears with four corners left, which are fanned.
    const std::vector<Vec3<double>> crossed{{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {2, 4, 0}, {2, -2, 0}, {1, -2, 0}, {1, 1, 0}, {0, 1, 0}};
    for (const auto& polygon : {star, bowtie, crossed}) {
        std::vector<int> order(polygon.size());
        std::iota(order.begin(), order.end(), 0);
        std::vector<std::array<int, 3>> triangles;
        triangulate_polygon(polygon, order, triangles);
        EXPECT_EQ(triangles.size(), polygon.size() - 2);
        std::vector<bool> used(polygon.size(), false);
        for (const auto& t : triangles)
            for (int c : t) used[std::size_t(c)] = true;
        EXPECT_EQ(std::count(used.begin(), used.end(), true), std::ptrdiff_t(polygon.size()));
    }
}

// Files go through it: the U as one face of an OBJ (through assimp) and of a PLY.
TEST(MeshIo, AConcaveFaceOfAFileIsCutIntoTrianglesThatTileIt) {
    std::string obj, ply = "ply\nformat ascii 1.0\nelement vertex 8\nproperty double x\nproperty double y\nproperty double z\n"
                           "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
    for (const Vec3<double>& c : tilted_u()) {
        obj += "v " + number_text(c.x) + " " + number_text(c.y) + " " + number_text(c.z) + "\n";
        ply += number_text(c.x) + " " + number_text(c.y) + " " + number_text(c.z) + "\n";
    }
    obj += "f 5 6 7 8 1 2 3 4\n";  // from a corner of the notch
    ply += "8 4 5 6 7 0 1 2 3\n";
    EXPECT_NEAR(total_area(load_triangle_mesh(testing::write_temp("u.obj", obj))), 7.0, 1e-5);  // assimp's float
    EXPECT_NEAR(total_area(load_triangle_mesh(testing::write_temp("u.ply", ply))), 7.0, 1e-12);
}

// Faces of 1 or 2 corners (points, lines) are skipped and counted, through assimp and through the PLY reader.
TEST(MeshIo, PointsAndLinesAreSkippedAndCounted) {
    const std::string corners = "0 0 0\n1 0 0\n0 1 0\n";
    const TriangleMesh ply = load_triangle_mesh(testing::write_temp("lines.ply",
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 3\nproperty list uchar int vertex_indices\nend_header\n" + corners + "3 0 1 2\n2 0 1\n1 2\n"));
    EXPECT_EQ(ply.triangles.size(), 1u);
    EXPECT_EQ(ply.faces_skipped, 2u);
    const TriangleMesh obj = load_triangle_mesh(testing::write_temp("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nl 1 2\n"));
    EXPECT_EQ(obj.triangles.size(), 1u);
    EXPECT_EQ(obj.faces_skipped, 1u);
}

TEST(MeshIo, WeldKeepsFirstOccurrencesAndTreatsSignedZerosAlike) {
    WeldedPositions w = weld_identical_positions({{1, 2, 3}, {0, 0, 0}, {1, 2, 3}, {-0.0, 0, 0}, {4, 5, 6}});
    ASSERT_EQ(w.positions.size(), 3u);
    EXPECT_EQ(w.positions[2].x, 4.0);
    EXPECT_EQ(w.index_of, (std::vector<int>{0, 1, 0, 1, 2}));
}

TEST(MeshIoInvalid, MissingFile) {
    EXPECT_THROW(load_triangle_mesh(testing::temp_path("missing.obj")), IoError);
}
// A NUL byte in a text format (assimp read on past it, or stopped there) is refused, naming its place.
TEST(MeshIoInvalid, ANulByteInATextFormatIsRefused) {
    const std::string obj = cube_obj(), off = cube_off();
    for (const auto& [suffix, text] : {std::pair<std::string, std::string>{"nul.obj", obj}, {"nul.off", off}}) {
        std::string damaged = text;
        const std::size_t at = text.find('\n', text.size() / 2) + 1;  // the start of a line halfway in
        damaged.insert(at, 1, '\0');
        const std::string message = load_error(suffix, damaged);
        const std::string extension = suffix.substr(4);
        EXPECT_NE(message.find(": byte " + std::to_string(at) + " is NUL, which a " + extension + " file (text) cannot hold"), std::string::npos)
            << message;
    }
}
TEST(MeshIoInvalid, NotAMesh) {
    EXPECT_NE(load_error("garbage.obj", "this is not a mesh\n").find("cannot read as a mesh"), std::string::npos);
}
TEST(MeshIoInvalid, OnlyLines) {
    EXPECT_NE(load_error("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n").find("no polygons"), std::string::npos);
}
TEST(MeshIoInvalid, FaceIndexOutOfRange) {
    std::string message = load_error("bad_index.ply",
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 9\n");
    EXPECT_NE(message.find("out of range"), std::string::npos) << message;
}
// A coordinate that is not a number: named by assimp's own numbering, and said to be so (an OBJ's
// vertices are assimp's face corners: the file's 4th vertex is its 5th here).
TEST(MeshIoInvalid, NotANumberIsNamedAsAssimpNumbersIt) {
    const std::string message = load_error("nan.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 1\nf 1 2 3\nf 1 2 4\n");
    EXPECT_NE(message.find("as assimp reads it (not the file's numbering): a coordinate beyond ±1e15 or not finite"), std::string::npos) << message;
}
// assimp's OFF reader reads past these, logging them: a face index past the vertices (it took the last
// vertex: `3 0 1 7` over 3 vertices read as `0 1 2`), fewer vertex lines than declared.
TEST(MeshIoInvalid, OffErrorsAssimpReadsPastAreRefused) {
    EXPECT_NE(load_error("index.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n").find("Vertex index is out of range"), std::string::npos);
    // A face of ten corners beside a triangle (assimp's reader dropped it), and alone (then no face is left).
    const std::string ten = "0 0 0\n1 0 0\n2 1 0\n1 2 0\n0 2 0\n-1 1 0\n-1 0 0\n0 -1 0\n1 -1 0\n2 -1 0\n10 0 1 2 3 4 5 6 7 8 9\n";
    const std::string message = load_error("ten.off", "OFF\n10 2 0\n" + ten + "3 0 1 2\n");
    EXPECT_NE(message.find("read past an error of the file: "), std::string::npos) << message;
    EXPECT_NE(message.find("(a face of no corners or more than nine)"), std::string::npos) << message;
    const std::string alone = load_error("alone.off", "OFF\n10 1 0\n" + ten);
    EXPECT_NE(alone.find("cannot read as a mesh: "), std::string::npos) << alone;
    EXPECT_NE(alone.find("(a face of no corners or more than nine))"), std::string::npos) << alone;
}

// assimp reads in float: a unit cube 1e7 from the origin would come out on a grid of 1 (a probe's cylinder
// collapsed onto 11 points, exit 0), so it is refused, saying why; the same cube 1e3 away (rounded by 3e-5,
// 1.8e-5 of its size) is read, and as PLY (read in double) at 1e7 it is whole.
TEST(MeshIoInvalid, AMeshRoundedByAssimpsSinglePrecisionIsRefused) {
    auto moved_cube = [](double offset) {
        std::string text;
        const double corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
        for (const auto& c : corners) text += "v " + number_text(c[0] + offset) + " " + number_text(c[1] + offset) + " " + number_text(c[2]) + "\n";
        for (const auto& q : kCubeQuads)
            text += "f " + std::to_string(q[0] + 1) + " " + std::to_string(q[1] + 1) + " " + std::to_string(q[2] + 1) + " " +
                    std::to_string(q[3] + 1) + "\n";
        return text;
    };
    const std::string message = load_error("far.obj", moved_cube(1e7));
    for (const char* part : {"assimp reads vertices in single precision", "lie up to 1e+07 from the origin", "its size (1.732)",
                             "rounding moves them by up to 0.5", "move it near the origin"})
        EXPECT_NE(message.find(part), std::string::npos) << message << "\nlacks: " << part;
    const TriangleMesh near = load_triangle_mesh(testing::write_temp("near.obj", moved_cube(1e3)));
    EXPECT_NEAR(total_area(near), 6.0, 1e-3);
    const std::string ply = "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
                            "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
                            "10000000 10000000 0\n10000001 10000000 0\n10000000 10000001 0\n3 0 1 2\n";
    EXPECT_NEAR(total_area(load_triangle_mesh(testing::write_temp("far.ply", ply))), 0.5, 1e-9);
    // A mesh of no size has no rounding to speak of: read (its users refuse it), not blamed on the origin.
    EXPECT_EQ(load_triangle_mesh(testing::write_temp("point.obj", "v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n")).triangles.size(), 1u);
}

TEST(MeshIoInvalid, TruncatedOff) {
    // assimp's own triangulation asserts (aborts) on this file; the loader must report it instead.
    EXPECT_NE(load_error("truncated.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n"), "");
}

}  // namespace
}  // namespace bs
