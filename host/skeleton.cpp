#include "host/skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "host/box.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/json_io.hpp"

namespace bs {

using json_io::json;
using json_io::Where;

Vec3<double> Skeleton::rest_axis(int bone) const {
    return normalized(spheres[bones[bone][1]].centre - spheres[bones[bone][0]].centre);
}

bool Skeleton::is_bridge(int bone) const { return std::binary_search(bridges.begin(), bridges.end(), bone); }

std::vector<BoneRestFrame<double>> Skeleton::rest_frames() const {
    std::vector<BoneRestFrame<double>> frames(bones.size());
    for (std::size_t k = 0; k < bones.size(); ++k)
        frames[k] = {spheres[bones[k][0]].centre, rest_axis(int(k)), parent_bone[k]};
    return frames;
}

namespace {

std::string bone_name(std::size_t k) { return "bones[" + std::to_string(k) + "]"; }
std::string sphere_name(std::size_t i) { return "spheres[" + std::to_string(i) + "]"; }

void check_spheres(const std::vector<Sphere<double>>& spheres, const Where& where) {
    if (spheres.empty()) where["spheres"].fail("at least two spheres are needed, got none");
    for (std::size_t i = 0; i < spheres.size(); ++i) {
        const Sphere<double>& s = spheres[i];
        if (!all_finite(s.centre) || !std::isfinite(s.radius)) where["spheres"][i].fail("non-finite value");
        // Bounded (host/input_limits.hpp), so that no squared distance overflows (found by fuzzing: centres
        // 2e308 apart gave NaN rest axes) and the points, deformed and written as float, stay finite.
        if (!within_input_magnitude(s.centre) || !within_input_magnitude(s.radius))
            where["spheres"][i].fail(std::string("a coordinate or radius ") + outside_input_magnitude_text());
        if (s.radius <= 0) where["spheres"][i].fail("radius must be > 0, got " + number_text(s.radius));
        if (s.radius < kMinRadius)
            where["spheres"][i].fail("radius " + number_text(s.radius) + " below the least a sphere may have, " + number_text(kMinRadius) +
                                     " (README, \"Input limits\"): scale the body up");
    }
}

void check_bone(const std::vector<Sphere<double>>& spheres, const std::array<int, 2>& bone, const Where& where) {
    for (int end : bone)
        if (end < 0 || std::size_t(end) >= spheres.size())
            where.fail("sphere index " + std::to_string(end) + " out of range [0, " +
                       std::to_string(spheres.size()) + ")");
    if (bone[0] == bone[1]) where.fail("a bone must join two different spheres, got " + std::to_string(bone[0]) + " twice");
    const Sphere<double>& a = spheres[bone[0]];
    const Sphere<double>& b = spheres[bone[1]];
    double distance = norm(b.centre - a.centre);
    if (distance <= std::fabs(a.radius - b.radius))
        where.fail("spheres " + std::to_string(bone[0]) + " and " + std::to_string(bone[1]) +
                   " admit no tangent cone: centre distance " + number_text(distance) +
                   " <= radius difference " + number_text(std::fabs(a.radius - b.radius)) +
                   " (one sphere swallows the other)");
    // Below about 1e-154 apart the squared distance is subnormal and the rest axis loses its unit length
    // (found by fuzzing).
    if (norm2(b.centre - a.centre) < std::numeric_limits<double>::min())
        where.fail("spheres " + std::to_string(bone[0]) + " and " + std::to_string(bone[1]) +
                   " are too close (under 1e-154 apart) for the bone to have a direction");
}

// Topology under `rules`; fills root, parent bones and a parents-first (breadth-first) order.
void derive_topology(Skeleton& s, const Where& where, SkeletonRules rules) {
    const std::size_t n = s.spheres.size();
    const bool chain = rules == SkeletonRules::Chain;
    std::vector<int> bone_into(n, -1), degree(n, 0);
    for (std::size_t k = 0; k < s.bones.size(); ++k) {
        for (std::size_t j = 0; j < k; ++j) {
            bool same = s.bones[j] == s.bones[k];
            bool reversed = s.bones[j][0] == s.bones[k][1] && s.bones[j][1] == s.bones[k][0];
            if (same || reversed) where[bone_name(k)].fail("duplicate of " + bone_name(j));
        }
        int child = s.bones[k][1];
        if (bone_into[child] >= 0)
            where[bone_name(k)].fail("sphere " + std::to_string(child) + " is already the child of " +
                                     bone_name(bone_into[child]) + " (a sphere has one parent)");
        bone_into[child] = int(k);
        ++degree[s.bones[k][0]];
        ++degree[s.bones[k][1]];
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (degree[i] == 0) where[sphere_name(i)].fail("sphere belongs to no bone");
        if (chain && degree[i] >= 3)
            where[sphere_name(i)].fail("sphere has " + std::to_string(degree[i]) +
                                       " bones: a junction (3+ bones on a sphere), which the chain rules (SkeletonRules::Chain) refuse");
    }
    std::vector<int> roots;
    for (std::size_t i = 0; i < n; ++i)
        if (bone_into[i] < 0) roots.push_back(int(i));
    if (roots.empty()) where["bones"].fail("the bones form a cycle: every sphere is some bone's child, no root");
    if (roots.size() > 1)
        where["bones"].fail("several roots (spheres that are never a child): " + sphere_name(roots[0]) + " and " +
                            sphere_name(roots[1]) + "; a skeleton is one connected body");
    s.root_sphere = roots[0];
    if (chain && degree[s.root_sphere] > 1)
        where[sphere_name(s.root_sphere)].fail("the root carries more than one bone, which the chain rules (SkeletonRules::Chain) refuse");

    s.parent_bone.assign(s.bones.size(), -1);
    for (std::size_t k = 0; k < s.bones.size(); ++k) s.parent_bone[k] = bone_into[s.bones[k][0]];
    // Breadth-first from the root's bones; bones not reached hang on a cycle detached from the root.
    std::vector<std::vector<int>> bones_from(n);
    for (std::size_t k = 0; k < s.bones.size(); ++k) bones_from[s.bones[k][0]].push_back(int(k));
    s.bone_order = bones_from[s.root_sphere];
    for (std::size_t next = 0; next < s.bone_order.size(); ++next)
        for (int k : bones_from[s.bones[s.bone_order[next]][1]]) s.bone_order.push_back(k);
    if (s.bone_order.size() != s.bones.size()) {
        std::vector<bool> reached(s.bones.size(), false);
        for (int k : s.bone_order) reached[k] = true;
        std::size_t first = std::find(reached.begin(), reached.end(), false) - reached.begin();
        where[bone_name(first)].fail("bone is on a cycle not connected to the root");
    }
}

}  // namespace

Skeleton make_skeleton(std::vector<Sphere<double>> spheres, std::vector<std::array<int, 2>> bones,
                       std::vector<std::string> names, const std::string& given_source, SkeletonRules rules) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    Where where{source, ""};
    // Before the topology's pairwise checks, which are quadratic in the bones.
    if (bones.size() > kMaxBones)
        where["bones"].fail(std::to_string(bones.size()) + " bones, more than the " + std::to_string(kMaxBones) +
                            " a skeleton may have (README, \"Input limits\")");
    if (spheres.size() > kMaxBones + 1)
        where["spheres"].fail(std::to_string(spheres.size()) + " spheres, more than the " + std::to_string(kMaxBones + 1) +
                              " a skeleton may have (README, \"Input limits\")");
    check_spheres(spheres, where);
    if (bones.empty()) where["bones"].fail("at least one bone is needed");
    for (std::size_t k = 0; k < bones.size(); ++k) check_bone(spheres, bones[k], where[bone_name(k)]);
    if (!names.empty() && names.size() != spheres.size())
        where["names"].fail("expected one name per sphere (" + std::to_string(spheres.size()) + "), got " +
                            std::to_string(names.size()));
    Skeleton s;
    s.spheres = std::move(spheres);
    s.bones = std::move(bones);
    s.names = std::move(names);
    derive_topology(s, where, rules);
    return s;
}

void set_bridges(Skeleton& skeleton, std::vector<int> bones, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    const Where where{source, "bridges"};
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (bones[i] < 0 || std::size_t(bones[i]) >= skeleton.bone_count())
            where[i].fail("bone index " + std::to_string(bones[i]) + " out of range [0, " + std::to_string(skeleton.bone_count()) + ")");
    std::sort(bones.begin(), bones.end());
    if (auto twice = std::adjacent_find(bones.begin(), bones.end()); twice != bones.end())
        where.fail("bone " + std::to_string(*twice) + " is listed twice");
    if (bones.size() == skeleton.bone_count()) where.fail("every bone is a bridge: no bone is left to carry the points");
    skeleton.bridges = std::move(bones);
}

void check_skeleton(const Skeleton& skeleton, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    Skeleton derived = make_skeleton(skeleton.spheres, skeleton.bones, skeleton.names, source);
    if (!skeleton.bridges.empty()) {
        set_bridges(derived, skeleton.bridges, source);
        if (derived.bridges != skeleton.bridges) Where{source, "bridges"}.fail("not in ascending order (set_bridges sorts them)");
    }
    if (derived.root_sphere != skeleton.root_sphere || derived.parent_bone != skeleton.parent_bone || derived.bone_order != skeleton.bone_order)
        throw InputError(source + ": the skeleton's root_sphere, parent_bone and bone_order are not those of its spheres and bones "
                                  "(build it with make_skeleton)");
}

int junction_count(const Skeleton& skeleton) {
    std::vector<int> degree(skeleton.spheres.size(), 0);
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k)
        if (!skeleton.is_bridge(int(k))) ++degree[std::size_t(skeleton.bones[k][0])], ++degree[std::size_t(skeleton.bones[k][1])];
    return int(std::count_if(degree.begin(), degree.end(), [](int d) { return d >= 3; }));
}

Skeleton parse_skeleton(const json& doc, const std::string& given_source, SkeletonRules rules) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    Where where{source, ""};
    json_io::require_object(doc, where);
    json_io::only_members(doc, {"spheres", "bones", "names", "bridges"}, where);

    const json& js = json_io::member(doc, "spheres", where);
    json_io::require_array(js, where["spheres"]);
    std::vector<Sphere<double>> spheres;
    for (std::size_t i = 0; i < js.size(); ++i) {
        double v[4];
        json_io::number_array(js[i], 4, v, where["spheres"][i]);
        spheres.push_back({{v[0], v[1], v[2]}, v[3]});
    }
    const json& jb = json_io::member(doc, "bones", where);
    json_io::require_array(jb, where["bones"]);
    std::vector<std::array<int, 2>> bones;
    for (std::size_t k = 0; k < jb.size(); ++k) {
        const Where wk = where["bones"][k];
        if (!jb[k].is_array() || jb[k].size() != 2) wk.fail("expected [parent_sphere, child_sphere]");
        bones.push_back({json_io::index_in_range(jb[k][0], spheres.size(), wk[0]),
                         json_io::index_in_range(jb[k][1], spheres.size(), wk[1])});
    }
    std::vector<std::string> names;
    if (doc.contains("names")) {
        const json& jn = doc["names"];
        json_io::require_array(jn, where["names"]);
        for (std::size_t i = 0; i < jn.size(); ++i) {
            if (!jn[i].is_string()) where["names"][i].fail("expected a string");
            names.push_back(jn[i].get<std::string>());
        }
    }
    Skeleton skeleton = make_skeleton(std::move(spheres), std::move(bones), std::move(names), source, rules);
    if (doc.contains("bridges")) {
        const json& jb = doc["bridges"];
        json_io::require_array(jb, where["bridges"]);
        std::vector<int> bridges;
        for (std::size_t i = 0; i < jb.size(); ++i)
            bridges.push_back(json_io::index_in_range(jb[i], skeleton.bone_count(), where["bridges"][i]));
        set_bridges(skeleton, std::move(bridges), source);
    }
    return skeleton;
}

Skeleton load_skeleton(const std::string& path, SkeletonRules rules) {
    return parse_skeleton(json_io::load(path), path, rules);
}

void save_skeleton(const std::string& path, const Skeleton& skeleton) {
    OutputFile out(path);
    write_skeleton(out, skeleton);
    out.commit();
}

void write_skeleton(OutputFile& out, const Skeleton& skeleton) {
    for (std::size_t s = 0; s < skeleton.names.size(); ++s)
        if (!json_io::is_utf8(skeleton.names[s]))
            throw InputError(out.path() + ": cannot write sphere " + std::to_string(s) + "'s name " + quoted_text(skeleton.names[s]) +
                             ": it is not UTF-8 text, which a JSON file holds (re-encode the names in the file it came from, e.g. with iconv)");
    json doc;
    doc["spheres"] = json::array();
    for (const Sphere<double>& s : skeleton.spheres)
        doc["spheres"].push_back({s.centre.x, s.centre.y, s.centre.z, s.radius});
    doc["bones"] = skeleton.bones;
    if (!skeleton.names.empty()) doc["names"] = skeleton.names;
    if (!skeleton.bridges.empty()) doc["bridges"] = skeleton.bridges;
    json_io::write(out, doc);
}

std::array<Vec3<double>, 2> bounds(const Skeleton& skeleton) {
    Box box;
    for (const Sphere<double>& s : skeleton.spheres) {
        box.add(s.centre - Vec3<double>{s.radius, s.radius, s.radius});
        box.add(s.centre + Vec3<double>{s.radius, s.radius, s.radius});
    }
    return {box.lo, box.hi};
}

}  // namespace bs
