#pragma once
// A run's document in words: the lines under tables (rounds, coverage, device limit, memory
// limit, bytes read and fetched, what a sweep's point is) and a cell's status, as the CLI,
// the Markdown and the app say them. The document itself (result_document.h) holds only the
// figures and states these are made from.
#include "readscope/result_document.h"

#include <string>

namespace readscope {

// What may have let cells pass the device limit (none of it measured, so said as possibilities
// with what would tell): "served by a cache below the page cache (the disk's own, a virtual
// machine host's), ..., or held against a limit measured low (...)", with "read by more
// threads than the limit's one reader" when a passing cell had more than one thread.
std::string deviceLimitPassedWhy(const ResultDocument& doc);

// Its short form, for a chart's legend: "a cache below, or a low limit?".
std::string deviceLimitPassedShort(const ResultDocument& doc);

// How the figure deviceLimitGbps gives was read ("buffered 1 MiB reads right after
// eviction"); empty when unknown (a CSV's).
std::string deviceLimitWay(const ResultDocument& doc);

// "device limit 3.87 GB/s on vda (253:0): buffered 1 MiB reads right after eviction, the
// fastest of direct 1.10, direct x32 2.11 and buffered 3.87 GB/s; measured
// 2026-12-02T00:41:07Z" (a direct run's: "device limit 2.11 GB/s for direct reads on ...,
// the faster of direct 1.10 and direct x32 2.11 GB/s; ..."): one line for the CLI, Markdown
// and the app. Empty without deviceLimitGbps.
std::string deviceLimitText(const ResultDocument& doc);

// What a cell's strategy did with the bytes it obtained: "all", or "1/page" for an in-place
// mapping under --consume minimal (it touched one byte per page: not comparable with copies).
std::string bytesConsumed(const Cell& cell, Consume consume);

// "pread-coalesce read 1.00-7.91x the bytes it wanted (...)" for the lines under tables, when
// a cell read more than it wanted; empty otherwise.
std::string readAmplificationLine(const ResultDocument& doc);

// Cold and direct runs: "fetched from storage per byte wanted: pread-uninit 1.00x, mmap-touch
// 1.02-29.8x", or "bytes fetched from storage: not measured on this platform" where no cell
// counted them; empty for warm runs.
std::string fetchedLine(const ResultDocument& doc);

// A cell's status for people: "two speeds: 7 at 17.1, 5 at 1.02 GB/s" for a cell whose rounds
// fell in two groups (stats.h), "noisy ±6.1%" for a noisy cell, "too few rounds to tell" for
// one whose interval is too unsure to judge, else its status word.
std::string statusText(const Cell& cell);

// "7 rounds at about 17.1 GB/s and 5 at about 1.02": both groups of a cell with two speeds.
std::string twoSpeedsText(const TwoSpeeds& speeds);

// How sure the median's interval is, in words for the lines under tables: "95%" when every
// measured cell's interval covers its median with at least 95% probability; else the lowest
// coverage and its rounds ("75% at 3 rounds"; "none, 1 round").
std::string intervalCoverageText(const ResultDocument& doc);

// "96.5%": one cell's interval's coverage.
std::string coverageText(const Summary& summary);

// "median of 15 interleaved rounds", or "median of 3-15 interleaved rounds (the time cap cut
// some cells short)": the rounds measured, not planned.
std::string roundsText(const ResultDocument& doc);

// "Under a memory limit of 256 MiB (a cgroup of its own, ...)." for a memory-limited run, and
// on a warm one with a larger file that it cannot stay cached; empty for the others: every
// output's footnote says it.
std::string memoryLimitSentence(const ResultDocument& doc);

// What a point of a sweep at one range size is, for the lines under tables: "the page offset
// every destination buffer started at, at 256 KiB ranges"; "how many threads read 64 KiB
// ranges together, each its own share of a round (GB/s is all of them together)"; "io_uring
// reads kept in flight per thread, at 64 KiB ranges (only io_uring strategies have a queue)".
// Empty on a range-size sweep.
std::string sweepPointMeaning(const ResultDocument& doc);

} // namespace readscope
