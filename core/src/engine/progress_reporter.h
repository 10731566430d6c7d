#pragma once
// A run's progress as the sink hears it: where the run is (phase, strategy, point), how many of
// its steps are done, and the time left at the pace so far. Private to the engine.
#include "clock.h"
#include "readscope/runner.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace readscope {

class ProgressReporter {
public:
    explicit ProgressReporter(RunSink& sink) : sink_(sink) {}
    void setTotal(std::uint64_t steps) { progress_.total = steps; }
    // A duration run's steps are its time: this share of them is done (never going back).
    void setDone(double share) {
        progress_.step = std::max(progress_.step, std::uint64_t(share * double(progress_.total)));
    }
    // The elapsed time and the estimate count from now.
    void restartClock() { started_ = Clock::now(); }
    Clock::time_point started() const { return started_; }
    // Where the run is now.
    void report(std::string phase, std::string strategy, const SweepPoint& point);
    // One (strategy, round) step done, and where.
    void step(std::string phase, std::string strategy, const SweepPoint& point) {
        ++progress_.step;
        report(std::move(phase), std::move(strategy), point);
    }

private:
    RunSink& sink_;
    Progress progress_;
    Clock::time_point started_ = Clock::now();
};

} // namespace readscope
