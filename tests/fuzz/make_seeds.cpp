// Writes the seeds of tests/fuzz/corpus that the project's own writers make (the others are written by
// hand): a binary PLY point set with influences and faces, skeletons (a chain and a tree), a pose and a
// motion of fuzz_skeleton(), and its saved baseline codes. Built in the fuzz tree only
// (BASESKIN_FUZZ); run it after a format or fuzz_skeleton() changes:
//   ./build-fuzz/bin/baseskin-fuzz-seeds tests/fuzz/corpus
#include <cstdio>

#include "host/baseline_skinner.hpp"
#include "host/code_file.hpp"
#include "host/ply.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace bs;

constexpr double kPi = 3.14159265358979323846;

void write_point_set_seed(const std::string& folder) {
    PointSet set = make_point_set({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0.5}, {0.5, 0.5, 1}});
    for (std::size_t i = 0; i < set.positions.size(); ++i)
        set.influences.push_back({{std::uint32_t(i % 3), 1, 2, 0}, {0.5f, 0.25f, 0.25f, 0.0f}});
    PlyElement face;
    face.name = "face";
    face.count = 2;
    PlyProperty indices;
    indices.name = "vertex_indices";
    indices.is_list = true;
    indices.type = PlyType::Int32;
    indices.counts = {3, 3};
    indices.values = {0, 1, 2, 0, 2, 3};
    face.properties.push_back(indices);
    set.file.elements.push_back(face);
    set.file.comments.push_back("made by baseskin-fuzz-seeds");
    write_point_set(folder + "/ply/points_binary.ply", set, PlyFormat::BinaryLittleEndian);
}

void write_skeleton_seeds(const std::string& folder) {
    save_skeleton(folder + "/skeleton_json/chain.json", fuzz::fuzz_skeleton());
    // A junction at sphere 1 and a root carrying two bones (tree rules).
    save_skeleton(folder + "/skeleton_json/tree.json",
                  make_skeleton({{{0, 0, 0}, 1.0}, {{0, 3, 0}, 0.8}, {{-2, 5, 0}, 0.5}, {{2, 5, 0}, 0.5}, {{0, -3, 0}, 0.7}},
                                {{0, 1}, {1, 2}, {1, 3}, {0, 4}}, {}, "seed", SkeletonRules::Tree));
    // Two chains hung from one root, the bones from it bridges (a rigged model's armature node).
    Skeleton bridged = make_skeleton({{{0, 0, 0}, 1.0}, {{0, 0.2, 0}, 1.0}, {{0, 3, 0}, 0.8}, {{0, 3.2, 0}, 0.8}, {{0, 6, 0}, 0.6}},
                                     {{0, 1}, {1, 2}, {0, 3}, {3, 4}}, {}, "seed", SkeletonRules::Tree);
    set_bridges(bridged, {0, 2}, "seed");
    save_skeleton(folder + "/skeleton_json/bridged.json", bridged);
}

Pose bent_pose(const Skeleton& skeleton, double angle) {
    Pose pose = Pose::rest(skeleton);
    pose.root.translation = {0.5, 0, -0.25};
    pose.joints[1].swing = axis_angle(Vec3<double>{0, 0, 1}, angle);
    pose.joints[2].twist_radians = 2 * angle;
    return pose;
}

void write_pose_and_motion_seeds(const std::string& folder) {
    const Skeleton skeleton = fuzz::fuzz_skeleton();
    json_io::save(folder + "/pose_json/pose.json", pose_json(bent_pose(skeleton, 0.6)));
    save_motion(folder + "/motion_json/motion.json",
                Motion(24, {Pose::rest(skeleton), bent_pose(skeleton, 0.5), bent_pose(skeleton, kPi / 2)}));
}

void write_codes_seed(const std::string& folder) {
    const Skeleton skeleton = fuzz::fuzz_skeleton();
    std::vector<Vec3<double>> points;
    for (int i = 0; i < 12; ++i) {  // along every bone, inside and outside the body, past both ends
        const int bone = i % 3;
        const double t = -0.2 + 1.4 * (i / 3) / 3.0;
        const Vec3<double> a = skeleton.spheres[skeleton.bones[bone][0]].centre, b = skeleton.spheres[skeleton.bones[bone][1]].centre;
        points.push_back((1 - t) * a + t * b + Vec3<double>{0, 0, i % 2 ? 1.4 : 0.3});
    }
    BaselineSkinner<float> skinner(skeleton, points, "seed");
    save_codes(folder + "/saved_codes/chain.bsk", skeleton, skinner.saved_codes());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: baseskin-fuzz-seeds CORPUS_FOLDER (tests/fuzz/corpus)\n");
        return 1;
    }
    const std::string folder = argv[1];
    return bs::run_reporting_errors("baseskin-fuzz-seeds", [&] {
        write_point_set_seed(folder);
        write_skeleton_seeds(folder);
        write_pose_and_motion_seeds(folder);
        write_codes_seed(folder);
        return 0;
    });
}
