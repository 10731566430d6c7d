#pragma once
// A point of the sweep as a run measures it. Private to the engine.
#include "calibrator.h"
#include "lanes.h"
#include "machine_limits.h"
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/range.h"
#include "readscope/result_document.h"

#include <vector>

namespace readscope {

// One point of the sweep as the rounds go over it: its ranges, its cells (one per lane), and
// each lane's prefix of the ranges split among the point's workers.
struct PointRun {
    SweepPoint point;
    std::vector<Range> ranges;
    std::vector<Cell> cells;
    std::vector<LanePrefix> prefixes;
    // A duration run's rounds read on: where each lane's next round starts in `ranges`, where
    // its first started, and how many ranges its rounds have been handed so far.
    std::vector<std::size_t> next, started, handed;
    int firstRound = 0; // recorded rounds a resumed cell brought: new ones number after them
    int lastRound = 0;  // the highest round number recorded at this point so far
    int measured = 0;   // rounds recorded in this run
    bool ready = false; // calibrated and verified
    PointPrices prices; // warm runs: its copies' passes, before and between its rounds
};

// A duration run's next round of lane i: as many ranges as its prefix, from where its last
// round stopped, on from the start past the end.
std::vector<Range> nextRanges(PointRun& run, std::size_t i);

// The ranges a duration run's rounds of lane i read, each once, in the order they read them:
// from where its first round started on, round again past the last; all of them once its
// rounds went round.
std::vector<Range> rangesRead(const PointRun& run, std::size_t i);

// The cell a resumed run's recovery file (`from`, none: not resumed) kept for this strategy and
// point, if any.
const Cell* resumedCell(const ResultDocument* from, const Cell& cell);
// A trace run's reads in one replay of it: its window (--budget), at least one read.
std::size_t traceWindow(const Plan& plan);
// The point the run's rates (copies, zeroing, memcpy, fold) are measured at: the point itself,
// or for a trace the size half its bytes are read at or under, not its largest read.
SweepPoint pricedPoint(const Plan& plan, const SweepPoint& point);
// The bytes those rates copy from: as many as a round reads from (the budget), or for a trace
// the bytes its window covers, which a replay reads again and again from the CPU's caches.
std::uint64_t pricedSourceBytes(const Plan& plan, std::uint64_t fileSize);

// The point's ranges (a whole-file sweep's: reads of its copy) and a cell per lane, unavailable
// where its lane is; a resumed cell starts from the rounds `resumeFrom` kept of it.
PointRun startPoint(const Plan& plan, const FileProbe& target, bool wholeFile,
                    const std::vector<Lane>& lanes, const ResultDocument* resumeFrom,
                    const SweepPoint& point);

} // namespace readscope
