#pragma once
// Before/after: every cell present in both documents compared; within one document, every
// strategy against a reference strategy. Each row's verdict comes from verdict.h's one
// policy; this file says which rounds are compared and what drift between runs applies.
#include "readscope/machine_drift.h"
#include "readscope/result_document.h"
#include "readscope/verdict.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace readscope {

struct CellComparison {
    std::string strategy;         // current side's strategy
    std::string baselineStrategy; // differs from strategy in reference mode
    SweepPoint at; // range size, and the pinned offset, threads or depth where the run had one
    double baselineMedian = 0, currentMedian = 0;
    CellStatus baselineStatus = CellStatus::Ok, currentStatus = CellStatus::Ok;
    Verdict verdict;
    SweepPoint point() const { return at; }
};

struct Comparison {
    std::vector<CellComparison> cells;
    // The p values are Holm-adjusted over this many tests (the rows that have one), so that
    // many rows do not give verdicts by chance alone; a verdict needs the adjusted p < 0.05.
    std::size_t tests = 0;
    std::vector<std::string> onlyInBaseline; // "strategy @ size"
    std::vector<std::string> onlyInCurrent;
    std::vector<std::string> differences; // what differs between the runs (CPU, kernel...)
    VerdictPolicy policy;                 // betweenRuns: two separate runs (compareDocuments)
    // Between runs, what is known of how far runs drift apart with nothing changed: this
    // machine's (readscope-cli drift, for both runs' machine and cache mode), an A/A pair
    // within a run (--repeat), and each run's own drift from its earlier rounds to its later
    // ones (which alone is no measure of the drift between runs). policy.drift is the largest,
    // and only set where the machine's or the repeats' was measured.
    std::optional<MachineDrift> machineDrift;
    std::optional<double> repeatsDrift;
    double ownDrift = 0;
    // The longer of the two runs, seconds from its first round to its last (0 where the
    // documents do not say): what one more run of the plan costs, to measure the drift.
    double runSeconds = 0;
    // Between runs, when every row (at least kMinRowsForShift) moved the same way: the median
    // change. A machine whose speed changed between the runs moves every cell alike, and so
    // would a change that affects every strategy: the footer says the two cannot be told
    // apart from these runs alone.
    std::optional<double> commonShift;
    std::string title;
    // Where each side was measured and how to rerun it, for a pasted comparison: the system
    // lines and rerun commands of the baseline and current documents (one of each within a
    // run).
    std::string baselineSystem, currentSystem, baselineRerun, currentRerun;
};

// The seconds from a run's first round to the end of its last; 0 where its rounds have no
// start time.
double runSeconds(const ResultDocument& doc);

// How far a run drifted: for each measured cell, the largest change of a later repeat's
// median from the first repeat's (a run with repeats: an A/A pair measures the drift between
// runs), or else the change of the median from its earlier half of rounds to its later half
// (rounds are spread over the whole run; at least kMinRoundsForDrift of them); the 90th
// percentile of those changes' sizes. None without such cells. Two runs of one plan differ by
// at least this much from drift alone, so a change between runs smaller than it is not told
// from drift.
inline constexpr std::size_t kMinRoundsForDrift = 6;
inline constexpr std::size_t kMinRowsForShift = 4;
std::optional<double> runDrift(const ResultDocument& doc);
// Whether runDrift comes from repeats of the whole run (samples of a later repeat).
bool driftFromRepeats(const ResultDocument& doc);

// Between two runs, a change counts only beyond the noise threshold and beyond the drift
// measured between runs of this machine (its stored drift, or repeats in a run): their rounds
// are not paired, and the machine's state moves between runs. Without such a measure every
// row says it cannot tell.
Comparison compareDocuments(const ResultDocument& baseline, const ResultDocument& current,
                            double noiseThreshold = kDefaultNoiseThreshold,
                            const MachineDrift* machine = nullptr);
// Every other strategy of doc against the reference strategy, size by size.
// sameMargin: what "the same" means (0: the noise threshold); a lesson's tie is wider.
Comparison compareToReference(const ResultDocument& doc, const std::string& reference,
                              double noiseThreshold = kDefaultNoiseThreshold,
                              double sameMargin = 0);

} // namespace readscope
