// baseskin-view: see, pose and play a skinned point set (README "Viewer"). Opens the built-in demo, or
// --skeleton S --points P [--motion M]; --screenshot renders headless into an image (PNG unless its name
// ends otherwise) instead of opening a window. Exit codes as the CLI's: 0 success · 1 bad command line · 2 invalid input · 3 file I/O ·
// 4 unsupported (no display, no OpenGL 3.3, a pose the method refuses, no CUDA for --backend cuda) ·
// 5 internal error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>

#include "host/cli/options.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"
#include "viewer/gl/app.hpp"

namespace {

struct Options {
    bs::view::SceneSource source;
    std::string method, backend = "auto", colour = "bone", sphere_mesh = "hidden", pose, size = "1280x720";
    std::string screenshot;
    int frames = 1, sheet = 0;
    bool play = false;
    long pick = -1;
    float point_size = 1;
    std::string look_at;
    std::optional<bs::Vec3<double>> look_at_point;  // look_at parsed (by the command line's callback)
    float zoom = 1, yaw = 0, pitch = 0;
    bool yaw_given = false, pitch_given = false, sphere_mesh_given = false;
};

void add_options(CLI::App& app, Options& o) {
    auto* skeleton = app.add_option("--skeleton", o.source.skeleton, "skeleton JSON file (default: the built-in demo)")
                         ->check(CLI::ExistingFile);
    auto* points = app.add_option("--points", o.source.points, "points PLY file")->check(CLI::ExistingFile);
    skeleton->needs(points);
    points->needs(skeleton);
    app.add_option("--motion", o.source.motion, "motion JSON file, or a BVH capture of the skeleton `baseskin rig` built")
        ->check(CLI::ExistingFile)
        ->needs(skeleton);
    app.add_option("--capture", o.source.capture, "a BVH capture: rig a humanoid body on it and play it (instead of files)")
        ->check(CLI::ExistingFile)
        ->excludes(skeleton);
    // A body from files has its own points: the count did nothing there.
    app.add_option("--demo-points", o.source.demo_points, "points of the built-in demo or of a --capture body")
        ->transform(bs::cli::count_in_range(std::size_t(1), std::size_t(20000000)))
        ->capture_default_str()
        ->excludes(points);
    app.add_option("--method", o.method, "skinning method (default: baseline)")
        ->check(CLI::IsMember({"baseline", "lbs", "dqs", "metaball"}));
    app.add_option("--backend", o.backend, "where points are deformed (auto: the GPU through interop where usable)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    app.add_option("--colour", o.colour, "colour points by bone or by height over the posed sphere-mesh")
        ->check(CLI::IsMember({"bone", "height"}))
        ->capture_default_str();
    app.add_option("--sphere-mesh", o.sphere_mesh, "draw the posed sphere-mesh")
        ->check(CLI::IsMember({"hidden", "translucent", "wireframe"}))
        ->capture_default_str();
    app.add_option("--point-size", o.point_size, "splat size factor")
        ->check(bs::cli::finite_in_range(0.05, 20.0))
        ->capture_default_str();
    // An index as the counts are written (1e2 too); beyond the most points a body may have, refused as
    // written (a number past `long` was clamped, and named so).
    app.add_option("--pick-point", o.pick, "show this point's baseline (baseline method)")
        ->transform(bs::cli::count_in_range(std::size_t(0), bs::kMaxPoints - 1));
    auto* pose = app.add_option("--pose", o.pose, "pose JSON file (replaces the motion)")->check(CLI::ExistingFile);
    auto* screenshot = app.add_option("--screenshot", o.screenshot, "render headless into this image (PNG; JPEG, BMP or TGA by its ending) and exit")->check(bs::cli::non_empty_path());
    // The headless options need --screenshot: without it they opened the interactive window, unused.
    auto* frames = app.add_option("--frames", o.frames, "headless: frames rendered, the last saved")
                       ->transform(bs::cli::count_in_range(std::size_t(1), std::size_t(100000)))
                       ->capture_default_str()
                       ->needs(screenshot);
    // Playing and a sheet go through the motion, which --pose replaces: every frame or tile was that pose.
    auto* play = app.add_flag("--play", o.play, "headless: play the motion, one of its frames per rendered frame")->needs(screenshot)->excludes(pose);
    app.add_option("--sheet", o.sheet, "headless: a contact sheet of N frames spread over the motion, each --size")
        ->transform(bs::cli::count_in_range(std::size_t(1), std::size_t(64)))
        ->needs(screenshot)
        ->excludes(frames)
        ->excludes(play)
        ->excludes(pose);
    app.add_option("--size", o.size, "headless: image size WIDTHxHEIGHT")->capture_default_str()->needs(screenshot);
    // The view after framing (and after each reset, R): close-ups of a joint, a side view.
    app.add_option("--look-at", o.look_at, "look at this point x,y,z (default: the framed body's centre)");
    app.add_option("--zoom", o.zoom, "come closer by this factor than the framed view (0.001 to 1000)")
        ->check(bs::cli::finite_in_range(1e-3, 1e3))  // a range alone passed NaN (a blank image)
        ->capture_default_str();
    app.add_option("--yaw", o.yaw, "view direction about the vertical, degrees (default 28.6)")->check(bs::cli::finite_in_range(-3600.0, 3600.0));
    app.add_option("--pitch", o.pitch, "view direction above the horizontal, degrees (-88 to 88; default 20)")->check(bs::cli::finite_in_range(-88.0, 88.0));
    app.callback([&o, &app] {
        o.yaw_given = app.count("--yaw") > 0;
        o.sphere_mesh_given = app.count("--sphere-mesh") > 0;
        o.pitch_given = app.count("--pitch") > 0;
        // A body from files without --motion has none to play or spread over a sheet: every frame or tile was
        // its rest pose (the demo and a --capture body have their own).
        if (!o.source.skeleton.empty() && o.source.motion.empty())
            for (const char* option : {"--sheet", "--play"})
                if (app.count(option) > 0) throw CLI::ValidationError(option, "the body has no motion to go through (give --motion)");
        if (app.count("--look-at") > 0) {  // an empty value is malformed, not "not given"
            o.look_at_point = bs::cli::parse_xyz("--look-at", o.look_at);
            if (!bs::within_input_magnitude(*o.look_at_point))
                throw CLI::ValidationError("--look-at", std::string("a point ") + bs::outside_input_magnitude_text() + ": \"" + o.look_at + "\"");
        }
        bs::cli::refuse_output_over_input("--screenshot", o.screenshot,
                                          {{"--skeleton", o.source.skeleton}, {"--points", o.source.points}, {"--motion", o.source.motion},
                                           {"--capture", o.source.capture}, {"--pose", o.pose}});
        if (!o.screenshot.empty() && !bs::view::gl::image_format_of(o.screenshot))
            throw CLI::ValidationError("--screenshot", o.screenshot + ": an image is written as .png (or a name without an ending), .jpg, .jpeg, .bmp or .tga");
    });
}

// WIDTHxHEIGHT, each written in digits alone (sscanf's %d had wrapped 4294967360 to 64, and taken " 64x+48").
std::pair<int, int> parse_size(const std::string& text) {
    auto dimension = [](const std::string& digits) {
        const bool usable = !digits.empty() && digits.size() <= 5 && digits.find_first_not_of("0123456789") == std::string::npos;
        return usable ? std::stoi(digits) : -1;
    };
    const std::size_t x = text.find('x');
    const int width = x == std::string::npos ? -1 : dimension(text.substr(0, x));
    const int height = x == std::string::npos ? -1 : dimension(text.substr(x + 1));
    if (width < 16 || height < 16 || width > 8192 || height > 8192)
        throw CLI::ValidationError("--size", "expected WIDTHxHEIGHT, each in [16, 8192], got \"" + text + "\"");
    return {width, height};
}

// A sheet's tiles are each within --size's bounds; the whole image must fit memory too (CLI::ValidationError).
void check_sheet_size(const Options& o) {
    constexpr double kMaxSheetPixels = 268435456;  // 2^28: 1 GiB of RGBA
    const auto [width, height] = parse_size(o.size);
    const double pixels = double(width) * double(height) * double(std::max(o.sheet, 1));
    if (pixels > kMaxSheetPixels)
        throw CLI::ValidationError("--sheet", std::to_string(o.sheet) + " tiles of " + o.size + " make " + std::to_string(std::int64_t(pixels)) +
                                                 " pixels, more than the 268435456 a sheet may have (fewer tiles, or a smaller --size)");
}

int run(const Options& o) {
    bs::view::Scene scene(o.source);
    bs::view::ViewerState state(scene);
    if (!o.method.empty()) {
        state.method = bs::parse_method(o.method);
    }
    if (!o.pose.empty()) state.fixed_pose = bs::load_pose(o.pose, scene.skeleton());
    state.camera_aim.look_at = o.look_at_point;  // in the file's coordinates (the camera's frame is chosen at each reset)
    state.camera_aim.zoom = o.zoom;
    if (o.yaw_given) state.camera_aim.yaw_degrees = o.yaw;
    if (o.pitch_given) state.camera_aim.pitch_degrees = o.pitch;
    state.reset_camera();
    if (o.pick >= 0) {
        if (std::size_t(o.pick) >= scene.size())
            throw bs::InputError("--pick-point " + std::to_string(o.pick) + ": the body has " + std::to_string(scene.size()) + " points");
        state.picked_point = o.pick;
        if (state.method != bs::Method::baseline)
            std::fprintf(stderr, "note: --pick-point draws the point's baseline under the baseline method only (this view: %s)\n",
                         bs::method_name(state.method));
    }
    bs::view::gl::DrawSettings settings;
    settings.colouring = o.colour == "bone" ? bs::view::gl::Colouring::bone : bs::view::gl::Colouring::height;
    settings.skeleton = o.sphere_mesh == "hidden"        ? bs::view::gl::SkeletonStyle::hidden
                        : o.sphere_mesh == "translucent" ? bs::view::gl::SkeletonStyle::translucent
                                                         : bs::view::gl::SkeletonStyle::wireframe;
    settings.point_size = o.point_size;
    // A point set of no points drew the grid alone, as if nothing had been read (unless asked so).
    if (scene.size() == 0 && !o.sphere_mesh_given) {
        settings.skeleton = bs::view::gl::SkeletonStyle::wireframe;
        std::fprintf(stderr, "note: %s has no points: its sphere-mesh is drawn instead (wireframe)\n", scene.name().c_str());
    }
    auto backend = o.backend == "cpu"    ? bs::view::gl::BackendChoice::cpu
                   : o.backend == "cuda" ? bs::view::gl::BackendChoice::cuda
                                         : bs::view::gl::BackendChoice::automatic;
    if (o.screenshot.empty()) {
        bs::view::gl::run_window(state, settings, backend);
        return bs::kExitOk;
    }
    bs::view::gl::Headless headless;
    headless.image = o.screenshot;
    std::tie(headless.width, headless.height) = parse_size(o.size);
    headless.frames = o.frames;
    headless.play = o.play;
    headless.sheet = o.sheet;
    bs::view::gl::render_headless(state, settings, backend, headless);
    return bs::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    bs::remove_temporaries_on_signals();  // a screenshot stopped part way leaves no temporary (host/output_file.hpp)
    CLI::App app{"baseskin-view: see, pose and play a skinned point set (the built-in demo by default)"};
    Options options;
    add_options(app, options);
    try {
        app.parse(argc, argv);
        check_sheet_size(options);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? bs::kExitOk : bs::kExitUsage;
    }
    return bs::run_reporting_errors("baseskin-view", [&] { return run(options); });
}
