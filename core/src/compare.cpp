#include "readscope/compare.h"

#include "readscope/stats.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace readscope {

namespace {

constexpr int kBootstrapResamples = 2000;

std::vector<double> rates(const Cell& c) {
    std::vector<double> r;
    for (const auto& s : c.samples)
        if (const auto g = s.gbps())
            r.push_back(*g);
    if (r.empty() && c.measured())
        r.push_back(c.summary.median); // a CSV summary: the median alone
    return r;
}

} // namespace

std::string pointText(const SweepPoint& point) {
    if (!point.bufferOffset)
        return formatSize(point.rangeBytes);
    return fmt::format("{} @ +{}", formatSize(point.rangeBytes),
                       formatBufferOffset(*point.bufferOffset));
}

namespace {

std::string cellName(const Cell& c) {
    return fmt::format("{} @ {}", c.strategy, pointText(c.point()));
}

void differ(std::vector<std::string>& out, const char* what, const std::string& a,
            const std::string& b) {
    if (a != b)
        out.push_back(fmt::format("{}: {} → {}", what, a.empty() ? "?" : a, b.empty() ? "?" : b));
}

} // namespace

std::string_view toString(Verdict v) {
    switch (v) {
    case Verdict::Faster: return "faster";
    case Verdict::Slower: return "slower";
    case Verdict::WithinNoise: return "within noise";
    case Verdict::Unknown: return "unknown";
    }
    return "?";
}

double mannWhitneyPValue(std::span<const double> a, std::span<const double> b) {
    const double n1 = double(a.size()), n2 = double(b.size());
    if (a.empty() || b.empty())
        return 1;
    // Ranks of the pooled samples, ties sharing their average rank.
    std::vector<std::pair<double, int>> pooled;
    for (double x : a)
        pooled.push_back({x, 0});
    for (double x : b)
        pooled.push_back({x, 1});
    std::sort(pooled.begin(), pooled.end());
    double rankSumA = 0, tieTerm = 0;
    for (std::size_t i = 0; i < pooled.size();) {
        std::size_t j = i;
        while (j < pooled.size() && pooled[j].first == pooled[i].first)
            ++j;
        const double rank = (double(i) + double(j) + 1) / 2; // ranks i+1 .. j
        const double t = double(j - i);
        tieTerm += t * t * t - t;
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].second == 0)
                rankSumA += rank;
        i = j;
    }
    const double u = rankSumA - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double n = n1 + n2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)));
    if (variance <= 0)
        return 1; // every value tied: no evidence of a difference
    const double z = (std::abs(u - mean) - 0.5) / std::sqrt(variance); // continuity correction
    return std::clamp(std::erfc(std::max(z, 0.0) / std::sqrt(2.0)), 0.0, 1.0);
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
    const bool large = std::abs(e.change) >= threshold;
    if (baseline.size() < 2 || current.size() < 2) {
        e.verdict = large ? (e.change > 0 ? Verdict::Faster : Verdict::Slower)
                          : Verdict::WithinNoise;
        e.note = "medians only (no per-round samples): not tested for significance";
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
    bool significant = *e.ciLow > 0 || *e.ciHigh < 0;
    if (baseline.size() >= kMinRoundsForU && current.size() >= kMinRoundsForU) {
        e.pValue = mannWhitneyPValue(baseline, current);
        significant = significant && *e.pValue < 0.05;
    } else {
        e.note = fmt::format("fewer than {} rounds a side: no U test", kMinRoundsForU);
    }
    if (large && significant)
        e.verdict = e.change > 0 ? Verdict::Faster : Verdict::Slower;
    else
        e.verdict = Verdict::WithinNoise;
    return e;
}

Comparison compareDocuments(const ResultDocument& base, const ResultDocument& cur,
                            double threshold) {
    Comparison c;
    c.noiseThreshold = threshold;
    c.title = "baseline → current";
    for (const auto& b : base.cells) {
        const Cell* now = cur.find(b.strategy, b.point());
        if (!now) {
            c.onlyInBaseline.push_back(cellName(b));
            continue;
        }
        CellComparison cc{now->strategy, b.strategy,          b.rangeBytes,
                          b.bufferOffset, b.summary.median, now->summary.median, {}};
        if (b.measured() && now->measured()) {
            const auto rb = rates(b), rc = rates(*now);
            cc.estimate = estimateChange(rb, rc, threshold);
        } else {
            cc.estimate.note = fmt::format("not measured: baseline {}, current {}",
                                           toString(b.status), toString(now->status));
        }
        c.cells.push_back(cc);
    }
    for (const auto& n : cur.cells)
        if (!base.find(n.strategy, n.point()))
            c.onlyInCurrent.push_back(cellName(n));
    auto& d = c.differences;
    differ(d, "CPU", base.system.cpuModel, cur.system.cpuModel);
    differ(d, "kernel", base.system.kernel, cur.system.kernel);
    differ(d, "filesystem", base.system.filesystem, cur.system.filesystem);
    differ(d, "cache mode", std::string(toString(base.plan.cache)),
           std::string(toString(cur.plan.cache)));
    differ(d, "pattern", std::string(toString(base.plan.pattern)),
           std::string(toString(cur.plan.pattern)));
    differ(d, "threads", std::to_string(base.plan.threads), std::to_string(cur.plan.threads));
    differ(d, "consume", std::string(toString(base.plan.consume)),
           std::string(toString(cur.plan.consume)));
    differ(d, "buffer offset", formatBufferOffsets(base.plan.bufferOffsets),
           formatBufferOffsets(cur.plan.bufferOffsets));
    if (base.fileSize && cur.fileSize)
        differ(d, "file size", formatSize(base.fileSize), formatSize(cur.fileSize));
    return c;
}

Comparison compareToReference(const ResultDocument& doc, const std::string& reference,
                              double threshold) {
    Comparison c;
    c.noiseThreshold = threshold;
    c.title = fmt::format("each strategy against {}", reference);
    for (const auto& cell : doc.cells) {
        if (cell.strategy == reference)
            continue;
        const Cell* ref = doc.find(reference, cell.point());
        if (!ref) {
            c.onlyInCurrent.push_back(cellName(cell));
            continue;
        }
        CellComparison cc{cell.strategy,       reference,           cell.rangeBytes,
                          cell.bufferOffset,   ref->summary.median, cell.summary.median, {}};
        if (ref->measured() && cell.measured())
            cc.estimate = estimateChange(rates(*ref), rates(cell), threshold);
        else
            cc.estimate.note = "not measured on both sides";
        c.cells.push_back(cc);
    }
    return c;
}

namespace {

std::string percent(double v) { return fmt::format("{:+.1f}%", v * 100); }

std::string interval(const ChangeEstimate& e) {
    return e.ciLow ? fmt::format("{:+.1f}% … {:+.1f}%", *e.ciLow * 100, *e.ciHigh * 100) : "–";
}

std::string pText(const ChangeEstimate& e) {
    if (!e.pValue)
        return "–";
    return *e.pValue < 0.001 ? std::string("<0.001") : fmt::format("{:.3f}", *e.pValue);
}

std::string footer(const Comparison& c) {
    std::string out;
    out += fmt::format("\nChange of the median GB/s; 95% bootstrap interval; p from a two-sided "
                       "Mann-Whitney U test; changes under {:.0f}% count as noise.\n",
                       c.noiseThreshold * 100);
    if (!c.onlyInBaseline.empty())
        out += fmt::format("Only in the baseline: {}.\n", fmt::join(c.onlyInBaseline, ", "));
    if (!c.onlyInCurrent.empty())
        out += fmt::format("Only in the current run: {}.\n", fmt::join(c.onlyInCurrent, ", "));
    if (!c.differences.empty())
        out += fmt::format("Warning: the runs differ in {}.\n", fmt::join(c.differences, "; "));
    return out;
}

std::string who(const CellComparison& cc) {
    return cc.baselineStrategy == cc.strategy
               ? cc.strategy
               : fmt::format("{} vs {}", cc.strategy, cc.baselineStrategy);
}

std::string change(const ChangeEstimate& e) {
    return e.verdict == Verdict::Unknown ? "–" : percent(e.change);
}

} // namespace

std::string comparisonMarkdown(const Comparison& c) {
    std::string out = "| strategy | range | baseline GB/s | current GB/s | change | 95% CI | p | "
                      "verdict |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& cc : c.cells) {
        const auto& e = cc.estimate;
        out += fmt::format("| {} | {} | {:.2f} | {:.2f} | {} | {} | {} | {} |\n", who(cc),
                           pointText(cc.point()), cc.baselineMedian, cc.currentMedian,
                           change(e), interval(e), pText(e), toString(e.verdict));
    }
    return out + footer(c);
}

std::string comparisonText(const Comparison& c) {
    std::string out = fmt::format("{:<32} {:>8} {:>9} {:>9} {:>8} {:>19} {:>6}  {}\n", "strategy",
                                  "range", "baseline", "current", "change", "95% CI", "p",
                                  "verdict");
    for (const auto& cc : c.cells) {
        const auto& e = cc.estimate;
        out += fmt::format("{:<32} {:>8} {:>9.2f} {:>9.2f} {:>8} {:>19} {:>6}  {}{}\n", who(cc),
                           pointText(cc.point()), cc.baselineMedian, cc.currentMedian,
                           change(e), interval(e), pText(e), toString(e.verdict),
                           e.note.empty() ? "" : " (" + e.note + ")");
    }
    return out + footer(c);
}

} // namespace readscope
