#pragma once
// Why a strategy is slow at small ranges and fast at large ones: its time per range fitted
// across the sweep's sizes as t(n) = fixed + n / bandwidth. The fixed cost is what each range
// pays whatever its size (system calls, allocation, faults of a fresh buffer); the bandwidth
// is what each further byte costs. Below fixed x bandwidth bytes, half a range's time or more
// is fixed cost.
#include "readscope/result_document.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace readscope {

struct CostPoint {
    double bytes = 0;   // range size (a file's size in a whole-file sweep)
    double seconds = 0; // time per range at the median
};

struct CostFit {
    std::string strategy;
    double fixedSeconds = 0;   // per range; 0 when the fit would make it negative
    double bytesPerSecond = 0; // the streaming bandwidth
    double r2 = 0;             // of the fit, weighted as it was fitted (relative error)
    double worstMisfit = 0;    // the largest |fit - measured| / measured over the points
    int points = 0;
    // The range size below which the fixed cost is half a range's time or more.
    double halfFixedBytes() const { return std::min(fixedSeconds * bytesPerSecond, 1e15); }
};

// A worker's time per range at the cell's median: range bytes / median bytes per second, times
// the run's threads (each worker reads its own ranges one after another). None without
// figures. What fitCosts fits and the chart's time-per-range points show.
std::optional<double> secondsPerRange(const Cell& cell, int threads);

// Least squares on relative error (each point weighted by 1 / t^2, so a 16 KiB range counts
// as much as an 8 MiB one). Needs at least 3 points of at least 2 sizes; none when time does
// not grow with size (no bandwidth to fit).
std::optional<CostFit> fitCost(std::span<const CostPoint> points);

// Every strategy of a range-size or file-size sweep with measured cells at 3 or more sizes,
// in plan order, fitted to secondsPerRange() of its cells; not a strategy that read more or
// less than it wanted (readAmplificationText), whose work per byte changes with the size.
std::vector<CostFit> fitCosts(const ResultDocument& doc);

// seek-read against pread-uninit (the same fresh uninitialised buffer, plus one lseek): the
// extra fixed cost the fits give, beside what the engine counted and measured.
struct SeekCheck {
    double extraFixedSeconds = 0; // fixed(seek-read) - fixed(pread-uninit)
    // Counted by the engine, median over the cells; none from documents without per-round
    // samples (a summary CSV).
    std::optional<double> seeksPerRange;
    std::optional<double> lseekSeconds; // one lseek, measured at the run's start
};
std::optional<SeekCheck> seekCheck(const ResultDocument& doc, std::span<const CostFit> fits);
// "seek-read pays 1.53 µs more per range than pread-uninit; it makes 1.00 lseek per range
// (counted), and one lseek costs 1.23 µs here." (the clauses that were measured).
std::string seekCheckSentence(const SeekCheck& check);

// The lines a person reads (CLI, Markdown): a table of the fits, and the seek check's
// sentence. Empty when nothing could be fitted.
std::vector<std::string> costModelLines(const ResultDocument& doc);

} // namespace readscope
