#include "readscope/ranges.h"

#include <algorithm>
#include <random>
#include <unordered_map>

namespace readscope {

namespace {
constexpr std::uint64_t kRandomAlign = 4096;
}

std::vector<Range> makeRanges(Pattern pattern, std::uint64_t rangeSize, std::uint64_t fileSize,
                              std::uint64_t budget, std::uint64_t seed) {
    std::vector<Range> ranges;
    if (fileSize == 0 || rangeSize == 0)
        return ranges;
    switch (pattern) {
    case Pattern::Whole: ranges.push_back({0, fileSize}); break;
    case Pattern::Trace: break; // a trace's reads come from Plan::trace (point_run.cpp)
    case Pattern::Sequential: {
        // Non-overlapping ranges from the start; at least the budget's worth unless the file
        // ends first. The last range may run past end of file and read what is there.
        const std::uint64_t limit = std::min(std::max(budget, rangeSize), fileSize);
        for (std::uint64_t off = 0; off < limit; off += rangeSize)
            ranges.push_back({off, rangeSize});
        break;
    }
    case Pattern::Random: {
        // Drawn without replacement, as fio's random map does: the file is cut into
        // non-overlapping page-aligned slots (as block and page readers use), and each pass over
        // them is a seeded permutation, so no page is read twice in a round (a second read of a
        // page is a page-cache hit, even on a cold run) until a round's ranges outnumber the
        // slots and a new pass begins. A seeded 64-bit Mersenne Twister: the same seed gives the
        // same ranges on every machine.
        const std::uint64_t count = std::max<std::uint64_t>(1, budget / rangeSize);
        const std::uint64_t stride = (rangeSize + kRandomAlign - 1) / kRandomAlign * kRandomAlign;
        const std::uint64_t slots = fileSize > rangeSize ? (fileSize - rangeSize) / stride + 1 : 1;
        std::mt19937_64 rng(seed ^ (rangeSize * 0x9E3779B97F4A7C15ull));
        ranges.reserve(count);
        // A Fisher-Yates shuffle that keeps only the slots it moved, so that a pass over a
        // large file costs what it draws, not what the file holds.
        std::unordered_map<std::uint64_t, std::uint64_t> moved;
        auto slotAt = [&moved](std::uint64_t i) {
            const auto it = moved.find(i);
            return it == moved.end() ? i : it->second;
        };
        for (std::uint64_t i = 0, drawn = 0; i < count; ++i, ++drawn) {
            if (drawn == slots) { // a new pass
                drawn = 0;
                moved.clear();
            }
            const std::uint64_t pick = drawn + rng() % (slots - drawn);
            const std::uint64_t slot = slotAt(pick);
            moved[pick] = slotAt(drawn);
            ranges.push_back({slot * stride, rangeSize});
        }
        break;
    }
    }
    return ranges;
}

std::vector<Range> wholeFileReads(std::uint64_t fileSize, std::uint64_t budget, bool cold) {
    const std::uint64_t count =
        cold ? 1
             : std::clamp<std::uint64_t>(budget / std::max<std::uint64_t>(fileSize, 1), 1,
                                         kMaxWholeFileReads);
    return std::vector<Range>(static_cast<std::size_t>(count), Range{0, fileSize});
}

std::vector<std::vector<Range>> splitRanges(const std::vector<Range>& ranges, int workers) {
    workers = std::max(1, workers);
    std::vector<std::vector<Range>> parts(static_cast<std::size_t>(workers));
    const std::size_t n = ranges.size();
    std::size_t begin = 0;
    for (std::size_t w = 0; w < parts.size(); ++w) {
        const std::size_t count = n / parts.size() + (w < n % parts.size() ? 1 : 0);
        parts[w].assign(ranges.begin() + static_cast<std::ptrdiff_t>(begin),
                        ranges.begin() + static_cast<std::ptrdiff_t>(begin + count));
        begin += count;
    }
    return parts;
}

std::vector<std::vector<Range>> splitByThread(const std::vector<Range>& ranges,
                                              std::span<const std::uint32_t> threadOf,
                                              int workers) {
    std::vector<std::vector<Range>> parts(static_cast<std::size_t>(std::max(1, workers)));
    for (std::size_t i = 0; i < ranges.size() && i < threadOf.size(); ++i)
        parts[threadOf[i] % parts.size()].push_back(ranges[i]);
    return parts;
}

} // namespace readscope
