#include "host/ply.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "host/box.hpp"
#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"
#include "host/system_memory.hpp"
#include "host/weights.hpp"

namespace bs {

PlyProperty* PlyElement::find(const std::string& property_name) {
    for (PlyProperty& p : properties)
        if (p.name == property_name) return &p;
    return nullptr;
}

const PlyProperty* PlyElement::find(const std::string& property_name) const {
    return const_cast<PlyElement*>(this)->find(property_name);
}

PlyElement* PlyFile::find(const std::string& element_name) {
    for (PlyElement& e : elements)
        if (e.name == element_name) return &e;
    return nullptr;
}

const PlyElement* PlyFile::find(const std::string& element_name) const {
    return const_cast<PlyFile*>(this)->find(element_name);
}

namespace {

// ---------------------------------------------------------------------------------------------------
// Types, messages

struct TypeInfo {
    const char* name;   // as written
    const char* alias;  // also accepted when reading
    std::size_t size;   // bytes in binary files
    bool integer;
    double lowest, highest;  // integer types only
};

constexpr TypeInfo kTypes[] = {
    {"char", "int8", 1, true, -128.0, 127.0},
    {"uchar", "uint8", 1, true, 0.0, 255.0},
    {"short", "int16", 2, true, -32768.0, 32767.0},
    {"ushort", "uint16", 2, true, 0.0, 65535.0},
    {"int", "int32", 4, true, -2147483648.0, 2147483647.0},
    {"uint", "uint32", 4, true, 0.0, 4294967295.0},
    {"float", "float32", 4, false, 0.0, 0.0},
    {"double", "float64", 8, false, 0.0, 0.0},
};

const TypeInfo& info(PlyType t) { return kTypes[static_cast<int>(t)]; }

bool parse_type(std::string_view word, PlyType& out) {
    for (int i = 0; i < 8; ++i) {
        if (word == kTypes[i].name || word == kTypes[i].alias) {
            out = static_cast<PlyType>(i);
            return true;
        }
    }
    return false;
}

// Whether v can be stored as t: integer types need an integral value in range; float needs inf, nan
// or a value that rounds to a finite float (below the midpoint of FLT_MAX and 2^128).
bool fits(PlyType t, double v) {
    const TypeInfo& ti = info(t);
    if (ti.integer) return v >= ti.lowest && v <= ti.highest && v == static_cast<double>(static_cast<std::int64_t>(v));
    return t == PlyType::Float64 || !std::isfinite(v) || std::fabs(v) < 0x1.ffffffp127;
}

// Text from a file as shown in a message: in single quotes, cut at 40 characters, control characters and
// bytes that are not UTF-8 as \xHH (host/errors.hpp).
std::string shown(std::string_view text) { return quoted_text(text, '\''); }

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& what) {
    throw InputError(path + ": " + where + ": " + what);
}

std::string line_at(std::size_t line) { return "line " + std::to_string(line); }

std::string row_of(const PlyElement& e, std::size_t row) {
    return "element " + shown(e.name) + " row " + std::to_string(row);
}

std::string property_of(const PlyElement& e, const PlyProperty& p) {
    return "element " + shown(e.name) + ", property " + shown(p.name);
}

bool host_is_little_endian() {
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Element and property names: non-empty, no whitespace or control characters (UTF-8 is fine).
bool valid_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u > ' ' && u != 127;
    });
}

// ---------------------------------------------------------------------------------------------------
// Header

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && is_blank(line[i])) ++i;
        if (i == line.size()) return out;
        std::size_t start = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        out.push_back(line.substr(start, i - start));
    }
}

// What follows the first word and one separator: the text of a comment or obj_info line.
std::string rest_after_keyword(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_blank(line[i])) ++i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i < line.size()) ++i;
    return std::string(line.substr(i));
}

class HeaderParser {
public:
    HeaderParser(const std::string& path, std::string_view text) : path_(path), text_(text) {}

    // Fills file's format, comments, obj_info and elements (without values); returns the offset of
    // the first data byte.
    std::size_t parse(PlyFile& file);
    std::size_t last_line() const { return line_; }

private:
    bool next_line(std::string_view& line);
    void keyword(std::string_view line, const std::vector<std::string_view>& w, PlyFile& file);
    PlyFormat format(const std::vector<std::string_view>& w) const;
    void element(const std::vector<std::string_view>& w, PlyFile& file);
    std::size_t count(std::string_view word) const;
    void property(const std::vector<std::string_view>& w, PlyFile& file);
    PlyType type(std::string_view word) const;
    std::string name(std::string_view word) const;
    std::string text(std::string_view line) const;  // a comment's or obj_info's: after the keyword
    std::string checked_text(std::string t) const;  // t, unless it holds a CR
    [[noreturn]] void fail(const std::string& what) const { bs::fail(path_, line_at(line_), what); }

    const std::string& path_;
    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t line_ = 0;
    bool have_format_ = false;
    // The names seen so far, for the duplicate checks (a search of the element's list made a header of
    // 200,000 properties take 111 s).
    std::unordered_set<std::string> element_names_, property_names_;  // the latter of the last element
};

bool HeaderParser::next_line(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = std::min(end + 1, text_.size());
    ++line_;
    return true;
}

std::size_t HeaderParser::parse(PlyFile& file) {
    if (text_.empty()) bs::fail(path_, "line 1", "the file is empty (a PLY file starts with the line 'ply')");
    // A UTF-8 byte-order mark, which Windows editors write first in a text file, is passed over (as the
    // BVH reader does): it can belong to no PLY keyword, so nothing else could have been meant.
    constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
    if (text_.substr(0, byte_order_mark.size()) == byte_order_mark) pos_ = byte_order_mark.size();
    std::string_view line;
    const bool has_line = next_line(line);
    const std::vector<std::string_view> first = words(line);
    if (!has_line || first.size() != 1 || first[0] != "ply") {
        // Lines ended by CR alone (classic Mac OS) are refused: where a binary body starts after such a
        // header, a CR LF could not be told from a CR and a first data byte of 10.
        const bool cr_ends = line.substr(0, 4) == "ply\r";
        bs::fail(path_, "line 1", "expected the 'ply' magic line, found " + shown(line) +
                                      (cr_ends ? " (the lines end in CR alone: a PLY file's lines end in LF or CR LF)" : ""));
    }
    while (next_line(line)) {
        const std::vector<std::string_view> w = words(line);
        if (w.empty()) continue;
        if (w[0] == "end_header") {
            if (!have_format_) fail("the header has no 'format' line");
            return pos_;
        }
        keyword(line, w, file);
    }
    fail("the header ends without 'end_header'");
}

void HeaderParser::keyword(std::string_view line, const std::vector<std::string_view>& w, PlyFile& file) {
    if (w[0] == "comment") {
        file.comments.push_back(text(line));
    } else if (w[0] == "obj_info") {
        file.obj_info.push_back(text(line));
    } else if (w[0] == "format") {
        if (have_format_) fail("a second 'format' line");
        file.format = format(w);
        have_format_ = true;
    } else if (w[0] == "element") {
        element(w, file);
    } else if (w[0] == "property") {
        property(w, file);
    } else if (file.elements.empty()) {
        // Before the first element a line of no keyword can change no element's layout, and some
        // writers put free text there (Blender 2.47: "Created by Blender3D 247 - www.blender.org, …",
        // Debian's assimp-testmodels PLY/Wuson.ply): it is kept, whole, as a comment.
        file.comments.push_back(checked_text(std::string(line)));
    } else {
        fail("unknown header keyword " + shown(w[0]) +
             " (expected format, comment, obj_info, element, property or end_header; free text is taken only before the first element)");
    }
}

PlyFormat HeaderParser::format(const std::vector<std::string_view>& w) const {
    const std::string expected = "expected 'format <ascii|binary_little_endian|binary_big_endian> 1.0'";
    if (w.size() != 3) fail("bad format line: " + expected);
    if (w[2] != "1.0") fail("unsupported format version " + shown(w[2]) + ": " + expected);
    if (w[1] == "ascii") return PlyFormat::Ascii;
    if (w[1] == "binary_little_endian") return PlyFormat::BinaryLittleEndian;
    if (w[1] == "binary_big_endian") return PlyFormat::BinaryBigEndian;
    fail("unknown format " + shown(w[1]) + ": " + expected);
}

void HeaderParser::element(const std::vector<std::string_view>& w, PlyFile& file) {
    if (w.size() != 3) fail("bad element line: expected 'element <name> <count>'");
    PlyElement e;
    e.name = name(w[1]);
    if (!element_names_.insert(e.name).second) fail("duplicate element " + shown(e.name));
    property_names_.clear();
    e.count = count(w[2]);
    file.elements.push_back(std::move(e));
}

std::size_t HeaderParser::count(std::string_view word) const {
    if (word[0] == '-') fail("element count " + shown(word) + " is negative");
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
    if (ec == std::errc::result_out_of_range) fail("element count " + shown(word) + " is absurdly large");
    if (ec != std::errc() || end != word.data() + word.size())
        fail("element count " + shown(word) + " is not a non-negative integer");
    return static_cast<std::size_t>(n);
}

void HeaderParser::property(const std::vector<std::string_view>& w, PlyFile& file) {
    if (file.elements.empty()) fail("property before any element");
    PlyElement& e = file.elements.back();
    PlyProperty p;
    if (w.size() == 5 && w[1] == "list") {
        p.is_list = true;
        p.count_type = type(w[2]);
        if (!info(p.count_type).integer) fail("list count type " + shown(w[2]) + " is not an integer type");
        p.type = type(w[3]);
    } else if (w.size() == 3 && w[1] != "list") {
        p.type = type(w[1]);
    } else {
        fail("bad property line: expected 'property <type> <name>' or "
             "'property list <count type> <item type> <name>'");
    }
    p.name = name(w.back());
    if (!property_names_.insert(p.name).second) fail("duplicate property " + shown(p.name) + " in element " + shown(e.name));
    e.properties.push_back(std::move(p));
}

std::string HeaderParser::name(std::string_view word) const {
    if (!valid_name(word)) fail("name " + shown(word) + " contains control characters");
    return std::string(word);
}

// A comment's or obj_info's text. A CR left in it (a CR LF ending is gone by now) is a line break to
// write_ply, which could then not write back what was read (found by fuzzing): refused here too.
std::string HeaderParser::text(std::string_view line) const { return checked_text(rest_after_keyword(line)); }

std::string HeaderParser::checked_text(std::string t) const {
    if (t.find('\r') != std::string::npos)
        fail("carriage return inside the text " + shown(t) + " (a line may only end in CR LF)");
    return t;
}

PlyType HeaderParser::type(std::string_view word) const {
    PlyType t;
    if (!parse_type(word, t))
        fail("unknown type " + shown(word) + " (expected char, uchar, short, ushort, int, uint, float, double"
             " or int8, uint8, int16, uint16, int32, uint32, float32, float64)");
    return t;
}

// ---------------------------------------------------------------------------------------------------
// Data

// Sizes the element's columns for its rows; list items are appended while reading.
void allocate(PlyElement& e) {
    for (PlyProperty& p : e.properties) {
        if (p.is_list) p.counts.assign(e.count, 0);
        else p.values.assign(e.count, 0.0);
    }
}

template <class T>
double load(const char* p, bool swap) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, p, sizeof(T));
    if (swap) std::reverse(bytes, bytes + sizeof(T));
    T v;
    std::memcpy(&v, bytes, sizeof(T));
    return static_cast<double>(v);
}

double load_value(PlyType t, const char* p, bool swap) {
    switch (t) {
        case PlyType::Int8: return load<std::int8_t>(p, swap);
        case PlyType::UInt8: return load<std::uint8_t>(p, swap);
        case PlyType::Int16: return load<std::int16_t>(p, swap);
        case PlyType::UInt16: return load<std::uint16_t>(p, swap);
        case PlyType::Int32: return load<std::int32_t>(p, swap);
        case PlyType::UInt32: return load<std::uint32_t>(p, swap);
        case PlyType::Float32: return load<float>(p, swap);
        case PlyType::Float64: break;
    }
    return load<double>(p, swap);
}

class BinaryReader {
public:
    // Reads bytes from `offset` (the first byte after the header) on.
    BinaryReader(const std::string& path, std::string_view bytes, std::size_t offset, bool swap)
        : path_(path), begin_(bytes.data()), p_(bytes.data() + offset), end_(bytes.data() + bytes.size()), swap_(swap) {}

    void element(PlyElement& e);
    void finish() const;

private:
    std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
    double value(PlyType t) {
        const std::size_t size = info(t).size;
        if (left() < size) truncated();
        const double v = load_value(t, p_, swap_);
        p_ += size;
        return v;
    }
    void list(PlyProperty& p);
    [[noreturn]] void truncated() const;

    const std::string& path_;
    const char* begin_;
    const char* p_;
    const char* end_;
    bool swap_;
    const PlyElement* e_ = nullptr;
    std::size_t row_ = 0;
    std::size_t row_bytes_ = 0;  // the least a row of e_ can take
};

void BinaryReader::element(PlyElement& e) {
    e_ = &e;
    row_bytes_ = 0;
    for (const PlyProperty& p : e.properties) row_bytes_ += info(p.is_list ? p.count_type : p.type).size;
    row_ = left() / row_bytes_;
    if (e.count > row_) truncated();  // before allocating: a huge count cannot cause a huge allocation
    allocate(e);
    for (row_ = 0; row_ < e.count; ++row_) {
        for (PlyProperty& p : e.properties) {
            if (p.is_list) list(p);
            else p.values[row_] = value(p.type);
        }
    }
}

void BinaryReader::list(PlyProperty& p) {
    const double n = value(p.count_type);
    const std::size_t item = info(p.type).size;
    if (n < 0) fail(path_, row_of(*e_, row_), "list " + shown(p.name) + " has a negative count " + number_text(n));
    if (n > static_cast<double>(left() / item))
        fail(path_, row_of(*e_, row_),
             "list " + shown(p.name) + " of " + number_text(n) + " items runs past the end of the file (" +
                 std::to_string(left()) + " bytes left)");
    p.counts[row_] = static_cast<std::uint32_t>(n);
    for (std::uint32_t i = 0; i < p.counts[row_]; ++i) p.values.push_back(value(p.type));
}

void BinaryReader::truncated() const {
    fail(path_, row_of(*e_, row_),
         "unexpected end of binary data (the header declares " + std::to_string(e_->count) +
             " rows of at least " + std::to_string(row_bytes_) + " bytes; " + std::to_string(left()) +
             " bytes left at byte offset " + std::to_string(p_ - begin_) + " of the file)");
}

void BinaryReader::finish() const {
    if (p_ != end_)
        fail(path_, "byte offset " + std::to_string(p_ - begin_),
             std::to_string(left()) + " unexpected bytes after the last element (wrong counts or types in the header?)");
}

class AsciiReader {
public:
    AsciiReader(const std::string& path, std::string_view text, std::size_t first_line)
        : path_(path), p_(text.data()), end_(text.data() + text.size()), line_(first_line) {}

    void element(PlyElement& e);
    void finish();

private:
    std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
    bool start_row();
    std::string_view token();
    double value(const PlyProperty& p, PlyType t, bool is_count);
    void list(PlyProperty& p);
    void end_row();
    std::string here() const { return line_at(line_) + ": " + row_of(*e_, row_); }
    [[noreturn]] void fail_value(const PlyProperty& p, bool is_count, const std::string& what) const {
        fail(path_, here() + ", property " + shown(p.name) + (is_count ? " (list count)" : ""), what);
    }

    const std::string& path_;
    const char* p_;
    const char* end_;
    std::size_t line_;
    const PlyElement* e_ = nullptr;
    std::size_t row_ = 0;
};

void AsciiReader::element(PlyElement& e) {
    e_ = &e;
    start_row();  // so that a message names the element's first line
    // Each row holds at least one value per property, each value one character and a separator
    // (the last row of the file may lack its line break).
    const std::size_t row_bytes = 2 * e.properties.size();
    if (e.count > (left() + 1) / row_bytes)
        fail(path_, line_at(line_),
             "element " + shown(e.name) + " declares " + std::to_string(e.count) + " rows but only " +
                 std::to_string(left()) + " bytes remain (a row takes at least " + std::to_string(row_bytes) + ")");
    allocate(e);
    for (row_ = 0; row_ < e.count; ++row_) {
        if (!start_row())
            fail(path_, line_at(line_),
                 "unexpected end of file: element " + shown(e.name) + " declares " + std::to_string(e.count) +
                     " rows, found " + std::to_string(row_));
        for (PlyProperty& p : e.properties) {
            if (p.is_list) list(p);
            else p.values[row_] = value(p, p.type, false);
        }
        end_row();
    }
}

// Skips blank lines; false at the end of the text.
bool AsciiReader::start_row() {
    for (; p_ != end_ && (is_blank(*p_) || *p_ == '\n'); ++p_)
        if (*p_ == '\n') ++line_;
    return p_ != end_;
}

// The next word on the current line; empty at the end of the line.
std::string_view AsciiReader::token() {
    while (p_ != end_ && is_blank(*p_)) ++p_;
    const char* start = p_;
    while (p_ != end_ && !is_blank(*p_) && *p_ != '\n') ++p_;
    return std::string_view(start, static_cast<std::size_t>(p_ - start));
}

// A number token read by C's strtod in the "C" locale, whatever the program's: ±HUGE_VAL where it overflows,
// the nearest double (0 or a subnormal, its sign kept) where it underflows.
double c_locale_strtod(std::string_view token) {
    static const locale_t c_numeric = newlocale(LC_NUMERIC_MASK, "C", locale_t(0));
    const std::string text(token);
    return strtod_l(text.c_str(), nullptr, c_numeric);
}

// Parses a whole token; errc::invalid_argument if it is not a number of that kind, result_out_of_range
// beyond the type's range. A leading '+' is taken (C's strtod and most PLY readers take it; from_chars does
// not), but not before another sign. A real too small for a double (1e-400) is read as its nearest double,
// 0 or a subnormal, as a float column's 1e-50 is read as the float 0 and the JSON and BVH readers read
// such numbers (it had been refused as "out of range for double"); one too large stays refused.
std::errc parse_number(std::string_view token, bool integer, double& out) {
    if (token.size() > 1 && token[0] == '+' && token[1] != '+' && token[1] != '-') token.remove_prefix(1);
    const char* last = token.data() + token.size();
    std::from_chars_result r;
    if (integer) {
        long long i = 0;
        r = std::from_chars(token.data(), last, i);
        out = static_cast<double>(i);
    } else {
        r = std::from_chars(token.data(), last, out);
        if (r.ec == std::errc::result_out_of_range && r.ptr == last) {
            const double nearest = c_locale_strtod(token);
            if (std::isfinite(nearest)) {
                out = nearest;
                return std::errc();
            }
        }
    }
    return r.ec == std::errc() && r.ptr != last ? std::errc::invalid_argument : r.ec;
}

double AsciiReader::value(const PlyProperty& p, PlyType t, bool is_count) {
    const std::string_view tok = token();
    const char* type = info(t).name;
    if (tok.empty()) fail_value(p, is_count, std::string("expected a ") + type + " value, found the end of the line");
    double v = 0;
    const std::errc ec = parse_number(tok, info(t).integer, v);
    if (ec == std::errc::invalid_argument) fail_value(p, is_count, std::string("expected a ") + type + " value, found " + shown(tok));
    if (is_count && v < 0) fail_value(p, is_count, "list count " + shown(tok) + " is negative");
    if (ec != std::errc() || !fits(t, v)) fail_value(p, is_count, "value " + shown(tok) + " is out of range for " + type);
    return t == PlyType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
}

void AsciiReader::list(PlyProperty& p) {
    p.counts[row_] = static_cast<std::uint32_t>(value(p, p.count_type, true));
    for (std::uint32_t i = 0; i < p.counts[row_]; ++i) p.values.push_back(value(p, p.type, false));
}

void AsciiReader::end_row() {
    const std::string_view extra = token();
    if (!extra.empty())
        fail(path_, here(), "unexpected extra value " + shown(extra) + " (the header declares " +
                  std::to_string(e_->properties.size()) + " properties)");
}

void AsciiReader::finish() {
    if (start_row()) fail(path_, line_at(line_), "unexpected data after the last element: " + shown(token()));
}

template <class Reader>
void read_data(Reader&& reader, PlyFile& file) {
    for (PlyElement& e : file.elements)
        if (!e.properties.empty()) reader.element(e);
    reader.finish();
}

// How much of a file is read first for its header: a header that ends within it is checked (its counts and
// the memory its data takes, check_header_first) before the whole file is read; a longer one (comments) is
// checked once the file is read, by parse_ply.
constexpr std::size_t kHeaderProbeBytes = 1 << 16;

std::string read_whole_file(const std::string& path, const std::function<void(const PlyFile&, std::uintmax_t)>& check_header_first) {
    std::ifstream in = open_input_file(path, kMaxPlyFileBytes, "PLY");
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw IoError(path + ": cannot read its size (" + ec.message() + ")");
    if (size > kMaxPlyFileBytes) throw IoError(path + ": it grew while being opened");
    std::string bytes(std::min<std::uintmax_t>(size, kHeaderProbeBytes), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
        throw IoError(path + ": cannot read (the file is shorter than its size)");
    const std::size_t header_end = bytes.find("end_header");
    if (check_header_first && header_end != std::string::npos && bytes.find('\n', header_end) != std::string::npos) {
        PlyFile header;
        HeaderParser(path, bytes).parse(header);
        check_header_first(header, size);
    }
    const std::size_t probed = bytes.size();
    if (probed == size) return bytes;
    bytes.resize(size);
    if (!in.read(bytes.data() + probed, static_cast<std::streamsize>(size - probed)))
        throw IoError(path + ": cannot read (the file is shorter than its size)");
    return bytes;
}

// ---------------------------------------------------------------------------------------------------
// Writing

void check_name(const std::string& path, const std::string& kind, const std::string& name) {
    if (!valid_name(name))
        fail(path, kind + " " + shown(name), "a name must be non-empty, without whitespace or control characters");
}

void check_header_text(const std::string& path, const std::vector<std::string>& lines, const char* keyword) {
    for (const std::string& text : lines)
        if (text.find_first_of("\r\n") != std::string::npos)
            fail(path, keyword, shown(text) + " contains a line break");
}

void check_column(const std::string& path, const PlyElement& e, const PlyProperty& p) {
    const std::string where = property_of(e, p);
    if (!p.is_list) {
        if (p.values.size() != e.count)
            fail(path, where, std::to_string(p.values.size()) + " values for " + std::to_string(e.count) + " rows");
        return;
    }
    if (!info(p.count_type).integer) fail(path, where, std::string("list count type ") + info(p.count_type).name + " is not an integer type");
    if (p.counts.size() != e.count)
        fail(path, where, std::to_string(p.counts.size()) + " list counts for " + std::to_string(e.count) + " rows");
    const std::uint64_t items = std::accumulate(p.counts.begin(), p.counts.end(), std::uint64_t{0});
    if (items != p.values.size())
        fail(path, where, "the list counts add up to " + std::to_string(items) + " but there are " +
                              std::to_string(p.values.size()) + " items");
}

void check_model(const std::string& path, const PlyFile& file, PlyFormat format) {
    if (format == PlyFormat::BinaryBigEndian) fail(path, "write_ply", "writing binary_big_endian is not supported");
    check_header_text(path, file.comments, "comment");
    check_header_text(path, file.obj_info, "obj_info");
    // Names seen in sets: a search of the lists made a model of 200,000 properties take 41 s.
    std::unordered_set<std::string_view> elements;
    for (const PlyElement& e : file.elements) {
        check_name(path, "element", e.name);
        if (!elements.insert(e.name).second) fail(path, "element " + shown(e.name), "duplicate element name");
        std::unordered_set<std::string_view> properties;
        for (const PlyProperty& p : e.properties) {
            check_name(path, "property", p.name);
            if (!properties.insert(p.name).second) fail(path, property_of(e, p), "duplicate property name");
            check_column(path, e, p);
        }
    }
}

std::string header_text(const PlyFile& file, PlyFormat format) {
    std::string h = "ply\nformat ";
    h += format == PlyFormat::Ascii ? "ascii 1.0\n" : "binary_little_endian 1.0\n";
    for (const std::string& c : file.comments) h += "comment " + c + "\n";
    for (const std::string& o : file.obj_info) h += "obj_info " + o + "\n";
    for (const PlyElement& e : file.elements) {
        h += "element " + e.name + " " + std::to_string(e.count) + "\n";
        for (const PlyProperty& p : e.properties) {
            h += "property ";
            if (p.is_list) h += std::string("list ") + info(p.count_type).name + " ";
            h += std::string(info(p.type).name) + " " + p.name + "\n";
        }
    }
    return h + "end_header\n";
}

// A file written through a buffer of about a megabyte, whole or not at all (host/output_file.hpp).
class Output {
public:
    explicit Output(OutputFile& file) : file_(file) {}

    std::string& buffer() { return buffer_; }
    void flush_if_full() {
        if (buffer_.size() >= (1u << 20)) flush();
    }
    void close() { flush(); }

private:
    void flush() {
        file_.write(buffer_);
        buffer_.clear();
    }

    OutputFile& file_;
    std::string buffer_;
};

template <class T>
void store(std::string& out, double v, bool swap) {
    const T x = static_cast<T>(v);
    char bytes[sizeof(T)];
    std::memcpy(bytes, &x, sizeof(T));
    if (swap) std::reverse(bytes, bytes + sizeof(T));
    out.append(bytes, sizeof(T));
}

void store_binary(std::string& out, PlyType t, double v, bool swap) {
    switch (t) {
        case PlyType::Int8: return store<std::int8_t>(out, v, swap);
        case PlyType::UInt8: return store<std::uint8_t>(out, v, swap);
        case PlyType::Int16: return store<std::int16_t>(out, v, swap);
        case PlyType::UInt16: return store<std::uint16_t>(out, v, swap);
        case PlyType::Int32: return store<std::int32_t>(out, v, swap);
        case PlyType::UInt32: return store<std::uint32_t>(out, v, swap);
        case PlyType::Float32: return store<float>(out, v, swap);
        case PlyType::Float64: break;
    }
    store<double>(out, v, swap);
}

// Shortest text that reads back to the same value of type t, then a space.
void store_ascii(std::string& out, PlyType t, double v) {
    char text[40];
    char* end;
    if (info(t).integer) end = std::to_chars(text, text + sizeof text, static_cast<long long>(v)).ptr;
    else if (t == PlyType::Float32) end = std::to_chars(text, text + sizeof text, static_cast<float>(v)).ptr;
    else end = std::to_chars(text, text + sizeof text, v).ptr;
    *end++ = ' ';
    out.append(text, end);
}

class Encoder {
public:
    Encoder(const std::string& path, PlyFormat format, Output& out)
        : path_(path), ascii_(format == PlyFormat::Ascii), swap_(!host_is_little_endian()), out_(out) {}

    void element(const PlyElement& e);

private:
    void value(PlyType t, double v, const PlyElement& e, std::size_t row, const PlyProperty& p) {
        if (!fits(t, v))
            fail(path_, row_of(e, row) + ", property " + shown(p.name),
                 "value " + number_text(v) + " does not fit its type " + info(t).name);
        if (ascii_) store_ascii(out_.buffer(), t, v);
        else store_binary(out_.buffer(), t, v, swap_);
    }

    const std::string& path_;
    bool ascii_;
    bool swap_;
    Output& out_;
};

void Encoder::element(const PlyElement& e) {
    std::vector<std::size_t> next_item(e.properties.size(), 0);
    for (std::size_t row = 0; row < e.count; ++row) {
        for (std::size_t k = 0; k < e.properties.size(); ++k) {
            const PlyProperty& p = e.properties[k];
            if (!p.is_list) {
                value(p.type, p.values[row], e, row, p);
                continue;
            }
            value(p.count_type, p.counts[row], e, row, p);
            for (std::uint32_t i = 0; i < p.counts[row]; ++i) value(p.type, p.values[next_item[k]++], e, row, p);
        }
        if (ascii_) out_.buffer().back() = '\n';  // replaces the space after the row's last value
        out_.flush_if_full();
    }
}

// ---------------------------------------------------------------------------------------------------
// Point sets

constexpr const char* kInfluenceNames[2 * kMaxInfluences] = {"bone0",   "bone1",   "bone2",   "bone3",
                                                             "weight0", "weight1", "weight2", "weight3"};

const PlyProperty& scalar_column(const std::string& path, const PlyElement& e, const std::string& name, bool integer) {
    const PlyProperty* p = e.find(name);
    if (!p) fail(path, "element " + shown(e.name), "missing property " + shown(name));
    if (p->is_list || info(p->type).integer != integer)
        fail(path, property_of(e, *p),
             std::string("expected a scalar of type ") +
                 (integer ? "char, uchar, short, ushort, int or uint" : "float or double") + ", found " +
                 (p->is_list ? "a list" : info(p->type).name));
    return *p;
}

std::string vertex_at(std::size_t i) { return "vertex " + std::to_string(i); }

std::vector<Vec3<double>> read_positions(const std::string& path, const PlyElement& v) {
    const PlyProperty& x = scalar_column(path, v, "x", false);
    const PlyProperty& y = scalar_column(path, v, "y", false);
    const PlyProperty& z = scalar_column(path, v, "z", false);
    std::vector<Vec3<double>> out(v.count);
    for (std::size_t i = 0; i < v.count; ++i) {
        out[i] = {x.values[i], y.values[i], z.values[i]};
        if (!all_finite(out[i]))
            fail(path, vertex_at(i),
                 "position (" + number_text(out[i].x) + ", " + number_text(out[i].y) + ", " +
                     number_text(out[i].z) + ") is not finite");
    }
    return out;
}

// Vertex i's influences as written (weights checked and scaled by read_influences).
Influences influences_of(const std::string& path, std::size_t i, const PlyProperty* const* columns) {
    Influences inf;
    for (int k = 0; k < kMaxInfluences; ++k) {
        const double bone = columns[k]->values[i], weight = columns[kMaxInfluences + k]->values[i];
        // Exporters write -1 in a point's empty slots: a slot of weight 0 names no bone.
        if (bone < 0 && weight != 0)
            fail(path, vertex_at(i), "bone" + std::to_string(k) + " = " + number_text(bone) + " is negative (its weight is " + number_text(weight) + ")");
        inf.bone[k] = bone < 0 ? 0 : static_cast<std::uint32_t>(bone);
        inf.weight[k] = static_cast<float>(weight);
    }
    return inf;
}

std::vector<Influences> read_influences(const std::string& path, const PlyElement& v) {
    std::string missing;
    int present = 0;
    for (const char* name : kInfluenceNames) {
        if (v.find(name)) ++present;
        else missing += (missing.empty() ? "" : ", ") + std::string(name);
    }
    if (present == 0) return {};
    if (!missing.empty())
        fail(path, "element 'vertex'",
             "has some influence properties but lacks " + missing +
                 " (influences need all of bone0..bone3 and weight0..weight3)");
    const PlyProperty* columns[2 * kMaxInfluences];
    for (int k = 0; k < 2 * kMaxInfluences; ++k)
        columns[k] = &scalar_column(path, v, kInfluenceNames[k], k < kMaxInfluences);
    std::vector<Influences> out(v.count);
    for (std::size_t i = 0; i < v.count; ++i) out[i] = influences_of(path, i, columns);
    validate_weights(out, path);  // the skeleton's checks come with a skinner (validate_influences)
    normalize_weights(out);
    return out;
}

// The values of e's scalar property `name`, appended with type_if_new if e has none, sized to e.count.
std::vector<double>& column(const std::string& path, PlyElement& e, const std::string& name, PlyType type_if_new) {
    PlyProperty* p = e.find(name);
    if (!p) {
        e.properties.emplace_back();
        p = &e.properties.back();
        p->name = name;
        p->type = type_if_new;
    }
    if (p->is_list) fail(path, property_of(e, *p), "is a list; the point set needs a scalar");
    p->values.resize(e.count);
    return p->values;
}

void check_point_set(const std::string& path, const PointSet& set, const PlyElement* vertex) {
    if (!vertex) fail(path, "write_point_set", "the point set's file has no 'vertex' element");
    if (set.positions.size() != vertex->count)
        fail(path, "write_point_set",
             std::to_string(set.positions.size()) + " positions for a vertex element of " +
                 std::to_string(vertex->count) + " rows");
    if (!set.influences.empty() && set.influences.size() != vertex->count)
        fail(path, "write_point_set",
             std::to_string(set.influences.size()) + " influences for " + std::to_string(vertex->count) + " vertices");
    for (std::size_t i = 0; i < set.positions.size(); ++i)
        if (!all_finite(set.positions[i])) fail(path, vertex_at(i), "position is not finite");
}

void set_influences(const std::string& path, PlyElement& v, const std::vector<Influences>& influences) {
    for (int k = 0; k < kMaxInfluences; ++k) {
        std::vector<double>& bone = column(path, v, kInfluenceNames[k], PlyType::Int32);
        for (std::size_t i = 0; i < v.count; ++i) bone[i] = influences[i].bone[k];
    }
    for (int k = 0; k < kMaxInfluences; ++k) {
        std::vector<double>& weight = column(path, v, kInfluenceNames[kMaxInfluences + k], PlyType::Float32);
        for (std::size_t i = 0; i < v.count; ++i) weight[i] = influences[i].weight[k];
    }
}

}  // namespace

double ply_bytes_as_read(const PlyFile& header, std::size_t file_bytes, std::size_t data_bytes) {
    double bytes = double(file_bytes);
    for (const PlyElement& e : header.elements) {
        // The least a row takes in the file (as the readers count it: they refuse more rows than fit) and
        // in memory (a double a scalar, a list's count without its items).
        std::size_t row_in_file = 0;
        double row_in_memory = 0;
        for (const PlyProperty& p : e.properties) {
            row_in_file += header.format == PlyFormat::Ascii ? 2 : info(p.is_list ? p.count_type : p.type).size;
            row_in_memory += p.is_list ? sizeof(std::uint32_t) : sizeof(double);
        }
        if (row_in_file == 0) continue;
        bytes += double(std::min(e.count, (data_bytes + 1) / row_in_file)) * row_in_memory;
    }
    return bytes;
}

namespace {
// UnsupportedError where reading a file of `file_bytes` with this header (its data `data_bytes`) takes more
// memory than the process may use.
void check_memory_as_read(const PlyFile& header, std::uintmax_t file_bytes, std::uintmax_t data_bytes, const std::string& source) {
    // The machine's memory is read (from /proc and the control groups) only for a file that may need it.
    const double bytes = ply_bytes_as_read(header, file_bytes, data_bytes);
    if (bytes < double(1u << 28)) return;
    const std::string shortfall = memory_shortfall(bytes, usable_memory());
    if (!shortfall.empty()) throw UnsupportedError(source + ": its data as read takes " + shortfall);
}
}  // namespace

PlyFile parse_ply(std::string_view bytes, const std::string& source, const std::function<void(const PlyFile&)>& check_header) {
    PlyFile file;
    HeaderParser header(source, bytes);
    const std::size_t data_offset = header.parse(file);
    if (check_header) check_header(file);
    check_memory_as_read(file, bytes.size(), bytes.size() - data_offset, source);
    if (file.format == PlyFormat::Ascii) {
        read_data(AsciiReader(source, bytes.substr(data_offset), header.last_line() + 1), file);
    } else {
        const bool little = file.format == PlyFormat::BinaryLittleEndian;
        read_data(BinaryReader(source, bytes, data_offset, little != host_is_little_endian()), file);
    }
    return file;
}

namespace {
// A file's header checked (check_header, then the memory its data takes: the file's size stands for its
// data's) before the whole file is read, and again with the data, by parse_ply.
PlyFile read_and_parse(const std::string& path, const std::function<void(const PlyFile&)>& check_header) {
    return parse_ply(read_whole_file(path,
                                     [&](const PlyFile& header, std::uintmax_t size) {
                                         if (check_header) check_header(header);
                                         check_memory_as_read(header, size, size, path);
                                     }),
                     path, check_header);
}
}  // namespace

PlyFile read_ply(const std::string& path) { return read_and_parse(path, {}); }

void write_ply(const std::string& path, const PlyFile& file, PlyFormat format) {
    check_model(path, file, format);
    OutputFile out(path);
    write_ply(out, file, format);
    out.commit();
}

void write_ply(OutputFile& out, const PlyFile& file, PlyFormat format) {
    const std::string& path = out.path();
    check_model(path, file, format);
    Output buffered(out);
    buffered.buffer() = header_text(file, format);
    Encoder encoder(path, format, buffered);
    for (const PlyElement& e : file.elements)
        if (!e.properties.empty()) encoder.element(e);
    buffered.close();
}

// A face element's corner list (vertex_indices, or vertex_index as some writers name it): no face empty,
// every index a whole number within the vertices, or the file is refused (a face pointing past them used
// to be copied to the outputs as it was). A binary file whose header counts one vertex more than it holds
// reads the first face's bytes as that vertex and the high byte of its last index, 0, as an empty face,
// after which every face reads as it should: a mesh of 300 vertices declared as 301 was taken with a
// vertex of stray bytes. (Faces of one or two corners, lines, are kept: some writers use them.)
void check_face_indices(const std::string& path, const PlyFile& file, std::size_t vertices) {
    const PlyElement* faces = file.find("face");
    const PlyProperty* corners = faces ? faces->find("vertex_indices") : nullptr;
    if (faces && !corners) corners = faces->find("vertex_index");
    if (!corners || !corners->is_list) return;
    std::size_t item = 0;
    for (std::size_t f = 0; f < corners->counts.size(); ++f) {
        if (corners->counts[f] == 0)
            fail(path, row_of(*faces, f),
                 "an empty face (no corners; in a binary file, a vertex count in the header larger than the vertices written reads one so)");
        for (std::uint32_t c = 0; c < corners->counts[f]; ++c, ++item) {
            const double v = corners->values[item];
            if (!(v >= 0 && v < double(vertices) && v == std::floor(v)))
                fail(path, row_of(*faces, f), "vertex index " + number_text(v) + " out of range [0, " + std::to_string(vertices) + ")");
        }
    }
}

namespace {
// A point set's header: a vertex element of at most kMaxPoints rows. Checked before the data is read (a file
// past the limit was read whole first: 3.5 GB and 15 s for 100,000,001 vertices).
std::function<void(const PlyFile&)> point_set_header_check(const std::string& source) {
    return [source](const PlyFile& header) {
        const PlyElement* vertex = header.find("vertex");
        if (!vertex) fail(source, "header", "no 'vertex' element");
        check_point_count(vertex->count, source);
    };
}

PointSet point_set_of(PlyFile file, const std::string& source, WeightColumns weights) {
    PointSet set;
    set.file = std::move(file);
    const PlyElement* vertex = set.file.find("vertex");
    set.positions = read_positions(source, *vertex);
    if (weights == WeightColumns::read) set.influences = read_influences(source, *vertex);
    check_face_indices(source, set.file, vertex->count);
    return set;
}
}  // namespace

PointSet read_point_set(const std::string& path, WeightColumns weights) {
    return point_set_of(read_and_parse(path, point_set_header_check(path)), path, weights);
}

PointSet parse_point_set(std::string_view bytes, const std::string& source) {
    return point_set_of(parse_ply(bytes, source, point_set_header_check(source)), source, WeightColumns::read);
}

void write_point_set(const std::string& path, const PointSet& set, PlyFormat format) {
    check_point_set(path, set, set.file.find("vertex"));
    OutputFile out(path);
    write_point_set(out, set, format);
    out.commit();
}

void write_point_set(OutputFile& out, const PointSet& set, PlyFormat format) {
    const std::string& path = out.path();
    check_point_set(path, set, set.file.find("vertex"));
    PlyFile file = set.file;
    PlyElement& vertex = *file.find("vertex");
    for (int k = 0; k < 3; ++k) {
        std::vector<double>& c = column(path, vertex, std::string(1, static_cast<char>('x' + k)), PlyType::Float32);
        for (std::size_t i = 0; i < vertex.count; ++i) c[i] = set.positions[i][k];
    }
    if (!set.influences.empty()) set_influences(path, vertex, set.influences);
    write_ply(out, file, format);
}

namespace {
// Float where it rounds every point by at most kFloatCoordinateRounding of the points' extent (half an ulp at
// the largest coordinate, 2^-24 of it), else double.
PlyType coordinate_type(const std::vector<Vec3<double>>& positions) {
    if (positions.empty()) return PlyType::Float32;
    const Box box = box_of(positions);
    return std::ldexp(box.magnitude(), -24) <= kFloatCoordinateRounding * box.largest_side() ? PlyType::Float32 : PlyType::Float64;
}
}  // namespace

PointSet make_point_set(std::vector<Vec3<double>> positions) {
    const PlyType type = coordinate_type(positions);
    PointSet set;
    PlyElement vertex;
    vertex.name = "vertex";
    vertex.count = positions.size();
    for (int k = 0; k < 3; ++k) {
        PlyProperty p;
        p.name = std::string(1, static_cast<char>('x' + k));
        p.type = type;
        p.values.resize(positions.size());
        for (std::size_t i = 0; i < positions.size(); ++i) p.values[i] = positions[i][k];
        vertex.properties.push_back(std::move(p));
    }
    set.file.elements.push_back(std::move(vertex));
    set.positions = std::move(positions);
    return set;
}

}  // namespace bs
