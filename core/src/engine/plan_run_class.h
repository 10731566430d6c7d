#pragma once
// The class behind measureOnce (plan_run.h): one run of a plan, set-up, points and rounds.
// Its members are defined by role: runner.cpp sets the run and its points up and finishes
// them; run_rounds.cpp measures a round. Private to the engine.
#include "plan_run.h"

#include "cache_control.h"
#include "calibrator.h"
#include "clock.h"
#include "lanes.h"
#include "machine_limits.h"
#include "point_run.h"
#include "progress_reporter.h"
#include "round.h"
#include "scheduler.h"
#include "whole_file_sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope {

class PlanRun {
public:
    PlanRun(const Plan& plan, const FileProbe& file, RunSink& sink, std::stop_token stop,
            const std::vector<SweepPoint>* only, const ResultDocument* resumeFrom)
        : plan_(plan), file_(file), sink_(sink), stop_(stop), only_(only), resumeFrom_(resumeFrom),
          progress_(sink), cache_(plan.cache, plan.dropCachesAsRoot,
                                  [&sink](const std::string& m) { sink.onWarning(SaidAsIs{m}); }),
          calibrator_(plan, cache_, lanes_, wholeFileSweep(plan), stop) {}

    Result<ResultDocument> run();

private:
    // Said, and kept with the figures (not only said), after any note before it.
    void keepNote(RunWarning note);

    // What the run says once, before its rounds; and the size of its progress.
    void warnBeforeRounds();

    // Cold and direct runs: the device limit, before the header goes out, so that the chart
    // has it from the first cell on. Without one the run goes on, and says why.
    void measureDeviceLimit();

    void measureDeviceLimitNow();

    void report(PhaseStep at, std::string strategy, const SweepPoint& point) {
        progress_.report(at, std::move(strategy), point);
    }
    void step(PhaseStep at, const Lane& lane, const SweepPoint& point) {
        progress_.step(at, std::string(lane.info->id), point);
    }

    void fail(Cell& cell, std::string message);

    PointRun makePoint(const SweepPoint& point) const;

    // A whole-file sweep's point, start to end on its own copy (each point reads a file of its
    // own, made for it and removed after it, however the point ends).
    void runWholeFilePoint(const SweepPoint& point);

    // Every point set up first (untimed), then the scheduler's rounds over all of them, and
    // --precision's after them. Each round's samples reach the sink as they come.
    void runInterleaved();

    // The point's cells whose median is not yet as sure as --precision asks.
    std::vector<bool> wideCells(const PointRun& run) const;

    // A stopped run keeps the rounds it recorded: each cell with at least one is finished as
    // it stands and says after how many of its rounds the run stopped; cells without one are
    // left out, to be measured by a resumed run.
    void keepWhatWasMeasured(std::vector<PointRun>& runs);

    // Before its rounds, untimed: the point's limits, then each strategy's prefix of the
    // ranges (calibrated to the round time, or the one a resumed cell used) verified against
    // the file's own bytes. False when stopped.
    bool setUpPoint(PointRun& run);

    // Lane i's rounds at this point read the first `count` ranges.
    void usePrefix(PointRun& run, std::size_t i, std::size_t count);

    // Round r of one point: every strategy once, each round starting one strategy later than
    // the last (A B C, B C A, C A B ...), so no strategy always follows the same neighbour (its
    // malloc state, CPU frequency, LRU position); each sample records where in its round it
    // ran. A resumed cell that already has its rounds sits the rest out.
    // With `only` (--precision's extra rounds, r past the planned ones): just those lanes.
    RoundEnd measureRound(PointRun& run, int r, const std::vector<bool>* only = nullptr);

    // One timed round of lane i at this point, from the cache state the run asks for.
    RoundEnd measure(Lane& lane, Cell& cell, PointRun& run, std::size_t i, int round, int position,
                     bool record, double& seconds);

    // Warm runs: the point's price passes, before the run's rounds and again once all of them
    // are done (PointPrices says why), or `share` of them. Never between rounds: a pass between
    // them left the next rounds' 8 MiB reads 25-30% slower here than without it.
    void takePrices(PointRun& run, RunPhase when, PointPrices::Share share = {});

    void finishPoint(PointRun& run, bool stopped = false);

    // A duration run's rounds read on past the prefix verified before them (and a lane after
    // the first starts elsewhere): after them, untimed, each strategy's read of every range its
    // rounds read is verified too, or its checksum says why not. A whole-file sweep's ranges
    // are all the same read of its copy: the prefix covers them.
    void verifyRangesRead(PointRun& run, bool stopped, bool fileChanged);

    // The cell's summary and conditions; a warning when any is worth one.
    void finishCell(Cell& cell, const std::optional<FileChange>& change, bool stopped);

    const Plan& plan_;
    const FileProbe& file_;
    RunSink& sink_;
    std::stop_token stop_;
    ResultDocument doc_;
    const std::vector<SweepPoint>* only_ = nullptr;
    // A resumed run: the cells its recovery file kept, whose rounds it goes on from.
    const ResultDocument* resumeFrom_ = nullptr;
    ProgressReporter progress_;
    std::vector<SweepPoint> points_;
    // A whole-file sweep (declared before the lanes and the cache control, whose readers and
    // descriptor may be open on one of its copies, so destroyed after them).
    std::optional<WholeFileSweep> sweep_;
    std::vector<Lane> lanes_;
    CacheControl cache_;
    Calibrator calibrator_;
    std::optional<CopyLimit> copyLimit_; // warm runs: memcpy's ceiling, its source made once
    bool changeReported_ = false;
    std::optional<Clock::time_point> measuringSince_; // a duration run's first measured round
};

} // namespace readscope
