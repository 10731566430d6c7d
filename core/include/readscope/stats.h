#pragma once
// Statistics as pure functions over samples. Empty input gives 0 (never NaN) so that a
// document written from a failed cell stays valid JSON and CSV.
#include <cstddef>
#include <optional>
#include <span>

namespace readscope {

double median(std::span<const double> samples);
// Linear interpolation between closest ranks (the R-7 / NumPy default), q in [0, 1].
double quantile(std::span<const double> samples, double q);
double minimum(std::span<const double> samples);
double maximum(std::span<const double> samples);
double mean(std::span<const double> samples);
// Sample standard deviation / mean; 0 for fewer than two samples or a zero mean.
double coefficientOfVariation(std::span<const double> samples);

// A distribution-free confidence interval of the median: the order statistics X(j) and
// X(n+1-j) with the largest j whose binomial(n, 1/2) coverage is still >= the level asked
// for. Below 6 samples no pair reaches 95%: the interval is then [min, max] and coverage says
// how much it covers (1 - 2^(1-n): 75% for 3 samples, 93.75% for 5).
struct MedianInterval {
    double low = 0, high = 0;
    double coverage = 0; // the probability that the interval holds the true median
};
MedianInterval medianInterval(std::span<const double> samples, double level = 0.95);

// A cell is noisy when its median is uncertain by more than this: the 95% interval reaches
// further than 5% of the median on either side.
inline constexpr double kNoisyUncertainty = 0.05;
// Below this coverage (fewer than 5 rounds: [min, max] covers the median with 87.5% at 4, 75%
// at 3) an interval is too unsure to call a cell noisy or quiet: "too few rounds to tell".
inline constexpr double kMinCoverageToJudge = 0.90;

// Rounds that fall in two separate groups ("two speeds": on a virtual machine a kept mapping
// read some rounds at 15-19 GB/s and others at about 1): one median lands in one group or the
// other and describes neither. Found at the widest gap between sorted values when each side
// holds at least two rounds, the groups' medians are at least kTwoSpeedsRatio apart, and the
// gap is at least twice as wide as either group (all on the logarithm of the rates).
inline constexpr double kTwoSpeedsRatio = 1.5;
struct TwoSpeeds {
    std::size_t slowRounds = 0, fastRounds = 0;
    double slowMedian = 0, fastMedian = 0;
    double boundary = 0; // the middle of the gap: a value at most this is in the slow group
    bool slow(double x) const { return x <= boundary; }
};
std::optional<TwoSpeeds> twoSpeeds(std::span<const double> values);

struct Summary {
    double median = 0, min = 0, max = 0, p25 = 0, p75 = 0, cv = 0;
    double ciLow = 0, ciHigh = 0, ciCoverage = 0; // see MedianInterval
    bool noisy = false;                           // judged only with tooFewRounds false
    bool tooFewRounds = false; // ciCoverage under kMinCoverageToJudge: noisy or not, unknown
    // How far the interval reaches from the median, as a fraction of it (0.061: ±6.1%).
    double uncertainty() const;
};
Summary summarize(std::span<const double> samples);

} // namespace readscope
