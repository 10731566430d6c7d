#include "progress_reporter.h"

#include <algorithm>

namespace readscope {

void ProgressReporter::report(PhaseStep at, std::string strategy, const SweepPoint& point) {
    progress_.at = at;
    progress_.strategy = std::move(strategy);
    progress_.rangeBytes = point.rangeBytes;
    progress_.bufferOffset = point.bufferOffset;
    progress_.threads = point.threads;
    progress_.queueDepth = point.queueDepth;
    progress_.elapsedSeconds = secondsBetween(started_, Clock::now());
    if (endsAt_) {
        progress_.etaSeconds = std::max(0.0, secondsBetween(Clock::now(), *endsAt_));
        sink_.onProgress(progress_);
        return;
    }
    progress_.etaSeconds = progress_.step
                               ? progress_.elapsedSeconds / static_cast<double>(progress_.step) *
                                     static_cast<double>(progress_.total - progress_.step)
                               : -1;
    sink_.onProgress(progress_);
}

} // namespace readscope
