// baseskin-check-screenshots REST.png BENT.png POSE.json DEMO_POINTS: checks two headless renders of the
// built-in demo (tests/viewer/screenshots.sh) against where the sphere-mesh projects. The camera is
// rebuilt as the viewer builds it (same scene, same framing, viewport = the PNG's size), so the expected
// screen regions come from the skeleton, not from the images. Each image must have body pixels inside its
// region and background or grid outside it; the pair must differ where the bent limb was at rest and
// agree over the bone that did not move. Exit 0: all checks pass; 1: a check failed; 2: cannot check.
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/metaball_skinner.hpp"
#include "host/pose.hpp"
#include "viewer/palette.hpp"
#include "viewer/scene.hpp"
#include "viewer/viewer_state.hpp"

namespace {

using bs::Vec3;
using bs::view::OrbitCamera;

// Thresholds, as fractions of the pixels judged. The region is a rectangle around a slanted body whose
// splats leave gaps: about 45% of it is body, against under 30% when the body lies elsewhere.
constexpr double kMinBodyInside = 0.35;
constexpr double kMaxBodyOutside = 0.0005;  // none measured; a body 20 px off puts ~0.1% out
constexpr int kOutsideMargin = 8;          // pixels: splat radius and rasterisation past the inflated spheres
constexpr double kMinLimbChange = 0.2;     // the limb's rest region loses most of its body when it bends away
constexpr double kMinBone0Agreement = 0.95;
constexpr long kMinPixelsJudged = 500;     // a region this small says nothing
// The bend blends points around the bent joint (sphere 1) between its two bones: keep clear of it.
constexpr double kElbowRadii = 2.0;
constexpr int kBentBone = 1;  // screenshots.sh's pose bends this bone: the spheres past its parent sphere move
constexpr double kMaxSameDiffer = 0.01;  // --same: of the body's pixels (measured 0.3%; drawn about the file's origin, 99%)

struct Rect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixels [x0, x1) × [y0, y1)

    bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    Rect expanded(int m) const { return {x0 - m, y0 - m, x1 + m, y1 + m}; }
    Rect clipped(int width, int height) const {
        return {std::clamp(x0, 0, width), std::clamp(y0, 0, height), std::clamp(x1, 0, width), std::clamp(y1, 0, height)};
    }
    std::string text() const {
        return "[" + std::to_string(x0) + ", " + std::to_string(x1) + ") x [" + std::to_string(y0) + ", " + std::to_string(y1) + ")";
    }
};

struct Image {
    std::string path;
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;

    // The background and the grid are drawn flat in the palette's exact colours; any other pixel is a
    // splat (no overlays are drawn without --pick-point or --sphere-mesh).
    bool body(int x, int y) const {
        const unsigned char* p = &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
        bs::view::Rgb c{p[0], p[1], p[2]};
        return c != bs::view::kBackground && c != bs::view::kGrid && c != bs::view::kGridAxis;
    }
};

Image load(const std::string& path) {
    int width = 0, height = 0, channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &width, &height, &channels, 3);
    if (!data) throw std::runtime_error(path + ": cannot read the PNG (" + stbi_failure_reason() + ")");
    Image image{path, width, height, std::vector<unsigned char>(data, data + std::size_t(width) * std::size_t(height) * 3)};
    stbi_image_free(data);
    return image;
}

// Pixels of one image: how many a predicate selects and how many of those pass a test.
struct Count {
    long hits = 0, total = 0;
    double fraction() const { return total ? double(hits) / double(total) : 0.0; }
};

Count count(int width, int height, const std::function<bool(int, int)>& judged, const std::function<bool(int, int)>& hit) {
    Count c;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (judged(x, y)) ++c.total, c.hits += hit(x, y);
    return c;
}

struct Ball {
    glm::vec3 centre;
    float radius;
};

// Screen bounds of balls, from points over each one's latitude-longitude grid: the sliver it misses
// (under 1% of a radius) is far inside the pixel margins. Every point must be in front of the eye, or
// its projection means nothing.
Rect screen_bounds(const OrbitCamera& camera, const std::vector<Ball>& balls) {
    constexpr int kRings = 24, kSegments = 48;
    constexpr float kPi = 3.14159265f;
    const glm::vec3 forward = glm::normalize(camera.target() - camera.eye());
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (const Ball& b : balls)
        for (int r = 0; r <= kRings; ++r)
            for (int s = 0; s < kSegments; ++s) {
                float polar = kPi * float(r) / kRings, azimuth = 2 * kPi * float(s) / kSegments;
                glm::vec3 n(std::sin(polar) * std::cos(azimuth), std::cos(polar), std::sin(polar) * std::sin(azimuth));
                glm::vec3 p = b.centre + b.radius * n;
                if (glm::dot(p - camera.eye(), forward) <= 0) throw std::runtime_error("a sphere reaches behind the camera");
                glm::vec3 pixel = camera.project(p);
                x0 = std::min(x0, pixel.x), x1 = std::max(x1, pixel.x);
                y0 = std::min(y0, pixel.y), y1 = std::max(y1, pixel.y);
            }
    return {int(std::floor(x0)), int(std::floor(y0)), int(std::ceil(x1)), int(std::ceil(y1))};
}

// The demo's points stand up to 15% of the mean sphere radius off the sphere-mesh (host/demo_body.cpp).
double relief(const bs::Skeleton& skeleton) {
    double mean = 0;
    for (const auto& s : skeleton.spheres) mean += s.radius / double(skeleton.spheres.size());
    return 0.15 * mean;
}

// Spheres `which` at `centres`, each radius × `scale` plus the relief: what the body's points can reach.
std::vector<Ball> balls(const bs::Skeleton& skeleton, const std::vector<Vec3<double>>& centres, const std::vector<int>& which,
                        double scale = 1) {
    std::vector<Ball> out;
    for (int j : which) {
        const Vec3<double>& c = centres[std::size_t(j)];
        out.push_back({{float(c.x), float(c.y), float(c.z)}, float(skeleton.spheres[std::size_t(j)].radius * scale + relief(skeleton))});
    }
    return out;
}

std::vector<int> spheres_from(int first, int last) {
    std::vector<int> out;
    for (int j = first; j <= last; ++j) out.push_back(j);
    return out;
}

class Report {
public:
    void check(bool ok, const std::string& what) {
        std::printf("%s %s\n", ok ? "pass:" : "FAIL:", what.c_str());
        failures_ += !ok;
    }
    int failures() const { return failures_; }

private:
    int failures_ = 0;
};

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", 100 * fraction);
    return text;
}

std::string percent(const Count& c) {
    return percent(c.fraction()) + " (" + std::to_string(c.hits) + " of " + std::to_string(c.total) + " px)";
}

// One image against the posed sphere-mesh: body inside its screen region, none well outside it.
void check_image(Report& report, const Image& image, const OrbitCamera& camera, const bs::Skeleton& skeleton,
                 const std::vector<Vec3<double>>& centres, const std::string& label) {
    const int all_spheres = int(skeleton.spheres.size()) - 1;
    const Rect region = screen_bounds(camera, balls(skeleton, centres, spheres_from(0, all_spheres))).clipped(image.width, image.height);
    const Rect near = region.expanded(kOutsideMargin);
    auto body = [&](int x, int y) { return image.body(x, y); };
    Count inside = count(image.width, image.height, [&](int x, int y) { return region.contains(x, y); }, body);
    Count outside = count(image.width, image.height, [&](int x, int y) { return !near.contains(x, y); }, body);
    std::printf("%s (%s): expected region %s\n", label.c_str(), image.path.c_str(), region.text().c_str());
    report.check(inside.total >= kMinPixelsJudged && inside.fraction() >= kMinBodyInside,
                 label + ": body inside the region " + percent(inside) + ", need >= " + percent(kMinBodyInside));
    report.check(outside.total >= kMinPixelsJudged && outside.fraction() < kMaxBodyOutside,
                 label + ": body outside the region + " + std::to_string(kOutsideMargin) + " px " + percent(outside) + ", need < " +
                     percent(kMaxBodyOutside));
}

// The pair: where the bent limb lay at rest the two images differ; over the bone that stayed (away from
// the bent joint and from where the limb went) they agree.
void check_pair(Report& report, const Image& rest, const Image& bent, const OrbitCamera& camera, const bs::Skeleton& skeleton,
                const std::vector<Vec3<double>>& rest_centres, const std::vector<Vec3<double>>& bent_centres) {
    const int w = rest.width, h = rest.height, joint = skeleton.bones[kBentBone][0], last = int(skeleton.spheres.size()) - 1;
    auto differ = [&](int x, int y) { return rest.body(x, y) != bent.body(x, y); };
    const Rect limb_at_rest = screen_bounds(camera, balls(skeleton, rest_centres, spheres_from(joint + 1, last))).clipped(w, h);
    Count changed = count(w, h, [&](int x, int y) { return limb_at_rest.contains(x, y); }, differ);
    std::printf("pair: moved limb's rest region %s\n", limb_at_rest.text().c_str());
    report.check(changed.total >= kMinPixelsJudged && changed.fraction() >= kMinLimbChange,
                 "pair: body/non-body differs where the limb was at rest " + percent(changed) + ", need >= " +
                     percent(kMinLimbChange));

    const Rect still = screen_bounds(camera, balls(skeleton, rest_centres, spheres_from(0, joint))).clipped(w, h);
    const Rect elbow = screen_bounds(camera, balls(skeleton, rest_centres, {joint}, kElbowRadii)).expanded(kOutsideMargin);
    const Rect limb_bent = screen_bounds(camera, balls(skeleton, bent_centres, spheres_from(joint, last))).expanded(kOutsideMargin);
    auto judged = [&](int x, int y) { return still.contains(x, y) && !elbow.contains(x, y) && !limb_bent.contains(x, y); };
    Count agree = count(w, h, judged, [&](int x, int y) { return !differ(x, y); });
    std::printf("pair: still bone's region %s, less the bent joint %s and the bent limb %s\n", still.text().c_str(),
                elbow.text().c_str(), limb_bent.text().c_str());
    report.check(agree.total >= kMinPixelsJudged && agree.fraction() >= kMinBone0Agreement,
                 "pair: body/non-body agrees over the still bone " + percent(agree) + ", need >= " +
                     percent(kMinBone0Agreement) + " of >= " + std::to_string(kMinPixelsJudged) + " px");
}

// Two renders of one body, near the file's origin and far from it (moved by a pose's root): the same
// picture, pixel for pixel, but where a splat's edge or a depth tie falls the other way under the frames'
// different float rounding, and for the grid's axis colour (the file's axes x = 0 and z = 0 lie elsewhere
// under the far body: both grid colours read as one). Drawn in float about the file's origin, the far
// body's points had snapped to float's grid there and moved by pixels.
int same_picture(const char* near_path, const char* far_path) {
    const Image near = load(near_path), far = load(far_path);
    if (near.width != far.width || near.height != far.height) throw std::runtime_error("the two images differ in size");
    auto colour = [](const Image& image, int x, int y) {
        const unsigned char* p = &image.rgb[(std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 3];
        const bs::view::Rgb c{p[0], p[1], p[2]};
        return c == bs::view::kGridAxis ? bs::view::kGrid : c;
    };
    const Count body = count(near.width, near.height, [&](int x, int y) { return near.body(x, y) || far.body(x, y); },
                             [&](int x, int y) { return colour(near, x, y) != colour(far, x, y); });
    Report report;
    report.check(body.total >= kMinPixelsJudged && body.fraction() <= kMaxSameDiffer,
                 "same picture: body pixels of another colour " + percent(body) + ", need <= " + percent(kMaxSameDiffer));
    if (report.failures()) std::printf("baseskin-check-screenshots: %d check(s) failed\n", report.failures());
    return report.failures() ? 1 : 0;
}

int run(char** argv) {
    const Image rest = load(argv[1]), bent = load(argv[2]);
    if (rest.width != bent.width || rest.height != bent.height) throw std::runtime_error("the two PNGs differ in size");
    bs::view::SceneSource source;
    source.demo_points = std::stoul(argv[4]);
    bs::view::Scene scene(source);  // the same points, hence the same rest bounds and framing as the viewer's
    bs::view::ViewerState state(scene);
    state.camera.set_viewport(rest.width, rest.height);
    state.reset_camera();
    const bs::Skeleton& skeleton = scene.skeleton();
    // In the camera's frame (viewer/view_frame.hpp; the demo's is the file's own).
    auto in_frame = [&](std::vector<Vec3<double>> centres) {
        for (Vec3<double>& c : centres) c = c - state.frame().origin;
        return centres;
    };
    const auto rest_centres = in_frame(bs::posed_centres(skeleton, bs::Pose::rest(skeleton)));
    const auto bent_centres = in_frame(bs::posed_centres(skeleton, bs::load_pose(argv[3], skeleton)));
    Report report;
    check_image(report, rest, state.camera, skeleton, rest_centres, "rest");
    check_image(report, bent, state.camera, skeleton, bent_centres, "bent");
    check_pair(report, rest, bent, state.camera, skeleton, rest_centres, bent_centres);
    if (report.failures()) std::printf("baseskin-check-screenshots: %d check(s) failed\n", report.failures());
    return report.failures() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    const char* usage = "usage: baseskin-check-screenshots REST.png BENT.png POSE.json DEMO_POINTS\n"
                        "       baseskin-check-screenshots --same NEAR.png FAR.png\n"
                        "checks the viewer's two screenshots of the demo (at rest, posed) against its projected sphere-mesh;\n"
                        "--same: that a body far from the origin is drawn as the same body near it\n";
    if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::fputs(usage, stdout);
        return 0;
    }
    const bool same = argc == 4 && std::strcmp(argv[1], "--same") == 0;
    if (argc != 5 && !same) {
        std::fputs(usage, stderr);
        return 1;  // a bad command line, as the project's other programs say it
    }
    try {
        return same ? same_picture(argv[2], argv[3]) : run(argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "baseskin-check-screenshots: cannot check: %s\n", e.what());
        return 2;
    }
}
