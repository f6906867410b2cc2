#include "host/ply.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "host/errors.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

using testing::temp_path;

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

// Appends v to s in the byte order asked for.
template <class T>
void put(std::string& s, T v, bool big_endian = false) {
    const std::uint16_t one = 1;
    const bool host_little = *reinterpret_cast<const unsigned char*>(&one) == 1;
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    if (big_endian == host_little) std::reverse(bytes, bytes + sizeof(T));
    s.append(bytes, sizeof(T));
}

// Runs f and expects an E whose message starts with "<path>: " and contains each of `parts`.
template <class E, class F>
void expect_error(F&& f, const std::string& path, std::initializer_list<std::string> parts) {
    try {
        f();
        ADD_FAILURE() << "expected an exception naming " << path;
    } catch (const E& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << "message does not start with the path: " << message;
        for (const std::string& part : parts)
            EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
    }
}

// Writes `bytes` to a file, reads it with read_ply and expects an InputError with `parts`.
void expect_read_error(const std::string& bytes, std::initializer_list<std::string> parts) {
    const std::string path = testing::write_temp("bad.ply", bytes);
    expect_error<InputError>([&] { read_ply(path); }, path, parts);
}

// Same with read_point_set.
void expect_point_set_error(const std::string& bytes, std::initializer_list<std::string> parts) {
    const std::string path = testing::write_temp("bad.ply", bytes);
    expect_error<InputError>([&] { read_point_set(path); }, path, parts);
}

void expect_same(const PlyFile& a, const PlyFile& b) {
    EXPECT_EQ(a.comments, b.comments);
    EXPECT_EQ(a.obj_info, b.obj_info);
    ASSERT_EQ(a.elements.size(), b.elements.size());
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
        const PlyElement& ea = a.elements[i];
        const PlyElement& eb = b.elements[i];
        EXPECT_EQ(ea.name, eb.name);
        EXPECT_EQ(ea.count, eb.count);
        ASSERT_EQ(ea.properties.size(), eb.properties.size()) << ea.name;
        for (std::size_t k = 0; k < ea.properties.size(); ++k) {
            const PlyProperty& pa = ea.properties[k];
            const PlyProperty& pb = eb.properties[k];
            EXPECT_EQ(pa.name, pb.name);
            EXPECT_EQ(pa.type, pb.type) << pa.name;
            EXPECT_EQ(pa.is_list, pb.is_list) << pa.name;
            if (pa.is_list) {
                EXPECT_EQ(pa.count_type, pb.count_type) << pa.name;
            }
            EXPECT_EQ(pa.counts, pb.counts) << pa.name;
            EXPECT_EQ(pa.values, pb.values) << pa.name;
        }
    }
}

PlyProperty scalar(const std::string& name, PlyType type, std::vector<double> values) {
    PlyProperty p;
    p.name = name;
    p.type = type;
    p.values = std::move(values);
    return p;
}

std::vector<std::string> property_names(const PlyElement& e) {
    std::vector<std::string> names;
    for (const PlyProperty& p : e.properties) names.push_back(p.name);
    return names;
}

const std::string kAsciiHead = "ply\nformat ascii 1.0\n";
const std::string kXyzHead = kAsciiHead + "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n";

// ---------------------------------------------------------------------------------------------------
// Round trips

// Canonical text (as the writer prints it): read then written back byte for byte.
const std::string kRichAscii =
    "ply\n"
    "format ascii 1.0\n"
    "comment made by hand\n"
    "comment  leading space kept\n"
    "obj_info scanner 7\n"
    "element vertex 3\n"
    "property float x\n"
    "property float y\n"
    "property float z\n"
    "property float nx\n"
    "property uchar red\n"
    "property char offset\n"
    "property double confidence\n"
    "element face 3\n"
    "property list uchar int vertex_indices\n"
    "element edge 1\n"
    "property int vertex1\n"
    "property ushort vertex2\n"
    "end_header\n"
    "0 0 0 0.5 255 -128 0.1\n"
    "1.5 0 -2 -0.25 0 127 1e-300\n"
    "0 1 0.1 1 128 0 3\n"
    "3 0 1 2\n"
    "0\n"
    "4 0 1 2 -7\n"
    "0 65535\n";

TEST(Ply, AsciiRoundTripIsByteExactAndKeepsOrder) {
    const std::string path = testing::write_temp("in.ply", kRichAscii);
    const PlyFile file = read_ply(path);

    EXPECT_EQ(file.format, PlyFormat::Ascii);
    EXPECT_EQ(file.comments, (std::vector<std::string>{"made by hand", " leading space kept"}));
    EXPECT_EQ(file.obj_info, (std::vector<std::string>{"scanner 7"}));
    ASSERT_EQ(file.elements.size(), 3u);
    EXPECT_EQ(file.elements[0].name, "vertex");
    EXPECT_EQ(file.elements[1].name, "face");
    EXPECT_EQ(file.elements[2].name, "edge");
    const PlyElement& vertex = file.elements[0];
    EXPECT_EQ(property_names(vertex),
              (std::vector<std::string>{"x", "y", "z", "nx", "red", "offset", "confidence"}));
    EXPECT_EQ(vertex.find("red")->type, PlyType::UInt8);
    EXPECT_EQ(vertex.find("red")->values, (std::vector<double>{255, 0, 128}));
    EXPECT_EQ(vertex.find("z")->values[2], static_cast<double>(0.1f));  // float columns hold floats
    EXPECT_EQ(vertex.find("confidence")->values[0], 0.1);              // double columns hold doubles
    const PlyProperty& faces = *file.elements[1].find("vertex_indices");
    EXPECT_TRUE(faces.is_list);
    EXPECT_EQ(faces.count_type, PlyType::UInt8);
    EXPECT_EQ(faces.type, PlyType::Int32);
    EXPECT_EQ(faces.counts, (std::vector<std::uint32_t>{3, 0, 4}));
    EXPECT_EQ(faces.values, (std::vector<double>{0, 1, 2, 0, 1, 2, -7}));

    const std::string out = temp_path("out.ply");
    write_ply(out, file, PlyFormat::Ascii);
    EXPECT_EQ(read_bytes(out), kRichAscii);

    const std::string binary = temp_path("out_binary.ply");
    write_ply(binary, file, PlyFormat::BinaryLittleEndian);
    const PlyFile again = read_ply(binary);
    EXPECT_EQ(again.format, PlyFormat::BinaryLittleEndian);
    expect_same(file, again);
}

TEST(Ply, BinaryRoundTripKeepsEveryTypeExactly) {
    PlyFile file;
    file.comments = {"all types"};
    PlyElement all;
    all.name = "all";
    all.count = 3;
    all.properties = {
        scalar("a", PlyType::Int8, {-128, 127, 0}),
        scalar("b", PlyType::UInt8, {0, 255, 7}),
        scalar("c", PlyType::Int16, {-32768, 32767, -1}),
        scalar("d", PlyType::UInt16, {0, 65535, 1}),
        scalar("e", PlyType::Int32, {-2147483648.0, 2147483647.0, 5}),
        scalar("f", PlyType::UInt32, {0, 4294967295.0, 9}),
        scalar("g", PlyType::Float32, {static_cast<double>(0.1f), FLT_MAX,
                                       static_cast<double>(std::numeric_limits<float>::denorm_min())}),
        scalar("h", PlyType::Float64, {0.1, -DBL_MAX, std::numeric_limits<double>::denorm_min()}),
    };
    PlyProperty list;
    list.name = "samples";
    list.is_list = true;
    list.count_type = PlyType::UInt16;
    list.type = PlyType::Float64;
    list.counts = {0, 3, 1};
    list.values = {1.0 / 3.0, -2.5, 1e308, 42};
    all.properties.push_back(list);
    PlyElement empty;  // an element without properties has no data
    empty.name = "marker";
    empty.count = 5;
    file.elements = {all, empty};

    for (PlyFormat format : {PlyFormat::BinaryLittleEndian, PlyFormat::Ascii}) {
        const std::string path = temp_path(format == PlyFormat::Ascii ? "a.ply" : "b.ply");
        write_ply(path, file, format);
        const PlyFile again = read_ply(path);
        EXPECT_EQ(again.format, format);
        expect_same(file, again);
    }
}

TEST(Ply, ReadsBigEndian) {
    std::string bytes =
        "ply\nformat binary_big_endian 1.0\n"
        "element vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty short s\n"
        "property double d\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
    for (int row = 0; row < 2; ++row) {
        put<float>(bytes, 1.5f + static_cast<float>(row), true);
        put<float>(bytes, -2.0f, true);
        put<float>(bytes, 0.1f, true);
        put<std::int16_t>(bytes, static_cast<std::int16_t>(-300 + row), true);
        put<double>(bytes, 1.0 / 3.0, true);
    }
    put<std::uint8_t>(bytes, 3, true);
    for (std::int32_t i : {0, 1, 70000}) put<std::int32_t>(bytes, i, true);
    const PlyFile file = read_ply(testing::write_temp("be.ply", bytes));

    EXPECT_EQ(file.format, PlyFormat::BinaryBigEndian);
    const PlyElement& vertex = *file.find("vertex");
    EXPECT_EQ(vertex.find("x")->values, (std::vector<double>{1.5, 2.5}));
    EXPECT_EQ(vertex.find("y")->values, (std::vector<double>{-2.0, -2.0}));
    EXPECT_EQ(vertex.find("z")->values[1], static_cast<double>(0.1f));
    EXPECT_EQ(vertex.find("s")->values, (std::vector<double>{-300, -299}));
    EXPECT_EQ(vertex.find("d")->values[0], 1.0 / 3.0);
    const PlyProperty& faces = *file.find("face")->find("vertex_indices");
    EXPECT_EQ(faces.counts, (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(faces.values, (std::vector<double>{0, 1, 70000}));
}

TEST(Ply, DoubleCoordinatesStayDouble) {
    const std::vector<double> xs = {0.1, 1.0 / 3.0, 1.0 + 1e-15};
    PlyFile file;
    PlyElement vertex;
    vertex.name = "vertex";
    vertex.count = 3;
    vertex.properties = {scalar("x", PlyType::Float64, xs), scalar("y", PlyType::Float64, {1e-300, 2, 3}),
                         scalar("z", PlyType::Float64, {-0.7, 0, 1e300})};
    file.elements = {vertex};
    const std::string in = temp_path("in.ply");
    write_ply(in, file, PlyFormat::BinaryLittleEndian);

    PointSet set = read_point_set(in);
    ASSERT_EQ(set.positions.size(), 3u);
    EXPECT_EQ(set.positions[1].x, 1.0 / 3.0);
    EXPECT_EQ(set.positions[2].x, 1.0 + 1e-15);
    EXPECT_EQ(set.positions[0].y, 1e-300);
    EXPECT_TRUE(set.influences.empty());

    set.positions[0].x = 0.3;  // not a float value: a float column would round it
    for (PlyFormat format : {PlyFormat::Ascii, PlyFormat::BinaryLittleEndian}) {
        const std::string out = temp_path(format == PlyFormat::Ascii ? "a.ply" : "b.ply");
        write_point_set(out, set, format);
        const PointSet again = read_point_set(out);
        EXPECT_EQ(again.file.find("vertex")->find("x")->type, PlyType::Float64);
        EXPECT_EQ(again.positions[0].x, 0.3);
        EXPECT_EQ(again.positions[2].z, 1e300);
    }
}

// A point set made in code declares float coordinates, or double where float would round a body far from the
// origin by more than kFloatCoordinateRounding of its size (a rigged model 1e8 away was written on float's
// grid of 8 units); written and read back, such points come back as they were.
TEST(Ply, MadePointsAreDoubleWhereFloatWouldLoseTheBody) {
    const std::vector<Vec3<double>> near{{0.1, 0.2, 0.3}, {1, 2, 3}, {-1, 0.5, 2}};
    EXPECT_EQ(make_point_set(near).file.find("vertex")->find("x")->type, PlyType::Float32);
    std::vector<Vec3<double>> far = near;
    for (Vec3<double>& p : far) p = p + Vec3<double>{1e8, 0, 0};
    const PointSet set = make_point_set(far);
    EXPECT_EQ(set.file.find("vertex")->find("x")->type, PlyType::Float64);
    const std::string path = temp_path("far.ply");
    write_point_set(path, set, PlyFormat::BinaryLittleEndian);
    const PointSet again = read_point_set(path);
    for (std::size_t i = 0; i < far.size(); ++i) EXPECT_EQ(again.positions[i].x, far[i].x) << i;
    // Either side of the bound: float rounds by 2^-24 of the largest coordinate, at most 1e-6 of the body's
    // extent (1 here), so float up to coordinates of 16.7 and double beyond.
    auto type_of_unit_body_at = [](double x) {
        return make_point_set({{x, 0, 0}, {x + 1, 1, 1}}).file.find("vertex")->find("x")->type;
    };
    EXPECT_EQ(type_of_unit_body_at(15), PlyType::Float32);
    EXPECT_EQ(type_of_unit_body_at(17), PlyType::Float64);
}

TEST(Ply, InfluencesRoundTrip) {
    PointSet set = make_point_set({{0.1, 0.2, 0.3}, {1, 2, 3}});
    set.influences = {Influences{{0, 1, 2, 3}, {0.25f, 0.25f, 0.5f, 0.0f}},
                      Influences{{7, 0, 0, 0}, {1.0f, 0.0f, 0.0f, 0.0f}}};
    for (PlyFormat format : {PlyFormat::Ascii, PlyFormat::BinaryLittleEndian}) {
        const std::string path = temp_path(format == PlyFormat::Ascii ? "a.ply" : "b.ply");
        write_point_set(path, set, format);
        const PointSet again = read_point_set(path);
        const PlyElement& vertex = *again.file.find("vertex");
        EXPECT_EQ(property_names(vertex), (std::vector<std::string>{"x", "y", "z", "bone0", "bone1", "bone2", "bone3",
                                                                     "weight0", "weight1", "weight2", "weight3"}));
        EXPECT_EQ(vertex.find("x")->type, PlyType::Float32);
        EXPECT_EQ(vertex.find("bone0")->type, PlyType::Int32);
        EXPECT_EQ(vertex.find("weight0")->type, PlyType::Float32);
        EXPECT_EQ(again.positions[0].z, static_cast<double>(0.3f));  // make_point_set declares float x y z
        ASSERT_EQ(again.influences.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
            for (int k = 0; k < kMaxInfluences; ++k) {
                EXPECT_EQ(again.influences[i].bone[k], set.influences[i].bone[k]);
                EXPECT_EQ(again.influences[i].weight[k], set.influences[i].weight[k]);
            }
        }
    }
}

// An ASCII PLY of one vertex with influences, bones of `bone_type`, and its `row`.
std::string weighted_vertex(const std::string& bone_type, const std::string& row) {
    std::string text = kAsciiHead + "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n";
    for (int k = 0; k < kMaxInfluences; ++k) text += "property " + bone_type + " bone" + std::to_string(k) + "\n";
    for (int k = 0; k < kMaxInfluences; ++k) text += "property float weight" + std::to_string(k) + "\n";
    return text + "end_header\n" + row + "\n";
}

TEST(Ply, WeightsAreRenormalised) {
    const PointSet set = read_point_set(testing::write_temp("in.ply", weighted_vertex("uchar", "0 0 0 4 5 0 0 0.5 0.5008 0 0")));
    ASSERT_EQ(set.influences.size(), 1u);
    EXPECT_EQ(set.influences[0].bone[1], 5u);
    EXPECT_FLOAT_EQ(set.influences[0].weight[0], static_cast<float>(0.5 / (0.5 + double(0.5008f))));
    EXPECT_NEAR(double(set.influences[0].weight[0]) + set.influences[0].weight[1], 1.0, 1e-7);
}

TEST(Ply, WritePointSetKeepsOtherPropertiesAndElements) {
    const std::string text = kAsciiHead +
                             "comment keep me\n"
                             "element vertex 2\nproperty float x\nproperty float nx\nproperty float y\n"
                             "property float z\nproperty uchar red\nproperty uchar bone0\nproperty uchar bone1\n"
                             "property uchar bone2\nproperty uchar bone3\nproperty double weight0\n"
                             "property double weight1\nproperty double weight2\nproperty double weight3\n"
                             "element face 1\nproperty list uchar uint vertex_indices\nend_header\n"
                             "0 0.5 0 0 200 1 0 0 0 1 0 0 0\n"
                             "1 -0.5 1 1 17 2 3 0 0 0.5 0.5 0 0\n"
                             "2 0 1\n";
    PointSet set = read_point_set(testing::write_temp("in.ply", text));
    set.positions[1] = {10, 20, 30};
    set.influences[1] = Influences{{4, 3, 0, 0}, {0.75f, 0.25f, 0.0f, 0.0f}};
    const std::string out = temp_path("out.ply");
    write_point_set(out, set, PlyFormat::BinaryLittleEndian);

    const PlyFile file = read_ply(out);
    EXPECT_EQ(file.comments, set.file.comments);
    const PlyElement& vertex = *file.find("vertex");
    EXPECT_EQ(property_names(vertex), property_names(*set.file.find("vertex")));
    EXPECT_EQ(vertex.find("x")->values, (std::vector<double>{0, 10}));
    EXPECT_EQ(vertex.find("z")->values, (std::vector<double>{0, 30}));
    EXPECT_EQ(vertex.find("nx")->values, (std::vector<double>{0.5, -0.5}));
    EXPECT_EQ(vertex.find("red")->values, (std::vector<double>{200, 17}));
    EXPECT_EQ(vertex.find("bone0")->type, PlyType::UInt8);  // replaced columns keep their declared types
    EXPECT_EQ(vertex.find("bone0")->values, (std::vector<double>{1, 4}));
    EXPECT_EQ(vertex.find("weight0")->type, PlyType::Float64);
    EXPECT_EQ(vertex.find("weight0")->values, (std::vector<double>{1, 0.75}));
    expect_same(PlyFile{PlyFormat::Ascii, {}, {}, {*set.file.find("face")}},
                PlyFile{PlyFormat::Ascii, {}, {}, {*file.find("face")}});
}

// ---------------------------------------------------------------------------------------------------
// Invalid input: one test per kind of mistake

TEST(PlyError, MissingMagic) {
    expect_read_error("plx\nformat ascii 1.0\nend_header\n", {"line 1", "expected the 'ply' magic line", "'plx'"});
    expect_read_error("", {"line 1", "the file is empty"});
    // Lines ended by CR alone read as one line; the message says why.
    expect_read_error("ply\rformat ascii 1.0\relement vertex 0\rend_header\r",
                      {"line 1", "expected the 'ply' magic line", "the lines end in CR alone"});
    try {
        read_ply(testing::write_temp("plx.ply", "plx\rformat ascii 1.0\rend_header\r"));
        ADD_FAILURE() << "a file without the magic line was read";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).find("CR alone"), std::string::npos) << "no magic line to blame the CRs on: " << e.what();
    }
}

// A UTF-8 byte-order mark before the magic line (Windows editors write one) is passed over; one anywhere
// else is still refused.
TEST(Ply, AByteOrderMarkBeforeTheMagicIsPassedOver) {
    const std::string mark = "\xEF\xBB\xBF";
    const std::string body = "element vertex 2\nproperty float x\nend_header\n";
    const PlyFile plain = read_ply(testing::write_temp("plain.ply", kAsciiHead + body + "1.5\n-2\n"));
    const PlyFile marked = read_ply(testing::write_temp("bom.ply", mark + kAsciiHead + body + "1.5\n-2\n"));
    expect_same(marked, plain);
    std::string binary = mark + "ply\nformat binary_little_endian 1.0\n" + body;
    put<float>(binary, 1.5f);
    put<float>(binary, -2.0f);
    const PlyFile marked_binary = read_ply(testing::write_temp("bom_binary.ply", binary));
    EXPECT_EQ(marked_binary.format, PlyFormat::BinaryLittleEndian);
    expect_same(marked_binary, plain);
    expect_read_error(mark + mark + kAsciiHead + body, {"line 1", "expected the 'ply' magic line"});
}

TEST(PlyError, BadOrUnknownFormatLine) {
    expect_read_error("ply\nformat binary_middle_endian 1.0\nend_header\n",
                      {"line 2", "unknown format 'binary_middle_endian'"});
    expect_read_error("ply\nformat ascii\nend_header\n", {"line 2", "bad format line"});
    expect_read_error("ply\nformat ascii 2.0\nend_header\n", {"line 2", "unsupported format version '2.0'"});
    expect_read_error("ply\nelement vertex 0\nend_header\n", {"line 3", "no 'format' line"});
}

TEST(PlyError, CarriageReturnInsideACommentOrObjInfo) {
    // Found by fuzzing (tests/fuzz/fuzz_ply.cpp): a lone CR inside a comment was kept by the reader but
    // is a line break to write_ply, so a file that was read could not be written back.
    expect_read_error(kAsciiHead + "comment three\rpoints\nelement vertex 0\nend_header\n",
                      {"line 3", "carriage return", "'three\\x0Dpoints'"});
    expect_read_error(kAsciiHead + "obj_info scanner\r\r\nend_header\n", {"line 3", "carriage return"});
    // The fuzzer's own input: its obj_info line carried a CR (and NULs) among its tabs.
    expect_read_error(kAsciiHead + "obj_info three points\t\t\tn" + std::string(1, '\0') + "``0" + std::string(1, '\0') +
                          "\rprope\t\t, a face\nend_header\n",
                      {"line 3", "carriage return"});
    // A CR LF line ending is not part of the text.
    const std::string path = testing::write_temp("crlf.ply", kAsciiHead + "comment made on Windows\r\nend_header\r\n");
    EXPECT_EQ(read_ply(path).comments, std::vector<std::string>{"made on Windows"});
}

// Free text before the first element (Blender 2.47 wrote "Created by …" there: Debian's PLY/Wuson.ply) is
// kept as a comment and written back as one; the same line after an element, where it could be a misspelt
// property, is refused.
TEST(PlyError, UnknownKeywordIsTakenAsACommentOnlyBeforeTheFirstElement) {
    const std::string created = "Created by Blender3D 247 - www.blender.org, source file: ";
    const std::string path = testing::write_temp("free_text.ply", kAsciiHead + created + "\n" + kXyzHead.substr(kAsciiHead.size()) +
                                                                     "end_header\n1 2 3\n4 5 6\n");
    const PlyFile file = read_ply(path);
    EXPECT_EQ(file.comments, std::vector<std::string>{created});
    EXPECT_EQ(file.find("vertex")->find("z")->values, (std::vector<double>{3, 6}));
    const std::string written = testing::temp_path("free_text_written.ply");
    write_ply(written, file, PlyFormat::Ascii);
    EXPECT_EQ(read_ply(written).comments, std::vector<std::string>{created});
    expect_read_error(kXyzHead + "proprety float w\nend_header\n1 2 3\n4 5 6\n",
                      {"line 7", "unknown header keyword 'proprety'", "only before the first element"});
}

TEST(PlyError, UnknownType) {
    expect_read_error(kAsciiHead + "element vertex 1\nproperty flt x\nend_header\n1\n", {"line 4", "unknown type 'flt'"});
}

TEST(PlyError, PropertyBeforeAnyElement) {
    expect_read_error(kAsciiHead + "property float x\nelement vertex 1\nend_header\n1\n",
                      {"line 3", "property before any element"});
}

TEST(PlyError, MissingEndHeader) {
    expect_read_error(kAsciiHead + "element vertex 1\nproperty float x\n", {"line 4", "without 'end_header'"});
}

TEST(PlyError, NegativeCount) {
    expect_read_error(kAsciiHead + "element vertex -3\nproperty float x\nend_header\n",
                      {"line 3", "element count '-3' is negative"});
}

TEST(PlyError, AbsurdCount) {
    expect_read_error(kAsciiHead + "element vertex 99999999999999999999999\nend_header\n",
                      {"line 3", "is absurdly large"});
    expect_read_error(kAsciiHead + "element vertex 12abc\nend_header\n",
                      {"line 3", "'12abc' is not a non-negative integer"});
}

TEST(PlyError, CountLargerThanTheFileCouldHold) {
    // Checked before the columns are allocated: 4e18 rows would otherwise ask for exabytes.
    std::string binary = "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000000000000\n"
                         "property float x\nproperty float y\nproperty float z\nend_header\n";
    put<float>(binary, 1.0f);
    expect_read_error(binary, {"element 'vertex' row 0", "unexpected end of binary data",
                               "declares 4000000000000000000 rows of at least 12 bytes", "4 bytes left"});
    expect_read_error(kAsciiHead + "element vertex 4000000000000000000\nproperty float x\nend_header\n1\n2\n",
                      {"line 6", "element 'vertex' declares 4000000000000000000 rows but only 4 bytes remain"});
}

TEST(PlyError, TruncatedAscii) {
    expect_read_error(kXyzHead + "end_header\n0.5 0.25 0.125\n",
                      {"line 9", "unexpected end of file: element 'vertex' declares 2 rows, found 1"});
    expect_read_error(kXyzHead + "end_header\n0.5 0.25 0.125\n1 2\n",
                      {"line 9", "element 'vertex' row 1, property 'z'", "expected a float value, found the end of the line"});
}

TEST(PlyError, ExtraValueOnAsciiRow) {
    expect_read_error(kXyzHead + "end_header\n1 2 3 4\n5 6 7\n",
                      {"line 8", "element 'vertex' row 0", "unexpected extra value '4'"});
}

TEST(PlyError, TruncatedBinary) {
    std::string bytes = "ply\nformat binary_little_endian 1.0\nelement vertex 3\n"
                        "property float x\nproperty float y\nproperty float z\nend_header\n";
    for (int i = 0; i < 7; ++i) put<float>(bytes, 1.0f);  // 2 rows and a third of the next one
    expect_read_error(bytes, {"element 'vertex' row 2", "unexpected end of binary data"});

    std::string list = "ply\nformat binary_little_endian 1.0\nelement face 1\n"
                       "property list uchar int vertex_indices\nend_header\n";
    put<std::uint8_t>(list, 3);
    put<std::int32_t>(list, 0);
    put<std::int32_t>(list, 1);
    expect_read_error(list, {"element 'face' row 0", "list 'vertex_indices' of 3 items runs past the end"});
}

// A leading '+' is read as C's strtod reads it (+0.5, +3), but not a sign after it.
TEST(Ply, AsciiNumbersMayStartWithAPlus) {
    const PlyFile file = read_ply(testing::write_temp("plus.ply", kAsciiHead + "element vertex 1\nproperty float x\nproperty uchar n\nend_header\n+0.5 +3\n"));
    EXPECT_EQ(file.elements[0].properties[0].values, std::vector<double>{0.5});
    EXPECT_EQ(file.elements[0].properties[1].values, std::vector<double>{3});
    expect_read_error(kAsciiHead + "element vertex 1\nproperty float x\nend_header\n+-1\n", {"expected a float value, found '+-1'"});
    expect_read_error(kAsciiHead + "element vertex 1\nproperty float x\nend_header\n+\n", {"expected a float value, found '+'"});
}

TEST(PlyError, NonNumericToken) {
    expect_read_error(kXyzHead + "end_header\n0 abc 0\n1 1 1\n",
                      {"line 8", "element 'vertex' row 0, property 'y'", "expected a float value, found 'abc'"});
    expect_read_error(kAsciiHead + "element vertex 1\nproperty int i\nend_header\n1.5\n",
                      {"line 6", "property 'i'", "expected a int value, found '1.5'"});
}

TEST(PlyError, ValueOutOfRangeForItsType) {
    expect_read_error(kAsciiHead + "element vertex 1\nproperty uchar red\nend_header\n300\n",
                      {"line 6", "property 'red'", "value '300' is out of range for uchar"});
}

// A real too small for its type is read as its nearest value, 0 or a subnormal with its sign, in a double
// column as in a float one (a double's 1e-400 had been refused as out of range, a float's 1e-50 read as 0);
// one too large is refused in both.
TEST(Ply, ARealTooSmallForItsTypeIsReadAsItsNearestValue) {
    const std::string path = testing::write_temp("tiny.ply", kAsciiHead + "element vertex 1\nproperty double a\nproperty double b\n"
                                                                          "property double c\nproperty float d\nend_header\n"
                                                                          "1e-400 -1e-400 4.9e-324 1e-50\n");
    const PlyFile ply = read_ply(path);
    const std::vector<PlyProperty>& p = ply.elements[0].properties;
    EXPECT_EQ(p[0].values[0], 0.0);
    EXPECT_FALSE(std::signbit(p[0].values[0]));
    EXPECT_EQ(p[1].values[0], 0.0);
    EXPECT_TRUE(std::signbit(p[1].values[0]));
    EXPECT_EQ(p[2].values[0], std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(p[3].values[0], 0.0);
    expect_read_error(kAsciiHead + "element vertex 1\nproperty double x\nend_header\n1e400\n",
                      {"line 6", "property 'x'", "value '1e400' is out of range for double"});
    expect_read_error(kAsciiHead + "element vertex 1\nproperty double x\nend_header\n-1e400\n",
                      {"value '-1e400' is out of range for double"});
    expect_read_error(kAsciiHead + "element vertex 1\nproperty float x\nend_header\n1e39\n",
                      {"value '1e39' is out of range for float"});
}

TEST(PlyError, NegativeListCount) {
    expect_read_error(kAsciiHead + "element face 1\nproperty list char int vertex_indices\nend_header\n-1 0\n",
                      {"line 6", "element 'face' row 0", "list count '-1' is negative"});
    std::string binary = "ply\nformat binary_little_endian 1.0\nelement face 1\n"
                         "property list char int vertex_indices\nend_header\n";
    put<std::int8_t>(binary, -2);
    expect_read_error(binary, {"element 'face' row 0", "list 'vertex_indices' has a negative count -2"});
}

TEST(PlyError, TrailingDataAfterTheLastElement) {
    // Blank lines at the end are fine; more values are not (the header's counts would be wrong).
    EXPECT_NO_THROW(read_ply(testing::write_temp("ok.ply", kXyzHead + "end_header\n1 2 3\n4 5 6\n\n  \n")));
    expect_read_error(kXyzHead + "end_header\n1 2 3\n4 5 6\n7 8 9\n",
                      {"line 10", "unexpected data after the last element: '7'"});
    std::string binary = "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n";
    put<float>(binary, 1.0f);
    const std::string end_of_data = "byte offset " + std::to_string(binary.size());
    binary += "abc";
    expect_read_error(binary, {end_of_data, "3 unexpected bytes after the last element"});
}

TEST(PlyError, NonFinitePosition) {
    // read_ply keeps nan (a valid float); read_point_set rejects it in a position.
    const std::string text = kXyzHead + "end_header\n1 2 3\n4 nan 6\n";
    EXPECT_NO_THROW(read_ply(testing::write_temp("generic.ply", text)));
    expect_point_set_error(text, {"vertex 1", "position (4, nan, 6) is not finite"});
}

// A face pointing past the vertices: read_ply keeps it (a PLY file may hold any lists), read_point_set,
// whose faces the outputs keep, refuses it; a fractional or negative index too.
TEST(PlyError, FaceIndexOutOfRange) {
    const std::string head = kXyzHead + "element face 1\nproperty list uchar int vertex_indices\nend_header\n1 2 3\n4 5 6\n";
    EXPECT_NO_THROW(read_ply(testing::write_temp("generic.ply", head + "3 0 1 9\n")));
    expect_point_set_error(head + "3 0 1 9\n", {"element 'face' row 0", "vertex index 9 out of range [0, 2)"});
    expect_point_set_error(head + "3 0 -1 1\n", {"element 'face' row 0", "vertex index -1 out of range [0, 2)"});
    // One past the last vertex, the bound itself (it had been written out as read).
    expect_point_set_error(head + "3 0 1 2\n", {"element 'face' row 0", "vertex index 2 out of range [0, 2)"});
    EXPECT_NO_THROW(read_point_set(testing::write_temp("good.ply", head + "3 0 1 1\n")));
}

// An empty face is refused by read_point_set: in a binary mesh whose header counts one vertex more than it
// holds, the first face's bytes read as that vertex and the high byte of its last index as an empty face,
// after which the file reads to its end without another error.
TEST(PlyError, AnEmptyFaceIsRefused) {
    const std::string head = kXyzHead + "element face 1\nproperty list uchar int vertex_indices\nend_header\n1 2 3\n4 5 6\n";
    expect_point_set_error(head + "0\n", {"element 'face' row 0", "an empty face (no corners"});
    EXPECT_NO_THROW(read_point_set(testing::write_temp("line.ply", head + "2 0 1\n")));
    const auto mesh = [](int declared) {
        std::string bytes = "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(declared) +
                            "\nproperty float x\nproperty float y\nproperty float z\nelement face 2\n"
                            "property list uchar int vertex_indices\nend_header\n";
        for (int v = 0; v < 4; ++v)
            for (int c = 0; c < 3; ++c) put(bytes, float(v == c ? 1 : 0));
        for (int f = 0; f < 2; ++f) {
            put(bytes, std::uint8_t(3));
            for (int c = 0; c < 3; ++c) put(bytes, std::int32_t(f + c));
        }
        return bytes;
    };
    EXPECT_NO_THROW(read_point_set(testing::write_temp("mesh.ply", mesh(4))));
    expect_point_set_error(mesh(5), {"element 'face' row 0", "an empty face"});
}

// A model given to write_ply with a name twice is refused (looked up in sets: a search of the lists made
// 200,000 properties take 41 s).
TEST(PlyError, WritingAModelWithANameTwiceIsRefused) {
    PlyFile file = read_ply(testing::write_temp("in.ply", kXyzHead + "end_header\n1 2 3\n4 5 6\n"));
    PlyFile properties = file, elements = file;
    properties.elements[0].properties.push_back(properties.elements[0].properties[1]);
    elements.elements.push_back(elements.elements[0]);
    const std::string out = testing::temp_path("out.ply");
    expect_error<InputError>([&] { write_ply(out, properties, PlyFormat::Ascii); }, out, {"property 'y'", "duplicate property name"});
    expect_error<InputError>([&] { write_ply(out, elements, PlyFormat::Ascii); }, out, {"element 'vertex'", "duplicate element name"});
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(PlyError, DuplicatePropertyName) {
    expect_read_error(kAsciiHead + "element vertex 1\nproperty float x\nproperty double x\nend_header\n1 2\n",
                      {"line 5", "duplicate property 'x' in element 'vertex'"});
}

TEST(PlyError, MissingVertexElement) {
    expect_point_set_error(kAsciiHead + "element point 1\nproperty float x\nend_header\n1\n",
                           {"no 'vertex' element"});
}

TEST(PlyError, MissingOrMistypedCoordinate) {
    expect_point_set_error(kAsciiHead + "element vertex 1\nproperty float x\nproperty float y\nend_header\n1 2\n",
                           {"element 'vertex'", "missing property 'z'"});
    expect_point_set_error(kAsciiHead + "element vertex 1\nproperty int x\nproperty float y\nproperty float z\n"
                                        "end_header\n1 2 3\n",
                           {"element 'vertex', property 'x'", "expected a scalar of type float or double, found int"});
}

TEST(PlyError, PartialInfluences) {
    expect_point_set_error(kAsciiHead + "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
                                        "property int bone0\nproperty int bone1\nproperty int bone2\nproperty int bone3\n"
                                        "property float weight0\nproperty float weight1\nend_header\n"
                                        "0 0 0 0 1 2 3 0.5 0.5\n",
                           {"element 'vertex'", "lacks weight2, weight3"});
}

TEST(PlyError, InvalidWeights) {
    const std::string head = kAsciiHead +
                             "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                             "property int bone0\nproperty int bone1\nproperty int bone2\nproperty int bone3\n"
                             "property float weight0\nproperty float weight1\nproperty float weight2\n"
                             "property float weight3\nend_header\n0 0 0 0 0 0 0 1 0 0 0\n";
    expect_point_set_error(head + "0 0 0 0 1 0 0 0.5 0.4 0 0\n", {"vertex 1", "weights sum to 0.9"});
    expect_point_set_error(head + "0 0 0 0 1 0 0 1.5 -0.5 0 0\n", {"vertex 1: influence 1: weight must be finite and >= 0, got -0.5"});
    expect_point_set_error(head + "0 0 0 0 1 0 0 inf 0 0 0\n", {"vertex 1: influence 0: weight must be finite and >= 0, got inf"});
    expect_point_set_error(head + "0 0 0 -1 0 0 0 1 0 0 0\n", {"vertex 1", "bone0 = -1 is negative (its weight is 1)"});
}

// An empty slot may name bone -1 (exporters write it so): its weight is 0, it names no bone (read as bone 0,
// which the skinners' check then accepts); -1 refused all the same.
TEST(Ply, AnEmptySlotMayNameBoneMinusOne) {
    const PointSet set = read_point_set(testing::write_temp("slots.ply", weighted_vertex("int", "0 0 0 3 -1 -1 -1 1 0 0 0")));
    ASSERT_EQ(set.influences.size(), 1u);
    EXPECT_EQ(set.influences[0].bone[0], 3u);
    EXPECT_EQ(set.influences[0].bone[1], 0u);
    EXPECT_EQ(set.influences[0].weight[1], 0.0f);
}

// Weight columns kept as read: nothing checked (a sum of 0.9, a negative bone), no influences, and written
// back as they were.
TEST(Ply, WeightColumnsKeptAsReadAreNeitherCheckedNorChanged) {
    const std::string text = weighted_vertex("int", "0 0 0 -2 1 0 0 0.5 0.4 0 0");
    const std::string in = testing::write_temp("kept.ply", text);
    EXPECT_THROW(read_point_set(in), InputError);
    const PointSet set = read_point_set(in, WeightColumns::kept_as_read);
    EXPECT_TRUE(set.influences.empty());
    const std::string out = temp_path("kept_out.ply");
    write_point_set(out, set, PlyFormat::Ascii);
    EXPECT_EQ(read_bytes(out), text);
}

TEST(PlyError, CannotOpenOrWrite) {
    const std::string missing = temp_path("does_not_exist.ply");
    expect_error<IoError>([&] { read_ply(missing); }, missing, {"cannot open for reading"});
    const std::string unwritable = temp_path("no_such_dir") + "/out.ply";
    expect_error<IoError>([&] { write_ply(unwritable, make_point_set({{0, 0, 0}}).file, PlyFormat::Ascii); },
                          unwritable, {"cannot open for writing"});
}

TEST(PlyError, WriteRejectsAnInconsistentModelAndLeavesNoFile) {
    PointSet set = make_point_set({{0, 0, 0}, {1, 1, 1}});
    const std::string path = temp_path("out.ply");
    set.file.elements[0].properties[1].values.pop_back();
    expect_error<InputError>([&] { write_ply(path, set.file, PlyFormat::BinaryLittleEndian); }, path,
                             {"element 'vertex', property 'y'", "1 values for 2 rows"});
    EXPECT_FALSE(file_exists(path));

    PlyFile colours = set.file;
    colours.elements[0].properties[1].values = {0, 0};
    colours.elements[0].properties.push_back(scalar("red", PlyType::UInt8, {255, 256}));
    expect_error<InputError>([&] { write_ply(path, colours, PlyFormat::Ascii); }, path,
                             {"element 'vertex' row 1, property 'red'", "value 256 does not fit its type uchar"});
    EXPECT_FALSE(file_exists(path));

    set.positions.push_back({2, 2, 2});
    expect_error<InputError>([&] { write_point_set(path, set, PlyFormat::Ascii); }, path,
                             {"3 positions for a vertex element of 2 rows"});
    EXPECT_FALSE(file_exists(path));
}

}  // namespace
}  // namespace bs
