// Host heap accounting for the benchmark's memory figures: heap_counter.cpp replaces the global operator
// new and delete of the program it is linked into (baseskin-bench only) and counts the bytes malloc
// actually hands out (malloc_usable_size: the request rounded up to the allocator's chunk). Everything the
// engine holds on the host lives in std containers, so this sees all of it; memory mapped by drivers or
// by OpenMP's runtime outside operator new is not counted.
#pragma once

#include <cstddef>

namespace bs::bench {

std::size_t heap_live_bytes();  // allocated now
std::size_t heap_peak_bytes();  // the most allocated at once since the last reset_heap_peak()
void reset_heap_peak();         // the peak becomes what is live now

}  // namespace bs::bench
