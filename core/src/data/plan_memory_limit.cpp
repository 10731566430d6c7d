#include "plan_memory_limit.h"

#include "readscope/reader.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope {

Status validateMemoryLimit(const Plan& plan, const FileProbe& file) {
    if (!plan.memoryLimit)
        return okStatus();
    if (plan.memoryLimit < kMinMemoryLimit)
        return Error{fmt::format("a memory limit of {} leaves readscope no room: its own memory "
                                 "counts against the limit too, and past it the kernel kills "
                                 "the process; give at least {}",
                                 formatSize(plan.memoryLimit), formatSize(kMinMemoryLimit))};
    std::uint64_t workers = std::uint64_t(plan.threads);
    for (auto t : plan.threadCounts)
        workers = std::max<std::uint64_t>(workers, std::uint64_t(t));
    std::uint64_t largest = 0;
    for (auto size : effectiveSizes(plan, file.size))
        largest = std::max(largest, std::min(size, file.size));
    std::uint64_t perWorker = 2 * largest;
    if (anyQueuedStrategy(plan)) {
        perWorker = std::max(perWorker, std::min(kUringMaxDepth * largest, kUringPoolBytes));
        for (auto depth : plan.queueDepths)
            perWorker = std::max(perWorker, std::uint64_t(depth) * largest);
    }
    const std::uint64_t buffers = workers * perWorker;
    if (buffers > plan.memoryLimit / 2)
        return Error{fmt::format(
            "the reads' own buffers ({} per thread, {} thread{}: {}) would take more than half "
            "of the {} memory limit, which must also hold readscope and the file's page cache, "
            "and past which the kernel kills the process: give a limit of at least {}, or fewer "
            "threads or smaller ranges",
            formatSize(perWorker), workers, workers == 1 ? "" : "s", formatSize(buffers),
            formatSize(plan.memoryLimit), formatSize(std::max(buffers * 2, kMinMemoryLimit)))};
    // The points' range lists live in the limit too: every point is set up before the rounds.
    std::uint64_t ranges = 0;
    if (plan.pattern != Pattern::Whole)
        for (auto size : effectiveSizes(plan, file.size))
            ranges += effectiveBudget(plan, file.size) / std::max<std::uint64_t>(size, 1) * 16;
    if (ranges > plan.memoryLimit / 4)
        return Error{fmt::format(
            "the lists of ranges to read ({}) would take more than a quarter "
            "of the {} memory limit: give a --budget of at most {}, larger "
            "ranges, or a larger limit",
            formatSize(ranges), formatSize(plan.memoryLimit),
            formatSize(effectiveBudget(plan, file.size) * (plan.memoryLimit / 4) / ranges))};
    return okStatus();
}

} // namespace readscope
