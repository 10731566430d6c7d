// A comparison as text: the same rows in the Compare tab, the Markdown and the terminal.
#include "readscope/comparison_text.h"

#include "readscope/document_words.h"
#include "readscope/machine_drift.h"
#include "readscope/provenance.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

std::string percent(double v) { return fmt::format("{:+.1f}%", v * 100); }

// A coverage is never rounded up to a level it does not reach: 94.7% is "94%".
std::string coverageWords(double coverage) {
    return fmt::format("{:.0f}%", std::floor(coverage * 100 + 1e-9));
}

std::string pWords(double p) {
    return p < 0.001 ? std::string("< 0.001") : fmt::format("{:.3f}", p);
}

std::string durationWords(double seconds) {
    const int s = int(std::lround(seconds));
    return s < 60 ? fmt::format("{} s", s) : fmt::format("{}:{:02d}", s / 60, s % 60);
}

// The rounds a verdict rests on: "9 pairs of rounds", "3 rounds a side".
std::string roundsWords(const Verdict& v) {
    const int n = v.rounds;
    return v.paired ? fmt::format("{} pair{} of rounds", n, n == 1 ? "" : "s")
                    : fmt::format("{} round{} a side", n, n == 1 ? "" : "s");
}

std::string twoSpeedsWords(const Verdict& v) {
    std::string out;
    if (v.baselineSpeeds)
        out = "the baseline ran at two speeds, " + twoSpeedsText(*v.baselineSpeeds);
    if (v.currentSpeeds)
        out += (out.empty() ? "the current side ran at two speeds, " : "; the current side, ") +
               twoSpeedsText(*v.currentSpeeds);
    return out + ": a median lands in one group and says neither";
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

} // namespace

std::string outcomeText(const Verdict& v) {
    switch (v.outcome) {
    case Outcome::Faster: return "faster";
    case Outcome::Slower: return "slower";
    case Outcome::Same: return fmt::format("same within ±{:.1f}%", v.margin * 100);
    case Outcome::CannotTell: return "cannot tell";
    }
    return "?";
}

std::string causeText(const CellComparison& cc) {
    const Verdict& v = cc.verdict;
    if (v.outcome != Outcome::CannotTell)
        return {};
    switch (v.cause) {
    case Undecided::None: return {};
    case Undecided::NotMeasured:
        return fmt::format("not measured on both sides (baseline {}, current {})",
                           toString(cc.baselineStatus), toString(cc.currentStatus));
    case Undecided::MediansOnly: return "medians only, no rounds to test";
    case Undecided::TwoSpeeds: return twoSpeedsWords(v);
    case Undecided::NoDrift: return "separate runs, no drift between runs measured";
    case Undecided::TooFewRounds:
        if (!v.bestP)
            return fmt::format("{}; {} can call one", roundsWords(v), v.roundsToCall);
        return fmt::format("{} reach p = {} at best over {} test{}; {} can call one",
                           roundsWords(v), pWords(*v.bestP), v.tests, v.tests == 1 ? "" : "s",
                           v.roundsToCall);
    case Undecided::WithinDrift:
        return fmt::format("within the drift between runs here (±{:.1f}%)",
                           v.drift.value_or(0) * 100);
    case Undecided::MachineDiffered: return "the runs' machine load differed";
    case Undecided::WideInterval: {
        // Neither a change the test calls nor an interval inside ±t: which part fell short.
        const bool clear = v.interval && (v.interval->low > 0 || v.interval->high < 0);
        std::string why;
        if (!clear)
            why = fmt::format("its interval holds both no change and more than ±{:.1f}%",
                              v.margin * 100);
        else if (v.p && *v.p >= 0.05)
            why = fmt::format("its interval is clear of zero, but p = {} after Holm's adjustment "
                              "over {} tests is not under 0.05",
                              pWords(*v.p), v.tests);
        else
            why = fmt::format("a change under the {:.1f}% that counts, with an interval reaching "
                              "past ±{:.1f}%",
                              v.threshold * 100, v.margin * 100);
        return v.smallest ? fmt::format("{}; these rounds can call changes from ±{:.1f}%", why,
                                        *v.smallest * 100)
                          : why;
    }
    }
    return {};
}

std::string verdictText(const CellComparison& cc) {
    const std::string cause = causeText(cc);
    return cause.empty() ? outcomeText(cc.verdict)
                         : fmt::format("{} ({})", outcomeText(cc.verdict), cause);
}

std::string intervalText(const Verdict& v) {
    if (!v.interval)
        return "–";
    return fmt::format("{} … {} ({})", percent(v.interval->low), percent(v.interval->high),
                       coverageWords(v.interval->coverage));
}

std::string driftHeadline(const Comparison& c) {
    if (!c.policy.betweenRuns)
        return {};
    if (!c.policy.drift) {
        const std::string cost =
            c.runSeconds > 0 ? fmt::format(" (about {})", durationWords(3 * c.runSeconds)) : "";
        return fmt::format("Cannot tell any row: how far two runs of this plan drift apart on this "
                           "machine with nothing changed was never measured, and two single runs "
                           "cannot tell a change from that drift. Measure it: run the plan three "
                           "more times{} and give the runs to readscope-cli drift (in the app: "
                           "Measure drift, in the Compare tab); every later compare is then held "
                           "to it.",
                           cost);
    }
    std::string source;
    if (c.machineDrift && c.machineDrift->drift >= c.repeatsDrift.value_or(0))
        source = fmt::format("this machine's, from {} runs of one plan measured {}",
                             c.machineDrift->runs, c.machineDrift->measuredAt.substr(0, 10));
    else
        source = "measured between the repeats of one run (--repeat, an A/A pair)";
    return fmt::format("Drift between runs: ±{:.1f}%, {}; a change is called only past it.",
                       *c.policy.drift * 100, source);
}

std::string comparisonMethod(const Comparison& c) {
    // Which test each row's p came from: rows measured in the same rounds are paired, the
    // others (a baseline, or rounds that did not line up) are not.
    std::size_t paired = 0, unpaired = 0;
    for (const auto& cc : c.cells)
        if (cc.verdict.test != RankTest::None)
            (cc.verdict.test == RankTest::SignedRank ? paired : unpaired) += 1;
    std::string out;
    if (paired && !unpaired)
        out += "Change: the median of the per-round ratios (both ran in the same rounds), with "
               "the sign test's interval of that median; p from a two-sided Wilcoxon "
               "signed-rank test on those ratios";
    else if (!paired)
        out += "Change of the median GB/s, with Moses' interval of the ratio between rounds; p "
               "from a two-sided Mann-Whitney U test (exact up to 40 rounds in all)";
    else
        out += fmt::format("Change: for {} row{} (both sides ran in the same rounds) the median "
                           "of the per-round ratios, with the sign test's interval, p from a "
                           "two-sided Wilcoxon signed-rank test; for {} row{} (rounds that do "
                           "not pair) the change of the median GB/s, with Moses' interval, p "
                           "from a two-sided Mann-Whitney U test",
                           paired, paired == 1 ? "" : "s", unpaired, unpaired == 1 ? "" : "s");
    out += "; each interval says in brackets how often an interval made so holds the true "
           "change (never more than its rounds allow)";
    if (c.tests > 1)
        out += fmt::format("; p Holm-adjusted over {} tests (unadjusted, about {:.1f} of them "
                           "would pass p < 0.05 by chance alone)",
                           c.tests, 0.05 * double(c.tests));
    out += fmt::format(". Faster or slower: p < 0.05, the interval clear of zero and the change "
                       "past {:.0f}%",
                       c.policy.noiseThreshold * 100);
    if (c.policy.betweenRuns)
        out += " and past the drift between runs";
    out += "; the same: the whole interval (at least 90% coverage) inside the ± shown; else "
           "cannot tell, and why.";
    if (c.policy.betweenRuns && c.ownDrift > 0)
        out += fmt::format(" Within itself the more drifting run moved {:.1f}% from its earlier "
                           "rounds to its later ones (90th percentile over its cells).",
                           c.ownDrift * 100);
    return out;
}

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
                                   "so does a change that affects every strategy.",
                                   *c.commonShift * 100)});
    return out;
}

std::string plannedVerdictsText(const PlannedVerdicts& p, std::string_view what) {
    if (p.reachable())
        return {};
    return fmt::format("{} round{} cannot call any of {} ({} comparison{}; p = {} at best after "
                       "Holm's adjustment); {} {} can, if every round agrees",
                       p.rounds, p.rounds == 1 ? "" : "s", what, p.tests, p.tests == 1 ? "" : "s",
                       pWords(p.bestP), p.roundsToCall, p.paired ? "rounds" : "rounds a side");
}

std::vector<std::string> planWarnings(const Plan& plan, std::uint64_t fileSize,
                                      bool againstBaseline) {
    std::vector<std::string> out;
    auto add = [&](const std::optional<PlannedVerdicts>& p, std::string_view what) {
        if (p)
            if (auto text = plannedVerdictsText(*p, what); !text.empty())
                out.push_back(std::move(text));
    };
    if (plan.strategies.size() >= 2)
        add(referenceVerdicts(plan, plan.strategies.front(), fileSize),
            "the comparisons of every strategy against one");
    add(offsetTrapVerdicts(plan), "the offset trap's comparisons of each offset against 0");
    if (againstBaseline && plan.durationSeconds <= 0)
        add(plannedVerdicts(plan.strategies.size() * sweepPoints(plan, fileSize).size(),
                            plan.rounds, false),
            "the comparisons with the baseline");
    return out;
}

ComparisonRowText comparisonRowText(const CellComparison& cc) {
    const auto& v = cc.verdict;
    return {who(cc),
            pointText(cc.point()),
            formatRate(cc.baselineMedian),
            formatRate(cc.currentMedian),
            v.change ? percent(*v.change) : "–",
            intervalText(v),
            v.p ? pWords(*v.p) : "–",
            verdictText(cc)};
}

std::string comparisonMarkdown(const Comparison& c) {
    std::string out;
    if (const auto headline = driftHeadline(c); !headline.empty())
        out += headline + "\n\n";
    out += "| strategy | range | baseline GB/s | current GB/s | change | interval (coverage) | p "
           "| verdict |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& cc : c.cells) {
        const auto r = comparisonRowText(cc);
        out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", r.who, r.point,
                           r.baseline, r.current, r.change, r.interval, r.p, r.verdict);
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
    std::string out;
    if (const auto headline = driftHeadline(c); !headline.empty())
        out += headline + "\n\n";
    out += fmt::format("{:<32} {:>8} {:>9} {:>9} {:>8} {:>26} {:>7}  {}\n", "strategy", "range",
                       "baseline", "current", "change", "interval (coverage)", "p", "verdict");
    for (const auto& cc : c.cells) {
        const auto r = comparisonRowText(cc);
        out += fmt::format("{:<32} {:>8} {:>9} {:>9} {:>8} {:>26} {:>7}  {}\n", r.who, r.point,
                           r.baseline, r.current, r.change, r.interval, r.p, r.verdict);
    }
    return out + footer(c);
}

std::string driftFloorMeaning() {
    return "if every cell were as spread as the pooled figure, about 1 row in 300 would move "
           "that far with nothing changed (noisier cells do more often)";
}

} // namespace readscope
