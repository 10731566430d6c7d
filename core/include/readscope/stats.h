#pragma once
// Statistics as pure functions over samples. Empty input gives 0 (never NaN) so that a
// document written from a failed cell stays valid JSON and CSV.
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

inline constexpr double kNoisyCv = 0.05;

struct Summary {
    double median = 0, min = 0, max = 0, p25 = 0, p75 = 0, cv = 0;
    bool noisy = false;
};
Summary summarize(std::span<const double> samples);

} // namespace readscope
