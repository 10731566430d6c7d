#pragma once
// A lane: one strategy of the run, with a reader per worker of the point with the most threads
// (a point uses its first N), or why it cannot run. Private to the engine.
#include "lane_workers.h"
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/result_document.h"
#include "readscope/strategy.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace readscope {

struct Lane {
    const StrategyInfo* info = nullptr;
    std::string unavailable; // reason; empty when it runs
    std::vector<std::unique_ptr<RangeReader>> readers;
    std::unique_ptr<LaneWorkers> workers =
        std::make_unique<LaneWorkers>(); // read on, round after round
};

// One lane per plan strategy, in the plan's order: unavailable where the strategy cannot read
// this file, the cache mode or the sweep (a whole-file sweep's lanes open their readers per
// copy, on the copy).
std::vector<Lane> openLanes(const Plan& plan, const FileProbe& file,
                            std::span<const SweepPoint> points, bool wholeFile);

// Whether a lane still measures this cell (not unavailable, not failed).
bool usable(const Lane& lane, const Cell& cell);

// Every lane's readers as this point reads: its buffer offset and its queue depth.
void usePoint(std::vector<Lane>& lanes, const Plan& plan, const SweepPoint& point);

// What a round does with the bytes it read, as the plan asks.
inline ConsumeMode consumeMode(const Plan& plan) {
    return plan.consume == Consume::All ? ConsumeMode::All : ConsumeMode::Touch;
}

// Why a strategy has nothing to show on a buffer-offset sweep (empty: it has).
std::string offsetSweepExclusion(const StrategyInfo& s);

} // namespace readscope
