// Reading and writing the project's JSON files with nlohmann::json, with errors that name the file and
// the element (a JSON pointer-like path such as "bones[3].axis").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/vec.hpp"

namespace bs::json_io {

using nlohmann::json;

// Parses a whole file; IoError if it can't be read, InputError (with line and column) if not JSON.
json load(const std::string& path);
void save(const std::string& path, const json& value);

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
