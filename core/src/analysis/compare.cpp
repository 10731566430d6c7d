#include "readscope/compare.h"
#include "readscope/machine_drift.h"
#include "readscope/run_findings.h"
#include "verdict.h"

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
        std::vector<double*> ps;
        for (auto* e : tested)
            ps.push_back(&*e->pValue);
        holmAdjust(ps);
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

} // namespace readscope
