#include "readscope/compare.h"
#include "readscope/machine_drift.h"
#include "readscope/run_findings.h"

#include "readscope/provenance.h"

#include "readscope/stats.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace readscope {

namespace {

constexpr int kBootstrapResamples = 2000;

void decide(ChangeEstimate& e, double threshold, double p, bool adjusted, double drift = 0,
            std::string_view whoseDrift = "the runs'");

// Holm's step-down adjustment of every row's p value, then each verdict again from the
// adjusted p: with 30 rows, about 1.5 would pass p < 0.05 by chance alone without it.
void adjustForManyTests(Comparison& c) {
    std::vector<ChangeEstimate*> tested;
    for (auto& cc : c.cells)
        if (cc.estimate.pValue)
            tested.push_back(&cc.estimate);
    c.tests = tested.size();
    const bool adjusted = tested.size() >= 2;
    if (adjusted) {
        std::sort(tested.begin(), tested.end(),
                  [](const ChangeEstimate* a, const ChangeEstimate* b) {
                      return *a->pValue < *b->pValue;
                  });
        const double m = double(tested.size());
        double running = 0;
        for (std::size_t i = 0; i < tested.size(); ++i) {
            running = std::max(running, std::min(1.0, (m - double(i)) * *tested[i]->pValue));
            tested[i]->pValue = running;
        }
    }
    // Every verdict again, one test or many: the drift floor holds on the logarithm and names
    // whose drift it is, which the first estimate (a plain threshold) did not.
    for (auto* e : tested)
        decide(*e, c.noiseThreshold, *e->pValue, adjusted, c.driftFloor,
               c.floorIsMachineDrift() ? "this machine's" : "the runs'");
}

// The rounds both cells ran in ({reference GB/s, cell GB/s} per round number).
std::vector<std::pair<double, double>> roundPairs(const Cell& reference, const Cell& cell) {
    std::vector<std::pair<double, double>> pairs;
    for (const auto& s : cell.samples)
        for (const auto& r : reference.samples)
            if (r.round == s.round && r.gbps() && s.gbps()) {
                pairs.push_back({*r.gbps(), *s.gbps()});
                break;
            }
    return pairs;
}

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

std::vector<double> rates(const Cell& c) {
    std::vector<double> r = c.roundRates();
    if (r.empty() && c.measured())
        r.push_back(c.summary.median); // a CSV summary: the median alone
    return r;
}

} // namespace

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
    case Verdict::TooFewRounds: return "too few rounds";
    }
    return "?";
}

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

namespace {
// The verdict from a change, its interval and a p value (adjusted, where several tests were
// made), with the reason when it is "within noise".
void decide(ChangeEstimate& e, double threshold, double p, bool adjusted, double drift,
            std::string_view whoseDrift) {
    // The noise threshold on the change; the drift between runs on its logarithm, as it was
    // measured (a level k times higher or lower alike): a floor of +100% is -50% below.
    const bool large =
        std::abs(e.change) >= threshold &&
        (drift <= 0 || e.change <= -1 || std::abs(std::log1p(e.change)) >= std::log1p(drift));
    const bool apart = e.ciLow && e.ciHigh && (*e.ciLow > 0 || *e.ciHigh < 0);
    if (large && apart && p < 0.05) {
        e.verdict = e.change > 0 ? Verdict::Faster : Verdict::Slower;
        e.note.clear();
        return;
    }
    e.verdict = Verdict::WithinNoise;
    if (!large)
        e.note = drift > threshold
                     ? fmt::format("change under {} drift of {:.1f}%", whoseDrift, drift * 100)
                     : fmt::format("change under {:.0f}%", threshold * 100);
    else if (!apart)
        e.note = "its interval crosses zero";
    else
        e.note = fmt::format("p = {:.3f}, not under 0.05{}", p,
                             adjusted ? " after Holm's adjustment" : "");
}
} // namespace

namespace {
// One cell's drift: with repeats, the largest change of a later repeat's median from the
// first's; without, the change from its earlier half of rounds to its later half. None with
// too few rounds to say.
std::optional<double> cellDrift(const Cell& c) {
    std::map<int, std::vector<double>> byRepeat;
    std::vector<const Sample*> byRound;
    for (const auto& s : c.samples)
        if (const auto g = s.gbps()) {
            byRepeat[s.repeat].push_back(*g);
            byRound.push_back(&s);
        }
    if (byRepeat.size() > 1) {
        const double first = median(byRepeat.begin()->second);
        double drift = 0;
        for (const auto& [repeat, rates] : byRepeat)
            if (first > 0 && !rates.empty())
                drift = std::max(drift, std::abs(median(rates) / first - 1));
        return drift;
    }
    if (byRound.size() < kMinRoundsForDrift)
        return std::nullopt;
    std::sort(byRound.begin(), byRound.end(),
              [](const Sample* a, const Sample* b) { return a->round < b->round; });
    std::vector<double> earlier, later;
    for (std::size_t i = 0; i < byRound.size(); ++i)
        (i < byRound.size() / 2 ? earlier : later).push_back(*byRound[i]->gbps());
    if (median(earlier) <= 0)
        return std::nullopt;
    return std::abs(median(later) / median(earlier) - 1);
}
} // namespace

std::optional<double> runDrift(const ResultDocument& doc) {
    std::vector<double> drifts;
    for (const auto& c : doc.cells)
        if (c.measured())
            if (const auto d = cellDrift(c))
                drifts.push_back(*d);
    if (drifts.empty())
        return std::nullopt;
    return quantile(drifts, 0.9);
}

bool driftFromRepeats(const ResultDocument& doc) {
    return std::any_of(doc.cells.begin(), doc.cells.end(), [](const Cell& c) {
        return std::any_of(c.samples.begin(), c.samples.end(),
                           [](const Sample& s) { return s.repeat > 0; });
    });
}

Comparison compareDocuments(const ResultDocument& base, const ResultDocument& cur, double threshold,
                            const MachineDrift* machine) {
    Comparison c;
    c.noiseThreshold = threshold;
    c.driftFloor = std::max(runDrift(base).value_or(0), runDrift(cur).value_or(0));
    c.betweenRuns = true;
    if (machine && measuredWhere(*machine, base) && measuredWhere(*machine, cur)) {
        c.machineDrift = *machine;
        c.driftFloor = std::max(c.driftFloor, machine->drift);
    }
    c.driftFromRepeats = driftFromRepeats(base) || driftFromRepeats(cur);
    c.title = "baseline → current";
    c.baselineSystem = systemLine(base);
    c.currentSystem = systemLine(cur);
    c.baselineRerun = rerunCommand(base);
    c.currentRerun = rerunCommand(cur);
    for (const auto& b : base.cells) {
        const Cell* now = cur.find(b.strategy, b.point());
        if (!now) {
            c.onlyInBaseline.push_back(cellName(b));
            continue;
        }
        CellComparison cc{now->strategy,    b.strategy,          b.point(),
                          b.summary.median, now->summary.median, {}};
        if (b.measured() && now->measured()) {
            const auto rb = rates(b), rc = rates(*now);
            cc.estimate = estimateChange(rb, rc, std::max(threshold, c.driftFloor));
        } else {
            cc.estimate.note = fmt::format("not measured: baseline {}, current {}",
                                           toString(b.status), toString(now->status));
        }
        c.cells.push_back(cc);
    }
    adjustForManyTests(c);
    std::vector<double> changes;
    for (const auto& cc : c.cells)
        if (cc.estimate.verdict != Verdict::Unknown)
            changes.push_back(cc.estimate.change);
    if (changes.size() >= kMinRowsForShift &&
        (std::all_of(changes.begin(), changes.end(), [](double x) { return x > 0; }) ||
         std::all_of(changes.begin(), changes.end(), [](double x) { return x < 0; })))
        c.commonShift = median(changes);
    for (const auto& n : cur.cells)
        if (!base.find(n.strategy, n.point()))
            c.onlyInCurrent.push_back(cellName(n));
    auto& d = c.differences;
    differ(d, "CPU", base.system.cpuModel, cur.system.cpuModel);
    differ(d, "kernel", base.system.kernel, cur.system.kernel);
    differ(d, "filesystem", base.system.filesystem, cur.system.filesystem);
    differ(d, "cache mode", std::string(toString(base.plan.cache)),
           std::string(toString(cur.plan.cache)));
    differ(d, "pattern", patternWords(base.plan), patternWords(cur.plan));
    differ(d, "threads", threadsText(base.plan), threadsText(cur.plan));
    differ(d, "queue depth", queueDepthsText(base.plan), queueDepthsText(cur.plan));
    differ(d, "consume", std::string(toString(base.plan.consume)),
           std::string(toString(cur.plan.consume)));
    differ(d, "buffer offset", formatBufferOffsets(base.plan.bufferOffsets),
           formatBufferOffsets(cur.plan.bufferOffsets));
    // Per-round costs (a mapping per round) spread over the bytes a round reads.
    auto roundTime = [](const Plan& p) {
        return p.roundTimeSeconds > 0 ? fmt::format("{} s", p.roundTimeSeconds)
                                      : std::string("whole budget");
    };
    differ(d, "round time", roundTime(base.plan), roundTime(cur.plan));
    if (base.fileSize && cur.fileSize)
        differ(d, "file size", formatSize(base.fileSize), formatSize(cur.fileSize));
    // What else used the machine during each run, when it differs by a few points of the CPUs'
    // time: a cause the figures alone do not show.
    const Disturbance db = runDisturbance(base), dc = runDisturbance(cur);
    if (db.measured && dc.measured &&
        (std::abs(db.stolenShare - dc.stolenShare) >= 0.02 ||
         std::abs(db.otherShare - dc.otherShare) >= 0.02)) {
        auto state = [](const Disturbance& x) {
            return fmt::format("hypervisor steal {:.0f}%, other processes {:.0f}% of the CPUs",
                               x.stolenShare * 100, x.otherShare * 100);
        };
        differ(d, "machine load", state(db), state(dc));
    }
    return c;
}

Comparison compareToReference(const ResultDocument& doc, const std::string& reference,
                              double threshold) {
    Comparison c;
    c.noiseThreshold = threshold;
    c.title = fmt::format("each strategy against {}", reference);
    c.currentSystem = systemLine(doc);
    c.currentRerun = rerunCommand(doc);
    for (const auto& cell : doc.cells) {
        if (cell.strategy == reference)
            continue;
        const Cell* ref = doc.find(reference, cell.point());
        if (!ref) {
            c.onlyInCurrent.push_back(cellName(cell));
            continue;
        }
        CellComparison cc{cell.strategy,       reference,           cell.point(),
                          ref->summary.median, cell.summary.median, {}};
        if (ref->measured() && cell.measured()) {
            // Same run, same rounds: pair them, so the machine's drift between rounds cancels.
            const auto pairs = roundPairs(*ref, cell);
            cc.estimate = pairs.empty() ? estimateChange(rates(*ref), rates(cell), threshold)
                                        : estimatePairedChange(pairs, threshold);
        } else {
            cc.estimate.note = "not measured on both sides";
        }
        c.cells.push_back(cc);
    }
    adjustForManyTests(c);
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
    out += "\n" + comparisonMethod(c) + "\n";
    if (!c.onlyInBaseline.empty())
        out += fmt::format("Only in the baseline: {}.\n", fmt::join(c.onlyInBaseline, ", "));
    if (!c.onlyInCurrent.empty())
        out += fmt::format("Only in the current run: {}.\n", fmt::join(c.onlyInCurrent, ", "));
    if (!c.differences.empty())
        out += fmt::format("Warning: the runs differ in {}.\n", fmt::join(c.differences, "; "));
    if (c.commonShift)
        out += fmt::format("Every row moved the same way (median {:+.1f}%): the machine's "
                           "speed changing between the runs moves every cell alike, and so does "
                           "a change that affects every strategy; these two runs cannot tell "
                           "the two apart.\n",
                           *c.commonShift * 100);
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

std::string comparisonMethod(const Comparison& c) {
    // Which test each row's p came from: rows measured in the same rounds are paired, the
    // others (a baseline, or rounds that did not line up) are not. Rows without a p count by
    // the test they would have had.
    std::size_t paired = 0, unpaired = 0;
    for (const auto& cc : c.cells)
        (cc.estimate.paired ? paired : unpaired) += 1;
    std::string out;
    if (paired && !unpaired)
        out += "Change: the median of the per-round ratios (both ran in the same rounds); 95% "
               "bootstrap interval over the rounds; p from a two-sided Wilcoxon signed-rank "
               "test on those ratios";
    else if (!paired)
        out += "Change of the median GB/s; 95% bootstrap interval; p from a two-sided "
               "Mann-Whitney U test (exact up to 40 rounds in all)";
    else
        out += fmt::format("Change: for {} row{} (both sides ran in the same rounds) the median "
                           "of the per-round ratios, p from a two-sided Wilcoxon signed-rank "
                           "test; for {} row{} (rounds that do not pair) the change of the "
                           "median GB/s, p from a two-sided Mann-Whitney U test; 95% bootstrap "
                           "intervals",
                           paired, paired == 1 ? "" : "s", unpaired, unpaired == 1 ? "" : "s");
    if (c.tests > 1)
        out += fmt::format(", Holm-adjusted over {} tests (unadjusted, about {:.1f} of them "
                           "would pass p < 0.05 by chance alone)",
                           c.tests, 0.05 * double(c.tests));
    out += fmt::format("; changes under {:.0f}% count as noise", c.noiseThreshold * 100);
    if (c.floorIsMachineDrift())
        out += fmt::format(", and between these runs so do changes under {:.1f}%, this "
                           "machine's drift between runs of one plan with nothing changed, or "
                           "a fall to 1/{:.2f} of the baseline (from the spread of {} A/A runs "
                           "measured {} with readscope-cli drift: with every cell as spread as "
                           "the pooled figure, about 1 row in 300 would move that far; noisier "
                           "cells do more often)",
                           c.driftFloor * 100, 1 + c.driftFloor, c.machineDrift->runs,
                           c.machineDrift->measuredAt.substr(0, 10));
    else if (c.driftFloor > c.noiseThreshold)
        out += fmt::format(", and between these runs so do changes under {:.1f}%, the larger "
                           "run's drift ({}; 90th percentile over its cells)",
                           c.driftFloor * 100,
                           c.driftFromRepeats
                               ? "between its repeats of the whole run: an A/A pair"
                               : "within itself, from its earlier half of rounds to its later "
                                 "half; a run with --repeat 2 measures the drift between "
                                 "runs, usually larger");
    out += fmt::format("; no verdict from fewer than {} rounds a side.", kMinRoundsForVerdict);
    if (c.betweenRuns && !c.machineDrift)
        out += " How far separate runs of this machine drift with nothing changed is not "
               "measured: runs minutes apart can differ by more than a run's own drift (20-30% "
               "on a busy virtual machine), and readscope-cli drift A.json B.json C.json "
               "measures it from runs of one plan and keeps it for every later compare.";
    return out;
}

std::string verdictText(const ChangeEstimate& e) {
    if (e.verdict == Verdict::WithinNoise && !e.note.empty())
        return fmt::format("{} ({})", toString(e.verdict), e.note);
    return std::string(toString(e.verdict));
}

ComparisonRowText comparisonRowText(const CellComparison& cc) {
    const auto& e = cc.estimate;
    return {who(cc),
            pointText(cc.point()),
            fmt::format("{:.2f}", cc.baselineMedian),
            fmt::format("{:.2f}", cc.currentMedian),
            change(e),
            interval(e),
            pText(e),
            verdictText(e)};
}

std::string comparisonMarkdown(const Comparison& c) {
    std::string out = "| strategy | range | baseline GB/s | current GB/s | change | 95% CI | p | "
                      "verdict |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& cc : c.cells) {
        const auto& e = cc.estimate;
        out += fmt::format("| {} | {} | {:.2f} | {:.2f} | {} | {} | {} | {} |\n", who(cc),
                           pointText(cc.point()), cc.baselineMedian, cc.currentMedian, change(e),
                           interval(e), pText(e), verdictText(e));
    }
    out += footer(c);
    // Where and how, so that a reader can rerun both sides.
    if (!c.baselineRerun.empty()) {
        out += fmt::format("\nBaseline: {}\nRerun: `{}`\n", c.baselineSystem, c.baselineRerun);
        out += fmt::format("\nCurrent: {}\nRerun: `{}`\n", c.currentSystem, c.currentRerun);
    } else if (!c.currentRerun.empty()) {
        out += fmt::format("\nMeasured on: {}\nRerun: `{}`\n", c.currentSystem, c.currentRerun);
    }
    return out;
}

std::string comparisonText(const Comparison& c) {
    std::string out =
        fmt::format("{:<32} {:>8} {:>9} {:>9} {:>8} {:>19} {:>6}  {}\n", "strategy", "range",
                    "baseline", "current", "change", "95% CI", "p", "verdict");
    for (const auto& cc : c.cells) {
        const auto& e = cc.estimate;
        const auto r = comparisonRowText(cc);
        out += fmt::format(
            "{:<32} {:>8} {:>9} {:>9} {:>8} {:>19} {:>6}  {}{}\n", r.who, r.point, r.baseline,
            r.current, r.change, r.interval, r.p, r.verdict,
            e.note.empty() || e.verdict == Verdict::WithinNoise ? "" : " (" + e.note + ")");
    }
    return out + footer(c);
}

} // namespace readscope
