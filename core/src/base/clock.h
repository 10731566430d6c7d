#pragma once
// The one clock every timed region reads. Private to the core.
#include <chrono>

namespace readscope {

using Clock = std::chrono::steady_clock;
inline double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

} // namespace readscope
