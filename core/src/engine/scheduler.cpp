#include "scheduler.h"

#include <algorithm>
#include <numeric>

namespace readscope {

bool timeCapped(int measured, Clock::time_point start, std::size_t points, double capSeconds) {
    return measured >= kMinRoundsBeforeCap &&
           secondsBetween(start, Clock::now()) > capSeconds * double(points);
}

Scheduler::Scheduler(const Plan& plan, std::size_t points, Clock::time_point runStarted)
    : plan_(plan), runStarted_(runStarted), order_(plan.seed ^ 0x5EED0F5EED0F5EEDull),
      visit_(points) {
    std::iota(visit_.begin(), visit_.end(), std::size_t{0});
}

void Scheduler::shuffle() { std::shuffle(visit_.begin(), visit_.end(), order_); }

RoundEnd Scheduler::planned(const Measure& measure) {
    auto start = Clock::now();
    int measured = 0;
    const bool timed = plan_.durationSeconds > 0;
    const int last = plan_.warmup + (timed ? kRoundsLimit.max : plan_.rounds);
    for (int r = 0; r < last; ++r) {
        if (timed && r == plan_.warmup)
            start = Clock::now(); // the duration is the measured rounds'
        if (r >= plan_.warmup &&
            (timed ? secondsBetween(start, Clock::now()) >= plan_.durationSeconds
                   : timeCapped(measured, start, visit_.size(), plan_.timeCapSeconds)))
            break;
        shuffle();
        for (const std::size_t k : visit_)
            if (measure(k, r) == RoundEnd::Stopped)
                return RoundEnd::Stopped;
        measured += r >= plan_.warmup ? 1 : 0;
    }
    if (timed && measured == kRoundsLimit.max) {
        const double took = secondsBetween(start, Clock::now());
        if (took < plan_.durationSeconds)
            roundLimitReached_ = took;
    }
    return RoundEnd::Measured;
}

std::optional<RoundLimitReached> Scheduler::roundLimitNote() const {
    if (!roundLimitReached_)
        return std::nullopt;
    return RoundLimitReached{kRoundsLimit.max, *roundLimitReached_, plan_.durationSeconds};
}

RoundEnd Scheduler::refine(const MeasureWide& measureWide) {
    const double limit = plan_.maxTimeSeconds > 0 ? plan_.maxTimeSeconds : kDefaultMaxTimeSeconds;
    for (int extra = 1; secondsBetween(runStarted_, Clock::now()) < limit; ++extra) {
        bool any = false;
        shuffle();
        for (const std::size_t k : visit_) {
            const auto end = measureWide(k, plan_.warmup + plan_.rounds - 1 + extra);
            if (!end)
                continue;
            any = true;
            if (*end == RoundEnd::Stopped)
                return RoundEnd::Stopped;
            if (secondsBetween(runStarted_, Clock::now()) >= limit)
                break;
        }
        if (!any)
            break;
    }
    return RoundEnd::Measured;
}

} // namespace readscope
