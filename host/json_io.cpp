#include "host/json_io.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/errors.hpp"
#include "host/input_limits.hpp"
#include "host/output_file.hpp"

namespace bs::json_io {

json parse(std::istream& in, const std::string& source) {
    // The depth is checked as each array or object opens, before anything deeper is built. A member named
    // twice in one object is refused: the parser would keep the last, silently (a skeleton with two
    // "spheres"), and which one the writer meant is a guess. The project's objects have a few members each,
    // so each open object's names are kept in a short list.
    std::vector<std::vector<std::string>> names;
    auto check = [&source, &names](int depth, json::parse_event_t event, json& parsed) {
        const bool opens = event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
        if (opens && depth >= kMaxJsonDepth)
            throw InputError(source + ": arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        if (event == json::parse_event_t::object_start) names.emplace_back();
        if (event == json::parse_event_t::object_end) names.pop_back();
        if (event == json::parse_event_t::key) {
            const std::string& name = parsed.get_ref<const std::string&>();
            if (std::find(names.back().begin(), names.back().end(), name) != names.back().end())
                throw InputError(source + ": member \"" + name + "\" appears twice in one object");
            names.back().push_back(name);
        }
        return true;
    };
    try {
        return json::parse(in, check);
    } catch (const json::exception& e) {  // syntax errors, and numbers that overflow a double
        throw InputError(source + ": not valid JSON: " + e.what());
    }
}

json load(const std::string& path) {
    std::ifstream in = open_input_file(path, kMaxJsonFileBytes, "JSON");
    return parse(in, path);
}

void save(const std::string& path, const json& value) {
    OutputFile out(path);
    out.write(value.dump(1) + "\n");
    out.commit();
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
        if (!known) where.fail("unknown member \"" + it.key() + "\"");
    }
}

void require_object(const json& value, const Where& where) {
    if (!value.is_object()) where.fail("expected an object, got " + shown(value));
}

void require_array(const json& value, const Where& where) {
    if (!value.is_array()) where.fail("expected an array, got " + shown(value));
}

}  // namespace bs::json_io
