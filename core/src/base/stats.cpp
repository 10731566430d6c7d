#include "readscope/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace readscope {

double quantile(std::span<const double> samples, double q) {
    if (samples.empty())
        return 0;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    q = std::clamp(q, 0.0, 1.0);
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const auto upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

double median(std::span<const double> samples) { return quantile(samples, 0.5); }

double minimum(std::span<const double> samples) {
    return samples.empty() ? 0 : *std::min_element(samples.begin(), samples.end());
}

double maximum(std::span<const double> samples) {
    return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
}

double mean(std::span<const double> samples) {
    if (samples.empty())
        return 0;
    return std::accumulate(samples.begin(), samples.end(), 0.0) /
           static_cast<double>(samples.size());
}

double coefficientOfVariation(std::span<const double> samples) {
    if (samples.size() < 2)
        return 0;
    const double m = mean(samples);
    if (m == 0)
        return 0;
    double squares = 0;
    for (double x : samples)
        squares += (x - m) * (x - m);
    return std::sqrt(squares / static_cast<double>(samples.size() - 1)) / std::abs(m);
}

MedianInterval medianInterval(std::span<const double> samples, double level) {
    MedianInterval out;
    const std::size_t n = samples.size();
    if (n == 0)
        return out;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    // P(B <= k) for B ~ binomial(n, 1/2), each term from its logarithm: 2^-n itself is 0 in
    // a double from n = 1075 on, and a product started from it would make every term 0.
    std::vector<double> cdf(n + 1);
    const double logAll = std::lgamma(double(n) + 1) - double(n) * std::log(2.0);
    double total = 0;
    for (std::size_t k = 0; k <= n; ++k) {
        total += std::exp(logAll - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1));
        cdf[k] = std::min(total, 1.0);
    }
    // [X(j), X(n+1-j)] (1-based) covers the median with probability 1 - 2 P(B <= j-1).
    std::size_t j = 1;
    while (j + 1 <= (n + 1) / 2 && 1 - 2 * cdf[j] >= level)
        ++j;
    out.low = sorted[j - 1];
    out.high = sorted[n - j];
    out.coverage = n == 1 ? 0 : 1 - 2 * cdf[j - 1];
    return out;
}

std::optional<TwoSpeeds> twoSpeeds(std::span<const double> values) {
    std::vector<double> logs;
    for (double x : values)
        if (x > 0)
            logs.push_back(std::log(x));
    if (logs.size() < 4)
        return std::nullopt;
    std::sort(logs.begin(), logs.end());
    // The widest gap with at least two values on each side.
    std::size_t split = 0;
    double gap = 0;
    for (std::size_t i = 1; i + 2 <= logs.size() - 1; ++i)
        if (logs[i + 1] - logs[i] > gap) {
            gap = logs[i + 1] - logs[i];
            split = i;
        }
    if (split == 0)
        return std::nullopt;
    const std::span<const double> slow(logs.data(), split + 1);
    const std::span<const double> fast(logs.data() + split + 1, logs.size() - split - 1);
    const double widest = std::max(slow.back() - slow.front(), fast.back() - fast.front());
    const double slowMedian = std::exp(median(slow)), fastMedian = std::exp(median(fast));
    if (fastMedian < kTwoSpeedsRatio * slowMedian || gap < 2 * widest)
        return std::nullopt;
    TwoSpeeds t;
    t.slowRounds = slow.size();
    t.fastRounds = fast.size();
    t.slowMedian = slowMedian;
    t.fastMedian = fastMedian;
    t.boundary = std::exp((slow.back() + fast.front()) / 2); // the middle of the gap
    return t;
}

double Summary::uncertainty() const {
    if (median <= 0)
        return 0;
    return std::max(median - ciLow, ciHigh - median) / median;
}

Summary summarize(std::span<const double> samples) {
    Summary s;
    s.median = median(samples);
    s.min = minimum(samples);
    s.max = maximum(samples);
    s.p25 = quantile(samples, 0.25);
    s.p75 = quantile(samples, 0.75);
    s.cv = coefficientOfVariation(samples);
    const auto ci = medianInterval(samples);
    s.ciLow = ci.low;
    s.ciHigh = ci.high;
    s.ciCoverage = ci.coverage;
    s.tooFewRounds = ci.coverage < kMinCoverageToJudge;
    s.noisy = !s.tooFewRounds && s.uncertainty() > kNoisyUncertainty;
    return s;
}

} // namespace readscope
