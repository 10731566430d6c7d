#pragma once
// Before/after: for every cell present in both documents, the change of the median with a
// bootstrap confidence interval and (with enough rounds) a Mann-Whitney U test, and a verdict.
// Within one document: every strategy against a reference strategy, the same way.
#include "readscope/machine_drift.h"
#include "readscope/result_document.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace readscope {

// TooFewRounds: fewer than kMinRoundsForVerdict rounds on a side (or medians only): no test
// of that size can tell a change from chance, so none is claimed.
enum class Verdict { Faster, Slower, WithinNoise, Unknown, TooFewRounds };
std::string_view toString(Verdict v);

struct ChangeEstimate {
    // median(current) / median(baseline) - 1; paired: the median of the per-round ratios - 1
    double change = 0;
    std::optional<double> ciLow, ciHigh; // 95% bootstrap interval of that change
    std::optional<double> pValue; // two-sided: Mann-Whitney U, or Wilcoxon signed-rank (paired)
    bool paired = false;          // per-round pairs of one run: signed-rank on the ratios
    Verdict verdict = Verdict::Unknown;
    std::string note; // why a verdict is weak, missing, or "within noise"
};

inline constexpr double kDefaultNoiseThreshold = 0.02;
// The widest noise threshold a comparison takes: a change of 100% (twice as fast).
inline constexpr double kMaxNoiseThreshold = 1.0;
inline constexpr int kMinRoundsForVerdict = 5;
inline constexpr int kMinRoundsForU = kMinRoundsForVerdict;
// Paired: with 5 pairs the smallest exact two-sided signed-rank p is 2/32 = 0.0625, so no 5
// pairs could ever give a verdict; 6 pairs can (p = 0.031).
inline constexpr int kMinPairsForVerdict = 6;

// Pure statistics on two sets of per-round rates (GB/s). With samples missing (a CSV summary)
// pass the medians as one-element sets: the change is then computed but not tested.
ChangeEstimate estimateChange(std::span<const double> baseline, std::span<const double> current,
                              double noiseThreshold = kDefaultNoiseThreshold,
                              std::uint64_t seed = 1);
// Two-sided Mann-Whitney U p: exact (the permutation distribution of the ranks, ties at their
// average rank) up to kMaxExactRankSumSamples rounds in all, the normal approximation with tie
// and continuity corrections above (5 against 12 rounds, U = 11: exact 0.0485, normal 0.0512).
inline constexpr std::size_t kMaxExactRankSumSamples = 40;
double mannWhitneyPValue(std::span<const double> a, std::span<const double> b);

// Both measured in the same rounds of one run (pairs[i] = {baseline, current} of round i):
// the machine's drift between rounds cancels in each pair's ratio. The change is the median
// ratio - 1, its interval a bootstrap over the pairs, its p a two-sided Wilcoxon signed-rank
// test on the log ratios (exact up to 50 pairs, tied magnitudes at their average rank, else the
// normal approximation).
ChangeEstimate estimatePairedChange(std::span<const std::pair<double, double>> pairs,
                                    double noiseThreshold = kDefaultNoiseThreshold,
                                    std::uint64_t seed = 1);
double signedRankPValue(std::span<const double> differences);
// Holm's step-down adjustment of a family of p values, in place: the k-th smallest (from 0)
// times (m - k), never below the one before it, at most 1.
void holmAdjust(std::span<double* const> pValues);

struct CellComparison {
    std::string strategy;         // current side's strategy
    std::string baselineStrategy; // differs from strategy in reference mode
    SweepPoint at; // range size, and the pinned offset, threads or depth where the run had one
    double baselineMedian = 0, currentMedian = 0;
    ChangeEstimate estimate;
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
    double noiseThreshold = kDefaultNoiseThreshold;
    // Between runs: the larger of their drifts (runDrift), which a change must also pass; 0
    // within one run (paired rounds), or where neither run says.
    double driftFloor = 0;
    bool driftFromRepeats = false; // a run of the two had repeats: the floor is an A/A pair's
    bool betweenRuns = false;      // two separate runs (compareDocuments)
    // This machine's drift between runs (readscope-cli drift), when it is known for both runs'
    // machine: the floor is at least its drift.
    std::optional<MachineDrift> machineDrift;
    // The floor is this machine's drift (not the larger drift of one of the two runs).
    bool floorIsMachineDrift() const { return machineDrift && machineDrift->drift >= driftFloor; }
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

// Between two runs, a change counts only beyond the noise threshold and beyond the larger of
// the two runs' drift (runDrift): their rounds are not paired, and the machine's state moves
// between runs.
Comparison compareDocuments(const ResultDocument& baseline, const ResultDocument& current,
                            double noiseThreshold = kDefaultNoiseThreshold,
                            const MachineDrift* machine = nullptr);
// Every other strategy of doc against the reference strategy, size by size.
Comparison compareToReference(const ResultDocument& doc, const std::string& reference,
                              double noiseThreshold = kDefaultNoiseThreshold);

} // namespace readscope
