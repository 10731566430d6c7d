#pragma once
// How many of a point's ranges each strategy's rounds read: all of them (the budget), or the
// prefix it reads in about the plan's round time, found by untimed reads of growing prefixes
// before the warm-up and only ever shortened after it. Private to the engine.
#include "cache_control.h"
#include "lanes.h"
#include "readscope/plan.h"
#include "readscope/range.h"

#include <cstddef>
#include <span>
#include <stop_token>
#include <vector>

namespace readscope {

// A lane's share of a point's ranges: the prefix its rounds read, split among the workers.
struct LanePrefix {
    std::size_t count = 0;
    std::vector<std::vector<Range>> parts;
};

// The first `count` ranges split among `threads` workers. A coalescing strategy's share per
// worker is whole batches (what merges depends on how many ranges a batch holds), unless the
// cell has fewer ranges than that or everyRange (a trace's replay reads all of its reads).
// threadOf (a trace's recorded threads, one per range): each worker reads its thread's.
LanePrefix lanePrefix(const Lane& lane, std::uint64_t rangeBytes, std::span<const Range> ranges,
                      std::size_t count, int threads, bool everyRange = false,
                      std::span<const std::uint32_t> threadOf = {});

class Calibrator {
public:
    // A whole-file sweep's reads each open, read and close a file (`wholeFile`).
    Calibrator(const Plan& plan, CacheControl& cache, std::vector<Lane>& lanes, bool wholeFile,
               std::stop_token stop)
        : plan_(plan), cache_(cache), lanes_(lanes), wholeFile_(wholeFile), stop_(stop) {}

    // The fewest ranges a time-sized round of this lane reads at this point.
    std::size_t roundFloor(const Lane& lane, const SweepPoint& point, int threads) const;
    // The prefix the lane's rounds read at this point (cold prefixes evicted first, as its
    // rounds will be). Fixed before the warm-up. 0 when stopped.
    std::size_t calibrate(Lane& lane, const SweepPoint& point, std::span<const Range> ranges,
                          int threads);
    // After the warm-up: a lane whose last warm-up round took more than twice the round time
    // (a kept mapping read 10-20x slower once other strategies had unmapped memory, on the
    // development VM) reads the shorter prefix that fits it. Only ever shorter, so still a
    // verified prefix; returns `count` when it fits.
    std::size_t refit(const Lane& lane, const SweepPoint& point, std::size_t count, double seconds,
                      int threads) const;

private:
    const Plan& plan_;
    CacheControl& cache_;
    std::vector<Lane>& lanes_;
    bool wholeFile_;
    std::stop_token stop_;
};

} // namespace readscope
