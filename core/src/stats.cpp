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

Summary summarize(std::span<const double> samples) {
    Summary s;
    s.median = median(samples);
    s.min = minimum(samples);
    s.max = maximum(samples);
    s.p25 = quantile(samples, 0.25);
    s.p75 = quantile(samples, 0.75);
    s.cv = coefficientOfVariation(samples);
    s.noisy = s.cv > kNoisyCv;
    return s;
}

} // namespace readscope
