// The statistics of a comparison: the rank tests (Mann-Whitney U for two runs' rounds, the
// Wilcoxon signed-rank test for rounds paired by number) with exact p values where they are
// countable, and bootstrap intervals of the change of medians.
#include "readscope/compare.h"
#include "readscope/stats.h"
#include "verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace readscope {

namespace {

constexpr int kBootstrapResamples = 2000;

// Ranks of the values (1-based) in their own order, tied values sharing their average rank,
// with the tie correction (the sum of t^3 - t over each group of t equal values): what the
// U test and the signed-rank test both start from.
struct Ranking {
    std::vector<double> ranks;
    double tieTerm = 0;
    bool ties = false;
};
Ranking rankWithTies(std::span<const double> values) {
    Ranking out;
    out.ranks.resize(values.size());
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j < order.size() && values[order[j]] == values[order[i]])
            ++j;
        const double rank = (double(i) + double(j) + 1) / 2; // ranks i+1 .. j
        const double t = double(j - i);
        out.ties |= t > 1;
        out.tieTerm += t * t * t - t;
        for (std::size_t k = i; k < j; ++k)
            out.ranks[order[k]] = rank;
        i = j;
    }
    return out;
}

// Two-sided p of a statistic `deviation` from its null mean, normal approximation with
// continuity correction; 1 when the variance is 0 (every value tied: no evidence).
double normalTwoSidedP(double deviation, double variance) {
    if (variance <= 0)
        return 1;
    const double z = (std::abs(deviation) - 0.5) / std::sqrt(variance);
    return std::clamp(std::erfc(std::max(z, 0.0) / std::sqrt(2.0)), 0.0, 1.0);
}

// Exact two-sided p of the rank sum of the first `n1` of `ranks` (the pooled samples' ranks,
// ties at their average rank): the share of all C(N, n1) ways to pick n1 of the ranks whose sum
// lies at least as far from its mean as the observed one. Ranks are doubled so that average
// ranks (k + 1/2) count as integers; counts stay exact in a double up to C(40, 20).
double exactRankSumP(std::span<const double> ranks, std::size_t n1) {
    const std::size_t n = ranks.size();
    std::vector<std::size_t> twice(n);
    std::size_t total = 0, observed = 0;
    for (std::size_t i = 0; i < n; ++i) {
        twice[i] = static_cast<std::size_t>(std::lround(2 * ranks[i]));
        total += twice[i];
        if (i < n1)
            observed += twice[i];
    }
    // ways[k][s]: subsets of k of the ranks seen so far whose doubled sum is s.
    std::vector<std::vector<double>> ways(n1 + 1, std::vector<double>(total + 1, 0));
    ways[0][0] = 1;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = std::min(n1, i + 1); k >= 1; --k)
            for (std::size_t sum = total; sum >= twice[i]; --sum)
                ways[k][sum] += ways[k - 1][sum - twice[i]];
    const double mean = double(n1) * double(n + 1); // the doubled sum's: 2 * n1 (N + 1) / 2
    const double extreme = std::abs(double(observed) - mean);
    double tail = 0, all = 0;
    for (std::size_t sum = 0; sum <= total; ++sum) {
        all += ways[n1][sum];
        if (std::abs(double(sum) - mean) >= extreme - 1e-9)
            tail += ways[n1][sum];
    }
    return all > 0 ? std::min(1.0, tail / all) : 1;
}

} // namespace

double mannWhitneyPValue(std::span<const double> a, std::span<const double> b) {
    const double n1 = double(a.size()), n2 = double(b.size());
    if (a.empty() || b.empty())
        return 1;
    // Ranks of the pooled samples; a's come first.
    std::vector<double> pooled(a.begin(), a.end());
    pooled.insert(pooled.end(), b.begin(), b.end());
    const Ranking r = rankWithTies(pooled);
    if (a.size() + b.size() <= kMaxExactRankSumSamples)
        return exactRankSumP(r.ranks, a.size());
    double rankSumA = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        rankSumA += r.ranks[i];
    const double u = rankSumA - n1 * (n1 + 1) / 2;
    const double n = n1 + n2;
    const double variance = n1 * n2 / 12 * ((n + 1) - r.tieTerm / (n * (n - 1)));
    return normalTwoSidedP(u - n1 * n2 / 2, variance);
}

ChangeEstimate estimateChange(std::span<const double> baseline, std::span<const double> current,
                              double threshold, std::uint64_t seed) {
    ChangeEstimate e;
    const double mb = median(baseline), mc = median(current);
    if (baseline.empty() || current.empty() || mb <= 0) {
        e.note = "no figures to compare";
        return e;
    }
    e.change = mc / mb - 1;
    if (baseline.size() < 2 || current.size() < 2) {
        e.verdict = Verdict::TooFewRounds;
        e.note = "medians only (no per-round samples): not tested, no verdict";
        return e;
    }
    // Bootstrap the ratio of medians: resample both sides with replacement.
    std::mt19937_64 rng(seed);
    std::vector<double> changes, a(baseline.size()), b(current.size());
    changes.reserve(kBootstrapResamples);
    std::uniform_int_distribution<std::size_t> pickA(0, baseline.size() - 1);
    std::uniform_int_distribution<std::size_t> pickB(0, current.size() - 1);
    for (int i = 0; i < kBootstrapResamples; ++i) {
        for (auto& x : a)
            x = baseline[pickA(rng)];
        for (auto& x : b)
            x = current[pickB(rng)];
        const double ma = median(a);
        if (ma > 0)
            changes.push_back(median(b) / ma - 1);
    }
    e.ciLow = quantile(changes, 0.025);
    e.ciHigh = quantile(changes, 0.975);
    if (baseline.size() < kMinRoundsForVerdict || current.size() < kMinRoundsForVerdict) {
        e.verdict = Verdict::TooFewRounds;
        e.note =
            fmt::format("fewer than {} rounds a side: no test, no verdict", kMinRoundsForVerdict);
        return e;
    }
    e.pValue = mannWhitneyPValue(baseline, current);
    decide(e, threshold, *e.pValue, false);
    return e;
}

namespace {
// Exact null distribution of the signed-rank statistic W+ over the 2^n sign patterns of the
// ranks (tied magnitudes at their average rank: doubled, so that they count as integers).
double exactSignedRankP(std::span<const double> ranks, double wPlus) {
    std::vector<std::size_t> twice;
    std::size_t total = 0;
    for (double r : ranks) {
        twice.push_back(static_cast<std::size_t>(std::lround(2 * r)));
        total += twice.back();
    }
    std::vector<double> counts(total + 1, 0);
    counts[0] = 1;
    for (const std::size_t rank : twice)
        for (std::size_t w = total; w >= rank && rank > 0; --w)
            counts[w] += counts[w - rank];
    const double all = std::pow(2.0, double(ranks.size()));
    const double mean = double(total) / 2;
    const double extreme = std::abs(2 * wPlus - mean);
    double tail = 0;
    for (std::size_t w = 0; w <= total; ++w)
        if (std::abs(double(w) - mean) >= extreme - 1e-9)
            tail += counts[w];
    return std::min(1.0, tail / all);
}
} // namespace

double signedRankPValue(std::span<const double> differences) {
    std::vector<double> d;
    for (double x : differences)
        if (x != 0)
            d.push_back(x); // zero differences carry no sign (Wilcoxon's treatment)
    const std::size_t n = d.size();
    if (n == 0)
        return 1;
    std::vector<double> magnitudes;
    for (double x : d)
        magnitudes.push_back(std::abs(x));
    const Ranking r = rankWithTies(magnitudes);
    double wPlus = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (d[i] > 0)
            wPlus += r.ranks[i];
    if (n <= 50)
        return exactSignedRankP(r.ranks, wPlus);
    const double nn = double(n);
    const double variance = nn * (nn + 1) * (2 * nn + 1) / 24 - r.tieTerm / 48;
    return normalTwoSidedP(wPlus - nn * (nn + 1) / 4, variance);
}

ChangeEstimate estimatePairedChange(std::span<const std::pair<double, double>> pairs,
                                    double threshold, std::uint64_t seed) {
    ChangeEstimate e;
    e.paired = true;
    std::vector<double> ratios, logs;
    for (const auto& [base, cur] : pairs)
        if (base > 0 && cur > 0) {
            ratios.push_back(cur / base);
            logs.push_back(std::log(cur / base));
        }
    if (ratios.empty()) {
        e.note = "no figures to compare";
        return e;
    }
    e.change = median(ratios) - 1;
    if (ratios.size() < 2) {
        e.verdict = Verdict::TooFewRounds;
        e.note = "one paired round: not tested, no verdict";
        return e;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, ratios.size() - 1);
    std::vector<double> changes, resample(ratios.size());
    changes.reserve(kBootstrapResamples);
    for (int i = 0; i < kBootstrapResamples; ++i) {
        for (auto& x : resample)
            x = ratios[pick(rng)];
        changes.push_back(median(resample) - 1);
    }
    e.ciLow = quantile(changes, 0.025);
    e.ciHigh = quantile(changes, 0.975);
    if (ratios.size() < std::size_t(kMinPairsForVerdict)) {
        e.verdict = Verdict::TooFewRounds;
        e.note = fmt::format("fewer than {} paired rounds: no test can reach p < 0.05, no "
                             "verdict",
                             kMinPairsForVerdict);
        return e;
    }
    e.pValue = signedRankPValue(logs);
    decide(e, threshold, *e.pValue, false);
    return e;
}

void holmAdjust(std::span<double* const> pValues) {
    std::vector<double*> order(pValues.begin(), pValues.end());
    std::sort(order.begin(), order.end(), [](const double* a, const double* b) { return *a < *b; });
    const double m = double(order.size());
    double running = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        running = std::max(running, std::min(1.0, (m - double(k)) * *order[k]));
        *order[k] = running;
    }
}

} // namespace readscope
