// PLY (Stanford polygon file) reading and writing, with a point-set view for skinning inputs.
//
// Generic model: a PlyFile keeps the header's comments and obj_info lines and every element in file
// order (vertex, face, anything else), each with its properties in declared order. Values are stored
// per property column as double, which holds every PLY type exactly; a list property stores one
// item count per row and all rows' items concatenated.
//
// Reading accepts ascii, binary_little_endian and binary_big_endian 1.0, with all PLY type names
// (char uchar short ushort int uint float double and int8 uint8 int16 uint16 int32 uint32 float32
// float64). Writing produces ascii or binary_little_endian, keeping each property's declared type
// (spelled char..double), the element, property and row order: read then write loses nothing. ASCII
// numbers are written as the shortest text that reads back to the same float or double.
//
// Errors: IoError when a file cannot be opened, read or written; InputError for malformed input.
// Every message begins with the file path, then names the header or data line (ascii), or the element
// and row (binary), and what was expected. The reader is strict:
//   - a header line of no keyword before the first element (free text, as some writers put there) is
//     kept whole as a comment (written back as "comment <line>"); after an element it is an error, since
//     there it may be a misspelt property that would misread the data;
//   - comment and obj_info texts hold no carriage return (but a header line may end in CR LF): the
//     writer could not write one back;
//   - ascii rows are one per line (blank lines between rows are skipped); too few or too many values
//     on a line is an error;
//   - anything but whitespace (ascii) or any byte (binary) after the last element is an error, since it
//     almost always means a wrong count or type in the header;
//   - element counts are checked against the bytes left in the file before anything is allocated;
//   - an element without properties has no data (its rows take no bytes and no lines).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/skinning_classic.hpp"
#include "engine/vec.hpp"
#include "host/output_file.hpp"

namespace bs {

enum class PlyFormat { Ascii, BinaryLittleEndian, BinaryBigEndian };

// The eight PLY scalar types ("char" and "int8" name the same type, and so on).
enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct PlyProperty {
    std::string name;
    PlyType type = PlyType::Float32;      // a scalar's type, or the type of a list's items
    bool is_list = false;
    PlyType count_type = PlyType::UInt8;  // lists only: type of each row's item count (an integer type)
    std::vector<double> values;           // scalar: one per row; list: every row's items, concatenated
    std::vector<std::uint32_t> counts;    // lists only: number of items of each row
};

struct PlyElement {
    std::string name;
    std::size_t count = 0;  // rows
    std::vector<PlyProperty> properties;

    // The property of that name, or nullptr.
    PlyProperty* find(const std::string& property_name);
    const PlyProperty* find(const std::string& property_name) const;
};

struct PlyFile {
    PlyFormat format = PlyFormat::BinaryLittleEndian;  // as read; the writers take the format to write
    std::vector<std::string> comments;                 // text after "comment ", in file order
    std::vector<std::string> obj_info;                 // text after "obj_info ", in file order
    std::vector<PlyElement> elements;

    // The element of that name, or nullptr.
    PlyElement* find(const std::string& element_name);
    const PlyElement* find(const std::string& element_name) const;
};

// Reads a whole PLY file (any of the three formats).
PlyFile read_ply(const std::string& path);
// The same from a whole file's bytes in memory; `source` stands for the path in messages. Before any data is
// read, `check_header` (where given) sees the header's elements (names, counts, properties, no values), and
// the memory the data will take as read (ply_bytes_as_read's estimate) is checked: UnsupportedError where it
// is more than this process may use (memory_shortfall, host/system_memory.hpp) — a file of 200 uchar properties a
// vertex takes 8 times its size.
PlyFile parse_ply(std::string_view bytes, const std::string& source, const std::function<void(const PlyFile&)>& check_header = {});
// An estimate of the memory (bytes) reading a file of `file_bytes` with this header takes, `data_bytes` of
// them after the header: the file itself, and a double per scalar and a count per list row, of as many rows
// as each element declares or as fit in the data where fewer do (the readers refuse more). A list's items
// are not counted (the header does not say how many there are): a file whose data are long lists, read as
// doubles, can take up to 8 times its size unseen here.
double ply_bytes_as_read(const PlyFile& header, std::size_t file_bytes, std::size_t data_bytes);

// Writes `file` as ascii or binary_little_endian (InputError for BinaryBigEndian). InputError, before
// the file is created, if the model is inconsistent: a column whose size does not match the element's
// count (or the sum of a list's counts), an empty or duplicate name, a name with whitespace or control
// characters, a comment with a line break, or a non-integer list count type. InputError, and no file
// left behind, if a value does not fit its declared type (integer types need integral values in range;
// float needs inf, nan or a value that rounds to a finite float).
void write_ply(const std::string& path, const PlyFile& file, PlyFormat format);
// The same into `out`, not committed: the caller commits it with the files that belong with it.
void write_ply(OutputFile& out, const PlyFile& file, PlyFormat format);

// Points, optionally with skinning influences, and the file they came from (for lossless write-back).
struct PointSet {
    std::vector<Vec3<double>> positions;
    std::vector<Influences> influences;  // one per position, or empty if the file has none
    PlyFile file;
};

// Whether a point set's bone0..3 and weight0..3 are read as influences, or kept as read like any other
// property (nothing checked, set.influences empty: a run that computes its own weights).
enum class WeightColumns { read, kept_as_read };

// Reads a PLY file's `vertex` element: scalar x, y, z of type float or double, all finite.
// Influences are read when the vertex element has all of bone0..bone3 (scalar integer types, values
// >= 0 wherever their weight is not 0: an empty slot may hold -1, read as bone 0) and weight0..weight3
// (scalar float or double); having only some of them is an error naming the missing ones. Each vertex's
// weights must be finite, >= 0 and sum to 1 within 1e-3 (validate_weights); they are then divided by
// their sum (normalize_weights, on the weights rounded to float). With WeightColumns::kept_as_read none of that: no influences. A `face` element's corner
// list (vertex_indices or vertex_index) must give every face at least one corner, each a whole index of the
// vertices. InputError too for a file without a vertex element or with more than kMaxPoints vertices (seen in
// its header, before its data is read). Messages name the vertex (or face) index.
PointSet read_point_set(const std::string& path, WeightColumns weights = WeightColumns::read);
PointSet parse_point_set(std::string_view bytes, const std::string& source);  // as parse_ply, weights read

// Writes set.file in `format` with the vertex element's x, y, z replaced by set.positions (x, y, z keep
// their declared types, so float columns round to float). When set.influences is non-empty, bone0..3
// and weight0..3 are replaced (keeping their declared types) or appended (as int and float) in that
// order. All other properties and elements (faces, ...) are written unchanged, in their order.
// InputError if set.file has no vertex element, if set.positions.size() differs from its count, if
// set.influences is neither empty nor of that size, or if a position is not finite.
void write_point_set(const std::string& path, const PointSet& set, PlyFormat format);
// The same into `out`, not committed (as write_ply's twin).
void write_point_set(OutputFile& out, const PointSet& set, PlyFormat format);

// A point set whose file has one element, vertex, with properties x y z of type float — or double where float
// would round the points by more than kFloatCoordinateRounding of their extent (a body more than about 16 times
// its size from the origin: a rigged model 1e8 away was written on float's grid of 8 units).
constexpr double kFloatCoordinateRounding = 1e-6;
PointSet make_point_set(std::vector<Vec3<double>> positions);

}  // namespace bs
