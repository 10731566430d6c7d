#include "calibrator.h"

#include "point_run.h"
#include "readscope/ranges.h"
#include "round.h"

#include <algorithm>
#include <limits>

namespace readscope {

LanePrefix lanePrefix(const Lane& lane, std::uint64_t rangeBytes, std::span<const Range> ranges,
                      std::size_t count, int threads, bool everyRange,
                      std::span<const std::uint32_t> threadOf) {
    const std::size_t whole = coalesceBatchRanges(rangeBytes) * std::size_t(threads);
    if (lane.info->access == Access::Coalesce && count > whole && !everyRange)
        count -= count % whole;
    const auto prefix = ranges.first(count);
    if (!threadOf.empty() && count == threadOf.size())
        return {count, splitByThread({prefix.begin(), prefix.end()}, threadOf, threads)};
    return {count, splitRanges({prefix.begin(), prefix.end()}, threads)};
}

// io_uring fills and drains its queue once per round: at least 8 queues' worth, or the ramp
// would be the figure (74 ranges measured 29% below a full budget here). A whole-file sweep's
// read opens, reads and closes a file: one of 32 MiB is long enough to time by itself, so its
// floor is one read.
std::size_t Calibrator::roundFloor(const Lane& lane, const SweepPoint& point, int threads) const {
    const std::uint64_t size = point.rangeBytes;
    if (wholeFile_)
        return 1;
    // Every round replays the trace's window whole: once when cold, else as often as the
    // round time asks (the runner keeps whole replays).
    if (plan_.pattern == Pattern::Trace)
        return plan_.cache == CacheMode::Cold ? std::numeric_limits<std::size_t>::max()
                                              : traceWindow(plan_);
    if (lane.info->access == Access::UringBatch)
        return std::max<std::size_t>(minRangesPerRound(size),
                                     std::size_t(8) * std::size_t(threads) *
                                         effectiveQueueDepth(queueDepthAt(plan_, point), size));
    if (lane.info->access == Access::Coalesce) // whole batches, one per worker at least
        return std::max(minRangesPerRound(size), coalesceBatchRanges(size) * std::size_t(threads));
    return minRangesPerRound(size);
}

std::size_t Calibrator::calibrate(Lane& lane, const SweepPoint& point,
                                  std::span<const Range> ranges, int threads) {
    const double target = plan_.roundTimeSeconds;
    const std::size_t all = ranges.size();
    const std::size_t floor = roundFloor(lane, point, threads);
    if (target <= 0 || all <= floor)
        return all;
    const auto mode = consumeMode(plan_);
    std::size_t count = floor;
    for (int attempt = 0; attempt < 12; ++attempt) {
        const auto prefix = ranges.first(count);
        if (plan_.cache == CacheMode::Cold)
            cache_.prepare(prefix, lanes_);
        const auto parts = splitRanges({prefix.begin(), prefix.end()}, threads);
        auto result = runRound(*lane.workers, lane.readers, parts, mode, point.rangeBytes, stop_);
        if (!result)
            return all; // its rounds will fail the same way, and say why
        if (result->stopped)
            return 0;
        const double seconds = result->sample.seconds;
        if (count == all)
            return all;
        if (seconds >= target / 2) {
            // The growing reads paid first-touch costs (a kept mapping's faults, heap growth)
            // on their new ranges: fit from warm reads of this prefix, the fastest of up to
            // three. One is not always warm: a lane's fresh heap grows, gives memory back and
            // grows again over its first reads of a large file (8 MiB read to end took 14,
            // 10, then 2 ms here, and fitting from the 10 left its rounds one read long).
            double warm = seconds;
            for (int repeat = 0; repeat < 3; ++repeat) {
                auto again =
                    runRound(*lane.workers, lane.readers, parts, mode, point.rangeBytes, stop_);
                if (!again)
                    return all;
                if (again->stopped)
                    return 0;
                if (again->sample.seconds > 0)
                    warm = std::min(warm, again->sample.seconds);
            }
            const double fit = double(count) * target / warm;
            return std::clamp<std::size_t>(static_cast<std::size_t>(fit), floor, all);
        }
        const double grow = seconds > 0 ? std::min(16.0, target / seconds) : 16.0;
        count = std::min(all, std::max(count * 2, static_cast<std::size_t>(double(count) * grow)));
    }
    return count;
}

std::size_t Calibrator::refit(const Lane& lane, const SweepPoint& point, std::size_t count,
                              double seconds, int threads) const {
    const double target = plan_.roundTimeSeconds;
    if (target <= 0 || seconds <= 2 * target)
        return count;
    const std::size_t floor = roundFloor(lane, point, threads);
    const auto fit = static_cast<std::size_t>(double(count) * target / seconds);
    return std::clamp(fit, std::min(floor, count), count);
}

} // namespace readscope
