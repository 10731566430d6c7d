#pragma once
// A program's reads of one file, in the order it made them: what a trace run replays with
// each strategy (Pattern::Trace). Read from and written to text by trace_formats.h.
#include "readscope/range.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct TraceRead {
    std::uint64_t offset = 0, length = 0;
    std::uint32_t thread = 0; // the recorded threads, numbered 0, 1, ... as they first read
    bool operator==(const TraceRead&) const = default;
};

struct Trace {
    std::string source;                     // "strace: python3 reader.py", "fio iolog v2: job.log"
    std::string file;                       // the traced file's path, when the source names it
    std::optional<std::uint64_t> fileBytes; // its size when recorded, when known
    std::vector<TraceRead> reads;
    // What the source showed but a replay cannot repeat: the file mapped (its reads are page
    // faults no syscall trace sees), reads of other files left out.
    std::vector<std::string> notReplayed;

    std::uint64_t bytes() const;
    std::uint64_t largest() const;
    std::uint64_t end() const; // one past the last byte any read asks for
    std::vector<Range> ranges() const;
    std::uint32_t threadCount() const; // recorded threads (1 when none was said)
    // A long trace's window: the first reads whose bytes fit in `budget` (at least one; all of
    // them when budget is 0). Every round replays the same window, so rounds compare.
    std::size_t windowReads(std::uint64_t budget) const;
    // The bytes of one replay of that window.
    std::uint64_t windowBytes(std::uint64_t budget) const;
    // The window's read size that half its bytes are read at or under: the one size a run's
    // copy, zeroing and memcpy rates are measured at, where most of its time is spent (the
    // largest read can be a few bytes' worth of time, and prices at its size overstate it).
    std::uint64_t byteMedianRead(std::uint64_t budget) const;
    // The window's bytes, each once however often the window reads it: the source a run's
    // copy rates are measured over, as large as the replay's (its pages stay in the CPU's
    // caches as a file-sized source's do not).
    std::uint64_t windowFootprint(std::uint64_t budget) const;
    // Each read's recorded thread, when a replay with `workers` threads gives each recorded
    // thread its own (workers equal to the recorded threads, more than one); else none, and
    // the reads are split among the workers in order as any run's ranges are.
    std::vector<std::uint32_t> threadsFor(int workers) const;
};

// Numbers the reads' threads 0, 1, ... in the order they first read, whatever ids (pids, a
// CSV's own numbers) they came with.
void numberThreadsDensely(std::vector<TraceRead>& reads);

// 16 hex digits naming the reads (offsets, lengths and order; not the threads): two traces with
// the same digest replay the same ranges.
std::string traceDigest(const std::vector<TraceRead>& reads);

struct TraceSummary {
    std::uint64_t reads = 0, bytes = 0, uniqueBytes = 0, median = 0;
    std::uint32_t threads = 0;
    // Reads per power-of-two size class: {upper bound in bytes, count}, smallest first.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> histogram;
    // Shares of the file touched at least once and of the bytes read more than once; no
    // share of the file when its size is unknown.
    std::optional<double> fileTouched;
    double reRead = 0;
};
TraceSummary summarize(const Trace& trace, std::optional<std::uint64_t> fileBytes);

} // namespace readscope
