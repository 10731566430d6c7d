#pragma once
// A run's progress as the sink hears it: where the run is (phase, strategy, point), how many of
// its steps are done, and the time left at the pace so far. Private to the engine.
#include "clock.h"
#include "readscope/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace readscope {

class ProgressReporter {
public:
    explicit ProgressReporter(RunSink& sink) : sink_(sink) {}
    void setTotal(std::uint64_t steps) { progress_.total = steps; }
    // A duration run: until its measuring starts (setDone), all of it is still ahead.
    void expectDuration(double seconds) { duration_ = seconds; }
    // A duration run's steps are its time: this share of them is done (never going back), and
    // it ends `left` seconds from now (the estimate, rather than the pace of its set-up).
    void setDone(double share, double left) {
        progress_.step = std::max(progress_.step, std::uint64_t(share * double(progress_.total)));
        endsAt_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(std::max(0.0, left)));
    }
    // The elapsed time and the estimate count from now.
    void restartClock() { started_ = Clock::now(); }
    Clock::time_point started() const { return started_; }
    // Where the run is now.
    void report(PhaseStep at, std::string strategy, const SweepPoint& point);
    // One (strategy, round) step done, and where.
    void step(PhaseStep at, std::string strategy, const SweepPoint& point) {
        ++progress_.step;
        report(at, std::move(strategy), point);
    }

private:
    RunSink& sink_;
    Progress progress_;
    Clock::time_point started_ = Clock::now();
    std::optional<Clock::time_point> endsAt_;
    // When the first round began, and the steps done before it (the set-up's).
    std::optional<Clock::time_point> roundsSince_;
    std::uint64_t stepsBefore_ = 0;
    double duration_ = 0;
    Clock::time_point phaseSince_ = Clock::now(); // when the phase reported last began
    double openingSeconds_ = 0, closingSeconds_ = 0;
};

} // namespace readscope
