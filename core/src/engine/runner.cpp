// The orchestrator of one run: set-up (the file, the device limit, the lanes), then each point
// set up (calibrated, verified) and measured round by round in the scheduler's order
// (run_rounds.cpp), each cell finished with the conditions its rounds earned. The stages are
// classes of their own: CacheControl, Calibrator, Verifier, WholeFileSweep, Scheduler.
#include "plan_run_class.h"

#include "conditions_found.h"
#include "device_limit.h"
#include "platform.h"
#include "readscope/file_status.h"
#include "readscope/generator.h"
#include "readscope/ranges.h"
#include "verifier.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope {

Result<ResultDocument> PlanRun::run() {
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
        report({RunPhase::WarmingCache}, "", {});
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
    return std::move(doc_);
}

void PlanRun::keepNote(RunWarning note) {
    sink_.onWarning(note);
    doc_.notes.push_back(std::move(note));
}

void PlanRun::warnBeforeRounds() {
    for (const auto& lane : lanes_)
        if (!lane.unavailable.empty())
            sink_.onWarning(StrategyUnavailable{std::string(lane.info->id), lane.unavailable});
    if (auto skipped = skippedFileSizes(plan_, file_.size); !skipped.empty())
        keepNote(FileSizesSkipped{std::move(skipped), file_.path, file_.size});
    if (!file_.residencyVerifiable && !file_.residencyByNowait)
        sink_.onWarning(ResidencyUnverifiable{file_.residencyReason});
    if (const auto why = platform::faultsUncountedReason(); !why.empty())
        keepNote(SaidAsIs{why});
    // Asked of every run, so that the one-time probe never falls inside a round; said where
    // a strategy maps the file, the reads a shootdown count is about.
    const bool maps =
        std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.info->mapsFile(); });
    if (const auto why = platform::shootdownsUncountedReason(); !why.empty() && maps)
        keepNote(SaidAsIs{why});
    const auto active = std::count_if(lanes_.begin(), lanes_.end(),
                                      [](const Lane& l) { return l.unavailable.empty(); });
    // A duration run's rounds are counted in its time: 1000 steps of it.
    progress_.setTotal(points_.size() * static_cast<std::uint64_t>(active) *
                       static_cast<std::uint64_t>(
                           1 + plan_.warmup + (plan_.durationSeconds > 0 ? 1000 : plan_.rounds)));
    if (plan_.durationSeconds > 0)
        progress_.expectDuration(plan_.durationSeconds);
}

void PlanRun::measureDeviceLimit() {
    if (sweep_ && !sweep_->elsewhereBecause().empty()) {
        doc_.deviceLimitMissing = fmt::format("the whole-file sweep reads copies in another "
                                              "folder ({}), maybe on another device than the one "
                                              "measured",
                                              sweep_->elsewhereBecause());
    } else {
        measureDeviceLimitNow();
    }
    if (!doc_.deviceLimitMissing.empty())
        sink_.onWarning(NoDeviceLimit{doc_.deviceLimitMissing});
}

void PlanRun::measureDeviceLimitNow() {
    progress_.restartClock();
    report({RunPhase::DeviceLimit}, "", {});
    auto limit = deviceLimitFor(file_, stop_);
    if (limit) {
        doc_.deviceLimit = std::move(*limit);
    } else if (!stop_.stop_requested()) {
        doc_.deviceLimitMissing = limit.error().message;
    }
}

void PlanRun::fail(Cell& cell, std::string message) {
    cell.status = CellStatus::Failed;
    cell.message = std::move(message);
    sink_.onWarning(CellFailed{cell.strategy, cell.point(), cell.message});
}

PointRun PlanRun::makePoint(const SweepPoint& point) const {
    return startPoint(plan_, file_, sweep_.has_value(), lanes_, resumeFrom_, point);
}

void PlanRun::runWholeFilePoint(const SweepPoint& point) {
    PointRun run = makePoint(point);
    struct DropCopy {
        PlanRun* run;
        ~DropCopy() { run->sweep_->drop(run->lanes_, run->cache_); }
    } drop{this};
    report({RunPhase::Copying}, "", point);
    const auto failCell = [this](Cell& cell, std::string m) { fail(cell, std::move(m)); };
    if (auto st = sweep_->use(point.rangeBytes, lanes_, run.cells, threadsAt(plan_, point), cache_,
                              stop_, failCell);
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
    if (one.planned([&](std::size_t, int r) { return measureRound(run, r); }) == RoundEnd::Stopped)
        return; // a stopped point is dropped whole: its cells are incomplete
    if (const auto note = one.roundLimitNote())
        keepNote(*note);
    takePrices(run, RunPhase::ClosingPrices);
    finishPoint(run);
}

void PlanRun::runInterleaved() {
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
    // In sweeps over the points (PointPrices::Share says why), as the rounds are interleaved.
    for (int sweep = 0; sweep < PointPrices::kClosingSweeps; ++sweep)
        for (auto& run : runs)
            if (!stop_.stop_requested()) // every round is in: a stop now only skips prices
                takePrices(run, RunPhase::ClosingPrices, {sweep, PointPrices::kClosingSweeps});
    for (auto& run : runs)
        finishPoint(run);
}

std::vector<bool> PlanRun::wideCells(const PointRun& run) const {
    std::vector<bool> wide(lanes_.size(), false);
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        wide[i] = usable(lanes_[i], run.cells[i]) && !run.cells[i].samples.empty() &&
                  !meetsPrecision(run.cells[i], plan_.precision);
    return wide;
}

void PlanRun::keepWhatWasMeasured(std::vector<PointRun>& runs) {
    for (auto& run : runs)
        if (run.ready)
            finishPoint(run, /*stopped=*/true);
}

bool PlanRun::setUpPoint(PointRun& run) {
    const SweepPoint& point = run.point;
    const int threads = threadsAt(plan_, point);
    auto& cells = run.cells;
    usePoint(lanes_, plan_, point);
    PointRates rates;
    const std::uint64_t priceBytes = pricedPoint(plan_, point).rangeBytes;
    if (plan_.consume == Consume::All)
        rates.fold = foldGbps(priceBytes);
    rates.memset = memsetGbps(priceBytes);
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        if (lanes_[i].unavailable.empty())
            rates.applyTo(cells[i]);
    if (plan_.cache == CacheMode::Warm && !sweep_ && !stop_.stop_requested()) {
        // Under a memory limit the source takes at most a quarter of it: the process's
        // own memory counts against the limit, and past it the kernel kills the process.
        if (!copyLimit_) {
            const std::uint64_t budget = pricedSourceBytes(plan_, file_.size);
            copyLimit_.emplace(plan_.memoryLimit ? std::min(budget, plan_.memoryLimit / 4)
                                                 : budget);
        }
    }
    takePrices(run, RunPhase::OpeningPrices);
    if (stop_.stop_requested())
        return false;
    // Each strategy reads a prefix of the point's one sequence (the same offsets, the same
    // seeded draws), as long as it reads in the round time; verified over that prefix.
    Verifier verifier(cache_.reading(), run.ranges);
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        if (!usable(lanes_[i], cells[i]))
            continue;
        report({RunPhase::Calibrating}, cells[i].strategy, point);
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
        step({RunPhase::Verifying}, lanes_[i], point);
    }
    run.ready = true;
    return true;
}

void PlanRun::usePrefix(PointRun& run, std::size_t i, std::size_t count) {
    const int threads = threadsAt(plan_, run.point);
    const bool trace = plan_.pattern == Pattern::Trace && plan_.trace;
    std::vector<std::uint32_t> threadOf;
    if (trace) {
        // Whole replays of the trace's window, each read by its recorded thread where the
        // threads match (Trace::threadsFor).
        const std::size_t window = traceWindow(plan_);
        count = std::max(window, count - count % window);
        if (auto recorded = plan_.trace->threadsFor(threads); !recorded.empty())
            for (std::size_t k = 0; k < count; ++k)
                threadOf.push_back(recorded[k % window]);
    }
    run.prefixes[i] =
        lanePrefix(lanes_[i], run.point.rangeBytes, run.ranges, count, threads, trace, threadOf);
    run.cells[i].rangesPerRound = run.prefixes[i].count;
}

void PlanRun::takePrices(PointRun& run, RunPhase when, PointPrices::Share share) {
    if (!copyLimit_ || plan_.cache != CacheMode::Warm || sweep_)
        return;
    report({when}, "", run.point);
    run.prices.take(*copyLimit_, cache_.fd(), file_.size, pricedPoint(plan_, run.point),
                    threadsAt(plan_, run.point), doc_, run.cells, stop_, share);
}

void PlanRun::finishPoint(PointRun& run, bool stopped) {
    const auto change = changeSince(file_);
    if (change && !changeReported_) {
        changeReported_ = true;
        sink_.onWarning(FileChangedDuringRun{file_.path, *change, run.point.rangeBytes});
    }
    if (plan_.durationSeconds > 0)
        verifyRangesRead(run, stopped, change.has_value());
    for (auto& cell : run.cells) {
        if (stopped && cell.samples.empty() && cell.status == CellStatus::Ok)
            continue; // nothing of it was measured: a resumed run measures it
        finishCell(cell, change, stopped);
    }
}

void PlanRun::verifyRangesRead(PointRun& run, bool stopped, bool fileChanged) {
    if (sweep_)
        return;
    usePoint(lanes_, plan_, run.point);
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        Cell& cell = run.cells[i];
        if (!usable(lanes_[i], cell) || cell.checksum != Checksum::Verified)
            continue;
        const std::vector<Range> ranges = rangesRead(run, i);
        if (ranges.empty())
            continue;
        if (fileChanged) { // the readers hold the file as it was, a reference reads it now
            cell.checksum = Checksum::NotCheckedFileChanged;
            continue;
        }
        // Stays said unless the check below ends.
        cell.checksum = Checksum::NotCheckedStopped;
        if (stopped || stop_.stop_requested())
            continue;
        report({RunPhase::Verifying}, cell.strategy, run.point);
        const auto reference = referenceChecksum(cache_.reading(), ranges);
        const Status verified =
            reference ? verifyReader(*lanes_[i].readers[0], cell.strategy, run.point.rangeBytes,
                                     ranges, *reference, cell.checksum, stop_)
                      : Status(reference.error());
        if (!verified) {
            if (!reference)
                cell.checksum = Checksum::NotChecked;
            fail(cell, verified.error().message);
        } else if (const Cell* before = resumedCell(resumeFrom_, cell);
                   cell.checksum == Checksum::Verified && before && !before->samples.empty()) {
            // The rounds before the resume read ranges this process never counted.
            cell.checksum = Checksum::VerifiedSinceResume;
        }
    }
}

void PlanRun::finishCell(Cell& cell, const std::optional<FileChange>& change, bool stopped) {
    const FinishedCellContext context{plan_,  file_,  cache_.reading(), sweep_ ? &*sweep_ : nullptr,
                                      change, stopped};
    if (finishWithConditions(cell, context) && cell.measured())
        sink_.onWarning(CellNoted{cell.strategy, cell.point(), cell.message, cell.conditions});
    sink_.onCellFinished(cell);
    doc_.cells.push_back(cell);
}

Result<ResultDocument> measureOnce(const Plan& plan, const FileProbe& file, RunSink& sink,
                                   std::stop_token stop, const std::vector<SweepPoint>* only,
                                   const ResultDocument* resumeFrom) {
    return PlanRun(plan, file, sink, stop, only, resumeFrom).run();
}

} // namespace readscope
