#include "host/metaball_skinner.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "host/errors.hpp"
#include "host/fnv1a.hpp"
#include "host/input_limits.hpp"

namespace bs {

using json_io::json;
using json_io::Where;

namespace {

// The per-point pass indexes bindings with 32-bit offsets.
void check_binding_size(std::size_t vertex_count) {
    if (vertex_count >= std::numeric_limits<std::uint32_t>::max())
        throw InputError("metaball binding: " + std::to_string(vertex_count) + " vertices exceed the 2^32 - 1 limit");
}

int nearest_sphere(const std::vector<Sphere<double>>& spheres, Vec3<double> p) {
    int best = 0;
    double best_distance = norm(p - spheres[0].centre) - spheres[0].radius;
    for (std::size_t j = 1; j < spheres.size(); ++j) {
        double distance = norm(p - spheres[j].centre) - spheres[j].radius;
        if (distance < best_distance) {
            best_distance = distance;
            best = int(j);
        }
    }
    return best;
}

void check_binding(const MetaballBinding& b, std::size_t vertex_count, std::size_t joint_count, const std::string& source) {
    const std::string where = source + ": metaball binding: ";
    if (b.vertex_count() != vertex_count)
        throw InputError(where + std::to_string(b.vertex_count()) + " vertices bound, " + std::to_string(vertex_count) +
                         " points given");
    if (b.offsets.front() != 0 || b.offsets.back() != b.joints.size())
        throw InputError(where + "offsets must run from 0 to the number of bound joints");
    for (std::size_t i = 0; i < vertex_count; ++i)
        if (b.offsets[i + 1] < b.offsets[i])
            throw InputError(where + "vertex " + std::to_string(i) + ": offsets decrease");
    for (std::size_t k = 0; k < b.joints.size(); ++k)
        if (b.joints[k] >= joint_count)
            throw InputError(where + "joint index " + std::to_string(b.joints[k]) + " out of range [0, " +
                             std::to_string(joint_count) + ")");
}

}  // namespace

MetaballBinding binding_from_regions(const std::vector<int>& region_of_vertex) {
    check_binding_size(region_of_vertex.size());
    MetaballBinding b;
    b.offsets.reserve(region_of_vertex.size() + 1);
    for (int region : region_of_vertex) {
        if (region != kNoRegion) b.joints.push_back(std::uint32_t(region));
        b.offsets.push_back(std::uint32_t(b.joints.size()));
    }
    return b;
}

MetaballBinding nearest_sphere_binding(const Skeleton& skeleton, const std::vector<Vec3<double>>& rest) {
    std::vector<int> region(rest.size());
    const long long n = static_cast<long long>(rest.size());
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < n; ++i) region[std::size_t(i)] = nearest_sphere(skeleton.spheres, rest[std::size_t(i)]);
    return binding_from_regions(region);
}

MetaballBinding parse_binding(const json& doc, std::size_t vertex_count, std::size_t joint_count, const Where& where) {
    json_io::require_object(doc, where);
    const json& list = json_io::member(doc, "binding", where);
    json_io::require_array(list, where["binding"]);
    if (list.size() != vertex_count)
        where["binding"].fail("expected one node index per vertex (" + std::to_string(vertex_count) + "), got " +
                              std::to_string(list.size()));
    std::vector<int> region(vertex_count);
    for (std::size_t i = 0; i < vertex_count; ++i) {
        const json& entry = list[i];
        // A negative index (signed in JSON's reading; an unsigned one is never negative, however large).
        const bool negative = entry.is_number_integer() && !entry.is_number_unsigned() && entry.get<long long>() < 0;
        if (negative && entry.get<long long>() != kNoRegion)
            where["binding"][i].fail("index " + std::to_string(entry.get<long long>()) + " out of range: -1 (unbound) or [0, " +
                                     std::to_string(joint_count) + ")");
        region[i] = negative ? kNoRegion : json_io::index_in_range(entry, joint_count, where["binding"][i]);
    }
    return binding_from_regions(region);
}

BindingFile read_binding_file(const std::string& path, const std::vector<Vec3<double>>& vertices, std::size_t joint_count) {
    const json doc = json_io::load(path);
    const Where where{path, ""};
    BindingFile file{parse_binding(doc, vertices.size(), joint_count, where), false};
    if (doc.contains("vertices_digest")) {
        const json& digest = doc["vertices_digest"];
        // As binding_vertex_digest writes it: 16 lowercase hexadecimal digits (another text was taken for a
        // digest of other vertices, and refused or noted as that).
        const bool written_so = digest.is_string() && digest.get<std::string>().size() == 16 &&
                                digest.get<std::string>().find_first_not_of("0123456789abcdef") == std::string::npos;
        if (!written_so) where["vertices_digest"].fail("expected a string of 16 hexadecimal digits (lowercase, as `skeleton` writes it)");
        file.made_for_other_vertices = digest.get<std::string>() != binding_vertex_digest(vertices);
    }
    return file;
}

MetaballBinding load_binding(const std::string& path, const std::vector<Vec3<double>>& vertices, std::size_t joint_count) {
    BindingFile file = read_binding_file(path, vertices, joint_count);
    if (file.made_for_other_vertices)
        Where{path, ""}["vertices_digest"].fail("the binding was made for other vertices (as many, but other positions or another order)");
    return std::move(file.binding);
}

std::string binding_vertex_digest(const std::vector<Vec3<double>>& vertices) {
    Fnv1a digest;
    for (const Vec3<double>& v : vertices)
        for (double coordinate : {v.x, v.y, v.z}) digest.add(float(coordinate));
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest.hash));
    return text;
}

std::vector<double> influence_radii(const std::vector<Vec3<double>>& centres, const std::vector<Vec3<double>>& rest,
                                    const MetaballBinding& binding) {
    std::vector<std::vector<double>> distances(centres.size());
    std::vector<std::size_t> bound(centres.size(), 0);  // counted first: each region's list allocated once
    for (std::uint32_t j : binding.joints) ++bound[j];
    for (std::size_t j = 0; j < centres.size(); ++j) distances[j].reserve(bound[j]);
    for (std::size_t i = 0; i < rest.size(); ++i)
        for (std::uint32_t k = binding.offsets[i]; k < binding.offsets[i + 1]; ++k) {
            const std::uint32_t j = binding.joints[k];
            distances[j].push_back(norm(rest[i] - centres[j]));
        }
    std::vector<double> radii(centres.size(), 0.0);
    for (std::size_t j = 0; j < centres.size(); ++j) {
        std::vector<double>& d = distances[j];
        if (d.empty()) continue;
        std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(d.size() / 2), d.end());
        const double reach = kRegionReach * d[d.size() / 2];  // the upper median
        for (double r : d)
            if (r <= reach || !(reach > 0)) radii[j] = std::max(radii[j], r);
    }
    return radii;
}

std::vector<Vec3<double>> rest_centres(const Skeleton& skeleton) {
    std::vector<Vec3<double>> centres;
    centres.reserve(skeleton.spheres.size());
    for (const Sphere<double>& s : skeleton.spheres) centres.push_back(s.centre);
    return centres;
}

std::vector<Vec3<double>> posed_centres(const Skeleton& skeleton, const Pose& pose) {
    require_joint_per_bone(skeleton, pose);
    std::vector<Rigid<double>> posed = posed_bones(skeleton, pose);
    std::vector<Vec3<double>> centres = rest_centres(skeleton);
    for (std::size_t k = 0; k < skeleton.bone_count(); ++k) {
        const int child = skeleton.bones[k][1];
        centres[child] = posed[k].apply(skeleton.spheres[child].centre);
        if (skeleton.parent_bone[k] < 0) {
            const int root = skeleton.bones[k][0];
            centres[root] = posed[k].apply(skeleton.spheres[root].centre);
        }
    }
    return centres;
}

template <class T>
MetaballSkinner<T>::MetaballSkinner(Skeleton skeleton, const std::vector<Vec3<double>>& rest, MetaballBinding binding,
                                    const std::string& given_source)
    : skeleton_(std::move(skeleton)), binding_(std::move(binding)) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    check_skeleton(skeleton_, skeleton_source(source));
    check_binding(binding_, rest.size(), skeleton_.spheres.size(), source);
    rest_ = checked_rest_points<T>(rest, source);
    radii_ = influence_radii(rest_centres(skeleton_), rest, binding_);
}

template <class T>
std::vector<MetaballJoint<T>> MetaballSkinner<T>::joint_table(const std::vector<Vec3<double>>& displacements) const {
    if (displacements.size() != skeleton_.spheres.size())
        throw InputError("metaball deformation: " + std::to_string(displacements.size()) + " displacements for " +
                         std::to_string(skeleton_.spheres.size()) + " joints");
    std::vector<MetaballJoint<T>> table(displacements.size());
    for (std::size_t j = 0; j < table.size(); ++j) {
        // Bounded by twice what a coordinate read may be (host/input_limits.hpp; a displacement runs between two
        // such points, as drag's from a centre to its --to): a finite 1e300 overflowed float.
        if (!within_input_magnitude(0.5 * displacements[j]))
            throw InputError("metaball deformation: joint " + std::to_string(j) +
                             ": a displacement component beyond ±2e15 (twice the input bound) or not finite");
        table[j] = MetaballJoint<T>(MetaballJoint<double>{skeleton_.spheres[j].centre, radii_[j], displacements[j]});
    }
    return table;
}

template <class T>
std::vector<MetaballJoint<T>> MetaballSkinner<T>::joint_table(const Pose& pose) const {
    require_usable_pose(skeleton_, pose);
    const std::vector<Vec3<double>> posed = posed_centres(skeleton_, pose);
    const Rigid<double> body_back{conjugate(pose.root.rotation), rotate(conjugate(pose.root.rotation), -pose.root.translation)};
    std::vector<Vec3<double>> displacements(posed.size());
    for (std::size_t j = 0; j < posed.size(); ++j) displacements[j] = body_back.apply(posed[j]) - skeleton_.spheres[j].centre;
    return joint_table(displacements);
}

template <class T>
void MetaballSkinner<T>::run(const std::vector<MetaballJoint<T>>& table, const Mat34<T>& body, PointView<T> out,
                             cpu::Exec exec) const {
    require_output(out, size(), "MetaballSkinner");
    cpu::deform_metaball(MetaballJob<T>{{packed_scalars(rest_.data()), 3}, binding_.offsets.data(), binding_.joints.data(),
                                        rest_.size(), table.data(), table.size(), body, out},
                         exec);
}

template <class T>
void MetaballSkinner<T>::deform(const std::vector<Vec3<double>>& displacements, std::vector<Vec3<T>>& out,
                                cpu::Exec exec) const {
    const std::vector<MetaballJoint<T>> table = joint_table(displacements);
    deform_into(out, size(), [&](PointView<T> view) { run(table, Mat34<T>::from_rigid(Rigid<T>::identity()), view, exec); });
}

template <class T>
void MetaballSkinner<T>::deform(const Pose& pose, PointView<T> out, cpu::Exec exec) const {
    const std::vector<MetaballJoint<T>> table = joint_table(pose);  // checks the pose first
    run(table, body_motion(pose), out, exec);
}

template class MetaballSkinner<float>;
template class MetaballSkinner<double>;

}  // namespace bs
