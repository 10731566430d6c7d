#pragma once
// The concrete readers behind openReader(). Private to the core.
#include "readscope/reader.h"

#include <chrono>

namespace readscope {

Result<std::unique_ptr<RangeReader>> openPosixReader(const StrategyInfo& strategy,
                                                     const FileProbe& file,
                                                     std::uint64_t maxRange);
Result<std::unique_ptr<RangeReader>> openUringReader(const StrategyInfo& strategy,
                                                     const FileProbe& file,
                                                     std::uint64_t maxRange);

inline std::uint64_t clippedLength(const Range& r, std::uint64_t fileSize) {
    if (r.offset >= fileSize)
        return 0;
    return std::min(r.length, fileSize - r.offset);
}

using Clock = std::chrono::steady_clock;
inline double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

} // namespace readscope
