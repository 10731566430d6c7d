#pragma once
// Before/after: for every cell present in both documents, the change of the median with a
// bootstrap confidence interval and (with enough rounds) a Mann-Whitney U test, and a verdict.
// Within one document: every strategy against a reference strategy, the same way.
#include "readscope/result_document.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace readscope {

enum class Verdict { Faster, Slower, WithinNoise, Unknown };
std::string_view toString(Verdict v);

struct ChangeEstimate {
    double change = 0;                 // median(current) / median(baseline) - 1
    std::optional<double> ciLow, ciHigh; // 95% bootstrap interval of that change
    std::optional<double> pValue;      // two-sided Mann-Whitney U (normal approximation)
    Verdict verdict = Verdict::Unknown;
    std::string note;                  // why a verdict is weak or missing
};

inline constexpr double kDefaultNoiseThreshold = 0.02;
inline constexpr int kMinRoundsForU = 5;

// Pure statistics on two sets of per-round rates (GB/s). With samples missing (a CSV summary)
// pass the medians as one-element sets: the change is then computed but not tested.
ChangeEstimate estimateChange(std::span<const double> baseline, std::span<const double> current,
                              double noiseThreshold = kDefaultNoiseThreshold,
                              std::uint64_t seed = 1);
double mannWhitneyPValue(std::span<const double> a, std::span<const double> b);

struct CellComparison {
    std::string strategy;          // current side's strategy
    std::string baselineStrategy;  // differs from strategy in reference mode
    std::uint64_t rangeBytes = 0;
    std::optional<std::uint32_t> bufferOffset; // the buffers' pinned page offset, if any
    double baselineMedian = 0, currentMedian = 0;
    ChangeEstimate estimate;
    SweepPoint point() const { return {rangeBytes, bufferOffset}; }
};
// "64 KiB", or "64 KiB @ +16" where the buffers were pinned.
std::string pointText(const SweepPoint& point);

struct Comparison {
    std::vector<CellComparison> cells;
    std::vector<std::string> onlyInBaseline; // "strategy @ size"
    std::vector<std::string> onlyInCurrent;
    std::vector<std::string> differences;    // what differs between the runs (CPU, kernel...)
    double noiseThreshold = kDefaultNoiseThreshold;
    std::string title;
};

Comparison compareDocuments(const ResultDocument& baseline, const ResultDocument& current,
                            double noiseThreshold = kDefaultNoiseThreshold);
// Every other strategy of doc against the reference strategy, size by size.
Comparison compareToReference(const ResultDocument& doc, const std::string& reference,
                              double noiseThreshold = kDefaultNoiseThreshold);

std::string comparisonMarkdown(const Comparison& c);
std::string comparisonText(const Comparison& c);

} // namespace readscope
