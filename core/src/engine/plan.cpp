#include "readscope/plan.h"

#include "readscope/buffer_offsets.h"
#include "readscope/probe.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace readscope {

std::string_view toString(Pattern p) {
    switch (p) {
    case Pattern::Sequential: return "sequential";
    case Pattern::Random: return "random";
    case Pattern::Whole: return "whole";
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
    return a == SweepAxis::BufferOffset ? "buffer-offset" : "range-size";
}

Result<Pattern> parsePattern(std::string_view text) {
    for (auto p : {Pattern::Sequential, Pattern::Random, Pattern::Whole})
        if (toString(p) == text)
            return p;
    return Error{fmt::format("unknown pattern '{}': use sequential, random or whole", text)};
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

std::uint64_t effectiveBudget(const Plan& plan, std::uint64_t fileSize) {
    return plan.budget ? plan.budget : std::min(fileSize, kDefaultBudget);
}

std::string patternWords(const Plan& plan) {
    if (wholeFileSweep(plan))
        return "whole files (open, read, close)";
    if (plan.pattern == Pattern::Whole)
        return "whole file";
    return fmt::format("{} ranges", toString(plan.pattern));
}

std::string_view axisName(const Plan& plan) {
    if (sweepAxis(plan) == SweepAxis::BufferOffset)
        return "buffer offset";
    return wholeFileSweep(plan) ? "file size" : "range size";
}

bool wholeFileSweep(const Plan& plan) {
    return plan.pattern == Pattern::Whole && !plan.fileSizes.empty();
}

std::vector<std::uint64_t> effectiveSizes(const Plan& plan, std::uint64_t fileSize) {
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

SweepAxis sweepAxis(const Plan& plan) {
    return plan.bufferOffsets.size() > 1 ? SweepAxis::BufferOffset : SweepAxis::RangeSize;
}

std::string pointText(const SweepPoint& point) {
    if (!point.bufferOffset)
        return formatSize(point.rangeBytes);
    return fmt::format("{} @ +{}", formatSize(point.rangeBytes),
                       formatBufferOffset(*point.bufferOffset));
}

std::vector<SweepPoint> sweepPoints(const Plan& plan, std::uint64_t fileSize) {
    const auto sizes = effectiveSizes(plan, fileSize);
    std::vector<SweepPoint> points;
    if (sweepAxis(plan) == SweepAxis::BufferOffset) {
        for (auto offset : plan.bufferOffsets)
            points.push_back({sizes.front(), offset});
        return points;
    }
    std::optional<std::uint32_t> pinned;
    if (!plan.bufferOffsets.empty())
        pinned = plan.bufferOffsets.front();
    for (auto size : sizes)
        points.push_back({size, pinned});
    return points;
}

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
    }
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
        if (sweepAxis(plan) == SweepAxis::BufferOffset)
            return Error{"a whole-file sweep varies the file size; a list of buffer offsets "
                         "would make the offset the sweep's axis too: give one offset, or none"};
        if (skippedFileSizes(plan, file.size).size() == plan.fileSizes.size())
            return Error{fmt::format(
                "every file size is larger than '{}' ({}): the copies are made of its first "
                "bytes, so choose sizes up to {} or a larger file",
                file.path, formatSize(file.size), formatSize(file.size))};
    }
    if (plan.pattern != Pattern::Whole) {
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
    if (sweepAxis(plan) == SweepAxis::BufferOffset && plan.pattern != Pattern::Whole &&
        plan.sizes.size() != 1)
        return Error{fmt::format("a buffer-offset sweep measures one range size, and {} were "
                                 "given: name one size (e.g. --sizes 256K)",
                                 plan.sizes.size())};
    if (!kThreadsLimit.contains(plan.threads))
        return Error{fmt::format("threads {} is out of range: use {} to {}", plan.threads,
                                 kThreadsLimit.min, kThreadsLimit.max)};
    if (!kRoundsLimit.contains(plan.rounds))
        return Error{fmt::format("rounds {} is out of range: use {} to {}", plan.rounds,
                                 kRoundsLimit.min, kRoundsLimit.max)};
    if (!kWarmupLimit.contains(plan.warmup))
        return Error{fmt::format("warm-up rounds {} is out of range: use {} to {}", plan.warmup,
                                 kWarmupLimit.min, kWarmupLimit.max)};
    if (plan.timeCapSeconds <= 0)
        return Error{"time cap must be positive"};
    if (!(plan.roundTimeSeconds >= 0) || plan.roundTimeSeconds > kMaxRoundTimeSeconds)
        return Error{fmt::format("round time must be 0 (read the whole budget) to {} seconds",
                                 kMaxRoundTimeSeconds)};
    if (plan.budget != 0 && plan.pattern != Pattern::Whole) {
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
