#pragma once
// The order of a run's rounds. Every point is set up first; then round by round over all of
// them, each round visiting the points in a seeded order of its own (within a point the
// strategies interleave), so a cell's rounds are spread over the whole run and its interval sees
// the drift a later run will meet. The time cap ends the planned rounds early; --precision adds
// rounds after them for the points still too wide. Private to the engine.
#include "clock.h"
#include "readscope/plan.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace readscope {

// What one round of one point (or one strategy) came to: the run goes on after a measured or
// a failed round (the cell says why it failed), and ends after a stopped one.
enum class RoundEnd { Measured, Failed, Stopped };

// At least this many measured rounds before the time cap ends a run's rounds.
inline constexpr int kMinRoundsBeforeCap = 3;

// Whether no new round may start: `measured` rounds recorded (at least kMinRoundsBeforeCap)
// and the rounds since `start` have taken capSeconds per point.
bool timeCapped(int measured, Clock::time_point start, std::size_t points, double capSeconds);

class Scheduler {
public:
    // Round r of point k: measure(k, r), r counting the warm-ups from 0.
    using Measure = std::function<RoundEnd(std::size_t point, int round)>;

    // `runStarted`: when the run began (the maximum time counts from it).
    Scheduler(const Plan& plan, std::size_t points, Clock::time_point runStarted);

    // The plan's warm-up and measured rounds over every point (a duration run's: measured
    // rounds until they have taken its duration, at most kRoundsLimit.max). Stopped when a
    // round was.
    RoundEnd planned(const Measure& measure);
    // After planned(): what to say when a duration run's rounds reached kRoundsLimit.max
    // before its duration (nothing otherwise).
    std::optional<RoundLimitReached> roundLimitNote() const;
    // --precision: more rounds, each visiting the points in a seeded order, numbered on after
    // the planned ones, until no point measured anything in a round (it had no cell left too
    // wide) or the run has taken its maximum time. measureWide(k, r) measures the point's wide
    // cells and says how it went, or nothing when it had none.
    using MeasureWide = std::function<std::optional<RoundEnd>(std::size_t point, int round)>;
    RoundEnd refine(const MeasureWide& measureWide);

private:
    void shuffle();
    const Plan& plan_;
    Clock::time_point runStarted_;
    std::mt19937_64 order_;
    std::vector<std::size_t> visit_;
    std::optional<double> roundLimitReached_;
};

} // namespace readscope
