#include "progress_reporter.h"

#include <algorithm>

namespace readscope {

namespace {
bool isRound(RunPhase p) {
    return p == RunPhase::WarmUp || p == RunPhase::Round || p == RunPhase::TimedRound ||
           p == RunPhase::Refining;
}
} // namespace

void ProgressReporter::report(PhaseStep at, std::string strategy, const SweepPoint& point) {
    // The time the opening prices took, and the closing ones so far: a warm run's closing
    // prices, after its last round, take about as long as its opening ones did.
    const auto now = Clock::now();
    const double inPhase = secondsBetween(phaseSince_, now);
    if (progress_.at.phase == RunPhase::OpeningPrices)
        openingSeconds_ += inPhase;
    else if (progress_.at.phase == RunPhase::ClosingPrices)
        closingSeconds_ += inPhase;
    phaseSince_ = now;
    if (isRound(at.phase) && !roundsSince_) {
        roundsSince_ = now;
        stepsBefore_ = progress_.step;
    }
    progress_.at = at;
    progress_.strategy = std::move(strategy);
    progress_.rangeBytes = point.rangeBytes;
    progress_.bufferOffset = point.bufferOffset;
    progress_.threads = point.threads;
    progress_.queueDepth = point.queueDepth;
    progress_.elapsedSeconds = secondsBetween(started_, now);
    if (endsAt_) {
        progress_.etaSeconds = std::max(0.0, secondsBetween(now, *endsAt_));
        sink_.onProgress(progress_);
        return;
    }
    // At the pace of the rounds so far, not of the set-up before them: calibrating and
    // verifying are a few slow steps, and a pace taken over them said 5:08 for a sweep that
    // took 0:31. Unknown until a round step is done.
    const std::uint64_t roundSteps = progress_.step - std::min(progress_.step, stepsBefore_);
    progress_.etaSeconds =
        duration_ > 0 ? duration_ // measuring not begun: setDone gives the end from then on
        : roundsSince_ && roundSteps
            ? secondsBetween(*roundsSince_, now) / static_cast<double>(roundSteps) *
                      static_cast<double>(progress_.total -
                                          std::min(progress_.total, progress_.step)) +
                  std::max(0.0, openingSeconds_ - closingSeconds_)
            : -1;
    sink_.onProgress(progress_);
}

} // namespace readscope
