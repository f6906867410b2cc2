#include "host/skeleton.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "host/errors.hpp"
#include "host/json_io.hpp"
#include "tests/support/chains.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/temp_file.hpp"

namespace bs {
namespace {

// Loads `text` as a skeleton file under `rules` (the loader's default: Tree) and returns the error message
// (empty if it loaded).
std::string load_error(const std::string& text, SkeletonRules rules = SkeletonRules::Tree) {
    std::string path = testing::write_temp("skeleton_under_test.json", text);
    try {
        load_skeleton(path, rules);
    } catch (const InputError& e) {
        std::string message = e.what();
        EXPECT_EQ(message.rfind(path, 0), 0u) << "message must start with the file: " << message;
        return message;
    }
    return "";
}

void expect_error(const std::string& text, const std::string& fragment, SkeletonRules rules = SkeletonRules::Tree) {
    std::string message = load_error(text, rules);
    EXPECT_NE(message.find(fragment), std::string::npos) << "got: \"" << message << "\", expected it to contain \"" << fragment << "\"";
}

TEST(Skeleton, LoadsChainAndDerivesTopology) {
    std::string path = testing::write_temp("chain.json",
        R"({"spheres": [[0,0,0,1], [4,0,0,1], [7,0,0,0.5]], "bones": [[1,2], [0,1]], "names": ["a","b","c"]})");
    Skeleton s = load_skeleton(path);
    EXPECT_EQ(s.root_sphere, 0);
    EXPECT_EQ(s.parent_bone, (std::vector<int>{1, -1}));
    EXPECT_EQ(s.bone_order, (std::vector<int>{1, 0}));
    EXPECT_EQ(s.names[2], "c");
    EXPECT_NEAR(s.rest_axis(0).x, 1.0, 1e-15);
}

TEST(Skeleton, SaveLoadRoundTrip) {
    Skeleton s = testing::bent_chain();
    std::string path = testing::temp_path("roundtrip.json");
    save_skeleton(path, s);
    Skeleton t = load_skeleton(path);
    ASSERT_EQ(t.spheres.size(), s.spheres.size());
    for (std::size_t i = 0; i < s.spheres.size(); ++i) {
        EXPECT_EQ(t.spheres[i].radius, s.spheres[i].radius);
        EXPECT_EQ(t.spheres[i].centre.y, s.spheres[i].centre.y);
    }
    EXPECT_EQ(t.bones, s.bones);
}

TEST(Skeleton, BridgesRoundTripAndAreKnownByIndex) {
    Skeleton s = testing::two_chain_tube();
    EXPECT_TRUE(s.is_bridge(testing::kTubeBridge));
    EXPECT_FALSE(s.is_bridge(0));
    std::string path = testing::temp_path("bridged.json");
    save_skeleton(path, s);
    EXPECT_EQ(load_skeleton(path, SkeletonRules::Tree).bridges, std::vector<int>{testing::kTubeBridge});
    save_skeleton(path, testing::two_chain_tube(false));
    EXPECT_TRUE(load_skeleton(path, SkeletonRules::Tree).bridges.empty());
}

// Names are bytes as a capture or model gives them; a JSON file holds UTF-8 text. A Latin-1 capture's name
// had stopped rig and demo with nlohmann's "internal error" (type_error 316), naming neither file nor joint.
TEST(Skeleton, ANameThatIsNotUtf8IsRefusedWhenWrittenNamingTheSphere) {
    const Skeleton s = make_skeleton({{{0, 0, 0}, 1}, {{4, 0, 0}, 1}, {{7, 0, 0}, 0.5}}, {{0, 1}, {1, 2}},
                                     {"Hips", "Wirbels\xE4ule", "Kopf"}, "latin-1 names");
    const std::string path = testing::temp_path("latin1.json");
    const std::string message = testing::message_of<InputError>([&] { save_skeleton(path, s); });
    EXPECT_NE(message.find(path + ": cannot write sphere 1's name \"Wirbels\\xE4ule\": it is not UTF-8 text"), std::string::npos) << message;
    EXPECT_FALSE(std::filesystem::exists(path));
    const Skeleton utf8 = make_skeleton(s.spheres, s.bones, {"Hüfte", "Wirbelsäule", "頭 🙂"}, "utf-8 names");
    save_skeleton(path, utf8);
    EXPECT_EQ(load_skeleton(path).names, utf8.names);
}

TEST(JsonIo, Utf8IsTheTextOfRfc3629) {
    for (const char* good : {"", "plain", "Wirbelsäule", "頭", "🙂", "\x7F", "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF"})
        EXPECT_TRUE(json_io::is_utf8(good)) << good;
    for (const char* bad : {"\xE4", "a\x80", "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80",
                            "\xE2\x82", "\xF0\x9F\x99", "\xC3(", "\xFF"})
        EXPECT_FALSE(json_io::is_utf8(bad)) << bad;
}

std::string bridges_error(std::vector<int> bridges) {
    Skeleton s = testing::two_chain_tube(false);
    try {
        set_bridges(s, std::move(bridges), "API");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(SkeletonInvalid, BridgeOutOfRange) { EXPECT_EQ(bridges_error({1, 4}), "API: bridges[1]: bone index 4 out of range [0, 4)"); }
TEST(SkeletonInvalid, BridgeListedTwice) { EXPECT_EQ(bridges_error({2, 0, 2}), "API: bridges: bone 2 is listed twice"); }
TEST(SkeletonInvalid, EveryBoneABridge) {
    EXPECT_EQ(bridges_error({0, 1, 2, 3}), "API: bridges: every bone is a bridge: no bone is left to carry the points");
}
TEST(SkeletonInvalid, BridgeIndexInAFileOutOfRange) {
    expect_error(R"({"spheres": [[0,0,0,1],[4,0,0,1]], "bones": [[0,1]], "bridges": [1]})", "bridges[0]: index 1 out of range [0, 1)");
}
TEST(SkeletonInvalid, BridgesNotAnArray) {
    expect_error(R"({"spheres": [[0,0,0,1],[4,0,0,1],[8,0,0,1]], "bones": [[0,1],[1,2]], "bridges": 1})", "bridges");
}

TEST(SkeletonInvalid, MissingFile) {
    EXPECT_THROW(load_skeleton(testing::temp_path("missing.json")), IoError);
}
TEST(SkeletonInvalid, NotJson) { expect_error("{\"spheres\": [", "not valid JSON"); }
// Whatever followed a NUL byte was ignored (nlohmann's lexer ends the input there): a whole skeleton with
// junk after a NUL loaded, one with a NUL inside said "unexpected end of input".
TEST(SkeletonInvalid, NulByte) {
    const std::string whole = R"({"spheres": [[0,0,0,1],[4,0,0,1]], "bones": [[0,1]]})";
    expect_error(whole + std::string("\0{\"junk\": 1", 12), "not valid JSON: a NUL byte at byte " + std::to_string(whole.size()));
    expect_error(std::string("{\"spheres\"\0: []}", 16), "not valid JSON: a NUL byte at byte 10");
}
TEST(SkeletonInvalid, NotAnObject) { expect_error("[1,2]", "expected an object"); }
TEST(SkeletonInvalid, MissingSpheres) { expect_error(R"({"bones": [[0,1]]})", "missing required member \"spheres\""); }
TEST(SkeletonInvalid, MissingBones) { expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]]})", "missing required member \"bones\""); }
TEST(SkeletonInvalid, UnknownMember) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1]], "bone": 1})", "unknown member \"bone\"");
}
TEST(SkeletonInvalid, SphereWithThreeNumbers) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0]], "bones": [[0,1]]})", "spheres[1]: expected an array of 4 numbers");
}
// A long wrong value is shown cut to 60 characters (a sphere of 100,000 numbers would fill the terminal).
TEST(SkeletonInvalid, ALongWrongValueIsShownCutShort) {
    std::string huge = "[0";
    for (int i = 0; i < 100000; ++i) huge += ",0";
    huge += "]";
    const std::string message = load_error(R"({"spheres": [[0,0,0,1],)" + huge + R"(], "bones": [[0,1]]})", SkeletonRules::Tree);
    std::string shown = "[";
    for (int i = 0; i < 28; ++i) shown += "0,";  // 57 characters, then "..."
    EXPECT_NE(message.find("spheres[1]: expected an array of 4 numbers, got " + shown + "..."), std::string::npos) << message.substr(0, 300);
    EXPECT_LT(message.size(), 300u);
}
TEST(SkeletonInvalid, NonNumericCoordinate) {
    expect_error(R"({"spheres": [[0,"x",0,1],[2,0,0,1]], "bones": [[0,1]]})", "spheres[0][1]: expected a number");
}
TEST(SkeletonInvalid, OverflowingCoordinate) {
    // JSON has no NaN or Inf literal; a huge exponent is the way a file can try to carry one.
    expect_error(R"({"spheres": [[0,0,1e999,1],[2,0,0,1]], "bones": [[0,1]]})", "not valid JSON: [json.exception.out_of_range.406] number overflow");
}
TEST(SkeletonInvalid, DeeplyNestedJson) {
    // A million nested arrays where the spheres go: the message's dump of the value recursed once per level
    // and overflowed the stack (a segfault) before json_io refused nesting beyond kMaxJsonDepth.
    const std::size_t depth = 1000000;
    expect_error("{\"spheres\": " + std::string(depth, '[') + std::string(depth, ']') + ", \"bones\": []}",
                 "nested deeper than 64 levels");
}
TEST(SkeletonInvalid, AMemberNamedTwiceInOneObject) {
    // The parser kept the last "spheres" silently; in two objects the same name is fine.
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1]], "spheres": [[0,0,0,1],[9,0,0,1]]})",
                 "member \"spheres\" appears twice in one object");
    EXPECT_EQ(load_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1]], "names": ["a", "b"]})"), "");
}
TEST(SkeletonInvalid, NestingUpToTheLimitIsParsed) {
    // The object and "spheres" are 2 levels: 62 more make 64 (parsed, then refused for its shape), 63 make 65.
    auto nested = [](std::size_t n) {
        return "{\"spheres\": [" + std::string(n, '[') + std::string(n, ']') + "], \"bones\": []}";
    };
    expect_error(nested(62), "spheres[0]: expected an array of 4 numbers");
    expect_error(nested(63), "nested deeper than 64 levels");
}
TEST(SkeletonInvalid, ARadiusBelowTheLeast) {
    // A body 1e-46 across came out as zeros (its squares underflow in float), at 1e-44 9% off, silently.
    expect_error(R"({"spheres": [[0,0,0,1e-46],[3e-46,0,0,1e-46]], "bones": [[0,1]]})",
                 "spheres[0]: radius 1e-46 below the least a sphere may have, 1e-15");
    EXPECT_EQ(load_error(R"({"spheres": [[0,0,0,1e-15],[3e-15,0,0,1e-15]], "bones": [[0,1]]})"), "");
}
TEST(SkeletonInvalid, ExtentBeyondTheRangeOfDirections) {
    // Found by the fuzz target's checks (tests/fuzz): centres 2e308 apart, or a radius of 1e308, overflowed
    // the squared distances, leaving rest axes of NaN or of zero length, and infinite bounds.
    // Since 2026-12-05 every coordinate and radius is bounded by host/input_limits.hpp's 1e15.
    expect_error(R"({"spheres": [[1e308,0,0,1],[-1e308,0,0,1]], "bones": [[0,1]]})", "spheres[0]: a coordinate or radius beyond ±1e15 or not finite");
    expect_error(R"({"spheres": [[0,0,0,1e308],[0,0,0,1]], "bones": [[0,1]]})", "spheres[0]: a coordinate or radius beyond ±1e15 or not finite");
    expect_error(R"({"spheres": [[0,0,0,1],[1.01e15,0,0,1]], "bones": [[0,1]]})", "spheres[1]: a coordinate or radius beyond ±1e15 or not finite");
    EXPECT_EQ(load_error(R"({"spheres": [[0,0,0,1],[1e15,0,0,1]], "bones": [[0,1]]})"), "");
    // The fuzzer's own input: the tree seed (tests/fuzz/corpus) with one coordinate turned into 1e308.
    expect_error(R"({
 "bones": [
  [
   0,
   1
  ],
  [
   0,
   2
  ],
  [
   1,
   3
  ],
  [
   0,
   4
  ]
 ],
 "spheres": [
  [
   0.0,
   0.0,
   0.0,
   1.0
  ],
  [
   1.0,
   3.0,
   0.0,
   0.8
  ],
  [
   -2.0,
   5.0,
   0.0,
   0.5
  ],
  [
   2.0,
 1e308,
   0.0,
   0.5
  ],
  [
   0.0,
   -3.0,
   0.0,
   0.7
  ]
 ]
}
)", "spheres[3]: a coordinate or radius beyond ±1e15 or not finite");
}
TEST(SkeletonInvalid, BoneTooShortForADirection) {
    // Found the same way: 1e-160 apart, the squared distance is subnormal and the rest axis misses unit length.
    expect_error(R"({"spheres": [[0,0,0,1],[1e-160,1e-161,0,1]], "bones": [[0,1]]})", "bones[0]: spheres 0 and 1 are too close");
    EXPECT_EQ(load_error(R"({"spheres": [[0,0,0,1],[1e-150,0,0,1]], "bones": [[0,1]]})"), "");
}
TEST(SkeletonInvalid, NonFiniteThroughTheApi) {
    try {
        make_skeleton({{{0, 0, std::nan("")}, 1}, {{2, 0, 0}, 1}}, {{0, 1}}, {}, "API");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "API: spheres[0]: non-finite value");
    }
}
TEST(SkeletonInvalid, ZeroRadius) {
    expect_error(R"({"spheres": [[0,0,0,0],[2,0,0,1]], "bones": [[0,1]]})", "spheres[0]: radius must be > 0");
}
TEST(SkeletonInvalid, NegativeRadius) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,-1]], "bones": [[0,1]]})", "spheres[1]: radius must be > 0");
}
TEST(SkeletonInvalid, BoneIndexOutOfRange) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,2]]})", "bones[0][1]: index 2 out of range [0, 2)");
}
TEST(SkeletonInvalid, BoneIndexNotInteger) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1.5]]})", "bones[0][1]: expected an integer index");
}
TEST(SkeletonInvalid, BoneNotAPair) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1,2]]})", "bones[0]: expected [parent_sphere, child_sphere]");
}
TEST(SkeletonInvalid, SelfBone) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[1,1]]})", "bones[0]: a bone must join two different spheres");
}
TEST(SkeletonInvalid, DuplicateBone) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1],[0,1]]})", "bones[1]: duplicate of bones[0]");
}
TEST(SkeletonInvalid, ReversedDuplicateBone) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1],[1,0]]})", "bones[1]: duplicate of bones[0]");
}
TEST(SkeletonInvalid, Cycle) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[0,3,0,1]], "bones": [[0,1],[1,2],[2,0]]})", "cycle");
}
TEST(SkeletonInvalid, CycleDetachedFromRoot) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[6,0,0,1],[9,0,0,1],[6,3,0,1]],
                     "bones": [[0,1],[2,3],[3,4],[4,2]]})",
                 "bones[1]: bone is on a cycle not connected to the root");
}
TEST(SkeletonInvalid, SeveralRoots) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[9,0,0,1],[12,0,0,1]], "bones": [[0,1],[2,3]]})",
                 "several roots");
}
TEST(SkeletonInvalid, TwoParents) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[6,0,0,1]], "bones": [[0,1],[2,1]]})",
                 "bones[1]: sphere 1 is already the child of bones[0]");
}
TEST(SkeletonInvalid, RootWithTwoBones) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[-3,0,0,1]], "bones": [[0,1],[0,2]]})",
                 "spheres[0]: the root carries more than one bone", SkeletonRules::Chain);
}
TEST(SkeletonInvalid, SphereWithThreeBones) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[6,0,0,1],[3,3,0,1]], "bones": [[0,1],[1,2],[1,3]]})",
                 "spheres[1]: sphere has 3 bones", SkeletonRules::Chain);
}
TEST(SkeletonInvalid, SphereWithoutBone) {
    expect_error(R"({"spheres": [[0,0,0,1],[3,0,0,1],[9,9,9,1]], "bones": [[0,1]]})", "spheres[2]: sphere belongs to no bone");
}
TEST(SkeletonInvalid, NoTangentCone) {
    expect_error(R"({"spheres": [[0,0,0,3],[1,0,0,1]], "bones": [[0,1]]})", "bones[0]: spheres 0 and 1 admit no tangent cone");
}
TEST(SkeletonInvalid, NoTangentConeAtExactlyTheLimit) {
    expect_error(R"({"spheres": [[0,0,0,3],[2,0,0,1]], "bones": [[0,1]]})", "admit no tangent cone");
}
TEST(SkeletonInvalid, CoincidentCentres) {
    expect_error(R"({"spheres": [[1,1,1,1],[1,1,1,1]], "bones": [[0,1]]})", "admit no tangent cone");
}
TEST(SkeletonInvalid, NoBones) { expect_error(R"({"spheres": [[0,0,0,1]], "bones": []})", "at least one bone"); }
TEST(SkeletonInvalid, NoSpheres) { expect_error(R"({"spheres": [], "bones": []})", "spheres: at least two spheres"); }
TEST(SkeletonInvalid, WrongNameCount) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1]], "names": ["a"]})", "names: expected one name per sphere");
}
TEST(SkeletonInvalid, NameNotString) {
    expect_error(R"({"spheres": [[0,0,0,1],[2,0,0,1]], "bones": [[0,1]], "names": ["a", 3]})", "names[1]: expected a string");
}

// Tree rules (automatic rigs): junctions and several bones at the root are allowed; the rest is checked.
Skeleton make_tree(std::vector<Sphere<double>> spheres, std::vector<std::array<int, 2>> bones) {
    return make_skeleton(std::move(spheres), std::move(bones), {}, "API", SkeletonRules::Tree);
}

std::string tree_error(std::vector<Sphere<double>> spheres, std::vector<std::array<int, 2>> bones) {
    try {
        make_tree(std::move(spheres), std::move(bones));
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(SkeletonTree, JunctionAndMultiBoneRootAreAccepted) {
    // Root 0 carries bones to 1 and 2; sphere 1 is a junction (parent bone plus two children).
    Skeleton s = make_tree({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{-3, 0, 0}, 1}, {{6, 1, 0}, 0.5}, {{6, -1, 0}, 0.5}},
                           {{1, 3}, {0, 1}, {1, 4}, {0, 2}});
    EXPECT_EQ(s.root_sphere, 0);
    EXPECT_EQ(s.parent_bone, (std::vector<int>{1, -1, 1, -1}));
    EXPECT_EQ(s.bone_order, (std::vector<int>{1, 3, 0, 2}));  // breadth-first, children by bone index
}
TEST(SkeletonTree, ChainRulesStillRejectTheSameTree) {
    std::string path = testing::write_temp("tree.json",
        R"({"spheres": [[0,0,0,1],[3,0,0,1],[-3,0,0,1]], "bones": [[0,1],[0,2]]})");
    EXPECT_THROW(load_skeleton(path, SkeletonRules::Chain), InputError);
    EXPECT_EQ(load_skeleton(path).bone_order, (std::vector<int>{0, 1})) << "the loader's default rules are the tree's";
}
TEST(SkeletonTree, RejectsCycle) {
    EXPECT_NE(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{0, 3, 0}, 1}}, {{0, 1}, {1, 2}, {2, 0}}).find("cycle"),
              std::string::npos);
}
TEST(SkeletonTree, RejectsCycleDetachedFromRoot) {
    EXPECT_EQ(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{6, 0, 0}, 1}, {{9, 0, 0}, 1}, {{6, 3, 0}, 1}},
                         {{0, 1}, {2, 3}, {3, 4}, {4, 2}}),
              "API: bones[1]: bone is on a cycle not connected to the root");
}
TEST(SkeletonTree, RejectsDuplicateBone) {
    EXPECT_EQ(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}}, {{0, 1}, {1, 0}}), "API: bones[1]: duplicate of bones[0]");
}
TEST(SkeletonTree, RejectsSeveralRoots) {
    EXPECT_NE(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{9, 0, 0}, 1}, {{12, 0, 0}, 1}}, {{0, 1}, {2, 3}})
                  .find("several roots"),
              std::string::npos);
}
TEST(SkeletonTree, RejectsTwoParents) {
    EXPECT_EQ(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{6, 0, 0}, 1}}, {{0, 1}, {2, 1}}),
              "API: bones[1]: sphere 1 is already the child of bones[0] (a sphere has one parent)");
}
TEST(SkeletonTree, RejectsBoneWithoutCone) {
    EXPECT_NE(tree_error({{{0, 0, 0}, 1}, {{3, 0, 0}, 1}, {{-3, 0, 0}, 1}, {{0.5, 0, 0}, 0.2}}, {{0, 1}, {0, 2}, {0, 3}})
                  .find("bones[2]: spheres 0 and 3 admit no tangent cone"),
              std::string::npos);
}

}  // namespace
}  // namespace bs
