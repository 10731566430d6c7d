// The orchestrator of one run: set-up (the file, the device limit, the lanes), then each point
// set up (calibrated, verified) and measured round by round in the scheduler's order, each
// cell finished with the conditions its rounds earned. The stages are classes of their own:
// CacheControl, Calibrator, Verifier, WholeFileSweep, Scheduler.
#include "plan_run.h"

#include "cache_control.h"
#include "calibrator.h"
#include "clock.h"
#include "conditions_found.h"
#include "device_limit.h"
#include "lanes.h"
#include "machine_limits.h"
#include "platform.h"
#include "point_run.h"
#include "progress_reporter.h"
#include "readscope/file_status.h"
#include "readscope/generator.h"
#include "readscope/ranges.h"
#include "readscope/run_notes.h"
#include "round.h"
#include "scheduler.h"
#include "verifier.h"
#include "whole_file_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <optional>

namespace readscope {

namespace {

// Every consumed value lands here, so no compiler can prove a read's result unused.
std::atomic<std::uint64_t> gConsumedSink{0};

class PlanRun {
public:
    PlanRun(const Plan& plan, const FileProbe& file, RunSink& sink, std::stop_token stop,
            const std::vector<SweepPoint>* only, const ResultDocument* resumeFrom)
        : plan_(plan), file_(file), sink_(sink), stop_(stop), only_(only), resumeFrom_(resumeFrom),
          progress_(sink), cache_(plan.cache, plan.dropCachesAsRoot,
                                  [&sink](const std::string& m) { sink.onWarning(m); }),
          calibrator_(plan, cache_, lanes_, wholeFileSweep(plan), stop) {}

    Result<ResultDocument> run() {
        doc_.plan = plan_;
        doc_.fileSize = file_.size;
        doc_.system = collectSystemInfo(file_.filesystem);
        if (auto st = cache_.open(file_); !st)
            return st.error();
        doc_.fileGenerated = holdsGeneratedBytes(cache_.fd(), file_.size);
        measureUnitCosts(doc_, cache_.fd(), file_.size, stop_);
        if (wholeFileSweep(plan_)) {
            if (auto st = sweep_.emplace().start(file_); !st)
                return st.error();
            doc_.copiesFolder = sweep_->folder();
        }
        points_ = sweepPoints(plan_, file_.size);
        if (only_)
            std::erase_if(points_, [this](const SweepPoint& p) {
                return std::find(only_->begin(), only_->end(), p) == only_->end();
            });
        if (points_.empty())
            return Error{"none of the points asked for is in the plan"};
        if (plan_.cache != CacheMode::Warm)
            measureDeviceLimit();
        lanes_ = openLanes(plan_, file_, points_, sweep_.has_value());
        sink_.onStarted(doc_);
        warnBeforeRounds();
        progress_.restartClock();
        // A run that starts evicted (runInterleaved) is not warmed: it would only be evicted.
        if (plan_.cache == CacheMode::Warm && !sweep_ && !startsEvicted(plan_)) {
            report("warming the page cache", "", {});
            if (auto st = cache_.warm(stop_); !st)
                return st.error();
        }
        if (sweep_) {
            for (const auto& point : points_) {
                if (stop_.stop_requested())
                    break;
                runWholeFilePoint(point);
            }
        } else {
            runInterleaved();
        }
        doc_.complete = !stop_.stop_requested();
        if (!doc_.complete)
            doc_.note = stoppedNote(doc_.note);
        return std::move(doc_);
    }

private:
    // Said, and kept with the figures (not only said), after any note before it.
    void keepNote(const std::string& note) {
        sink_.onWarning(note);
        doc_.note += (doc_.note.empty() ? "" : "; ") + note;
    }

    // What the run says once, before its rounds; and the size of its progress.
    void warnBeforeRounds() {
        for (const auto& lane : lanes_)
            if (!lane.unavailable.empty())
                sink_.onWarning(unavailableWarning(lane.info->id, lane.unavailable));
        if (auto skipped = skippedFileSizesText(plan_, file_); !skipped.empty())
            keepNote(skipped);
        if (!file_.residencyVerifiable && !file_.residencyByNowait)
            sink_.onWarning(residencyUnverifiableWarning(file_.residencyReason));
        if (const auto why = platform::faultsUncountedReason(); !why.empty())
            keepNote(why);
        // Asked of every run, so that the one-time probe never falls inside a round; said where
        // a strategy maps the file, the reads a shootdown count is about.
        const bool maps = std::any_of(lanes_.begin(), lanes_.end(),
                                      [](const Lane& l) { return l.info->mapsFile(); });
        if (const auto why = platform::shootdownsUncountedReason(); !why.empty() && maps)
            keepNote(why);
        const auto active = std::count_if(lanes_.begin(), lanes_.end(),
                                          [](const Lane& l) { return l.unavailable.empty(); });
        // A duration run's rounds are counted in its time: 1000 steps of it.
        progress_.setTotal(
            points_.size() * static_cast<std::uint64_t>(active) *
            static_cast<std::uint64_t>(1 + plan_.warmup +
                                       (plan_.durationSeconds > 0 ? 1000 : plan_.rounds)));
    }

    // Cold and direct runs: the device limit, before the header goes out, so that the chart
    // has it from the first cell on. Without one the run goes on, and says why.
    void measureDeviceLimit() {
        if (sweep_ && !sweep_->elsewhereBecause().empty()) {
            doc_.deviceLimitMissing = copiesElsewhereNoLimit(sweep_->elsewhereBecause());
        } else {
            measureDeviceLimitNow();
        }
        if (!doc_.deviceLimitMissing.empty())
            sink_.onWarning(noDeviceLimitWarning(doc_.deviceLimitMissing));
    }

    void measureDeviceLimitNow() {
        progress_.restartClock();
        report("measuring the device limit (untimed)", "", {});
        auto limit = deviceLimitFor(file_, stop_);
        if (limit) {
            doc_.deviceLimit = std::move(*limit);
        } else if (!stop_.stop_requested()) {
            doc_.deviceLimitMissing = limit.error().message;
        }
    }

    void report(std::string phase, std::string strategy, const SweepPoint& point) {
        progress_.report(std::move(phase), std::move(strategy), point);
    }
    void step(const std::string& phase, const Lane& lane, const SweepPoint& point) {
        progress_.step(phase, std::string(lane.info->id), point);
    }

    void fail(Cell& cell, std::string message) {
        cell.status = CellStatus::Failed;
        cell.message = std::move(message);
        sink_.onWarning(cellFailedWarning(cell));
    }

    PointRun makePoint(const SweepPoint& point) const {
        return startPoint(plan_, file_, sweep_.has_value(), lanes_, resumeFrom_, point);
    }

    // A whole-file sweep's point, start to end on its own copy (each point reads a file of its
    // own, made for it and removed after it, however the point ends).
    void runWholeFilePoint(const SweepPoint& point) {
        PointRun run = makePoint(point);
        struct DropCopy {
            PlanRun* run;
            ~DropCopy() { run->sweep_->drop(run->lanes_, run->cache_); }
        } drop{this};
        report("copying", "", point);
        const auto failCell = [this](Cell& cell, std::string m) { fail(cell, std::move(m)); };
        if (auto st = sweep_->use(point.rangeBytes, lanes_, run.cells, threadsAt(plan_, point),
                                  cache_, stop_, failCell);
            !st) {
            if (stop_.stop_requested())
                return;
            for (std::size_t i = 0; i < run.cells.size(); ++i)
                if (usable(lanes_[i], run.cells[i]))
                    fail(run.cells[i], st.error().message);
        }
        if (!setUpPoint(run))
            return;
        Scheduler one(plan_, 1, progress_.started());
        if (one.planned([&](std::size_t, int r) { return measureRound(run, r); }) ==
            RoundEnd::Stopped)
            return; // a stopped point is dropped whole: its cells are incomplete
        if (const auto note = one.roundLimitNote())
            keepNote(*note);
        takePrices(run, "closing prices");
        finishPoint(run);
    }

    // Every point set up first (untimed), then the scheduler's rounds over all of them, and
    // --precision's after them. Each round's samples reach the sink as they come.
    void runInterleaved() {
        std::vector<PointRun> runs;
        runs.reserve(points_.size());
        for (const auto& point : points_) {
            runs.push_back(makePoint(point));
            if (!setUpPoint(runs.back()))
                return keepWhatWasMeasured(runs);
        }
        // Under a memory limit, a duration run's rounds start from an empty cache (the set-up
        // filled it), so that its time series shows the cache filling and then full.
        if (startsEvicted(plan_))
            cache_.evictAll();
        Scheduler scheduler(plan_, runs.size(), progress_.started());
        if (scheduler.planned([&](std::size_t k, int r) { return measureRound(runs[k], r); }) ==
            RoundEnd::Stopped)
            return keepWhatWasMeasured(runs);
        if (const auto note = scheduler.roundLimitNote())
            keepNote(*note);
        if (plan_.precision > 0) {
            const auto measureWide = [&](std::size_t k, int r) -> std::optional<RoundEnd> {
                const auto only = wideCells(runs[k]);
                if (std::ranges::count(only, true) == 0)
                    return std::nullopt;
                return measureRound(runs[k], r, &only);
            };
            if (scheduler.refine(measureWide) == RoundEnd::Stopped)
                return keepWhatWasMeasured(runs);
        }
        // Every point's closing prices before any point's after-round checks, which read the
        // file and would change what the prices find cached.
        for (auto& run : runs)
            if (!stop_.stop_requested()) // every round is in: a stop now only skips prices
                takePrices(run, "closing prices");
        for (auto& run : runs)
            finishPoint(run);
    }

    // The point's cells whose median is not yet as sure as --precision asks.
    std::vector<bool> wideCells(const PointRun& run) const {
        std::vector<bool> wide(lanes_.size(), false);
        for (std::size_t i = 0; i < lanes_.size(); ++i)
            wide[i] = usable(lanes_[i], run.cells[i]) && !run.cells[i].samples.empty() &&
                      !meetsPrecision(run.cells[i], plan_.precision);
        return wide;
    }

    // A stopped run keeps the rounds it recorded: each cell with at least one is finished as
    // it stands and says after how many of its rounds the run stopped; cells without one are
    // left out, to be measured by a resumed run.
    void keepWhatWasMeasured(std::vector<PointRun>& runs) {
        for (auto& run : runs)
            if (run.ready)
                finishPoint(run, /*stopped=*/true);
    }

    // Before its rounds, untimed: the point's limits, then each strategy's prefix of the
    // ranges (calibrated to the round time, or the one a resumed cell used) verified against
    // the file's own bytes. False when stopped.
    bool setUpPoint(PointRun& run) {
        const SweepPoint& point = run.point;
        const int threads = threadsAt(plan_, point);
        auto& cells = run.cells;
        usePoint(lanes_, plan_, point);
        PointRates rates;
        if (plan_.consume == Consume::All)
            rates.fold = foldGbps(point.rangeBytes);
        rates.memset = memsetGbps(point.rangeBytes);
        for (std::size_t i = 0; i < lanes_.size(); ++i)
            if (lanes_[i].unavailable.empty())
                rates.applyTo(cells[i]);
        if (plan_.cache == CacheMode::Warm && !sweep_ && !stop_.stop_requested()) {
            // Under a memory limit the source takes at most a quarter of it: the process's
            // own memory counts against the limit, and past it the kernel kills the process.
            if (!copyLimit_) {
                const std::uint64_t budget = effectiveBudget(plan_, file_.size);
                copyLimit_.emplace(plan_.memoryLimit ? std::min(budget, plan_.memoryLimit / 4)
                                                     : budget);
            }
        }
        takePrices(run, "opening prices");
        if (stop_.stop_requested())
            return false;
        // Each strategy reads a prefix of the point's one sequence (the same offsets, the same
        // seeded draws), as long as it reads in the round time; verified over that prefix.
        Verifier verifier(cache_.reading(), run.ranges);
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            if (!usable(lanes_[i], cells[i]))
                continue;
            report("calibrate", cells[i].strategy, point);
            const Cell* before = resumedCell(resumeFrom_, cells[i]);
            const std::size_t count =
                before && before->rangesPerRound > 0 && before->rangesPerRound <= run.ranges.size()
                    ? before->rangesPerRound // the prefix its recovered rounds read
                    : calibrator_.calibrate(lanes_[i], point, run.ranges, threads);
            if (count == 0 || stop_.stop_requested())
                return false;
            usePrefix(run, i, count);
            const auto prefix = std::span(run.ranges).first(run.prefixes[i].count);
            const auto reference = verifier.reference(prefix.size());
            const Status verified =
                reference ? verifyReader(*lanes_[i].readers[0], cells[i].strategy, point.rangeBytes,
                                         prefix, *reference, cells[i].checksum, stop_)
                          : Status(reference.error());
            if (!verified)
                fail(cells[i], verified.error().message);
            if (stop_.stop_requested())
                return false;
            step("verify", lanes_[i], point);
        }
        run.ready = true;
        return true;
    }

    // Lane i's rounds at this point read the first `count` ranges.
    void usePrefix(PointRun& run, std::size_t i, std::size_t count) {
        run.prefixes[i] = lanePrefix(lanes_[i], run.point.rangeBytes, run.ranges, count,
                                     threadsAt(plan_, run.point));
        run.cells[i].rangesPerRound = run.prefixes[i].count;
    }

    // Round r of one point: every strategy once, each round starting one strategy later than
    // the last (A B C, B C A, C A B ...), so no strategy always follows the same neighbour (its
    // malloc state, CPU frequency, LRU position); each sample records where in its round it
    // ran. A resumed cell that already has its rounds sits the rest out.
    // With `only` (--precision's extra rounds, r past the planned ones): just those lanes.
    RoundEnd measureRound(PointRun& run, int r, const std::vector<bool>* only = nullptr) {
        const bool record = r >= plan_.warmup;
        // Rounds past the planned ones take the point's next number, the same for every cell
        // they measure: rounds are paired by number, which must mean the same moment.
        const int round = only ? run.lastRound + 1 : run.firstRound + r - plan_.warmup + 1;
        const bool timed = plan_.durationSeconds > 0;
        const auto phase = only ? fmt::format("refining to ±{}%: round {}", plan_.precision * 100,
                                              r - plan_.warmup + 1)
                           : !record ? fmt::format("warm-up {}/{}", r + 1, plan_.warmup)
                           : timed   ? fmt::format("round {} of a {} s run", r - plan_.warmup + 1,
                                                   plan_.durationSeconds)
                                   : fmt::format("round {}/{}", r - plan_.warmup + 1, plan_.rounds);
        usePoint(lanes_, plan_, run.point);
        if (timed && record && !only) {
            if (!measuringSince_)
                measuringSince_ = Clock::now();
            const double spent = secondsBetween(*measuringSince_, Clock::now());
            progress_.setDone(std::min(1.0, spent / plan_.durationSeconds),
                              plan_.durationSeconds - spent);
        }
        auto& cells = run.cells;
        // Where the run is now (the steps report where it was): rounds hop between points.
        report(phase, {}, run.point);
        int position = 0;
        bool numbered = false; // a cell recorded a sample under this round's number
        for (std::size_t k = 0; k < lanes_.size(); ++k) {
            const std::size_t i = (k + static_cast<std::size_t>(r)) % lanes_.size();
            if (!usable(lanes_[i], cells[i]) || (only && !(*only)[i]))
                continue;
            if (!only && record && !timed && cells[i].samples.size() >= std::size_t(plan_.rounds)) {
                step(phase, lanes_[i], run.point);
                continue;
            }
            double seconds = 0;
            const RoundEnd end =
                measure(lanes_[i], cells[i], run, i, round, position++, record, seconds);
            numbered |= record && end == RoundEnd::Measured;
            if (end == RoundEnd::Stopped || stop_.stop_requested())
                return RoundEnd::Stopped;
            if (end == RoundEnd::Measured && r == plan_.warmup - 1) {
                const auto& prefix = run.prefixes[i];
                const auto n = calibrator_.refit(lanes_[i], run.point, prefix.count, seconds,
                                                 threadsAt(plan_, run.point));
                if (n != prefix.count)
                    usePrefix(run, i, n);
            }
            if (only || (timed && record))
                report(phase, cells[i].strategy, run.point); // past the planned steps
            else
                step(phase, lanes_[i], run.point);
        }
        if (record) {
            ++run.measured;
            if (numbered)
                run.lastRound = std::max(run.lastRound, round);
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const Cell& cell = cells[i];
                if (only && !(*only)[i])
                    continue; // not measured in this round: nothing new to show
                if (cell.measured() && !cell.samples.empty()) {
                    Cell partial = cell;
                    partial.summarize();
                    sink_.onRoundMeasured(partial);
                }
            }
        }
        return RoundEnd::Measured;
    }

    // One timed round of lane i at this point, from the cache state the run asks for.
    RoundEnd measure(Lane& lane, Cell& cell, PointRun& run, std::size_t i, int round, int position,
                     bool record, double& seconds) {
        // A duration run's round reads the lane's next ranges (round again past the last);
        // any other round the lane's prefix, as verified.
        std::vector<Range> window;
        LanePrefix onward;
        if (plan_.durationSeconds > 0) {
            window = nextRanges(run, i);
            onward = lanePrefix(lane, run.point.rangeBytes, window, window.size(),
                                threadsAt(plan_, run.point));
        }
        const LanePrefix& prefix = onward.count ? onward : run.prefixes[i];
        const std::span<const Range> ranges =
            onward.count ? std::span<const Range>(window)
                         : std::span<const Range>(run.ranges).first(prefix.count);
        const Residency residency = cache_.prepare(ranges, lanes_);
        auto result = runRound(*lane.workers, lane.readers, prefix.parts, consumeMode(plan_),
                               cell.rangeBytes, stop_);
        if (!result) {
            fail(cell, result.error().message);
            return RoundEnd::Failed;
        }
        gConsumedSink.fetch_xor(result->value, std::memory_order_relaxed);
        if (result->stopped)
            return RoundEnd::Stopped;
        seconds = result->sample.seconds;
        if (record) {
            result->sample.round = round;
            result->sample.position = position;
            result->sample.residentBefore = residency.fraction;
            // What the reads left cached, where asking does not disturb the cache (a nowait
            // sample's misses start read-ahead).
            if (cache_.reading().residencyVerifiable) {
                result->sample.residentAfter = cache_.residency(ranges).fraction;
                if (plan_.durationSeconds > 0) {
                    const Range whole{0, cache_.reading().size};
                    result->sample.fileResidentAfter =
                        cache_.residency(std::span(&whole, 1)).fraction;
                }
            }
            cell.residencyMethod = residency.method;
            cell.samples.push_back(result->sample);
            mergeOffsetCounts(cell.bufferPageOffsets, result->bufferOffsets);
            if (result->queueDepth)
                cell.queueDepth = std::max(cell.queueDepth.value_or(0), result->queueDepth);
        }
        return RoundEnd::Measured;
    }

    // Warm runs: the point's price passes, before the run's rounds and again once all of them
    // are done (PointPrices says why). Never between rounds: a pass between them left the next
    // rounds' 8 MiB reads 25-30% slower here than without it.
    void takePrices(PointRun& run, const char* when) {
        if (!copyLimit_ || plan_.cache != CacheMode::Warm || sweep_)
            return;
        report(when, "", run.point);
        run.prices.take(*copyLimit_, cache_.fd(), file_.size, run.point,
                        threadsAt(plan_, run.point), doc_, run.cells, stop_);
    }

    void finishPoint(PointRun& run, bool stopped = false) {
        const auto change = changeSince(file_);
        if (change && !changeReported_) {
            changeReported_ = true;
            sink_.onWarning(fileChangedWarning(file_.path, *change, run.point.rangeBytes));
        }
        if (plan_.durationSeconds > 0)
            verifyRangesRead(run, stopped, change.has_value());
        for (auto& cell : run.cells) {
            if (stopped && cell.samples.empty() && cell.status == CellStatus::Ok)
                continue; // nothing of it was measured: a resumed run measures it
            finishCell(cell, change, stopped);
        }
    }

    // A duration run's rounds read on past the prefix verified before them (and a lane after
    // the first starts elsewhere): after them, untimed, each strategy's read of every range its
    // rounds read is verified too, or its checksum says why not. A whole-file sweep's ranges
    // are all the same read of its copy: the prefix covers them.
    void verifyRangesRead(PointRun& run, bool stopped, bool fileChanged) {
        if (sweep_)
            return;
        usePoint(lanes_, plan_, run.point);
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            Cell& cell = run.cells[i];
            if (!usable(lanes_[i], cell) || cell.checksum != "verified")
                continue;
            const std::vector<Range> ranges = rangesRead(run, i);
            if (ranges.empty())
                continue;
            if (fileChanged) { // the readers hold the file as it was, a reference reads it now
                cell.checksum = "not checked: the file changed during the run, so the ranges its "
                                "rounds read were not (its read of the first ranges was, before "
                                "them)";
                continue;
            }
            // Stays said unless the check below ends.
            cell.checksum = "not checked: stopped before the ranges its rounds read were "
                            "verified (its read of the first ranges was)";
            if (stopped || stop_.stop_requested())
                continue;
            report("verify", cell.strategy, run.point);
            const auto reference = referenceChecksum(cache_.reading(), ranges);
            const Status verified =
                reference ? verifyReader(*lanes_[i].readers[0], cell.strategy, run.point.rangeBytes,
                                         ranges, *reference, cell.checksum, stop_)
                          : Status(reference.error());
            if (!verified) {
                if (!reference)
                    cell.checksum = "not checked";
                fail(cell, verified.error().message);
            } else if (const Cell* before = resumedCell(resumeFrom_, cell);
                       cell.checksum == "verified" && before && !before->samples.empty()) {
                // The rounds before the resume read ranges this process never counted.
                cell.checksum = "verified over the ranges its rounds read since the run was "
                                "resumed (those read before it were not checked)";
            }
        }
    }

    // The cell's summary and conditions; a warning when any is worth one.
    void finishCell(Cell& cell, const std::optional<FileChange>& change, bool stopped) {
        const FinishedCellContext context{
            plan_, file_, cache_.reading(), sweep_ ? &*sweep_ : nullptr, change, stopped};
        if (finishWithConditions(cell, context) && cell.measured())
            sink_.onWarning(cellNotesWarning(cell));
        sink_.onCellFinished(cell);
        doc_.cells.push_back(cell);
    }

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

} // namespace

Result<ResultDocument> measureOnce(const Plan& plan, const FileProbe& file, RunSink& sink,
                                   std::stop_token stop, const std::vector<SweepPoint>* only,
                                   const ResultDocument* resumeFrom) {
    return PlanRun(plan, file, sink, stop, only, resumeFrom).run();
}

} // namespace readscope
