#pragma once
// The page cache as a run needs it: the control descriptor on the file the current point reads
// (the target, or a whole-file sweep's copy), the residency of a round's ranges, eviction
// before cold and direct rounds, warming before warm ones; and the conditions a cell's rounds
// earn when they did not start as the run asked. Private to the engine.
#include "lanes.h"
#include "readscope/cell_conditions.h"
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/range.h"
#include "readscope/residency.h"
#include "unique_fd.h"

#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace readscope {

inline constexpr double kWarmThreshold = 0.99;

class CacheControl {
public:
    using Warn = std::function<void(const std::string&)>;
    CacheControl(CacheMode mode, bool dropCachesAsRoot, Warn warn)
        : mode_(mode), dropCaches_(dropCachesAsRoot), warn_(std::move(warn)) {}

    // Reads `file` from now on: its control descriptor opened.
    Status open(const FileProbe& file);
    void close(); // nothing open (a whole-file copy about to be removed)
    const FileProbe& reading() const { return file_; }
    CacheMode mode() const { return mode_; }
    int fd() const { return fd_.get(); }

    // How much of the ranges' pages are cached now.
    Residency residency(std::span<const Range> ranges) const;
    // Before a round: warm runs measure where the ranges start; cold and direct ones evict the
    // file first (whatever keeps its pages, such as kept mappings, lets go of them and takes
    // them back after, untimed) and measure what is left.
    Residency prepare(std::span<const Range> ranges, std::vector<Lane>& lanes);
    // Warm runs: the whole file read once into the cache.
    Status warm(std::stop_token stop);
    // The whole file out of the cache (a memory-limited duration run starts empty, so that its
    // rounds show the cache filling). The residency left.
    Residency evictAll();

private:
    CacheMode mode_;
    bool dropCaches_;
    Warn warn_;
    FileProbe file_;
    UniqueFd fd_;
};

// A cold cell whose rounds started with their pages still cached, or a warm one whose rounds
// found them not all cached: the condition, over the cell's recorded rounds. None otherwise
// (and for direct runs).
std::optional<CellCondition> cacheCondition(const Cell& cell, CacheMode mode);

} // namespace readscope
