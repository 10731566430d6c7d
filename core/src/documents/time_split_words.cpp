#include "readscope/time_split_words.h"

#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

// "17%", or "4.2%" under ten.
std::string percent(double share) {
    const double pct = share * 100;
    return std::abs(pct) >= 10 ? fmt::format("{:.0f}%", pct) : fmt::format("{:.1f}%", pct);
}

// What the unit costs leave out for this kind of strategy, where a large share is unexplained.
std::string_view whatIsNotPriced(const StrategyInfo& s) {
    if (s.buffer == BufferKind::Grown || s.access == Access::AsRuntime)
        return "the copies a growing buffer makes (realloc) and the allocator's own work have "
               "no count here";
    if (s.mapsFile())
        return "mmap, munmap and the page-table work of a mapping are priced as calls that do "
               "nothing, and TLB misses have no count";
    if (s.access == Access::UringBatch)
        return "io_uring's own work has no price here: preparing and reaping each entry in the "
               "rings, and the kernel's io-wq workers, whose time on another core overlaps "
               "this thread's or waits for it; TLB and cache misses have no count either";
    if (s.access == Access::Coalesce)
        return "the allocator's work for each merged span (its own mmap and munmap when the "
               "span is past malloc's threshold, calls the count leaves out) and TLB misses "
               "have no count here; each range is consumed inside its span, not copied out";
    return "the reads' misses past the CPU's caches, TLB misses and the allocator's work have no "
           "count here";
}

// Why this machine cannot count what the unit costs leave out, where the probe found out.
std::string whyNoMissCounts(const SystemInfo& system) {
    if (system.hardwareCounters == HardwareCounters::Absent)
        return "This machine has no hardware counters (perf_event_open of the CPU's cycles "
               "found none: a virtual machine that passes none through), so TLB and cache "
               "misses, and the hypervisor's own work, cannot be counted here.";
    if (system.hardwareCounters == HardwareCounters::NotPermitted)
        return "The CPU's hardware counters are not permitted to this process "
               "(kernel.perf_event_paranoid, or a container's seccomp profile), so TLB and "
               "cache misses cannot be counted here.";
    return {};
}

// How the copies past L2 were priced, for the rows priced so.
std::string pausedCopies(const ResultDocument& doc, const std::vector<double>& pauses) {
    const auto [low, high] = std::minmax_element(pauses.begin(), pauses.end());
    const std::string pause = std::round(*low * 1e3) == std::round(*high * 1e3)
                                  ? fmt::format("{:.0f} ms", *low * 1e3)
                                  : fmt::format("{:.0f}-{:.0f} ms", *low * 1e3, *high * 1e3);
    const std::uint64_t l2 = doc.system.caches.l2;
    return fmt::format(
        "Copies past L2{} are priced as their rounds ran ({} of these cells: reads "
        "into as many bytes as L2 or more, mappings of more than L2 a round): each price "
        "pass is one round's reads after a pause as long as the one between the "
        "cell's rounds ({}; at most 100 ms), since a copy past L2 can run slower "
        "after one; where a cell zeroes its buffer before each copy, or folds it after "
        "(--consume all), that is timed in the same passes.",
        l2 ? fmt::format(" ({} here)", formatSize(l2)) : std::string(), pauses.size(), pause);
}

// Column titles, in kTimeParts order.
constexpr const char* kHeads[] = {"syscalls", "faults", "zeroing", "page-cache", "copy", "fold"};
static_assert(std::size(kHeads) == kTimeParts.size());

// Whole percent; a share that rounds to zero is "0%", never "-0%".
std::string share(double v) {
    const double pct = std::round(v * 100);
    return fmt::format("{:.0f}%", pct == 0 ? 0.0 : pct);
}

} // namespace

std::vector<std::string> timeSplitLines(const ResultDocument& doc, bool withUnitCosts) {
    // Cells past kLargeUnexplainedShare at the median: over the whole interval of the median
    // (beyond), at the median only (within the rounds' spread), or with no interval.
    std::vector<std::string> rows, beyond, withinSpread, noInterval;
    std::vector<std::string> underPriced; // strategies with a cell explained too little
    bool anyUnpriced = false;
    std::vector<double> pauses; // of the rows whose copy was priced after one
    // The point column as wide as its longest ("1 MiB @ +16" on an offset sweep).
    std::size_t width = 9;
    for (const auto& cell : doc.cells)
        width = std::max(width, rowLabel(doc, pointText(cell.point())).size());
    for (const auto& cell : doc.cells) {
        const auto split = timeSplit(doc, cell);
        if (!split)
            continue;
        std::string row = fmt::format("{:<18} {:>{}} {:>10}", cell.strategy,
                                      rowLabel(doc, pointText(cell.point())), width,
                                      microseconds(split->measuredSeconds));
        for (TimePart p : kTimeParts)
            row += fmt::format(" {:>10}",
                               split->partSeconds(p) ? share(split->share(p)) : std::string("-"));
        const double rest = split->unexplainedShare();
        row += fmt::format(" {:>11}", share(rest));
        rows.push_back(row);
        if (cell.copyPauseSeconds)
            pauses.push_back(*cell.copyPauseSeconds);
        anyUnpriced |= !split->unpriced.empty();
        if (std::abs(rest) > kLargeUnexplainedShare) {
            const auto at =
                fmt::format("{} at {}", cell.strategy, rowLabel(doc, pointText(cell.point())));
            // The fast end's share is the lower one: past the line over the whole interval
            // when the fast end is past it above, or the slow end below.
            if (const auto range = split->unexplainedInterval(); !range)
                noInterval.push_back(fmt::format("{} ({})", at, share(rest)));
            else
                (range->first > kLargeUnexplainedShare || range->second < -kLargeUnexplainedShare
                     ? beyond
                     : withinSpread)
                    .push_back(fmt::format("{} ({}; {} to {}, {:.0f}% interval)", at, share(rest),
                                           share(range->first), share(range->second),
                                           split->intervalCoverage * 100));
        }
        if (rest > kLargeUnexplainedShare &&
            std::find(underPriced.begin(), underPriced.end(), cell.strategy) == underPriced.end())
            underPriced.push_back(cell.strategy);
    }
    if (rows.empty())
        return {};
    std::vector<std::string> lines;
    lines.push_back("Where the time goes: each cell's counts per range times this machine's unit "
                    "costs, as shares of the measured time per range");
    std::string head = fmt::format("{:<18} {:>{}} {:>10}", "strategy", "size", width, "µs/range");
    for (const char* h : kHeads)
        head += fmt::format(" {:>10}", h);
    lines.push_back(head + fmt::format(" {:>11}", "unexplained"));
    lines.insert(lines.end(), rows.begin(), rows.end());
    lines.push_back("(copy: the kernel's copy out of the page cache for reads, memcpy for "
                    "mappings; -: counted but not priced here; unexplained: measured minus the "
                    "parts, negative when they predict more)");
    if (!pauses.empty())
        lines.push_back(pausedCopies(doc, pauses));
    if (anyUnpriced)
        lines.push_back("Some counts have no unit cost in this run: the teaching panel and the "
                        "JSON's time_split say which.");
    const auto listed = [](const std::vector<std::string>& items) {
        return fmt::format("{}", fmt::join(items, ", "));
    };
    const double limit = kLargeUnexplainedShare * 100;
    if (!beyond.empty())
        lines.push_back(fmt::format("More than {:.0f}% unexplained, over the whole interval of "
                                    "the median (at the median; at its fast and slow ends): {}.",
                                    limit, listed(beyond)));
    if (!withinSpread.empty())
        lines.push_back(fmt::format(
            "More than {:.0f}% unexplained at the median, but not over the whole interval of the "
            "median (the rounds' own spread), so not told apart from explained: {}.",
            limit, listed(withinSpread)));
    if (!noInterval.empty())
        lines.push_back(fmt::format("More than {:.0f}% unexplained (too few rounds for an "
                                    "interval of the median): {}.",
                                    limit, listed(noInterval)));
    if (!beyond.empty() || !withinSpread.empty() || !noInterval.empty()) {
        // Where the parts explain too little, what this run could not price, per kind.
        for (const auto& id : underPriced)
            if (const StrategyInfo* info = findStrategy(id))
                lines.push_back(fmt::format("Not priced for {}: {}.", id, whatIsNotPriced(*info)));
        if (const auto why = whyNoMissCounts(doc.system); !underPriced.empty() && !why.empty())
            lines.push_back(why);
    }
    if (const auto units = unitCostsSentence(doc); withUnitCosts && !units.empty())
        lines.push_back(units);
    return lines;
}

std::string timeSplitMissing(const ResultDocument& doc, const Cell& cell) {
    const auto no = whyNoSplit(doc, cell);
    if (!no)
        return {};
    switch (no->why) {
    case NoSplit::Why::NoFigures: return "no figures";
    case NoSplit::Why::ColdRun:
        return "a cold run's time is mostly the device's, which no unit cost here prices";
    case NoSplit::Why::DirectRead:
        return "a direct read's time is the device's, which no unit cost here prices";
    case NoSplit::Why::Fetched:
        return fmt::format("its rounds fetched {} from storage (the file did not stay "
                           "cached), and the device's time no unit cost here prices",
                           no->fetchedShare >= 1
                               ? std::string("as many bytes as they read, or more")
                               : percent(no->fetchedShare) + " of the bytes they read");
    case NoSplit::Why::NoMemcpyRate: return "no memcpy rate was measured for this cell";
    case NoSplit::Why::NoCounts:
        return "its rounds' counts are not in this document (a summary CSV keeps none)";
    case NoSplit::Why::UnknownStrategy: return "its strategy is not one this build knows";
    }
    return {};
}

std::string unpricedText(const TimeSplit& split) {
    std::string text;
    for (const Unpriced what : split.unpriced) {
        text += text.empty() ? "" : "; ";
        switch (what) {
        case Unpriced::Syscalls: text += "system calls (no call cost measured)"; break;
        case Unpriced::Faults: text += "page faults (no fault cost measured)"; break;
        case Unpriced::Unmapping: text += "unmapping (no cost per unmapped page measured)"; break;
        case Unpriced::MajorFaults: text += "major faults (a warm run should take none)"; break;
        case Unpriced::Zeroing: text += "zeroing (no memset rate measured)"; break;
        case Unpriced::KernelCopy:
            text += "the kernel's copy (priced at memcpy's rate: its own not measured)";
            break;
        case Unpriced::PageCache:
            text += "page-cache work (no cost per cached page measured)";
            break;
        case Unpriced::Fold: text += "the fold (no fold rate measured)"; break;
        }
    }
    return text;
}

std::string partName(TimePart part, const TimeSplit& split) {
    switch (part) {
    case TimePart::Syscalls: return "system calls";
    case TimePart::Faults: return split.unmapsPages ? "page faults and unmapping" : "page faults";
    case TimePart::Zeroing: return "zeroing (memset)";
    case TimePart::PageCache: return "page-cache work";
    case TimePart::Copying: return split.copyInUserSpace ? "memcpy" : "kernel copy";
    case TimePart::Fold: return "fold";
    }
    return "";
}

std::string timeSplitSentence(const ResultDocument& doc, const Cell& cell) {
    const auto split = timeSplit(doc, cell);
    if (!split)
        return {};
    std::vector<TimePart> parts(kTimeParts.begin(), kTimeParts.end());
    std::stable_sort(parts.begin(), parts.end(),
                     [&](TimePart a, TimePart b) { return split->share(a) > split->share(b); });
    std::string text =
        fmt::format("{} at {}, {} µs per range:", cell.strategy, formatSize(cell.rangeBytes),
                    microseconds(split->measuredSeconds));
    std::string sep = " ";
    for (TimePart p : parts)
        if (split->partSeconds(p).value_or(0) > 0) {
            text += fmt::format("{}{} {}", sep, partName(p, *split), percent(split->share(p)));
            sep = ", ";
        }
    text += fmt::format("{}unexplained {}", sep, percent(split->unexplainedShare()));
    // Past the line at the median: how far it reaches over the rounds' own spread.
    if (const auto range = split->unexplainedInterval();
        range && std::abs(split->unexplainedShare()) > kLargeUnexplainedShare)
        text += fmt::format(" ({} to {} over the median's {:.0f}% interval)", percent(range->first),
                            percent(range->second), split->intervalCoverage * 100);
    if (split->pagesPerFault && split->secondsPerFault)
        text += fmt::format(" ({:.3g} faults a range, one per {:.3g} pages read, {} µs a fault)",
                            split->faultsPerRange, *split->pagesPerFault,
                            microseconds(*split->secondsPerFault));
    if (!split->unpriced.empty())
        text += fmt::format(" (not priced: {})", unpricedText(*split));
    if (cell.copyPauseSeconds)
        text += fmt::format(" (priced as its rounds ran: each price pass a round's reads after "
                            "a {:.0f} ms pause)",
                            *cell.copyPauseSeconds * 1e3);
    const double rest = split->unexplainedShare();
    if (rest > kLargeUnexplainedShare) {
        text += fmt::format(". The unit costs explain only {} of it: {}", percent(1 - rest),
                            whatIsNotPriced(*findStrategy(cell.strategy)));
        if (const auto why = whyNoMissCounts(doc.system); !why.empty())
            return text + ". " + why;
    } else if (rest < -kLargeUnexplainedShare)
        text += fmt::format(". The unit costs predict {} more time than was measured: the "
                            "strategy beats a unit cost here (a kernel copy faster than memcpy "
                            "at this size, or work overlapped)",
                            percent(-rest));
    return text + ".";
}

} // namespace readscope
