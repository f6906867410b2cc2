#include "host/code_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "host/errors.hpp"
#include "host/fnv1a.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

namespace {

constexpr char kMagic[8] = {'B', 'S', 'K', 'C', 'O', 'D', 'E', 'S'};
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;

// Appends and reads plain values in the host's byte order, which the format fixes as little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the code file is written in the host's (little-endian) order");

template <class T> void put(std::string& out, const T& value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); }
template <class T> T get(const std::string& in, std::size_t& at) {
    T value;
    std::memcpy(&value, in.data() + at, sizeof value);
    at += sizeof value;
    return value;
}

}  // namespace

std::uint64_t skeleton_fingerprint(const Skeleton& skeleton) {
    Fnv1a f;
    for (const Sphere<double>& s : skeleton.spheres) {
        f.add(s.centre.x);
        f.add(s.centre.y);
        f.add(s.centre.z);
        f.add(s.radius);
    }
    for (const auto& bone : skeleton.bones) {
        f.add(std::int32_t(bone[0]));
        f.add(std::int32_t(bone[1]));
    }
    // Bridges change which bone codes a point; a skeleton without them hashes as before they existed.
    for (int bridge : skeleton.bridges) f.add(std::int32_t(~bridge));
    return f.hash;
}

void save_codes(const std::string& path, const Skeleton& skeleton, const SavedCodes& saved) {
    validate_saved_codes(saved, skeleton, path);  // a file load_codes would refuse is not written
    std::string bytes(kMagic, sizeof kMagic);
    put(bytes, kCodeFileVersion);
    put(bytes, std::uint32_t(skeleton.bone_count()));
    put(bytes, std::uint64_t(saved.codes.size()));
    put(bytes, saved.skeleton);  // the skeleton's, as validate_saved_codes found
    bytes.append(reinterpret_cast<const char*>(saved.rest.data()), saved.rest.size() * sizeof(Vec3<float>));
    bytes.append(reinterpret_cast<const char*>(saved.codes.data()), saved.codes.size() * sizeof(BaselineCode));
    Fnv1a checksum;
    checksum.add(bytes.data(), bytes.size());
    put(bytes, checksum.hash);
    OutputFile out(path);
    out.write(bytes);
    out.commit();
}

SavedCodes load_codes(const std::string& path, const Skeleton& skeleton) {
    std::ifstream in = open_input_file(path, kMaxCodeFileBytes, "code");
    return parse_codes(in, skeleton, path);
}

namespace {

void require_readable(const std::istream& in, const std::string& source) {
    if (in.bad()) throw IoError(source + ": cannot read: " + std::strerror(errno));
}

// Appends up to `count` more bytes of `in` to `bytes`; whether all came (false: the stream ended first).
// Read in pieces that grow with what has come, so that a count announced by a header costs no memory
// until the stream holds it: a header of 100,000,000 points before a few bytes allocates a few bytes.
bool append_from(std::istream& in, std::uint64_t count, std::string& bytes, const std::string& source) {
    constexpr std::uint64_t kFirstPiece = 1 << 16;
    while (count > 0) {
        const std::size_t piece = std::size_t(std::min(count, std::max<std::uint64_t>(kFirstPiece, bytes.size())));
        const std::size_t at = bytes.size();
        bytes.resize(at + piece);
        in.read(&bytes[at], std::streamsize(piece));
        const std::size_t got = std::size_t(in.gcount());
        bytes.resize(at + got);
        require_readable(in, source);
        if (got < piece) return false;
        count -= piece;
    }
    return true;
}

}  // namespace

SavedCodes parse_codes(std::istream& in, const Skeleton& skeleton, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    auto refuse = [&](const std::string& what) { throw InputError(source + ": not a usable baseskin code file: " + what); };
    // The least a code file holds, its header and checksum, and nothing more until the header is checked: the
    // whole stream had been read first, and 512 MiB of garbage took 964 MB before its first 8 bytes were.
    constexpr std::size_t kFramingBytes = kHeaderBytes + 8;
    std::string bytes;
    const bool framed = append_from(in, kFramingBytes, bytes, source);
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        refuse("it does not start with the \"BSKCODES\" header" +
               (framed ? std::string() : " (" + std::to_string(bytes.size()) + " bytes in all)"));
    if (!framed)
        refuse("truncated inside its header: " + std::to_string(bytes.size()) + " bytes, where the header and the checksum alone take " +
               std::to_string(kFramingBytes));
    std::size_t at = sizeof kMagic;
    const auto version = get<std::uint32_t>(bytes, at);
    if (version != kCodeFileVersion)
        refuse("version " + std::to_string(version) + ", this build reads version " + std::to_string(kCodeFileVersion));
    const auto bones = get<std::uint32_t>(bytes, at);
    const auto count = get<std::uint64_t>(bytes, at);
    const auto fingerprint = get<std::uint64_t>(bytes, at);
    if (count > kMaxPoints)
        refuse("the header announces " + std::to_string(count) + " points, more than the " + std::to_string(kMaxPoints) +
               " a point set may have");
    // Exactly the announced points and codes: fewer, or anything after them, is refused.
    const std::uint64_t payload = count * (sizeof(Vec3<float>) + sizeof(BaselineCode));  // count <= kMaxPoints: no overflow
    const bool whole = append_from(in, payload, bytes, source);
    const bool padded = whole && in.peek() != std::istream::traits_type::eof();
    require_readable(in, source);
    if (!whole || padded)
        refuse("the header announces " + std::to_string(count) + " points (" + std::to_string(payload) + " bytes) but " +
               (padded ? std::string("more") : std::to_string(bytes.size() - kFramingBytes) + " bytes") +
               " follow it: truncated or padded");
    // The checksum before the skeleton: a damaged bone count or fingerprint is corruption, not another
    // skeleton (the version and the point count are read first: a damaged one is reported as what it says).
    Fnv1a checksum;
    checksum.add(bytes.data(), bytes.size() - 8);
    std::size_t tail = bytes.size() - 8;
    if (get<std::uint64_t>(bytes, tail) != checksum.hash) refuse("its checksum does not match: the file is corrupted");
    if (bones != skeleton.bone_count() || fingerprint != skeleton_fingerprint(skeleton))
        refuse("it was encoded for another skeleton (" + std::to_string(bones) + " bones, fingerprint " +
               std::to_string(fingerprint) + "; this one has " + std::to_string(skeleton.bone_count()) + " bones, fingerprint " +
               std::to_string(skeleton_fingerprint(skeleton)) + ")");
    SavedCodes saved;
    saved.skeleton = fingerprint;
    saved.rest.resize(count);
    saved.codes.resize(count);
    if (count > 0) {  // an empty vector's data() may be null, which memcpy must not get even for 0 bytes (fuzzing)
        std::memcpy(saved.rest.data(), bytes.data() + at, count * sizeof(Vec3<float>));
        std::memcpy(saved.codes.data(), bytes.data() + at + count * sizeof(Vec3<float>), count * sizeof(BaselineCode));
    }
    validate_saved_codes(saved, skeleton, source + ": not a usable baseskin code file");
    return saved;
}

namespace {

// The farthest two points within the coordinate bound (±kMaxInputMagnitude a coordinate) lie apart,
// rounded up: 2√3 × 1e15 = 3.46e15.
constexpr double kMostCodeDistance = 4 * kMaxInputMagnitude;

// What is wrong with one saved code and its rest point, or "" (validate_saved_codes' checks, in order).
std::string code_fault(const BaselineCode& c, const Vec3<float>& p, const Skeleton& skeleton) {
    constexpr float kPi = pi_value<float>();
    const bool cap = (c.flags & (kCodeParentCap | kCodeChildCap)) != 0, deep = (c.flags & kCodeDeep) != 0;
    if (c.bone >= skeleton.bone_count())
        return "bone " + std::to_string(c.bone) + " is not one of the skeleton's " + std::to_string(skeleton.bone_count());
    if (skeleton.is_bridge(c.bone)) return "bone " + std::to_string(c.bone) + " is a bridge, which codes no point";
    if ((c.flags & ~kAllCodeFlags) != 0) return "unknown flag bits in " + std::to_string(c.flags);
    if (!std::isfinite(c.phi)) return "phi is not finite";
    // The encoder's φ is an atan2, in (−π, π]: one beyond made the tables and the exact construction
    // disagree at rest (a probe's forged 3.4e38).
    if (!(std::fabs(c.phi) <= kPi)) return "phi " + number_text(c.phi, 7) + " is not an angle in [-pi, pi]";
    if (!(c.t >= 0.0f && c.t <= (cap ? kPi : 1.0f)))
        return "t " + number_text(c.t, 7) + (cap ? " is not a polar angle in [0, pi]" : " is not a ratio in [0, 1]");
    if (!std::isfinite(c.h) || !std::isfinite(c.axis_foot)) return "h or axis_foot is not finite";
    // A height and an axis foot are distances between points within the coordinate bound (the rest point,
    // its base-point, a sphere's centre): a forged h of 3.4e38 gave outputs of 2.5e38.
    if (!(std::fabs(c.h) <= kMostCodeDistance && std::fabs(c.axis_foot) <= kMostCodeDistance))
        return "h " + number_text(c.h, 7) + " or axis_foot " + number_text(c.axis_foot, 7) + " is beyond ±4e15 (no distance between points within ±1e15 is)";
    if (!(c.rigid_blend >= 0.0f && c.rigid_blend <= 1.0f)) return "rigid_blend " + number_text(c.rigid_blend, 7) + " is not in [0, 1]";
    if (!within_input_magnitude(Vec3<double>(p))) return std::string("its rest position is ") + outside_input_magnitude_text();
    // A deep code lies below its surface, and only a deep code has a side of its foot.
    if (deep && !(c.h < 0.0f)) return "a deep code with h " + number_text(c.h, 7) + " (a deep code lies below its surface)";
    if (!deep && (c.flags & kCodePastAxisFoot)) return "the past-the-axis-foot flag without the deep flag";
    return "";
}

}  // namespace

void validate_saved_codes(const SavedCodes& saved, const Skeleton& skeleton, const std::string& given_source) {
    const std::string source = shown_source(given_source);  // the caller's name, escaped where it must be (errors.hpp)
    if (saved.skeleton != skeleton_fingerprint(skeleton))
        throw InputError(source + ": the codes were made for another skeleton (fingerprint " + std::to_string(saved.skeleton) +
                         "; this one's is " + std::to_string(skeleton_fingerprint(skeleton)) +
                         "; codes assembled by hand take SavedCodes::skeleton = skeleton_fingerprint(skeleton))");
    if (saved.rest.size() != saved.codes.size())
        throw InputError(source + ": " + std::to_string(saved.rest.size()) + " rest points but " +
                         std::to_string(saved.codes.size()) + " codes");
    for (std::size_t i = 0; i < saved.codes.size(); ++i) {
        const std::string fault = code_fault(saved.codes[i], saved.rest[i], skeleton);
        if (!fault.empty()) throw InputError(source + ": point " + std::to_string(i) + ": " + fault);
    }
}

}  // namespace bs
