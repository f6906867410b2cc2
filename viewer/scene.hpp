// What the viewer shows, without OpenGL: a body (skeleton, rest points, each point's bone for colouring),
// its motion, and one skinner per method built on first use (encoding the baseline method takes a few
// seconds for a million points). The demo is the CLI's built-in chain and point set
// (host/demo_body.hpp) with its bend-and-twist motion played forth and back.
//
// Deformation runs on the CPU into a host array, or on the GPU into an OpenGL buffer through interop
// (GpuSkinner, built on first use; CudaUnavailable where there is none). The skinners are built about an
// origin beside the body (host/local_origin.hpp, as `animate` builds them: their float pass is precise for
// a body far from the file's origin), and every frame, drag and trace comes out in the coordinates of a
// ViewFrame (viewer/view_frame.hpp): the pose's root carries the local origin to its place less the
// frame's origin in double, so a float point is never far from the view's origin unless it is drawn far
// from it. A body near the file's origin, in a frame at 0, is deformed as it was (the same skinners, poses
// and floats). A joint drag (seed 001 §1.2–1.3) moves a chain of
// joints by Bézier propagation and deforms the points by metaballs, as `baseskin drag` does.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/baseline_trace.hpp"
#include "host/bezier_chain.hpp"
#include "host/gpu_skinner.hpp"
#include "host/local_origin.hpp"
#include "host/skinner.hpp"
#include "viewer/view_frame.hpp"

namespace bs::view {

// Where the body comes from: files (skeleton, points, optional motion); a BVH capture, rigged on the fly as
// `baseskin rig` does (host/demo_body.hpp captured_human: a humanoid sphere-mesh, demo_points over it, the
// capture as its motion); or, with neither, the built-in demo. `demo_points` counts the points made for the last two.
struct SceneSource {
    std::string skeleton, points, motion;
    std::string capture;
    std::size_t demo_points = 200000;
};

// Joint positions after a drag, and the chain that moved (sphere indices, held end first).
struct DragResult {
    std::vector<Vec3<double>> centres;
    std::vector<int> chain;
};

class Scene {
public:
    // Loads or makes the body; errors as the CLI reports them (InputError, IoError).
    explicit Scene(const SceneSource& source);
    Scene(const Scene&) = delete;
    Scene& operator=(const Scene&) = delete;

    const std::string& name() const { return name_; }
    const Skeleton& skeleton() const { return skeleton_; }
    std::size_t size() const { return rest_.size(); }
    const std::vector<Vec3<double>>& rest() const { return rest_; }
    const std::vector<std::uint32_t>& point_bones() const { return point_bones_; }  // most-weighted bone
    const Motion* motion() const { return motion_ ? &*motion_ : nullptr; }

    // Box around the spheres and the points at rest (min, max) that the camera frames and the grid is sized
    // by. Points count but for the ⌊n/1000⌋ lowest and highest on each axis: one stray point far from the
    // body shrank it to a speck; a body of under 1,000 points counts every point.
    const std::array<Vec3<double>, 2>& rest_bounds() const { return rest_bounds_; }
    // The skinners' local origin (their skeleton and rest points are the file's less local_origin().at).
    const LocalOrigin& local_origin() const { return origin_; }
    // The method's skinner, about local_origin(): it takes poses as pose_in gives them and its points come
    // out less local_origin().at (deform and drag below add the rest in double).
    const Skinner& skinner(Method method);

    // One frame on the CPU, into `out` (resized), in `view`'s coordinates. Errors of the method pass
    // through (a pose the baseline method refuses is an UnsupportedError; the pose is checked as given
    // first, its root translation included). Baseline keeps its tables from the frame before where a bone's
    // inputs did not change (BaselineTableCache: a joint turned in the editor rebuilds its bone's and its
    // parent's).
    void deform(Method method, const Pose& pose, const ViewFrame& view, std::vector<Vec3<float>>& out, int threads = 0);
    // The same frame on the GPU, written into an OpenGL buffer of size() packed xyz points through
    // interop (deform_into_gl_buffer), asynchronous on `exec`. CudaUnavailable where there is no GPU.
    void deform_into(Method method, const Pose& pose, const ViewFrame& view, cuda::GlBuffer& buffer, cuda::Exec exec = {});
    // The pose the skinners take for `pose` shown in `view`: its root's rotation about the local origin,
    // its translation where the root puts that origin less view.origin (in double). `pose` itself where
    // both origins are the file's. Known limit: the skinner checks that translation against ±1e15 again,
    // so a body near that bound whose root carries it far from where the view was last framed (9e14 turned
    // half a turn about the file's origin) is refused until the camera is reset (R) beside it.
    Pose pose_in(const Pose& pose, const ViewFrame& view) const;

    // Drags sphere `joint` to `target` (in the file's coordinates) along `chain_length` joints (clamped to
    // what the joint's chain allows) and deforms the points by metaballs into `out`, in `view`'s coordinates
    // (the result's centres are the file's). InputError for a joint that cannot be dragged.
    DragResult drag(int joint, Vec3<double> target, int chain_length, bool keep_lengths, const ViewFrame& view,
                    std::vector<Vec3<float>>& out, int threads = 0);

    // Trace of point `index` under the baseline method, in `view`'s coordinates.
    BaselineTrace trace(std::size_t index, const Pose& pose, const ViewFrame& view);

private:
    std::string name_;
    Skeleton skeleton_;
    std::vector<Vec3<double>> rest_;
    std::vector<Influences> influences_;
    std::vector<std::uint32_t> point_bones_;
    std::array<Vec3<double>, 2> rest_bounds_;
    std::optional<Motion> motion_;
    LocalOrigin origin_;
    std::map<Method, std::unique_ptr<Skinner>> skinners_;
    std::map<Method, std::unique_ptr<GpuSkinner>> gpu_skinners_;
    BaselineTableCache baseline_tables_;  // the baseline skinner's (the one skinner with tables)
};

// The demo's motion: the chain bent 0 → 135° and twisted 0 → 180° and back, over 4 s at 30 frames/s.
Motion demo_motion(const Skeleton& skeleton);

// The time of tile `tile` (0 … tiles − 1) of a contact sheet spread evenly over `motion`: from its first
// frame to its last, or, where the last frame repeats the first (a motion that comes back to where it
// began, as the demo's does), over one period from the first, so that no pose is shown twice.
double contact_sheet_time(const Motion& motion, int tile, int tiles);

}  // namespace bs::view
