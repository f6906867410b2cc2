// Saved baseline codes: encode once, deform later (or elsewhere) without encoding again.
//
// File layout (little-endian, version 4; version 3 the same with a clamped concave anchor on the incoming
// generator, version 2 also with t measured without a concave end's crease piece at rest, version 1 with
// 20-byte codes without the axis foot):
//   magic "BSKCODES" (8 bytes) · version u32 · bone count u32 · point count u64 ·
//   skeleton fingerprint u64 (FNV-1a over the spheres' centres and radii, the bones' sphere pairs and
//   the bridges, so a file is refused against another skeleton) ·
//   point count × { rest x, y, z as float32 } · point count × BaselineCode (24 bytes, engine/baseline/code.hpp) ·
//   checksum u64 (FNV-1a over everything before it).
// Loading checks, in order, and refuses with InputError naming the file and what was found: the magic, the
// version and the point count, read from the file's first 40 bytes (the header and the checksum's room)
// before anything more is read; that exactly the bytes the header's counts imply follow, no fewer and
// none after them (read in pieces no larger than what came before them, or 64 KiB: a header announcing
// more than the file holds costs at most twice what it holds, and a file of garbage its first 40 bytes),
// the checksum (so a damaged bone count or fingerprint reads as corruption, not as another skeleton), the
// bone count and fingerprint against the skeleton, and every code (bone index in range and no bridge,
// known flag bits, φ in [−π, π], t in its range, h and axis_foot within ±4e15, rigid_blend in [0, 1]). IoError if the file cannot be opened, read or written.
// Safe from several threads at once, one path included: where a file is replaced by a rename (written
// whole beside its place, host/output_file.hpp), a reader sees one whole file and the last writer's stays.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "engine/baseline/code.hpp"
#include "engine/vec.hpp"
#include "host/skeleton.hpp"

namespace bs {

// 4 since 2026-12-07: a concave anchor clamped off the segments lies between both generators
// (engine/geometry/belt.hpp crop_at_crossing), so version-3 codes of a joint clamped at rest would be read
// against another section; encode again. (3 since 2026-12-05: a code's t counts a concave end's crease
// piece at rest. Version-3 files also spanned the rest miss's blend and the touch of unlinked bones,
// host/baseline_rig.cpp, which they did not record; version 4 has both from its start.)
constexpr std::uint32_t kCodeFileVersion = 4;

struct SavedCodes {
    std::vector<Vec3<float>> rest;
    std::vector<BaselineCode> codes;
    // skeleton_fingerprint of the skeleton the codes were made for (BaselineSkinner::saved_codes and
    // load_codes set it): codes read against another skeleton name other bones and sections, so every
    // check below refuses a mismatch. Codes assembled by hand take skeleton_fingerprint(their skeleton).
    std::uint64_t skeleton = 0;
};

std::uint64_t skeleton_fingerprint(const Skeleton& skeleton);

// The checks load_codes makes of the content (also made by skinners built from SavedCodes, and by save_codes
// before it writes): the skeleton fingerprint, as many rest points as codes, each code's bone one of the skeleton's and no bridge, known flag bits, φ in [−π, π], h and axis_foot within ±4e15, a rest position
// within ±1e15, rigid_blend in [0, 1], t in [0, 1] (a ratio) or [0, π] for a cap code (a polar angle), h < 0
// for a deep code and kCodePastAxisFoot only with kCodeDeep. InputError
// beginning with `source`, naming the first bad point and what is wrong with it.
void validate_saved_codes(const SavedCodes& saved, const Skeleton& skeleton, const std::string& source);

void save_codes(const std::string& path, const Skeleton& skeleton, const SavedCodes& saved);
SavedCodes load_codes(const std::string& path, const Skeleton& skeleton);
// The same from a file's bytes read from `in`, as far as its header announces and one byte past that (a
// longer stream is refused, as a longer file); `source` stands for the path in messages.
SavedCodes parse_codes(std::istream& in, const Skeleton& skeleton, const std::string& source);

}  // namespace bs
