#include "point_run.h"

#include "readscope/ranges.h"

#include <algorithm>

namespace readscope {

const Cell* resumedCell(const ResultDocument* from, const Cell& cell) {
    return from ? from->find(cell.strategy, cell.point()) : nullptr;
}

namespace {
// A trace's replays, each its window in order: one for a cold run (a second replay would find
// the first's pages cached), else as many as fit in 256 MiB of reads (or a million of them),
// of which the calibrator takes whole replays up to the round time: a 30-read trace replayed
// once in 25 µs is a round of noise.
constexpr std::uint64_t kTraceReplayBytes = 256ull << 20;
constexpr std::size_t kTraceReplayReads = std::size_t(1) << 20;

std::vector<Range> traceReplays(const Plan& plan) {
    const auto all = plan.trace->ranges();
    const std::vector<Range> window(all.begin(), all.begin() + std::ptrdiff_t(traceWindow(plan)));
    const std::uint64_t bytes = plan.trace->windowBytes(plan.budget);
    std::size_t replays = 1;
    if (plan.cache != CacheMode::Cold)
        replays = std::max<std::size_t>(
            1, std::min<std::size_t>(kTraceReplayBytes / std::max<std::uint64_t>(bytes, 1),
                                     kTraceReplayReads / window.size()));
    std::vector<Range> out;
    out.reserve(window.size() * replays);
    for (std::size_t i = 0; i < replays; ++i)
        out.insert(out.end(), window.begin(), window.end());
    return out;
}
} // namespace

std::size_t traceWindow(const Plan& plan) {
    return plan.trace ? std::max<std::size_t>(1, plan.trace->windowReads(plan.budget)) : 1;
}

SweepPoint pricedPoint(const Plan& plan, const SweepPoint& point) {
    SweepPoint priced = point;
    if (const Trace* trace = tracedReads(plan))
        priced.rangeBytes = trace->byteMedianRead(plan.budget);
    return priced;
}

std::uint64_t pricedSourceBytes(const Plan& plan, std::uint64_t fileSize) {
    if (const Trace* trace = tracedReads(plan))
        return std::max(trace->windowFootprint(plan.budget), trace->largest());
    return effectiveBudget(plan, fileSize);
}

PointRun startPoint(const Plan& plan, const FileProbe& target, bool wholeFile,
                    const std::vector<Lane>& lanes, const ResultDocument* resumeFrom,
                    const SweepPoint& point) {
    PointRun run;
    run.point = point;
    const std::uint64_t size = point.rangeBytes;
    // A copy's reads are not bounded by the target's size: a 1 MiB copy of a 1 MiB target
    // is read as often a round as one of a 1 GiB target, up to the round time.
    // A trace's reads are replayed as recorded, in their order.
    run.ranges = wholeFile ? wholeFileReads(size, plan.budget ? plan.budget : kDefaultBudget,
                                            plan.cache == CacheMode::Cold)
                 : plan.pattern == Pattern::Trace && plan.trace
                     ? traceReplays(plan)
                     : makeRanges(plan.pattern, size, target.size,
                                  effectiveBudget(plan, target.size), plan.seed);
    run.cells.resize(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        Cell& cell = run.cells[i];
        cell.strategy = std::string(lanes[i].info->id);
        cell.rangeBytes = size;
        cell.bufferOffset = point.bufferOffset;
        cell.pointThreads = point.threads;
        cell.pointQueueDepth = point.queueDepth;
        cell.rangesPerRound = run.ranges.size();
        cell.checksum = Checksum::NotChecked;
        if (!lanes[i].unavailable.empty()) {
            cell.status = CellStatus::Unavailable;
            cell.message = lanes[i].unavailable;
        }
        // A resumed run goes on from the rounds its recovery file kept.
        if (const Cell* before = resumedCell(resumeFrom, cell);
            before && cell.status == CellStatus::Ok) {
            cell.samples = before->samples;
            for (const auto& sample : cell.samples)
                run.firstRound = std::max(run.firstRound, sample.round);
            run.lastRound = run.firstRound;
        }
    }
    run.prefixes.resize(lanes.size());
    // A duration run's lanes start spread over the ranges, so that none reads what another
    // has just brought into the cache: each meets the cache as a reader of its own would.
    run.next.resize(lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i)
        run.next[i] = run.ranges.size() * i / lanes.size();
    run.started = run.next;
    run.handed.assign(lanes.size(), 0);
    return run;
}

namespace {

// `count` of `ranges` from `first` on, round again past the last.
std::vector<Range> cyclicWindow(const std::vector<Range>& ranges, std::size_t first,
                                std::size_t count) {
    std::vector<Range> out;
    out.reserve(count);
    for (std::size_t k = 0, at = first; k < count; ++k, at = (at + 1) % ranges.size())
        out.push_back(ranges[at]);
    return out;
}

} // namespace

std::vector<Range> nextRanges(PointRun& run, std::size_t i) {
    const std::size_t count = run.prefixes[i].count;
    auto out = cyclicWindow(run.ranges, run.next[i], count);
    run.next[i] = (run.next[i] + count) % run.ranges.size();
    run.handed[i] += count;
    return out;
}

std::vector<Range> rangesRead(const PointRun& run, std::size_t i) {
    return cyclicWindow(run.ranges, run.started[i], std::min(run.handed[i], run.ranges.size()));
}

} // namespace readscope
