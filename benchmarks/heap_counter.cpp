#include "benchmarks/heap_counter.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace bs::bench {
namespace {

std::atomic<std::size_t> live{0}, peak{0};

void* counted(void* p) {
    if (!p) throw std::bad_alloc();
    const std::size_t now = live.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p);
    std::size_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
    return p;
}

void uncounted(void* p) {
    if (!p) return;
    live.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
    std::free(p);
}

// aligned_alloc needs a size that is a multiple of the alignment.
void* aligned(std::size_t bytes, std::align_val_t alignment) {
    const std::size_t a = static_cast<std::size_t>(alignment);
    if (bytes > SIZE_MAX - a) return nullptr;
    return std::aligned_alloc(a, (bytes + a - 1) / a * a);
}

// The nothrow forms: the same, null instead of an exception (every form is replaced, so that whatever
// allocates, the matching delete below frees it).
template <class Allocate>
void* or_null(Allocate allocate) noexcept {
    try {
        return allocate();
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

}  // namespace

std::size_t heap_live_bytes() { return live.load(); }
std::size_t heap_peak_bytes() { return peak.load(); }
void reset_heap_peak() { peak.store(live.load()); }

}  // namespace bs::bench

void* operator new(std::size_t bytes) { return bs::bench::counted(std::malloc(bytes ? bytes : 1)); }
void* operator new[](std::size_t bytes) { return bs::bench::counted(std::malloc(bytes ? bytes : 1)); }
void* operator new(std::size_t bytes, std::align_val_t a) { return bs::bench::counted(bs::bench::aligned(bytes ? bytes : 1, a)); }
void* operator new[](std::size_t bytes, std::align_val_t a) { return bs::bench::counted(bs::bench::aligned(bytes ? bytes : 1, a)); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    return bs::bench::or_null([&] { return operator new(bytes); });
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
    return bs::bench::or_null([&] { return operator new[](bytes); });
}
void* operator new(std::size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept {
    return bs::bench::or_null([&] { return operator new(bytes, a); });
}
void* operator new[](std::size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept {
    return bs::bench::or_null([&] { return operator new[](bytes, a); });
}
void operator delete(void* p) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p) noexcept { bs::bench::uncounted(p); }
void operator delete(void* p, std::size_t) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p, std::size_t) noexcept { bs::bench::uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { bs::bench::uncounted(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { bs::bench::uncounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { bs::bench::uncounted(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { bs::bench::uncounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { bs::bench::uncounted(p); }
