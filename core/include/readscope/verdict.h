#pragma once
// One verdict for every comparison readscope makes (two runs compared, strategies against a
// reference, a lesson's finding, the offset trap, the zeroing lesson): typed, decided here
// once, worded only by renderers. Four answers and never a fifth:
//   faster / slower  the rank test, after Holm's adjustment over the comparisons made, below
//                    0.05; the interval clear of zero; the change past the noise threshold
//                    and, between separate runs, past the drift measured between runs here;
//   same within ±t   the interval (at least 90% coverage) inside ±t: an equivalence test
//                    (two one-sided tests), never "not significant";
//   cannot tell      with the first cause that applies (Undecided).
#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "readscope/rank_tests.h"
#include "readscope/stats.h"

namespace readscope {

enum class Outcome { Faster, Slower, Same, CannotTell };

// Why a comparison cannot tell, in the order the policy looks for them.
enum class Undecided {
    None,
    NotMeasured,     // a side has no figures (failed, unavailable)
    MediansOnly,     // a side has a median but no rounds (a CSV summary): nothing to test
    TwoSpeeds,       // a side's rounds fall in two separate groups: its median says neither
    NoDrift,         // separate runs, and how far runs drift apart here was never measured
    TooFewRounds,    // no outcome of these rounds reaches p < 0.05 after Holm over these tests
    WithinDrift,     // a change the test calls, but within the drift measured between runs
    MachineDiffered, // the runs' machines were loaded differently enough to move every cell
    WideInterval,    // the interval reaches across zero or past ±t: wider than the change
};

enum class RankTest { None, SignedRank, RankSum };

struct Verdict {
    Outcome outcome = Outcome::CannotTell;
    Undecided cause = Undecided::NotMeasured;
    // current / baseline - 1: the median of per-round ratios (paired) or of the medians; none
    // where a side has no figures.
    std::optional<double> change;
    // Of that change, with its real coverage: the sign-test interval of the per-round ratios
    // (paired), Moses' interval of the ratios between rounds (unpaired). None from one round.
    std::optional<Interval> interval;
    RankTest test = RankTest::None;
    bool paired = false;            // the rounds were paired (one run's strategies)
    std::optional<double> p;        // after Holm's adjustment over `tests`
    std::optional<double> bestP;    // the smallest adjusted p rounds like these can ever give
    std::size_t tests = 0;          // the comparisons the adjustment is over
    int rounds = 0;                 // pairs, or the fewer side's rounds
    int roundsToCall = 0;           // TooFewRounds: the fewest (pairs, or rounds a side) that can
    std::optional<double> smallest; // the smallest change these rounds could call (both ways
                                    // alike), noise threshold and drift included
    double threshold = 0;           // the smallest change that counts as one
    double margin = 0;              // "same within ±margin"
    std::optional<double> drift;    // between runs: the measured drift a change must pass
    // A side whose rounds fell in two groups (stats.h): how many rounds at about which speed.
    std::optional<TwoSpeeds> baselineSpeeds, currentSpeeds;
    bool directional() const { return outcome == Outcome::Faster || outcome == Outcome::Slower; }
};

inline constexpr double kDefaultNoiseThreshold = 0.02;
// The widest noise threshold a comparison takes: a change of 100% (twice as fast).
inline constexpr double kMaxNoiseThreshold = 1.0;
// "Same" needs an interval this sure (a 5% two-one-sided test needs 90%).
inline constexpr double kSameCoverage = 0.90;

// What one row compares: GB/s per round on each side, and the pairs of rounds both sides ran
// in (one run's strategies, round by round). A side with one value is a median alone.
struct RowRounds {
    std::vector<double> baseline, current;
    std::vector<std::pair<double, double>> pairs; // {baseline, current}; empty: not paired
    bool measured = true;                         // both sides have figures
    bool mediansOnly = false; // a side is a median without its rounds (a CSV summary)
};

struct VerdictPolicy {
    double noiseThreshold = kDefaultNoiseThreshold;
    // "The same within ±t": 0 takes the noise threshold, and between runs the drift if larger.
    double sameMargin = 0;
    // Two separate runs: their rounds are not paired, and a change must pass the measured
    // drift between runs (none measured: cannot tell).
    bool betweenRuns = false;
    std::optional<double> drift;
    bool machineDiffered = false;
    // A side whose rounds ran at two speeds cannot be told; false where the comparison's own
    // split is what changes the speed (before and after a cache filled).
    bool twoSpeedsUndecided = true;
};

// Every row of one family of comparisons judged: the p values Holm-adjusted over the rows
// that have one, then each row's outcome by the rules above.
std::vector<Verdict> judgeRows(std::span<const RowRounds> rows, const VerdictPolicy& policy);

// Planning: the fewest pairs of rounds (paired) or rounds a side (two runs) with which any of
// `tests` comparisons can be called at all (7 pairs over 15 tests: 15 x 2/128 = 0.23, never;
// 10 pairs: 0.029).
int roundsToCall(std::size_t tests, bool paired);

} // namespace readscope
