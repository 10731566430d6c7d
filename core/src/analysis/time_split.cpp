#include "readscope/time_split.h"

#include "readscope/cost_model.h"
#include "readscope/stats.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

constexpr std::size_t index(TimePart part) { return static_cast<std::size_t>(part); }

// A round's count per range, median over the rounds.
template <class Field> double perRange(const Cell& cell, Field field) {
    return medianOverRounds(cell, field) / static_cast<double>(cell.rangesPerRound);
}

double pageSizeOf(const ResultDocument& doc) {
    return doc.system.pageSize > 0 ? doc.system.pageSize : 4096;
}

// The share of a cell's bytes its rounds fetched from storage (median over the rounds of
// each one's fetched over read), or its major faults' pages where no fetch was counted.
constexpr double kFetchedForNoSplit = 0.1;
double fetchedShare(const Cell& cell, double pageSize) {
    std::vector<double> shares;
    for (const auto& x : cell.samples) {
        const double read = double(std::max(x.bytes, x.bytesRead));
        if (read <= 0)
            continue;
        const double fetched = x.deviceBytes ? *x.deviceBytes : double(x.majorFaults) * pageSize;
        shares.push_back(fetched / read);
    }
    return shares.empty() ? 0 : median(shares);
}

} // namespace

std::string_view partKey(TimePart part) {
    switch (part) {
    case TimePart::Syscalls: return "syscalls";
    case TimePart::Faults: return "faults";
    case TimePart::Zeroing: return "zeroing";
    case TimePart::PageCache: return "page_cache";
    case TimePart::Copying: return "copying";
    case TimePart::Fold: return "fold";
    }
    return "";
}

double TimeSplit::explainedSeconds() const {
    double sum = 0;
    for (const auto& s : seconds)
        sum += s.value_or(0);
    return sum;
}

double TimeSplit::share(TimePart part) const {
    return measuredSeconds > 0 ? partSeconds(part).value_or(0) / measuredSeconds : 0;
}

double TimeSplit::unexplainedShare() const {
    return measuredSeconds > 0 ? unexplainedSeconds() / measuredSeconds : 0;
}

std::optional<std::pair<double, double>> TimeSplit::unexplainedInterval() const {
    if (!measuredInterval || measuredInterval->first <= 0)
        return std::nullopt;
    const double explained = explainedSeconds();
    return std::pair(1 - explained / measuredInterval->first,
                     1 - explained / measuredInterval->second);
}

std::optional<NoSplit> whyNoSplit(const ResultDocument& doc, const Cell& cell) {
    using Why = NoSplit::Why;
    const StrategyInfo* s = findStrategy(cell.strategy);
    if (!cell.measured())
        return NoSplit{Why::NoFigures};
    if (readsStorage(doc))
        return NoSplit{Why::ColdRun};
    if (s && s->access == Access::Direct)
        return NoSplit{Why::DirectRead};
    if (const double fetched = fetchedShare(cell, pageSizeOf(doc)); fetched >= kFetchedForNoSplit)
        return NoSplit{Why::Fetched, fetched};
    if (!cell.copyLimitGbps)
        return NoSplit{Why::NoMemcpyRate};
    if (cell.samples.empty() || cell.rangesPerRound == 0)
        return NoSplit{Why::NoCounts};
    if (!s)
        return NoSplit{Why::UnknownStrategy};
    return std::nullopt;
}

std::optional<TimeSplit> timeSplit(const ResultDocument& doc, const Cell& cell) {
    if (whyNoSplit(doc, cell))
        return std::nullopt;
    const StrategyInfo& s = *findStrategy(cell.strategy);
    const int threads = threadsAt(doc.plan, cell.point());
    const auto measured = secondsPerRange(cell, threads);
    if (!measured)
        return std::nullopt;
    TimeSplit split;
    split.measuredSeconds = *measured;
    // Time per range goes as 1 / GB/s: the interval's fast end is the median's high one.
    if (const auto& m = cell.summary;
        m.ciCoverage >= kMinCoverageToJudge && m.ciLow > 0 && m.ciHigh >= m.ciLow) {
        split.measuredInterval =
            std::pair(*measured * m.median / m.ciHigh, *measured * m.median / m.ciLow);
        split.intervalCoverage = m.ciCoverage;
    }
    split.copyInUserSpace = s.access == Access::MapCopy;
    split.unmapsPages = s.mapsFile() && s.mapping == MapLifetime::PerRound;
    const auto& u = doc.unitCosts;

    const double calls = perRange(cell, [](const Sample& x) { return x.syscalls; });
    const double seeks = perRange(cell, [](const Sample& x) { return x.seeks; });
    if (u.nullSyscall && (seeks == 0 || doc.lseekSeconds))
        split.seconds[index(TimePart::Syscalls)] =
            std::max(0.0, calls - seeks) * *u.nullSyscall + seeks * doc.lseekSeconds.value_or(0);
    else if (calls > 0)
        split.unpriced.push_back(Unpriced::Syscalls);
    else
        split.seconds[index(TimePart::Syscalls)] = 0.0; // none made

    const double bytes = perRange(cell, [](const Sample& x) { return x.bytes; });
    // The bytes the reads asked for (a coalesced span, a populated gap, included).
    const double read = perRange(cell, [](const Sample& x) { return x.bytesRead; });
    const double faults = perRange(cell, [](const Sample& x) { return x.minorFaults; });
    // A mapping's faults at the price of the file's pages where the point measured it (older
    // documents: the file's first pages'). A mapping kept for the run took its file faults in
    // the warm-up: the faults its rounds take are its fresh buffers' first touches. (With no
    // warm-up its first round takes the file faults; the median over three or more rounds
    // leaves that round out, the mean of two does not.)
    const bool fileFaults = s.mapsFile() && s.mapping != MapLifetime::Kept;
    const auto faultCost = fileFaults
                               ? (cell.mappedFaultSeconds ? cell.mappedFaultSeconds : u.fileFault)
                               : u.anonymousFault;
    split.faultsPerRange = faults;
    split.secondsPerFault = faultCost;
    if (faultCost)
        split.seconds[index(TimePart::Faults)] = faults * *faultCost;
    else if (faults > 0)
        split.unpriced.push_back(Unpriced::Faults);
    else
        split.seconds[index(TimePart::Faults)] = 0.0; // none taken
    const double pageSize = pageSizeOf(doc);
    // The pages a range reads, without rounding each range up: small ranges share pages.
    const double pagesRead = std::max(bytes, read) / pageSize;
    if (fileFaults && faults > 0)
        split.pagesPerFault = pagesRead / faults;
    // A mapping made and dropped each round unmaps the pages it mapped, torn down by munmap:
    // the pages its ranges read (a populated gap included), and at least a page a fault (a
    // range under a page still maps a whole one).
    if (split.unmapsPages) {
        const double mapped = std::max(pagesRead, faults);
        const auto unmapCost = cell.mappedUnmapSeconds ? cell.mappedUnmapSeconds : u.unmapPage;
        if (!unmapCost && mapped > 0)
            split.unpriced.push_back(Unpriced::Unmapping);
        else if (unmapCost && split.seconds[index(TimePart::Faults)])
            *split.seconds[index(TimePart::Faults)] += mapped * *unmapCost;
    }
    if (perRange(cell, [](const Sample& x) { return x.majorFaults; }) > 0)
        split.unpriced.push_back(Unpriced::MajorFaults);

    // calloc skips the memset for pages fresh from the kernel, which its faults zeroed: the
    // rest it zeroes itself.
    const double zeroed = s.buffer == BufferKind::FreshZeroed ? bytes
                          : s.buffer == BufferKind::FreshCalloc
                              ? std::max(0.0, bytes - faults * pageSize)
                              : 0.0;
    if (zeroed > 0 && cell.memsetGbps)
        split.seconds[index(TimePart::Zeroing)] = zeroed / (*cell.memsetGbps * 1e9);
    else if (zeroed > 0)
        split.unpriced.push_back(Unpriced::Zeroing);
    else
        split.seconds[index(TimePart::Zeroing)] = 0.0;

    // The bytes the reads asked for are the bytes copied.
    const double copied = s.access == Access::MapInPlace ? 0.0 : std::max(bytes, read);
    // A read that copies out of the page cache does the read path's work on each page, and
    // copies at the kernel's rate (one worker's, measured alone); a mapping's copy is memcpy's
    // (its limit is measured with the run's workers together).
    const bool kernelCopies = !s.mapsFile();
    if (kernelCopies && cell.kernelCopyGbps)
        split.seconds[index(TimePart::Copying)] = copied / (*cell.kernelCopyGbps * 1e9);
    else if (s.access == Access::MapCopy && cell.mappedCopyGbps) // one thread's, as a worker's
        split.seconds[index(TimePart::Copying)] = copied / (*cell.mappedCopyGbps * 1e9);
    else // memcpy's typical pass (its limit is the best; older documents have only that)
        split.seconds[index(TimePart::Copying)] =
            copied * threads / (cell.memcpyGbps.value_or(*cell.copyLimitGbps) * 1e9);
    if (kernelCopies && !cell.kernelCopyGbps && copied > 0)
        split.unpriced.push_back(Unpriced::KernelCopy);
    if (!kernelCopies)
        split.seconds[index(TimePart::PageCache)] = 0.0;
    else if (u.cachedPage)
        split.seconds[index(TimePart::PageCache)] = std::ceil(copied / pageSize) * *u.cachedPage;
    else
        split.unpriced.push_back(Unpriced::PageCache);

    if (doc.plan.consume == Consume::All) {
        // In place, the fold reads the file's pages where they lie; else a buffer just written.
        const auto fold = s.access == Access::MapInPlace && cell.mappedFoldGbps
                              ? cell.mappedFoldGbps
                              : cell.foldGbps;
        if (fold)
            split.seconds[index(TimePart::Fold)] = bytes / (*fold * 1e9);
        else
            split.unpriced.push_back(Unpriced::Fold);
    } else {
        split.seconds[index(TimePart::Fold)] = 0.0; // a byte per range or page: no fold
    }
    return split;
}

} // namespace readscope
