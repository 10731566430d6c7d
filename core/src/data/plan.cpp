#include "readscope/plan.h"

#include "plan_memory_limit.h"
#include "plan_trace.h"

#include "readscope/buffer_offsets.h"
#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

namespace readscope {

std::string_view toString(Pattern p) {
    switch (p) {
    case Pattern::Sequential: return "sequential";
    case Pattern::Random: return "random";
    case Pattern::Whole: return "whole";
    case Pattern::Trace: return "trace";
    }
    return "?";
}

std::string_view toString(CacheMode c) {
    switch (c) {
    case CacheMode::Warm: return "warm";
    case CacheMode::Cold: return "cold";
    case CacheMode::Direct: return "direct";
    }
    return "?";
}

std::string_view toString(Consume c) { return c == Consume::All ? "all" : "minimal"; }

std::string_view toString(SweepAxis a) {
    switch (a) {
    case SweepAxis::RangeSize: return "range-size";
    case SweepAxis::BufferOffset: return "buffer-offset";
    case SweepAxis::Threads: return "threads";
    case SweepAxis::QueueDepth: return "queue-depth";
    }
    return "?";
}

Result<Pattern> parsePattern(std::string_view text) {
    for (auto p : {Pattern::Sequential, Pattern::Random, Pattern::Whole, Pattern::Trace})
        if (toString(p) == text)
            return p;
    return Error{fmt::format(
        "unknown pattern '{}': use sequential, random or whole (a trace: --trace)", text)};
}

Result<CacheMode> parseCacheMode(std::string_view text) {
    for (auto c : {CacheMode::Warm, CacheMode::Cold, CacheMode::Direct})
        if (toString(c) == text)
            return c;
    return Error{fmt::format("unknown cache mode '{}': use warm, cold or direct", text)};
}

Result<Consume> parseConsume(std::string_view text) {
    for (auto c : {Consume::Minimal, Consume::All})
        if (toString(c) == text)
            return c;
    return Error{fmt::format("unknown consume mode '{}': use minimal or all", text)};
}

Result<std::vector<int>> parseCountList(std::string_view text, IntLimit limit,
                                        std::string_view what) {
    std::vector<int> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        long long v = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec == std::errc::invalid_argument || end != item.data() + item.size() || item.empty())
            return Error{fmt::format("{} '{}' is not a whole number", what, item)};
        if (ec == std::errc::result_out_of_range || v < limit.min || v > limit.max)
            return Error{fmt::format("{} {} is out of range: use {} to {}", what, item, limit.min,
                                     limit.max)};
        if (std::find(values.begin(), values.end(), int(v)) != values.end())
            return Error{fmt::format("{} {} is named twice", what, v)};
        values.push_back(int(v));
        start = comma + 1;
    }
    return values;
}

Status setThreads(Plan& plan, std::string_view text) {
    auto list = parseCountList(text, kThreadsLimit, "threads");
    if (!list)
        return list.error();
    plan.threadCounts.clear();
    if (list->size() == 1)
        plan.threads = list->front();
    else
        plan.threadCounts = *list;
    return okStatus();
}

Status setQueueDepths(Plan& plan, std::string_view text) {
    plan.queueDepths.clear();
    if (text.empty() || text == "auto")
        return okStatus();
    auto list = parseCountList(text, kQueueDepthLimit, "queue depth");
    if (!list)
        return list.error();
    plan.queueDepths.assign(list->begin(), list->end());
    return okStatus();
}

namespace {
template <class T>
std::string commaList(const std::vector<T>& values, std::string_view separator = ",") {
    std::string out;
    for (auto v : values)
        out += (out.empty() ? "" : std::string(separator)) + std::to_string(v);
    return out;
}

} // namespace

bool anyQueuedStrategy(const Plan& plan) {
    return std::any_of(plan.strategies.begin(), plan.strategies.end(),
                       [](const std::string& id) { return queueDepthSweepExclusion(id).empty(); });
}

std::string threadsListText(const Plan& plan) {
    return plan.threadCounts.empty() ? std::to_string(plan.threads) : commaList(plan.threadCounts);
}

std::string queueDepthsText(const Plan& plan) {
    return plan.queueDepths.empty() ? std::string("auto") : commaList(plan.queueDepths);
}

std::uint64_t effectiveBudget(const Plan& plan, std::uint64_t fileSize) {
    if (plan.budget)
        return plan.budget;
    return std::min(fileSize, plan.durationSeconds > 0 ? kDefaultDurationBudget : kDefaultBudget);
}

std::string patternWords(const Plan& plan) {
    if (wholeFileSweep(plan))
        return "whole files (open, read, close)";
    if (plan.pattern == Pattern::Whole)
        return "whole file";
    if (tracedReads(plan))
        // The size shown for its cells is the largest read's.
        return fmt::format(
            "{}a trace's {} reads of {} in all, the largest {}{} ({}, digest {})",
            plan.trace->windowReads(plan.budget) < plan.trace->reads.size()
                ? fmt::format("the first {} reads (--budget {}) of ",
                              plan.trace->windowReads(plan.budget), formatSize(plan.budget))
                : std::string(),
            plan.trace->reads.size(), formatSize(plan.trace->bytes()),
            formatSize(plan.trace->largest()),
            plan.trace->threadsFor(plan.threads).empty()
                ? std::string()
                : fmt::format(", its {} recorded threads each a thread", plan.threads),
            plan.trace->source, traceDigest(plan.trace->reads));
    if (plan.pattern == Pattern::Trace)
        return fmt::format("a trace ({})", plan.tracePath);
    return fmt::format("{} ranges", toString(plan.pattern));
}

std::string_view axisName(const Plan& plan) {
    switch (sweepAxis(plan)) {
    case SweepAxis::BufferOffset: return "buffer offset";
    case SweepAxis::Threads: return "threads";
    case SweepAxis::QueueDepth: return "queue depth";
    case SweepAxis::RangeSize: break;
    }
    return wholeFileSweep(plan) ? "file size" : "range size";
}

int threadsAt(const Plan& plan, const SweepPoint& point) {
    return point.threads.value_or(plan.threadCounts.size() == 1 ? plan.threadCounts.front()
                                                                : plan.threads);
}

std::optional<unsigned> queueDepthAt(const Plan& plan, const SweepPoint& point) {
    if (point.queueDepth)
        return point.queueDepth;
    if (plan.queueDepths.size() == 1)
        return plan.queueDepths.front();
    return std::nullopt;
}

std::string threadsText(const Plan& plan) {
    if (plan.threadCounts.size() > 1)
        return commaList(plan.threadCounts, ", ") + " threads";
    const int t = threadsAt(plan, {});
    return fmt::format("{} thread{}", t, t == 1 ? "" : "s");
}

std::string concurrencyText(const Plan& plan) {
    if (plan.queueDepths.size() == 1)
        return fmt::format("{}, io_uring depth {}", threadsText(plan), plan.queueDepths.front());
    return threadsText(plan);
}

std::string queueDepthSweepExclusion(std::string_view strategy) {
    const StrategyInfo* s = findStrategy(strategy);
    if (s && s->access == Access::UringBatch)
        return {};
    return "it has no io_uring queue: the queue depth applies to io_uring batches only";
}

bool wholeFileSweep(const Plan& plan) {
    return plan.pattern == Pattern::Whole && !plan.fileSizes.empty();
}

bool startsEvicted(const Plan& plan) { return plan.durationSeconds > 0 && plan.memoryLimit > 0; }

bool warmCannotHold(const Plan& plan, std::uint64_t fileSize) {
    return plan.cache == CacheMode::Warm && plan.memoryLimit > 0 && fileSize > plan.memoryLimit;
}

void takeSizesAsFileSizes(Plan& plan) {
    if (plan.pattern == Pattern::Whole)
        plan.fileSizes = std::exchange(plan.sizes, Plan{}.sizes);
}

std::vector<std::uint64_t> effectiveSizes(const Plan& plan, std::uint64_t fileSize) {
    if (plan.pattern == Pattern::Trace)
        return plan.trace && !plan.trace->reads.empty()
                   ? std::vector<std::uint64_t>{plan.trace->largest()}
                   : std::vector<std::uint64_t>{};
    if (plan.pattern != Pattern::Whole)
        return plan.sizes;
    if (plan.fileSizes.empty())
        return {fileSize};
    std::vector<std::uint64_t> sizes;
    for (auto size : plan.fileSizes)
        if (size <= fileSize)
            sizes.push_back(size);
    return sizes;
}

std::vector<std::uint64_t> skippedFileSizes(const Plan& plan, std::uint64_t fileSize) {
    std::vector<std::uint64_t> skipped;
    if (wholeFileSweep(plan))
        for (auto size : plan.fileSizes)
            if (size > fileSize)
                skipped.push_back(size);
    return skipped;
}

int sweepListCount(const Plan& plan) {
    return int(plan.bufferOffsets.size() > 1) + int(plan.threadCounts.size() > 1) +
           int(plan.queueDepths.size() > 1);
}

SweepAxis sweepAxis(const Plan& plan) {
    // validatePlan() allows one list at a time; the first one found names the axis.
    if (plan.bufferOffsets.size() > 1)
        return SweepAxis::BufferOffset;
    if (plan.threadCounts.size() > 1)
        return SweepAxis::Threads;
    if (plan.queueDepths.size() > 1)
        return SweepAxis::QueueDepth;
    return SweepAxis::RangeSize;
}

std::string pointText(const SweepPoint& point) {
    std::string text = formatSize(point.rangeBytes);
    if (point.bufferOffset)
        text += fmt::format(" @ +{}", formatBufferOffset(*point.bufferOffset));
    if (point.threads)
        text += fmt::format(" x {} thread{}", *point.threads, *point.threads == 1 ? "" : "s");
    if (point.queueDepth)
        text += fmt::format(", {} in flight", *point.queueDepth);
    return text;
}

std::vector<SweepPoint> sweepPoints(const Plan& plan, std::uint64_t fileSize) {
    const auto sizes = effectiveSizes(plan, fileSize);
    std::vector<SweepPoint> points;
    std::optional<std::uint32_t> pinned;
    if (plan.bufferOffsets.size() == 1)
        pinned = plan.bufferOffsets.front();
    switch (sweepAxis(plan)) {
    case SweepAxis::BufferOffset:
        for (auto offset : plan.bufferOffsets)
            points.push_back({sizes.front(), offset});
        break;
    case SweepAxis::Threads:
        for (auto threads : plan.threadCounts)
            points.push_back({sizes.front(), pinned, threads});
        break;
    case SweepAxis::QueueDepth:
        for (auto depth : plan.queueDepths)
            points.push_back({sizes.front(), pinned, std::nullopt, depth});
        break;
    case SweepAxis::RangeSize:
        for (auto size : sizes)
            points.push_back({size, pinned});
        break;
    }
    return points;
}

static_assert(unsigned(kQueueDepthLimit.max) == kUringMaxAskedDepth,
              "the io_uring ring must hold the deepest queue a plan may ask for");

namespace {

template <class T> bool namedTwice(const std::vector<T>& values) {
    return std::set<T>(values.begin(), values.end()).size() != values.size();
}

} // namespace

Status validateAxes(const Plan& plan) {
    if (sweepListCount(plan) > 1)
        return Error{"a run sweeps one thing at a time: give a list of buffer offsets, of "
                     "threads or of queue depths, not two of them"};
    if (namedTwice(plan.threadCounts))
        return Error{"a thread count is named twice"};
    if (namedTwice(plan.queueDepths))
        return Error{"a queue depth is named twice"};
    if (wholeFileSweep(plan) && sweepAxis(plan) != SweepAxis::RangeSize)
        return Error{fmt::format("a whole-file sweep varies the file size; a list of {} "
                                 "would make that the sweep's axis too: give one, or none",
                                 sweepAxis(plan) == SweepAxis::BufferOffset ? "buffer offsets"
                                 : sweepAxis(plan) == SweepAxis::Threads    ? "thread counts"
                                                                            : "queue depths")};
    if (sweepAxis(plan) != SweepAxis::RangeSize &&
        (plan.pattern == Pattern::Sequential || plan.pattern == Pattern::Random) &&
        plan.sizes.size() != 1)
        return Error{fmt::format("a {} sweep measures one range size, and {} were given: keep "
                                 "one (e.g. 64K)",
                                 axisName(plan), plan.sizes.size())};
    if (sweepAxis(plan) == SweepAxis::QueueDepth && !anyQueuedStrategy(plan))
        return Error{"a queue-depth sweep measures io_uring strategies: add uring-batch"};
    return okStatus();
}

namespace {

Status validateQueueDepths(const Plan& plan, const FileProbe& file) {
    if (!plan.queueDepths.empty() && !anyQueuedStrategy(plan))
        return Error{"a queue depth applies to io_uring strategies, and none is chosen: add "
                     "uring-batch, or leave the depth to io_uring (auto)"};
    int workers = plan.threads;
    for (auto t : plan.threadCounts)
        workers = std::max(workers, t);
    for (auto depth : plan.queueDepths) {
        if (!kQueueDepthLimit.contains(int(std::min<unsigned>(depth, 1u << 30))))
            return Error{fmt::format("queue depth {} is out of range: use {} to {}", depth,
                                     kQueueDepthLimit.min, kQueueDepthLimit.max)};
        for (auto size : effectiveSizes(plan, file.size))
            if (const auto pool =
                    std::uint64_t(depth) * std::min(size, file.size) * std::uint64_t(workers);
                pool > kMaxUringPoolBytes)
                return Error{fmt::format(
                    "queue depth {} at {} with {} thread{} would keep {} of buffers in flight "
                    "(at most {}): choose a smaller depth, range size or fewer threads",
                    depth, formatSize(size), workers, workers == 1 ? "" : "s", formatSize(pool),
                    formatSize(kMaxUringPoolBytes))};
    }
    return okStatus();
}

} // namespace

Status validatePlan(const Plan& plan, const FileProbe& file) {
    if (plan.strategies.empty())
        return Error{"no strategies chosen: name at least one (see 'readscope-cli strategies')"};
    std::set<std::string> seen;
    for (const auto& id : plan.strategies) {
        if (!findStrategy(id))
            return Error{fmt::format("unknown strategy '{}': see 'readscope-cli strategies' for "
                                     "the list of ids",
                                     id)};
        if (!seen.insert(id).second)
            return Error{fmt::format("strategy '{}' is named twice", id)};
        if (findStrategy(id)->access == Access::AsRuntime && plan.pattern != Pattern::Whole)
            return Error{fmt::format("{} reads a whole file, as its runtime's call does: use the "
                                     "whole pattern (--pattern whole)",
                                     id)};
    }
    if (auto st = validateMemoryLimit(plan, file); !st)
        return st;
    if (!plan.fileSizes.empty() && plan.pattern != Pattern::Whole)
        return Error{"file sizes are for the whole pattern: with sequential or random ranges, "
                     "give range sizes"};
    if (wholeFileSweep(plan)) {
        std::set<std::uint64_t> sizes;
        for (auto size : plan.fileSizes) {
            if (size == 0)
                return Error{"file size 0: a file read whole must hold at least one byte"};
            if (!sizes.insert(size).second)
                return Error{fmt::format("file size {} is named twice", formatSize(size))};
        }
        if (skippedFileSizes(plan, file.size).size() == plan.fileSizes.size())
            return Error{fmt::format(
                "every file size is larger than '{}' ({}): the copies are made of its first "
                "bytes, so choose sizes up to {} or a larger file",
                file.path, formatSize(file.size), formatSize(file.size))};
    }
    if (auto st = validateTrace(plan, file); !st)
        return st;
    if (plan.pattern == Pattern::Sequential || plan.pattern == Pattern::Random) {
        if (plan.sizes.empty())
            return Error{"no range sizes given: name at least one, e.g. 64K"};
        for (auto size : plan.sizes) {
            if (size == 0)
                return Error{"range size 0: a range must hold at least one byte"};
            if (size > file.size)
                return Error{fmt::format(
                    "range size {} is larger than the file '{}' ({}): choose smaller sizes or "
                    "a larger file",
                    formatSize(size), file.path, formatSize(file.size))};
        }
    }
    for (auto offset : plan.bufferOffsets)
        if (offset > kMaxBufferOffset)
            return Error{fmt::format("buffer offset {} is out of range: use 0 to {} bytes", offset,
                                     kMaxBufferOffset)};
    if (auto st = validateAxes(plan); !st)
        return st;
    if (!kThreadsLimit.contains(plan.threads))
        return Error{fmt::format("threads {} is out of range: use {} to {}", plan.threads,
                                 kThreadsLimit.min, kThreadsLimit.max)};
    for (auto threads : plan.threadCounts)
        if (!kThreadsLimit.contains(threads))
            return Error{fmt::format("threads {} is out of range: use {} to {}", threads,
                                     kThreadsLimit.min, kThreadsLimit.max)};
    if (auto st = validateQueueDepths(plan, file); !st)
        return st;
    if (!kRoundsLimit.contains(plan.rounds))
        return Error{fmt::format("rounds {} is out of range: use {} to {} (5 or more for an "
                                 "interval that can tell a noisy cell from a quiet one)",
                                 plan.rounds, kRoundsLimit.min, kRoundsLimit.max)};
    if (!kWarmupLimit.contains(plan.warmup))
        return Error{fmt::format("warm-up rounds {} is out of range: use {} to {}", plan.warmup,
                                 kWarmupLimit.min, kWarmupLimit.max)};
    if (!(plan.timeCapSeconds > 0) || plan.timeCapSeconds > kMaxTimeCapSeconds)
        return Error{
            fmt::format("the time cap must be above 0 and at most {} seconds", kMaxTimeCapSeconds)};
    if (plan.precision != 0 &&
        !(plan.precision >= kMinPrecision && plan.precision <= kMaxPrecision))
        return Error{fmt::format("precision {}% is out of range: use {}% to {}% (or none)",
                                 plan.precision * 100, kMinPrecision * 100, kMaxPrecision * 100)};
    if (!(plan.durationSeconds >= 0) || plan.durationSeconds > kMaxDurationSeconds)
        return Error{fmt::format("the duration must be 0 (rounds as planned) to {} seconds",
                                 kMaxDurationSeconds)};
    if (plan.durationSeconds > 0 && plan.pattern == Pattern::Whole)
        return Error{"a duration run reads on through its ranges: the whole pattern has none "
                     "(use sequential or random)"};
    if (plan.durationSeconds > 0 && plan.precision > 0)
        return Error{"a duration run measures for its time, and --precision would add rounds "
                     "after it: use one or the other"};
    if (!(plan.maxTimeSeconds >= 0) || plan.maxTimeSeconds > kMaxMaxTimeSeconds)
        return Error{
            fmt::format("the maximum time must be 0 (none) to {} seconds", kMaxMaxTimeSeconds)};
    if (!kRepeatsLimit.contains(plan.repeats))
        return Error{fmt::format("repeats {} is out of range: use {} to {}", plan.repeats,
                                 kRepeatsLimit.min, kRepeatsLimit.max)};
    if (!(plan.roundTimeSeconds >= 0) || plan.roundTimeSeconds > kMaxRoundTimeSeconds)
        return Error{fmt::format("round time must be 0 (read the whole budget) to {} seconds",
                                 kMaxRoundTimeSeconds)};
    if (plan.budget != 0 &&
        (plan.pattern == Pattern::Sequential || plan.pattern == Pattern::Random)) {
        const auto smallest = *std::min_element(plan.sizes.begin(), plan.sizes.end());
        if (plan.budget < smallest)
            return Error{fmt::format("budget {} is smaller than the range size {}: each round "
                                     "must read at least one range",
                                     formatSize(plan.budget), formatSize(smallest))};
    }
    return okStatus();
}

std::size_t minRangesPerRound(std::uint64_t rangeBytes) {
    const std::uint64_t fit = kFloorBytesPerRound / std::max<std::uint64_t>(rangeBytes, 1);
    return static_cast<std::size_t>(
        std::clamp<std::uint64_t>(fit, kMinRangesPerRoundLarge, kMinRangesPerRound));
}

} // namespace readscope
