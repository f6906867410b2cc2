// Reading and writing the project's JSON files with nlohmann::json, with errors that name the file and
// the element (a JSON pointer-like path such as "bones[3].axis").
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/vec.hpp"
#include "host/output_file.hpp"

namespace bs::json_io {

using nlohmann::json;

// Arrays and objects nested deeper than this are refused while parsing (the project's formats need 6
// levels): nlohmann's serializer, which messages use to show a value, recurses once per level, and a
// file of a million '[' would overflow the stack.
constexpr int kMaxJsonDepth = 64;

// Parses a whole JSON text from `in`; InputError naming `source` (with line and column) if it is not
// JSON or nests deeper than kMaxJsonDepth.
json parse(std::istream& in, const std::string& source);
// Parses a whole file as parse() does; IoError if it can't be opened.
json load(const std::string& path);
void save(const std::string& path, const json& value);
// The document's text into `out`, not committed (files that belong together are committed together).
void write(OutputFile& out, const json& value);

// Whether `text` is UTF-8 (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF), which
// every string of a JSON file must be: writing one that is not throws nlohmann's type_error 316. Names
// from BVH and model files are bytes as the file gives them (a Latin-1 capture's "Wirbelsäule").
bool is_utf8(std::string_view text);

// Context for messages: "<file>: <element>: <problem>".
struct Where {
    std::string file;
    std::string element;
    Where operator[](const std::string& key) const { return {file, element.empty() ? key : element + "." + key}; }
    Where operator[](std::size_t index) const { return {file, element + "[" + std::to_string(index) + "]"}; }
    [[noreturn]] void fail(const std::string& problem) const;
};

const json& member(const json& object, const char* key, const Where& where);  // required member
double finite_number(const json& value, const Where& where);
int index_in_range(const json& value, std::size_t size, const Where& where);
// Array of exactly n finite numbers.
void number_array(const json& value, std::size_t n, double* out, const Where& where);
Vec3<double> vec3(const json& value, const Where& where);
// Rejects members other than `allowed` (typos would otherwise be silently ignored).
void only_members(const json& object, std::initializer_list<const char*> allowed, const Where& where);
void require_object(const json& value, const Where& where);
void require_array(const json& value, const Where& where);

}  // namespace bs::json_io
