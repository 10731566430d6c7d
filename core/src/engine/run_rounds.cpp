// A round of one point: each strategy's timed reads in turn, from the cache state the run
// asks for, recorded as samples (the rest of PlanRun is in runner.cpp).
#include "plan_run_class.h"

#include "platform.h"

#include <algorithm>
#include <atomic>

namespace readscope {

namespace {
// Every consumed value lands here, so no compiler can prove a read's result unused.
std::atomic<std::uint64_t> gConsumedSink{0};
} // namespace

RoundEnd PlanRun::measureRound(PointRun& run, int r, const std::vector<bool>* only) {
    const bool record = r >= plan_.warmup;
    // Rounds past the planned ones take the point's next number, the same for every cell
    // they measure: rounds are paired by number, which must mean the same moment.
    const int round = only ? run.lastRound + 1 : run.firstRound + r - plan_.warmup + 1;
    const bool timed = plan_.durationSeconds > 0;
    const int n = r - plan_.warmup + 1;
    const PhaseStep phase = only      ? PhaseStep{RunPhase::Refining, n, 0, 0, plan_.precision}
                            : !record ? PhaseStep{RunPhase::WarmUp, r + 1, plan_.warmup}
                            : timed   ? PhaseStep{RunPhase::TimedRound, n, 0, plan_.durationSeconds}
                                      : PhaseStep{RunPhase::Round, n, plan_.rounds};
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

RoundEnd PlanRun::measure(Lane& lane, Cell& cell, PointRun& run, std::size_t i, int round,
                          int position, bool record, double& seconds) {
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
                result->sample.fileResidentAfter = cache_.residency(std::span(&whole, 1)).fraction;
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

} // namespace readscope
