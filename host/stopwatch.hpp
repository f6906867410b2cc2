// Wall time for the programs' reports and the benchmark's timings: the steady clock (never set back), in
// seconds.
#pragma once

#include <chrono>

namespace bs {

using SteadyClock = std::chrono::steady_clock;

// Seconds from `start` (SteadyClock::now() taken earlier) to now.
inline double seconds_since(SteadyClock::time_point start) { return std::chrono::duration<double>(SteadyClock::now() - start).count(); }

}  // namespace bs
