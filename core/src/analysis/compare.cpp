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

namespace readscope {

namespace {

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

// One row's rounds: each side's GB/s per round (a CSV summary's median alone), paired by round
// where both cells ran in the same rounds of one run.
RowRounds rowRounds(const Cell& base, const Cell& cur, bool pair) {
    RowRounds row;
    row.measured = base.measured() && cur.measured();
    if (!row.measured)
        return row;
    row.baseline = base.roundRates();
    row.current = cur.roundRates();
    row.mediansOnly = row.baseline.empty() || row.current.empty();
    if (row.baseline.empty())
        row.baseline.push_back(base.summary.median);
    if (row.current.empty())
        row.current.push_back(cur.summary.median);
    if (pair && !row.mediansOnly)
        row.pairs = roundPairs(base, cur);
    return row;
}

// Every row judged as one family, through verdict.h's policy.
void judge(Comparison& c, const std::vector<RowRounds>& rows) {
    const auto verdicts = judgeRows(rows, c.policy);
    for (std::size_t i = 0; i < c.cells.size(); ++i) {
        c.cells[i].verdict = verdicts[i];
        c.tests = std::max(c.tests, verdicts[i].tests);
    }
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

double runSeconds(const ResultDocument& doc) {
    double first = 0, last = 0;
    for (const auto& c : doc.cells)
        for (const auto& s : c.samples)
            if (s.startedAt) {
                first = first == 0 ? *s.startedAt : std::min(first, *s.startedAt);
                last = std::max(last, *s.startedAt + s.seconds);
            }
    return last - first;
}

Comparison compareDocuments(const ResultDocument& base, const ResultDocument& cur, double threshold,
                            const MachineDrift* machine) {
    Comparison c;
    c.policy.noiseThreshold = threshold;
    c.policy.betweenRuns = true;
    // What is known of the drift between runs: an A/A pair inside either run (its repeats),
    // and this machine's, measured with readscope-cli drift. A run's own drift from its
    // earlier rounds to its later ones raises the floor but measures nothing between runs.
    for (const auto* doc : {&base, &cur}) {
        const auto drift = runDrift(*doc);
        if (drift && driftFromRepeats(*doc))
            c.repeatsDrift = std::max(c.repeatsDrift.value_or(0), *drift);
        else if (drift)
            c.ownDrift = std::max(c.ownDrift, *drift);
    }
    if (machine && measuredWhere(*machine, base) && measuredWhere(*machine, cur))
        c.machineDrift = *machine;
    if (c.repeatsDrift || c.machineDrift)
        c.policy.drift = std::max(
            {c.repeatsDrift.value_or(0), c.machineDrift ? c.machineDrift->drift : 0.0, c.ownDrift});
    c.runSeconds = std::max(runSeconds(base), runSeconds(cur));
    c.title = "baseline → current";
    c.baselineSystem = systemLine(base);
    c.currentSystem = systemLine(cur);
    c.baselineRerun = rerunCommand(base);
    c.currentRerun = rerunCommand(cur);
    // What else used the machine during each run: a load that differs by 10 points of the
    // CPUs' time moves every cell of a run, whatever was changed.
    const Disturbance db = runDisturbance(base), dc = runDisturbance(cur);
    c.policy.machineDiffered = db.measured && dc.measured &&
                               (std::abs(db.stolenShare - dc.stolenShare) >= 0.10 ||
                                std::abs(db.otherShare - dc.otherShare) >= 0.10);
    std::vector<RowRounds> rows;
    for (const Cell* cell : cellsInTableOrder(base)) {
        const Cell& b = *cell;
        const Cell* now = cur.find(b.strategy, b.point());
        if (!now) {
            c.onlyInBaseline.push_back(cellName(b));
            continue;
        }
        c.cells.push_back({now->strategy,
                           b.strategy,
                           b.point(),
                           b.summary.median,
                           now->summary.median,
                           b.status,
                           now->status,
                           {}});
        rows.push_back(rowRounds(b, *now, false));
    }
    judge(c, rows);
    std::vector<double> changes;
    for (const auto& cc : c.cells)
        if (cc.verdict.change)
            changes.push_back(*cc.verdict.change);
    if (changes.size() >= kMinRowsForShift &&
        (std::all_of(changes.begin(), changes.end(), [](double x) { return x > 0; }) ||
         std::all_of(changes.begin(), changes.end(), [](double x) { return x < 0; })))
        c.commonShift = median(changes);
    for (const Cell* n : cellsInTableOrder(cur))
        if (!base.find(n->strategy, n->point()))
            c.onlyInCurrent.push_back(cellName(*n));
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
    // ... and, said beside the rows, when it differs by a few points of the CPUs' time.
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
                              double threshold, double sameMargin) {
    Comparison c;
    c.policy.noiseThreshold = threshold;
    c.policy.sameMargin = sameMargin;
    c.title = fmt::format("each strategy against {}", reference);
    c.currentSystem = systemLine(doc);
    c.currentRerun = rerunCommand(doc);
    std::vector<RowRounds> rows;
    for (const Cell* each : cellsInTableOrder(doc)) {
        const Cell& cell = *each;
        if (cell.strategy == reference)
            continue;
        const Cell* ref = doc.find(reference, cell.point());
        if (!ref) {
            c.onlyInCurrent.push_back(cellName(cell));
            continue;
        }
        c.cells.push_back({cell.strategy,
                           reference,
                           cell.point(),
                           ref->summary.median,
                           cell.summary.median,
                           ref->status,
                           cell.status,
                           {}});
        // Same run, same rounds: paired, so the machine's drift between rounds cancels.
        rows.push_back(rowRounds(*ref, cell, true));
    }
    judge(c, rows);
    return c;
}

} // namespace readscope
