// Baseline skinning's rest-time work (seed 000; DESIGN §2 "Encoding"): the bones of a chain as the
// per-point passes read them, and the encoding of every point into a BaselineCode (double precision,
// all cores, deterministic and independent of the thread count).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/baseline/bone.hpp"
#include "engine/baseline/code.hpp"
#include "engine/baseline/deform.hpp"
#include "host/skeleton.hpp"

namespace bs {

// One BaselineBone per skeleton bone, same order; any tree (chains, junctions, a root carrying several
// bones). Chain neighbours are linked at spheres where one bone ends and one starts; ends on a junction
// record their junction (engine/baseline/bone.hpp); each bone lists its rigid-field neighbours. Bridges
// (host/skeleton.hpp) are flagged and take no part in links, junctions or neighbour lists.
std::vector<BaselineBone<double>> make_baseline_bones(const Skeleton& skeleton);

// Widths of the fallback bands (DESIGN "Fallbacks are blended, never switched"). Inside a band the posed
// point blends toward the rigid field (engine/baseline/deform.hpp rigid_motion) with weight
// 1 − smoothstep(distance / band).
struct EncodeOptions {
    double axis_band = 0.2;        // distance to any bone's axis segment, as a fraction of its local radius
    double fan_centre_band = 0.5;  // distance to the fan centre I, as a fraction of |b − I|
    // Heights over a segment (in local radii) where the blend toward the rigid motion starts, and over
    // which it reaches 1. The start is also the height (in the smaller of two bones' mean radii) from
    // which the codes of two unlinked bones apart are wholly blended where they meet (junction_weight).
    double far_band_start = 0.5;
    double far_band_width = 1.2;
    // Width, in junction radii, of the band around the surface where two bones of a junction are equally
    // far (where their codes meet) over which the junction's weight falls from 1 to 0 (junction_weight);
    // in the smaller end sphere's radius for free ends that meet.
    double junction_band = 0.5;
    // The same band where the codes of two bones that nothing links meet, in the
    // smaller of the two bones' mean radii (docs/ALGORITHM.md "Junctions": measured against 0.5 and 2).
    double unlinked_band = 1.0;
    // Two unlinked bones of one piece (joined by chains and junctions, not by a bridge) whose volumes
    // overlap are parts of one body that touch: their codes are blended wherever they meet, on and inside
    // the surfaces too, as a junction's pair's (band: junction_band × the smaller of their mean radii).
    // Apart by more than this (in that radius) they are separate parts side by side, blended only off their
    // surfaces; between, the touch falls by smoothstep (unlinked_weight).
    double unlinked_touch_band = 0.1;
    // Sections shorter than this (in local radii, or in the bone's generator length where that is shorter) at
    // rest blend toward the rigid field, wholly at length 0
    // (segment_code in host/baseline_rig.cpp: a section cropped to nothing tells its points nothing).
    double empty_section_band = 0.01;
};

// Weight in [0, 1] of the junctions' rigid field at rest point p (docs/ALGORITHM.md "Junctions"): 1 where
// two bones of a junction, or two whose free ends lie on overlapping spheres, are the nearest bones to p
// and equally far (where their codes meet), falling to 0 over options.junction_band radii (the junction's,
// or the smaller end sphere's) of either difference; the same for any two bones that nothing links (of
// two chains that share no junction): where they touch (their volumes overlap, in one piece of the
// sphere-mesh) as a junction's pair with the band options.junction_band × the smaller of their mean radii;
// for two such bones apart (by more than options.unlinked_touch_band of that radius, or of two pieces) with
// the band options.unlinked_band × that radius, times a factor that rises from 0 on the nearer surface to 1
// at options.far_band_start of that radius off it; 0 where no such bones meet. A function of p alone, so the codes that store it stay continuous where the
// code's bone changes.
double junction_weight(const std::vector<BaselineBone<double>>& bones, Vec3<double> p, const EncodeOptions& options = {});

// A clamped code blends toward the rigid field by how far the construction misses its point at rest: from
// kRestMissStart to kRestMissFull of its bone's smaller radius (docs/ALGORITHM.md "Fallbacks").
constexpr double kRestMissStart = 1e-6;
constexpr double kRestMissFull = 1e-5;

// One point's code, as encode_points gives it. Each call works out the bones' meeting tables again (the
// junctions, the free ends that meet, the touch of every unlinked pair: a search over pairs of bones, up to
// seconds on thousands of overlapping bones): encode a point set with encode_points, which does it once.
// junction_weight does the same.
BaselineCode encode_point(const std::vector<BaselineBone<double>>& bones, Vec3<double> p,
                          const EncodeOptions& options = {});

// Throws InputError naming `source` and the vertex for a non-finite point.
std::vector<BaselineCode> encode_points(const std::vector<BaselineBone<double>>& bones,
                                        const std::vector<Vec3<double>>& points, const std::string& source,
                                        const EncodeOptions& options = {});

// The kept field bones of blended codes (engine/baseline/deform.hpp FieldBones): what the pass would
// search for each code with rigid_blend > 0 at its rest point (search_field_bones from the code's bone),
// found once here instead of every frame. `refs` has one word a code: kFieldNotKept for the codes that are
// not blended, where the search overflowed its kFieldCandidates candidates (far from a body of many
// bones) or found no bone, and for a code whose entries would take the pool past `max_pool_entries` (those
// search every frame, as before); `pool` holds the entries, code after code. Both are empty where nothing
// is kept. The pass gives the same point to the bit either way on one processor
// (tests/host/test_baseline_field_bones.cpp). Every code's bone must be one of `bones` (as the encoder and
// validate_saved_codes leave them).
struct KeptFieldBones {
    std::vector<std::uint32_t> refs;
    std::vector<FieldWeight> pool;
};
template <class T>
KeptFieldBones keep_field_bones(const std::vector<BaselineBone<double>>& bones, const std::vector<BaselineCode>& codes,
                                const std::vector<Vec3<T>>& rest, std::size_t max_pool_entries = kMaxFieldPoolEntries);

}  // namespace bs
