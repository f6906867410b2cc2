#include "host/bvh.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <system_error>
#include <utility>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "engine/geometry/primitives.hpp"

namespace bs {

// The UTF-8 byte-order mark some editors write first; a capture may begin with it.
constexpr const char* kUtf8ByteOrderMark = "\xEF\xBB\xBF";

namespace {

constexpr double kRadiansPerDegree = pi_value<double>() / 180.0;

// The most words a header line may hold: a whole hierarchy of kMaxBvhJoints joints on one line has at most
// 16 a joint. A frame line holds at most the channels' count (parse_frames). The words beyond are not
// kept, and a word may be at most kMaxWordBytes long: a line of 50 million values took 2.2 GB before it was
// refused, and a line was held whole before its words were counted.
constexpr std::size_t kMaxHeaderLineWords = 32 * kMaxBvhJoints;
constexpr std::size_t kMaxWordBytes = 4096;

// Whitespace-separated words with their line numbers (braces are words too, even when glued). Lines end in
// LF (CRs before it are whitespace: CR LF, or CR CR LF after a second conversion) or, in a file whose first
// line end is a CR not followed by LF, in CR (a file of CR line ends read as one line). A UTF-8 byte-order
// mark before the first word is skipped.
class Tokens {
public:
    Tokens(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

    const std::string& source() const { return source_; }
    int line() const { return line_; }

    // The next word, or "" at the end of the file.
    std::string next() {
        while (next_ == words_.size()) {
            if (!read_words(kMaxHeaderLineWords + 1)) return "";
            if (words_.size() > kMaxHeaderLineWords) fail("more than " + std::to_string(kMaxHeaderLineWords) + " words on one line");
        }
        return words_[next_++];
    }
    // The rest of the current line's words (for "Frame Time:" and the frames).
    std::vector<std::string> rest_of_line() {
        std::vector<std::string> rest(words_.begin() + std::ptrdiff_t(next_), words_.end());
        next_ = words_.size();
        return rest;
    }
    // The next line's first `keep` words (a line's words beyond are not kept); false at the end of the file.
    bool next_line(std::vector<std::string>& words, std::size_t keep) {
        if (!read_words(keep)) return false;
        words = std::exchange(words_, {});
        next_ = 0;
        return true;
    }

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_ + ":" + std::to_string(line_) + ": " + problem);
    }
    void expect(const std::string& word) {
        std::string got = next();
        if (got != word) fail(mismatch(word, got));
    }
    static std::string mismatch(const std::string& word, const std::string& got) {
        return "expected " + quoted_text(word) + ", got " + (got.empty() ? "the end of the file" : quoted_text(got));
    }
    double number() {
        std::string word = next();
        return to_number(word);
    }
    double to_number(const std::string& word) const {
        char* end = nullptr;
        double value = std::strtod(word.c_str(), &end);
        if (word.empty() || *end != '\0') fail("expected a number, got " + (word.empty() ? "the end of the file" : quoted_text(word)));
        if (!within_input_magnitude(value)) fail(std::string("expected a number ") + input_magnitude_text() + ", got " + quoted_text(word));
        return value;
    }

private:
    enum class LineEnds { undecided, lf, cr };

    std::istream& in_;
    std::string source_;
    int line_ = 0;
    std::vector<std::string> words_;  // the current line's, read up to next_
    std::size_t next_ = 0;
    LineEnds ends_ = LineEnds::undecided;
    std::size_t blank_lines_ahead_ = 0;  // CRs read while deciding that lines end in CR: blank lines

    // Reads the next line's words into words_, the first `keep` of them; false at the end of the file.
    bool read_words(std::size_t keep) {
        words_.clear();
        next_ = 0;
        ++line_;
        if (blank_lines_ahead_ > 0) {
            --blank_lines_ahead_;
            return true;
        }
        std::streambuf& in = *in_.rdbuf();
        const int eof = std::char_traits<char>::eof();
        std::string word;
        const auto flush = [&] {
            if (!word.empty() && words_.size() < keep) words_.push_back(word);
            word.clear();
        };
        bool read_any = false;
        for (int c = in.sbumpc(); c != eof; c = in.sbumpc()) {
            read_any = true;
            if (c == '\n') {
                if (ends_ == LineEnds::undecided) ends_ = LineEnds::lf;
                break;
            }
            if (c == '\r' && ends_ != LineEnds::lf) {
                if (ends_ == LineEnds::undecided) {
                    std::size_t more = 0;
                    for (; in.sgetc() == '\r'; in.sbumpc()) ++more;
                    ends_ = in.sgetc() == '\n' ? LineEnds::lf : LineEnds::cr;
                    if (ends_ == LineEnds::cr) blank_lines_ahead_ = more;
                }
                if (in.sgetc() == '\n') in.sbumpc();
                break;
            }
            if (std::isspace(c)) {
                flush();
            } else if (c == '{' || c == '}') {
                flush();
                if (words_.size() < keep) words_.push_back(std::string(1, char(c)));
            } else if (words_.size() < keep) {
                if (word.size() == kMaxWordBytes) fail("a word longer than " + std::to_string(kMaxWordBytes) + " characters");
                word += char(c);
            }
        }
        flush();
        if (!read_any) {
            --line_;
            return false;
        }
        // A UTF-8 byte-order mark (refused as 'expected "HIERARCHY", got "\xEF\xBB\xBFHIERARCHY"', two words
        // that look the same); a part of one is left, and refused so.
        const std::string bom = kUtf8ByteOrderMark;
        if (line_ == 1 && !words_.empty() && words_[0].compare(0, bom.size(), bom) == 0) {
            words_[0].erase(0, bom.size());
            if (words_[0].empty()) words_.erase(words_.begin());
        }
        return true;
    }
};

BvhChannel channel_named(Tokens& t, const std::string& name) {
    static const char* const names[] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
    for (int i = 0; i < 6; ++i)
        if (name == names[i]) return BvhChannel(i);
    t.fail("unknown channel " + quoted_text(name) + " (expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)");
}

Vec3<double> offset(Tokens& t) {
    t.expect("OFFSET");
    double x = t.number(), y = t.number(), z = t.number();
    return {x, y, z};
}

// One joint's block after its name: offset, channels, children; appends it and its children to `file`.
// `depth`: 1 for the root.
void parse_joint(Tokens& t, BvhFile& file, std::string name, int parent, std::size_t depth) {
    if (file.joints.size() >= kMaxBvhJoints) t.fail("more than " + std::to_string(kMaxBvhJoints) + " joints");
    if (depth > kMaxBvhDepth) t.fail("joints nested more than " + std::to_string(kMaxBvhDepth) + " levels deep");
    const int index = int(file.joints.size());
    BvhJoint joint;
    joint.name = std::move(name);
    joint.parent = parent;
    joint.line = t.line();
    t.expect("{");
    joint.offset = offset(t);
    t.expect("CHANNELS");
    const double count = t.number();
    if (count != std::floor(count) || count < 0 || count > 6) t.fail("a joint has 0 to 6 channels, got " + number_text(count));
    for (int c = 0; c < int(count); ++c) joint.channels.push_back(channel_named(t, t.next()));
    joint.first_channel = file.channel_count;
    file.channel_count += joint.channels.size();
    file.joints.push_back(std::move(joint));
    for (std::string word = t.next();; word = t.next()) {
        if (word == "}") return;
        if (word == "JOINT") {
            std::string child = t.next();
            if (child.empty() || child == "{") t.fail("JOINT without a name");
            parse_joint(t, file, child, index, depth + 1);
        } else if (word == "End") {
            t.expect("Site");
            BvhJoint end;
            end.name = "End Site";
            end.parent = index;
            end.end_site = true;
            end.line = t.line();
            t.expect("{");
            end.offset = offset(t);
            t.expect("}");
            if (file.joints.size() >= kMaxBvhJoints) t.fail("more than " + std::to_string(kMaxBvhJoints) + " joints");
            end.first_channel = file.channel_count;
            file.joints.push_back(std::move(end));
        } else {
            t.fail("expected JOINT, End Site or \"}\" in joint " + quoted_text(file.joints[std::size_t(index)].name) + ", got " +
                   (word.empty() ? "the end of the file" : quoted_text(word)));
        }
    }
}

void parse_motion_header(Tokens& t, BvhFile& file) {
    t.expect("MOTION");
    t.expect("Frames:");
    const double frames = t.number();
    if (frames != std::floor(frames) || frames < 1 || frames > double(kMaxBvhFrames))
        t.fail("Frames: expected a whole number in [1, " + std::to_string(kMaxBvhFrames) + "], got " + number_text(frames));
    file.frame_count = std::size_t(frames);
    t.expect("Frame");
    t.expect("Time:");
    file.frame_time = t.number();
    if (!(file.frame_time >= 1e-6 && file.frame_time <= 3600))
        t.fail("Frame Time: expected seconds in [1e-6, 3600], got " + number_text(file.frame_time));
    if (!t.rest_of_line().empty()) t.fail("unexpected words after the frame time");
}

void parse_frames(Tokens& t, BvhFile& file) {
    // Grows with the lines actually read: a header declaring millions of frames allocates nothing by itself.
    std::vector<std::string> words;
    std::size_t read = 0;
    while (read < file.frame_count) {
        if (!t.next_line(words, file.channel_count + 1))  // one more than declared tells a line of too many
            t.fail("truncated: " + std::to_string(file.frame_count) + " frames declared, " + std::to_string(read) + " found");
        if (words.empty()) continue;  // blank lines between frames are tolerated
        if (words.size() > file.channel_count)
            t.fail("frame " + std::to_string(read) + ": expected " + std::to_string(file.channel_count) +
                   " values (the channels declared), got more");
        if (words.size() != file.channel_count)
            t.fail("frame " + std::to_string(read) + ": expected " + std::to_string(file.channel_count) + " values (the channels declared), got " +
                   std::to_string(words.size()));
        for (const std::string& w : words) file.values.push_back(t.to_number(w));
        ++read;
    }
    while (t.next_line(words, 1))
        if (!words.empty()) ++file.ignored_lines;
}

Quat<double> channel_rotation(BvhChannel c, double degrees) {
    const double radians = degrees * kRadiansPerDegree;
    switch (c) {
        case BvhChannel::x_rotation: return axis_angle(Vec3<double>{1, 0, 0}, radians);
        case BvhChannel::y_rotation: return axis_angle(Vec3<double>{0, 1, 0}, radians);
        case BvhChannel::z_rotation: return axis_angle(Vec3<double>{0, 0, 1}, radians);
        default: return {1, 0, 0, 0};
    }
}

}  // namespace

BvhFile parse_bvh(std::istream& in, const std::string& source, BvhReadAs read_as) {
    Tokens t(in, source);
    BvhFile file;
    file.source = source;
    const std::string first = t.next();
    if (first != "HIERARCHY") {
        // A motion is read as a capture by its name (is_bvh_path): a JSON motion saved as .bvh came here. An
        // option that takes only captures (--capture) reads any name as one: JSON there is no capture at all,
        // whatever the name (judged by it, a .bvh or .BVH one had given the motions' hint there).
        const bool json = !first.empty() && (first[0] == '{' || first[0] == '[');
        const char* hint = !json                          ? ""
                           : read_as == BvhReadAs::motion ? " (the file looks like JSON: a JSON motion is read from a name that does not end in .bvh)"
                                                          : " (the file looks like JSON, not a BVH capture)";
        t.fail(Tokens::mismatch("HIERARCHY", first) + hint);
    }
    t.expect("ROOT");
    std::string root = t.next();
    if (root.empty() || root == "{") t.fail("ROOT without a name");
    parse_joint(t, file, root, -1, 1);
    parse_motion_header(t, file);
    if (file.channel_count == 0) t.fail("no channels: the file has no animation");
    if (file.frame_count > kMaxBvhValues / file.channel_count)
        t.fail(std::to_string(file.frame_count) + " frames of " + std::to_string(file.channel_count) + " channels exceed the limit of " +
               std::to_string(kMaxBvhValues) + " values");
    parse_frames(t, file);
    return file;
}

bool is_bvh_path(const std::string& path) {
    if (path.size() >= 4) {
        std::string extension = path.substr(path.size() - 4);
        for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (extension == ".bvh") return true;
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) return false;  // a FIFO is not read here: its reader says why
    std::ifstream in(path, std::ios::binary);
    // Past a byte-order mark, as the reader reads it (the mark, then spaces or the word).
    char mark[3] = {};
    if (!in.read(mark, 3) || std::string(mark, 3) != kUtf8ByteOrderMark) in.clear(), in.seekg(0);
    std::string first_word;
    in >> std::setw(16) >> first_word;
    return first_word == "HIERARCHY";
}

BvhFile load_bvh(const std::string& path, BvhReadAs read_as) {
    std::ifstream in = open_input_file(path, kMaxBvhFileBytes, "BVH");
    return parse_bvh(in, path, read_as);
}

std::vector<BvhJointPose> bvh_pose(const BvhFile& file, std::size_t f) {
    if (f != kBvhRest && f >= file.frame_count)
        throw InputError(file.source + ": frame " + std::to_string(f) + " out of range (" + std::to_string(file.frame_count) + " frames)");
    std::vector<BvhJointPose> poses(file.joints.size());
    for (std::size_t j = 0; j < file.joints.size(); ++j) {
        const BvhJoint& joint = file.joints[j];
        Vec3<double> translation = joint.offset;
        Quat<double> rotation{1, 0, 0, 0};
        // Position channels replace the coordinates they give; the others keep the offset's.
        Vec3<double> position_channels = joint.offset;
        if (f != kBvhRest) {
            const double* values = file.frame(f) + joint.first_channel;
            for (std::size_t c = 0; c < joint.channels.size(); ++c) {
                const BvhChannel channel = joint.channels[c];
                if (channel <= BvhChannel::z_position) {
                    (&position_channels.x)[int(channel)] = values[c];
                } else {
                    rotation = rotation * channel_rotation(channel, values[c]);
                }
            }
        }
        translation = position_channels;
        if (joint.parent < 0) {
            poses[j] = {translation, normalized(rotation)};
        } else {
            const BvhJointPose& parent = poses[std::size_t(joint.parent)];
            poses[j] = {parent.position + rotate(parent.rotation, translation), normalized(parent.rotation * rotation)};
        }
    }
    return poses;
}

}  // namespace bs
