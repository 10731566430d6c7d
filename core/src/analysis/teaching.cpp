#include "readscope/teaching.h"

#include "readscope/reader.h"
#include "readscope/stats.h"

#include <algorithm>
#include <vector>

namespace readscope {

bool freshBuffer(const StrategyInfo& s) {
    return s.buffer == BufferKind::FreshZeroed || s.buffer == BufferKind::FreshUninit ||
           s.buffer == BufferKind::FreshCalloc || s.buffer == BufferKind::Grown ||
           s.buffer == BufferKind::Preallocated;
}

double grownReads(std::uint64_t rangeBytes) {
    double reads = 1;
    for (std::uint64_t cap = 8 << 10; cap < rangeBytes; cap *= 2)
        ++reads;
    return reads;
}

ExpectedCalls expectedCalls(const StrategyInfo& s, std::uint64_t n) {
    ExpectedCalls e;
    switch (s.access) {
    case Access::Pread:
    case Access::Direct: e = {1, 1}; break;
    case Access::SeekRead: e = {2, 2}; break;
    case Access::ReadToEnd: {
        const double reads = s.buffer == BufferKind::Grown ? grownReads(n) : 1;
        e = {reads, reads + 1};
        break;
    }
    case Access::AsRuntime: {
        // The runtime's calls for a file of this size, from the code that makes them.
        const double count = double(runtimeCalls(s, n).size());
        e = {count, count};
        break;
    }
    case Access::MapCopy: e = {0, s.mapping == MapLifetime::Kept ? 0.05 : 0.1}; break;
    case Access::MapInPlace:
        e = {s.hint == Hint::WillNeed ? 1.0 : 0.0, s.hint == Hint::WillNeed ? 1.0 : 0.1};
        break;
    // Merged spans: from one pread for a whole batch down to one per range; io_uring: one
    // enter per batch.
    case Access::Coalesce:
    case Access::UringBatch: e = {0, 1}; break;
    }
    // A mapping per round: map, unmap, advice, populate and the guard's signal mask (POSIX);
    // CreateFileMapping, MapViewOfFile, UnmapViewOfFile and CloseHandle (Windows). A kept
    // mapping: the signal mask only.
    if (s.mapsFile())
        e.perRoundMax = s.mapping == MapLifetime::Kept ? 1 : 5;
    return e;
}

MeasuredCost measuredCost(const Cell& c) {
    MeasuredCost m;
    if (c.samples.empty())
        return m;
    const double bytes = medianOverRounds(c, [](const Sample& s) { return s.bytes; });
    const double mib = bytes / (1 << 20);
    const double calls = medianOverRounds(c, [](const Sample& s) { return s.syscalls; });
    m.syscallsPerRange = c.rangesPerRound ? calls / double(c.rangesPerRound) : 0;
    m.syscallsPerMiB = mib > 0 ? calls / mib : 0;
    m.minorFaultsPerMiB =
        mib > 0 ? medianOverRounds(c, [](const Sample& s) { return s.minorFaults; }) / mib : 0;
    m.majorFaultsPerMiB =
        mib > 0 ? medianOverRounds(c, [](const Sample& s) { return s.majorFaults; }) / mib : 0;
    m.tlbShootdownsPerMiB = medianOfPresent(c, [](const Sample& s) -> std::optional<double> {
        if (!s.tlbShootdowns || s.bytes <= 0)
            return std::nullopt;
        return *s.tlbShootdowns / (double(s.bytes) / (1 << 20));
    });
    if (const auto cpu = cpuMsPerGB(c)) {
        m.userMsPerGB = cpu->userMs;
        m.systemMsPerGB = cpu->systemMs;
        m.cpuSplitResolved = cpu->splitResolved;
    }
    return m;
}

std::vector<Disagreement> disagreements(const StrategyInfo& s, const Cell& c,
                                        std::uint32_t pageSize, bool faultsCounted, int threads) {
    std::vector<Disagreement> out;
    if (c.samples.empty())
        return out;
    const ExpectedCalls e = expectedCalls(s, c.rangeBytes);
    const MeasuredCost m = measuredCost(c);
    const double perRound =
        c.rangesPerRound ? e.perRoundMax * std::max(threads, 1) / double(c.rangesPerRound) : 0;
    if (m.syscallsPerRange < e.perRangeMin * 0.9 ||
        m.syscallsPerRange > e.perRangeMax * 1.1 + 0.05 + perRound)
        out.push_back({Disagreement::Syscalls, c.rangeBytes, m.syscallsPerRange});
    if (!faultsCounted)
        return out; // zeros that mean "not counted" contradict nothing
    const double pagesPerMiB = double(1 << 20) / pageSize;
    if ((s.buffer == BufferKind::Reused || s.access == Access::Direct) && m.minorFaultsPerMiB > 1)
        out.push_back({Disagreement::FaultsWhereNone, c.rangeBytes, m.minorFaultsPerMiB});
    if (freshBuffer(s) && c.rangeBytes >= kMmapThreshold && s.access != Access::MapCopy &&
        s.access != Access::Coalesce && m.minorFaultsPerMiB < pagesPerMiB * 0.1)
        out.push_back(
            {Disagreement::FreshBuffersWarm, c.rangeBytes, m.minorFaultsPerMiB, pagesPerMiB});
    if (s.access == Access::MapInPlace && s.hint != Hint::Populate && m.minorFaultsPerMiB < 0.5 &&
        m.majorFaultsPerMiB < 0.5)
        out.push_back({Disagreement::NoMappingFaults, c.rangeBytes, m.minorFaultsPerMiB});
    return out;
}

} // namespace readscope
