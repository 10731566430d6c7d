// A comparison as text: the same rows in the Compare tab, the Markdown and the terminal.
#include "readscope/comparison_text.h"

#include "readscope/machine_drift.h"
#include "readscope/provenance.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

std::string percent(double v) { return fmt::format("{:+.1f}%", v * 100); }

std::string interval(const ChangeEstimate& e) {
    return e.ciLow ? fmt::format("{:+.1f}% … {:+.1f}%", *e.ciLow * 100, *e.ciHigh * 100) : "–";
}

} // namespace

std::vector<ComparisonNote> comparisonNotes(const Comparison& c) {
    std::vector<ComparisonNote> out{{comparisonMethod(c)}};
    if (!c.onlyInBaseline.empty())
        out.push_back(
            {fmt::format("Only in the baseline: {}.", fmt::join(c.onlyInBaseline, ", "))});
    if (!c.onlyInCurrent.empty())
        out.push_back(
            {fmt::format("Only in the current run: {}.", fmt::join(c.onlyInCurrent, ", "))});
    if (!c.differences.empty())
        out.push_back(
            {fmt::format("Warning: the runs differ in {}.", fmt::join(c.differences, "; ")), true});
    if (c.commonShift)
        out.push_back({fmt::format("Every row moved the same way (median {:+.1f}%): the machine's "
                                   "speed changing between the runs moves every cell alike, and "
                                   "so does a change that affects every strategy; these two runs "
                                   "cannot tell the two apart.",
                                   *c.commonShift * 100)});
    return out;
}

namespace {

std::string pText(const ChangeEstimate& e) {
    if (!e.pValue)
        return "–";
    return *e.pValue < 0.001 ? std::string("<0.001") : fmt::format("{:.3f}", *e.pValue);
}

std::string footer(const Comparison& c) {
    std::string out = "\n";
    for (const auto& note : comparisonNotes(c))
        out += note.text + "\n";
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
                           "measured {} with readscope-cli drift: {})",
                           c.driftFloor * 100, 1 + c.driftFloor, c.machineDrift->runs,
                           c.machineDrift->measuredAt.substr(0, 10), driftFloorMeaning());
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
