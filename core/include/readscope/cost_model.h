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
    double smallestBytes = 0, smallestSeconds = 0; // the smallest size fitted, and its time
    double largestBytes = 0;                       // the largest size fitted
    // The range size below which the fixed cost is half a range's time or more.
    double halfFixedBytes() const { return std::min(fixedSeconds * bytesPerSecond, 1e15); }
    // Whether the sizes resolve the fixed cost: at the smallest size it is a larger share of
    // a range's time than the fit's worst error. Otherwise "0.00 µs" would read as measured.
    bool fixedResolved() const {
        return fixedSeconds > 0 && fixedSeconds > worstMisfit * smallestSeconds;
    }
};

// Where the sizes cross a CPU cache: past it a copy's bandwidth falls, and one straight line
// cannot fit both sides. The first level (L1d, L2, L3) with 3 or more sizes at or below it and
// at least one above; the fits then take only the sizes at or below it.
struct CacheCut {
    std::string level; // "L2"
    std::uint64_t bytes = 0;
    std::vector<std::uint64_t> leftOut; // the sizes above it
};
std::optional<CacheCut> cacheCut(const CpuCaches& caches, std::span<const std::uint64_t> sizes);
// The cut of a range-size sweep's measured sizes by the caches its document recorded.
std::optional<CacheCut> fitCut(const ResultDocument& doc);

// "12.3" (from 10 µs) or "1.23": seconds as microseconds, without the unit.
std::string microseconds(double seconds);

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
    // fixed(seek-read) - fixed(pread-uninit); none unless the sizes resolve both fixed costs
    std::optional<double> extraFixedSeconds;
    // Counted by the engine, median over the cells; none from documents without per-round
    // samples (a summary CSV).
    std::optional<double> seeksPerRange;
    std::optional<double> lseekSeconds; // one lseek, measured at the run's start
};
std::optional<SeekCheck> seekCheck(const ResultDocument& doc, std::span<const CostFit> fits);

} // namespace readscope
