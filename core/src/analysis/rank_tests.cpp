// The statistics of a comparison (rank_tests.h): the rank tests with exact p values where
// they are countable, the smallest p they can reach, Holm's adjustment, and Moses' interval.
#include "readscope/rank_tests.h"

#include "readscope/stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace readscope {

namespace {

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

double smallestSignedRankP(std::size_t pairs) {
    return pairs == 0 ? 1 : std::min(1.0, 2 / std::pow(2.0, double(pairs)));
}

double smallestRankSumP(std::size_t n, std::size_t m) {
    if (n == 0 || m == 0)
        return 1;
    // C(n + m, n) as a product of ratios, each step exact enough in a double.
    double ways = 1;
    for (std::size_t i = 1; i <= std::min(n, m); ++i)
        ways = ways * double(n + m - std::min(n, m) + i) / double(i);
    return std::min(1.0, 2 / ways);
}

namespace {
// P(U <= u) for u = 0 .. n*m under the rank-sum null without ties: the count of the C(n+m, n)
// arrangements with u pairs (baseline above current), by the recursion over the largest value
// (it is a baseline's, adding m to U, or a current's, adding nothing).
std::vector<double> rankSumCdf(std::size_t n, std::size_t m) {
    // ways[i][j][u] rolled over i: arrangements of i baselines and j currents with U = u.
    std::vector<std::vector<double>> prev(m + 1), cur(m + 1);
    for (std::size_t j = 0; j <= m; ++j)
        prev[j] = {1.0}; // i = 0: one arrangement, U = 0
    for (std::size_t i = 1; i <= n; ++i) {
        cur[0] = {1.0};
        for (std::size_t j = 1; j <= m; ++j) {
            std::vector<double> next(i * j + 1, 0.0);
            for (std::size_t u = 0; u < prev[j].size(); ++u)
                next[u + j] += prev[j][u]; // the largest is a baseline: above j currents
            for (std::size_t u = 0; u < cur[j - 1].size(); ++u)
                next[u] += cur[j - 1][u]; // the largest is a current
            cur[j] = std::move(next);
        }
        std::swap(prev, cur);
    }
    std::vector<double> cdf = prev[m];
    double total = 0;
    for (double w : cdf)
        total += w;
    double running = 0;
    for (double& w : cdf) {
        running += w;
        w = running / total;
    }
    return cdf;
}
} // namespace

Interval shiftInterval(std::span<const double> baseline, std::span<const double> current,
                       double level) {
    Interval out;
    const std::size_t n = baseline.size(), m = current.size();
    if (n == 0 || m == 0)
        return out;
    std::vector<double> d;
    d.reserve(n * m);
    for (double c : current)
        for (double b : baseline)
            d.push_back(c - b);
    std::sort(d.begin(), d.end());
    const std::size_t all = d.size();
    // [d(k), d(all + 1 - k)] (1-based) covers the shift with 1 - 2 P(U <= k - 1).
    std::size_t k = 1;
    double coverage;
    if (n + m <= kMaxExactRankSumSamples) {
        const auto cdf = rankSumCdf(n, m);
        while (k + 1 <= (all + 1) / 2 && 1 - 2 * cdf[k] >= level)
            ++k;
        coverage = 1 - 2 * cdf[k - 1];
    } else {
        // Normal approximation of U: mean nm/2, variance nm(n + m + 1)/12.
        const double mean = double(all) / 2;
        const double sd = std::sqrt(double(all) * double(n + m + 1) / 12);
        auto lowerTail = [&](double u) { // P(U <= u), continuity-corrected
            return 0.5 * std::erfc(-(u + 0.5 - mean) / (sd * std::sqrt(2.0)));
        };
        while (k + 1 <= (all + 1) / 2 && 1 - 2 * lowerTail(double(k)) >= level)
            ++k;
        coverage = 1 - 2 * lowerTail(double(k - 1));
    }
    out.low = d[k - 1];
    out.high = d[all - k];
    out.coverage = std::max(0.0, coverage);
    return out;
}

} // namespace readscope
