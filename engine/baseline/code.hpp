// The per-point code of baseline skinning: everything the deformation needs about a point, computed
// once at rest by the encoder (host/baseline_rig.cpp), read by the per-point pass every frame.
// 24 bytes, plain data (DESIGN "Which baseline a point is on": (bone, φ, t, h) plus flags, the rigid
// blend and the axis foot of deep points).
#pragma once

#include <cstdint>

namespace bs {

enum BaselineCodeFlag : std::uint16_t {
    // Region: the point is encoded radially over a free extremity's cap (φ = azimuth about the axis,
    // t = polar angle from the outward pole direction, h = distance to the sphere's surface).
    kCodeParentCap = 1u << 0,
    kCodeChildCap = 1u << 1,
    // Fallbacks (DESIGN "Fallbacks are blended, never switched"); rigid_blend > 0 for these.
    kCodeNearAxis = 1u << 2,     // close to any bone's axis segment (a joint sphere's centre is an end of two): generator undefined
    kCodeNearFanCentre = 1u << 3,  // close to or beyond the fan centre I of its segment
    kCodeFarFromSurface = 1u << 5,  // more than half a local radius over (or under) its surface
    // In a junction's neighbourhood (docs/ALGORITHM.md "Junctions"): blended toward the rigid field by the
    // junction's weight (1 over the junction sphere's caps and wherever codes of its bones meet).
    kCodeNearJunction = 1u << 6,
    // The baseline construction was clamped somewhere for this point (a belt flag, a collapsed
    // segment, or a point that neither neighbouring bone's section covers); exempt from exact properties.
    kCodeClamped = 1u << 4,
    // Deep inside (docs/ALGORITHM.md "Deep points"): the rest detail line from the base-point meets the
    // bone's axis at `axis_foot`, and the point is more than kDeepStart of the way there; its posed point
    // is blended toward the same fraction of the way from the posed base-point to that foot
    // (detail_point, engine/baseline/deform.hpp).
    kCodeDeep = 1u << 7,
    // The point lies beyond the foot (the detail line crosses the axis before reaching it): the sign of
    // its distance from the foot along the line, which the pass cannot tell from the rest point alone.
    kCodePastAxisFoot = 1u << 8,
};
// Every flag above: what a saved code may carry (host/code_file.cpp refuses others).
constexpr std::uint16_t kAllCodeFlags = kCodeParentCap | kCodeChildCap | kCodeNearAxis | kCodeNearFanCentre | kCodeClamped |
                                        kCodeFarFromSurface | kCodeNearJunction | kCodeDeep | kCodePastAxisFoot;

// The deep blend's span, as the fraction λ = −h / H of the way from the base-point to the axis foot: 0
// up to kDeepStart (detail relief keeps the paper's direction), 1 from kDeepFull on.
constexpr double kDeepStart = 0.2;
constexpr double kDeepFull = 0.5;

struct BaselineCode {
    std::uint16_t bone;
    std::uint16_t flags;  // BaselineCodeFlag bits
    float phi;            // generator angle about the bone's axis (radians), or the cap azimuth
    float t;              // curvilinear ratio of the base-point in its section, or the cap polar angle
    float h;              // signed height of the point over its base-point (input units)
    float rigid_blend;    // weight in [0, 1] of the rigid field (rigid_motion: fallback bands, junctions, empty sections); 0 elsewhere
    float axis_foot;      // kCodeDeep: where the rest detail line meets the axis, as the distance from the
                          // parent sphere's centre along the axis (input units); 0 otherwise
};

static_assert(sizeof(BaselineCode) == 24, "the code's size is part of the documented memory budget");

}  // namespace bs
