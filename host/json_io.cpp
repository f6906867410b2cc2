#include "host/json_io.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"

namespace bs::json_io {

namespace {

// What the project asks of a JSON document beyond its syntax, checked by a SAX pass before the document is
// built: no array or object nested deeper than kMaxJsonDepth (checked as each opens, before anything
// deeper is read), and no member named twice in one object (the parser would keep the last, silently: a
// skeleton with two "spheres", and which one the writer meant is a guess; the project's objects have a
// few members each, so each open object's names are kept in a short list). Until 2026-12-05 both were
// checked by nlohmann's parser callback while it built the document, but that parser rescans a container
// each time one of its members closes (json 3.11): a motion of 200,000 frames took 9.4 s to load, one of
// 400,000 45 s.
class StructureCheck : public nlohmann::json_sax<json> {
public:
    explicit StructureCheck(const std::string& source) : source_(source) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(false); }
    bool key(string_t& name) override {
        std::vector<std::string>& seen = levels_.back().names;
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) fail("member " + quoted_text(name) + " appears twice in one object");
        seen.push_back(name);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_array() override { return close(); }
    // Syntax errors, and numbers that overflow a double.
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        throw InputError(source_ + ": not valid JSON: " + e.what());
    }

private:
    // An open array or object, and where in it the parser is: its element count so far (an array), or the
    // names of its members so far (an object; the last is the member being read).
    struct Level {
        bool array;
        std::size_t elements = 0;
        std::vector<std::string> names;
    };

    bool value() {
        if (!levels_.empty() && levels_.back().array) ++levels_.back().elements;
        return true;
    }
    bool open(bool array) {
        if (levels_.size() >= std::size_t(kMaxJsonDepth))
            fail("arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        value();
        levels_.push_back({array, 0, {}});
        return true;
    }
    bool close() {
        levels_.pop_back();
        return true;
    }
    // The open container's place, as the readers' messages name elements ("frames[3].bones[0]").
    [[noreturn]] void fail(const std::string& problem) const {
        std::string place;
        for (std::size_t i = 0; i + 1 < levels_.size(); ++i) {
            const Level& level = levels_[i];
            if (level.array)
                place += "[" + std::to_string(level.elements - 1) + "]";
            else
                place += (place.empty() ? "" : ".") + level.names.back();
        }
        Where{source_, place}.fail(problem);
    }

    const std::string& source_;
    std::vector<Level> levels_;
};

}  // namespace

json parse(std::istream& in, const std::string& source) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    // nlohmann's lexer takes a NUL byte for the end of the input (for C strings), so whatever followed one
    // was ignored (a file with junk or zero padding after it loaded as whole). JSON text holds none.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw InputError(source + ": not valid JSON: a NUL byte at byte " + std::to_string(nul) + " (JSON text has none)");
    StructureCheck check(source);
    json::sax_parse(text, &check);
    try {
        return json::parse(text);
    } catch (const json::exception& e) {  // the check has seen every syntax error: not expected
        throw InputError(source + ": not valid JSON: " + e.what());
    }
}

json load(const std::string& path) {
    std::ifstream in = open_input_file(path, kMaxJsonFileBytes, "JSON");
    return parse(in, path);
}

void write(OutputFile& out, const json& value) { out.write(value.dump(1) + "\n"); }

void save(const std::string& path, const json& value) {
    OutputFile out(path);
    write(out, value);
    out.commit();
}

bool is_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_char_at(text, i).length;  // host/errors.hpp
        if (length == 0) return false;
        i += length;
    }
    return true;
}

namespace {
// A value as it appears in a message, cut short so a huge array cannot flood the terminal.
std::string shown(const json& value) {
    std::string text = value.dump();
    return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}
}  // namespace

void Where::fail(const std::string& problem) const {
    throw InputError(file + ": " + (element.empty() ? std::string("top level") : element) + ": " + problem);
}

const json& member(const json& object, const char* key, const Where& where) {
    auto it = object.find(key);
    if (it == object.end()) where.fail(std::string("missing required member \"") + key + "\"");
    return *it;
}

double finite_number(const json& value, const Where& where) {
    if (!value.is_number()) where.fail("expected a number, got " + shown(value));
    double x = value.get<double>();
    if (!std::isfinite(x)) where.fail("expected a finite number");
    return x;
}

int index_in_range(const json& value, std::size_t size, const Where& where) {
    if (!value.is_number_integer()) where.fail("expected an integer index, got " + shown(value));
    // An unsigned one read as long long would wrap (2^64 − 1 to −1): each is read as what it is.
    const bool negative = !value.is_number_unsigned() && value.get<long long>() < 0;
    if (negative || value.get<unsigned long long>() >= size)
        where.fail("index " + (negative ? std::to_string(value.get<long long>()) : std::to_string(value.get<unsigned long long>())) +
                   " out of range [0, " + std::to_string(size) + ")");
    return static_cast<int>(value.get<unsigned long long>());
}

void number_array(const json& value, std::size_t n, double* out, const Where& where) {
    if (!value.is_array() || value.size() != n)
        where.fail("expected an array of " + std::to_string(n) + " numbers, got " + shown(value));
    for (std::size_t i = 0; i < n; ++i) out[i] = finite_number(value[i], where[i]);
}

Vec3<double> vec3(const json& value, const Where& where) {
    double v[3];
    number_array(value, 3, v, where);
    return {v[0], v[1], v[2]};
}

void only_members(const json& object, std::initializer_list<const char*> allowed, const Where& where) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool known = false;
        for (const char* a : allowed) known = known || it.key() == a;
        if (!known) where.fail("unknown member " + quoted_text(it.key()));
    }
}

void require_object(const json& value, const Where& where) {
    if (!value.is_object()) where.fail("expected an object, got " + shown(value));
}

void require_array(const json& value, const Where& where) {
    if (!value.is_array()) where.fail("expected an array, got " + shown(value));
}

}  // namespace bs::json_io
