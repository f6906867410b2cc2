// FNV-1a, 64 bits: the digest the saved codes' file and the binding files carry of what they were made
// for (not a cryptographic hash: it tells another input from the one a file was made for).
#pragma once

#include <cstddef>
#include <cstdint>

namespace bs {

struct Fnv1a {
    std::uint64_t hash = 14695981039346656037ull;
    void add(const void* data, std::size_t bytes) {
        const unsigned char* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
    }
    template <class T> void add(const T& value) { add(&value, sizeof value); }
};

}  // namespace bs
