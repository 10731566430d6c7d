#pragma once
// The concrete readers behind openReader(). Private to the core.
#include "readscope/reader.h"

#include <algorithm>
#include <chrono>

namespace readscope {

// This platform's reader for an available strategy: posix_reader.cpp or win_reader.cpp.
Result<std::unique_ptr<RangeReader>> openPlatformReader(const StrategyInfo& strategy,
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

// Buffers a strategy keeps across ranges are allocated when the reader opens and kept for the
// whole run while each is at most this large; larger ones are allocated before each round
// (untimed) and freed after it, so that peak memory stays near threads x largest range.
// (Allocating even small kept buffers per round measured 10-80% slower kernel copies into
// them on the test VM, for reasons not understood; buffers made at open do not show it.)
inline constexpr std::uint64_t kKeepBufferLimit = 64ull << 20;

// Times at most kMaxLatencySamples evenly spaced ranges per read() call: two clock reads per
// range cost 2-3% of a 64 KiB pread, and 10% of mmap-copy-kept's 64 KiB memcpy at 22 GB/s
// (kvm-clock reads take ~100 ns here), which the overhead benchmark sees; one range in k costs
// 1/k. 128 samples per round still give a p99 per round (between its two slowest), and the
// cell's figure is the median over rounds.
inline constexpr std::size_t kMaxLatencySamples = 128;
inline std::size_t latencyStride(bool enabled, std::size_t ranges) {
    if (!enabled)
        return 0;
    return std::max<std::size_t>(1, (ranges + kMaxLatencySamples - 1) / kMaxLatencySamples);
}

// Calls the hook set by setRangeReadHookForTesting(), if any.
void callRangeReadHook(std::size_t index);

// The loop every reader's read() shares: ends early when asked to stop, and times every
// stride-th range. readOne(range, index) returns the bytes it obtained.
template <class ReadOne>
Status readEachRange(std::span<const Range> ranges, bool recordLatencies, std::stop_token stop,
                     ReadOutcome& out, ReadOne&& readOne) {
    const std::size_t stride = latencyStride(recordLatencies, ranges.size());
    if (stride)
        out.latencies.reserve(ranges.size() / stride + 1);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (stop.stop_requested()) {
            out.stopped = true;
            break;
        }
        const bool timed = stride && i % stride == 0;
        const auto t0 = timed ? Clock::now() : Clock::time_point{};
        Result<std::uint64_t> got = readOne(ranges[i], i);
        if (!got)
            return got.error();
        out.bytes += *got;
        if (timed)
            out.latencies.push_back(secondsBetween(t0, Clock::now()));
        callRangeReadHook(i);
    }
    return okStatus();
}

} // namespace readscope
