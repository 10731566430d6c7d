#pragma once
// Where a cell's time goes: its counts per range (system calls, seeks, page faults, bytes
// zeroed, copied and folded), each times what one costs on this machine (the run's unit costs
// and per-size rates), set against the time a range took. What the unit costs do not explain
// is said, not hidden: that is where the lesson is.
#include "readscope/result_document.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace readscope {

// PageCache: the kernel's work per cached page a read copies out, beyond the copy itself.
enum class TimePart { Syscalls, Faults, Zeroing, PageCache, Copying, Fold };
inline constexpr std::array kTimeParts{TimePart::Syscalls,  TimePart::Faults,  TimePart::Zeroing,
                                       TimePart::PageCache, TimePart::Copying, TimePart::Fold};
// "syscalls", "faults", "zeroing", "page_cache", "copying", "fold": the JSON's and CSV's keys.
std::string_view partKey(TimePart part);

// A count the split has but whose unit cost the run did not measure (MajorFaults: a warm run
// should take none, and none is priced); the words are the documents' (time_split_words.h).
enum class Unpriced {
    Syscalls,
    Faults,
    Unmapping,
    MajorFaults,
    Zeroing,
    KernelCopy,
    PageCache,
    Fold
};

struct TimeSplit {
    double measuredSeconds = 0; // a worker's time per range (secondsPerRange)
    // Each part's predicted seconds per range; none where a count is there but its unit cost
    // was not measured (see unpriced).
    std::array<std::optional<double>, kTimeParts.size()> seconds{};
    bool copyInUserSpace = false;   // memcpy from a mapping; else the kernel's copy
    bool unmapsPages = false;       // a mapping per round: Faults includes unmapping its pages
    std::vector<Unpriced> unpriced; // in the order of the parts
    // A mapping's faults per range, the pages read per fault (fault-around and the page
    // cache's folios decide how many one fault maps; none for a mapping kept for the run, whose
    // rounds' faults are its buffers') and the price of one.
    double faultsPerRange = 0;
    std::optional<double> pagesPerFault, secondsPerFault;
    std::optional<double> partSeconds(TimePart part) const {
        return seconds[static_cast<std::size_t>(part)];
    }
    double explainedSeconds() const;
    // Measured minus explained: negative when the unit costs predict more than was measured.
    double unexplainedSeconds() const { return measuredSeconds - explainedSeconds(); }
    double share(TimePart part) const; // of the measured time, 0-1 (0 when not priced)
    double unexplainedShare() const;
    // The interval of the median (Summary ciLow/ciHigh, the rounds' own spread) as seconds per
    // range, fastest first; none where the rounds are too few to give one with
    // kMinCoverageToJudge.
    std::optional<std::pair<double, double>> measuredInterval;
    double intervalCoverage = 0; // how sure that interval is to hold the median, 0-1
    // The unexplained share at either end of that interval, lowest first: the parts set against
    // the fastest and the slowest time the rounds allow.
    std::optional<std::pair<double, double>> unexplainedInterval() const;
};

// Why a cell has no split: no figures, a cold run or a direct read (the device's time, which
// no unit cost prices), rounds that fetched from storage (and what share of their bytes), no
// memcpy rate, no per-round counts (a summary CSV), a strategy this build does not know.
struct NoSplit {
    enum class Why {
        NoFigures,
        ColdRun,
        DirectRead,
        Fetched,
        NoMemcpyRate,
        NoCounts,
        UnknownStrategy
    };
    Why why = Why::NoFigures;
    double fetchedShare = 0; // Fetched: of the bytes the rounds read, 0-1 (or more)
};
// Nothing when the cell has a split.
std::optional<NoSplit> whyNoSplit(const ResultDocument& doc, const Cell& cell);

// The split of a measured cell of a warm run whose rounds carry counts; none otherwise
// (whyNoSplit says why).
std::optional<TimeSplit> timeSplit(const ResultDocument& doc, const Cell& cell);

// Above this unexplained share (of the measured time, either way) the sentence says so.
inline constexpr double kLargeUnexplainedShare = 0.15;

} // namespace readscope
