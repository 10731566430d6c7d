#include "readscope/cache_fill.h"

#include "readscope/compare.h"
#include "readscope/stats.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace readscope {

namespace {

// The file's residency reached 90% of its peak: the cache holds what the limit lets it.
constexpr double kFilledShare = 0.9;
// A file whose residency reached this was never evicted: it fit.
constexpr double kFitShare = 0.95;

// "27.1k": reads per second, as the published small-read figures are given.
std::string readsPerSecond(double gbps, std::uint64_t rangeBytes) {
    const double rate = gbps * 1e9 / double(rangeBytes);
    return rate >= 1e6   ? fmt::format("{:.3g}M", rate / 1e6)
           : rate >= 1e3 ? fmt::format("{:.3g}k", rate / 1e3)
                         : fmt::format("{:.3g}", rate);
}

// Small reads are counted in reads per second where they are published (4 KiB pages): said
// beside GB/s up to this size.
constexpr std::uint64_t kReadsPerSecondUpTo = 64 << 10;

std::string sideText(const StrategyAcrossFill& s, std::uint64_t rangeBytes) {
    const auto& i = s.verdict.interval;
    const std::string interval =
        i ? fmt::format(", interval {} to {} ({:.0f}% coverage)", formatSignedPercent(i->low),
                        formatSignedPercent(i->high), std::floor(i->coverage * 100 + 1e-9))
          : "";
    std::string_view said = "this run cannot tell";
    if (s.fell)
        said = "fell";
    else if (s.verdict.outcome == Outcome::Faster)
        said = "rose";
    else if (s.verdict.outcome == Outcome::Slower)
        said = "slower by less than 5%";
    else if (s.verdict.outcome == Outcome::Same || s.held())
        said = "held";
    const std::string reads =
        rangeBytes > 0 && rangeBytes <= kReadsPerSecondUpTo
            ? fmt::format(", {} -> {} reads/s", readsPerSecond(s.before, rangeBytes),
                          readsPerSecond(s.after, rangeBytes))
            : "";
    return fmt::format("{} {:.3g} -> {:.3g} GB/s{} ({}{}, {})", s.strategy, s.before, s.after,
                       reads, formatSignedPercent(s.change()), interval, said);
}

} // namespace

bool StrategyAcrossFill::held() const {
    return verdict.interval && verdict.interval->coverage >= kSameCoverage &&
           verdict.interval->low > -kHeldFall;
}

std::optional<CacheFillVerdict> judgeCacheFill(const ResultDocument& doc,
                                               const CacheFillFinding& finding) {
    // One point, one stretch of time: the falls-strategy's first measured point (a run of
    // several sizes is judged at that one), its first repeat (a repeat evicts the file again).
    const Cell* anchor = nullptr;
    for (const auto& c : doc.cells)
        if (c.strategy == finding.falls && c.measured()) {
            anchor = &c;
            break;
        }
    const auto counted = [&](const Cell& c) {
        return c.measured() && anchor && c.point() == anchor->point();
    };
    const auto rounds = [](const Cell& c, auto&& each) {
        for (const auto& s : c.samples)
            if (s.startedAt && s.repeat == 0)
                each(s);
    };
    // Every round with a time and the file's residency after it, in time order.
    std::vector<std::pair<double, double>> residency;
    double first = std::numeric_limits<double>::infinity(), last = -first;
    bool anyResidency = false;
    for (const auto& c : doc.cells)
        for (const auto& s : c.samples)
            anyResidency |= s.fileResidentAfter.has_value();
    if (!anyResidency)
        return std::nullopt;
    for (const auto& c : doc.cells)
        if (counted(c))
            rounds(c, [&](const Sample& s) {
                first = std::min(first, *s.startedAt);
                last = std::max(last, *s.startedAt);
                if (s.fileResidentAfter)
                    residency.emplace_back(*s.startedAt, *s.fileResidentAfter);
            });
    std::sort(residency.begin(), residency.end());
    CacheFillVerdict v;
    for (const auto& [t, r] : residency)
        v.peakResident = std::max(v.peakResident, r);
    for (const auto& [t, r] : residency)
        if (r >= kFilledShare * v.peakResident) {
            v.filledAt = t - first;
            break;
        }
    const double filledAt = first + v.filledAt.value_or(0);
    std::vector<RowRounds> rows;
    for (const auto& id : doc.plan.strategies) {
        std::vector<double> before, after;
        for (const auto& c : doc.cells)
            if (c.strategy == id && counted(c))
                rounds(c, [&](const Sample& s) {
                    if (s.gbps())
                        (*s.startedAt < filledAt ? before : after).push_back(*s.gbps());
                });
        StrategyAcrossFill s;
        s.strategy = id;
        s.roundsBefore = int(before.size());
        s.roundsAfter = int(after.size());
        if (before.empty() || after.empty())
            continue; // nothing to set against anything
        s.before = median(before);
        s.after = median(after);
        if (s.before <= 0)
            continue;
        v.strategies.push_back(s);
        rows.push_back({before, after, {}, true, false});
    }
    // After against before, every strategy one family (one run: not between runs, but not
    // paired either: the rounds on the two sides are different rounds). The rounds after the
    // fill began may hold the change itself (the last fast rounds before eviction bites): two
    // speeds there are the finding, not a reason to say nothing.
    VerdictPolicy policy;
    policy.twoSpeedsUndecided = false;
    const auto verdicts = judgeRows(rows, policy);
    for (std::size_t i = 0; i < v.strategies.size(); ++i) {
        auto& s = v.strategies[i];
        s.verdict = verdicts[i];
        s.fell = s.verdict.outcome == Outcome::Slower && s.change() < -kTieChange;
    }
    // Not surely fallen is not yet held: only an interval that leaves no room for a fall of
    // kHeldFall says a strategy did not fall; anything between is no verdict either way.
    const auto held = [](const StrategyAcrossFill& s) { return s.held(); };
    const auto judged = std::find_if(v.strategies.begin(), v.strategies.end(),
                                     [&](const auto& s) { return s.strategy == finding.falls; });
    const bool enough = judged != v.strategies.end() &&
                        std::all_of(v.strategies.begin(), v.strategies.end(), [](const auto& s) {
                            return s.roundsBefore >= kRoundsEachSideOfFill &&
                                   s.roundsAfter >= kRoundsEachSideOfFill;
                        });
    const bool limited = doc.memoryLimit.has_value() || doc.plan.memoryLimit > 0;
    const double span = last - first;
    // How long a run that can tell would take: twice this one, in whole tens of seconds, for
    // the field a person sets (Duration, in the Run box; --duration in the CLI).
    const double longer =
        std::max(60.0, std::ceil(2 * std::max(span, doc.plan.durationSeconds) / 10) * 10);
    const std::string runLonger = fmt::format(
        "run longer: set Duration to {:.0f} s or more (--duration {:.0f})", longer, longer);
    std::string text, why;
    if (!anchor) {
        why = fmt::format("{} measured nothing here (unavailable or failed): there is nothing to "
                          "judge",
                          finding.falls);
    } else if (!limited) {
        why = "This run had no memory limit: nothing forced the cache to evict the file while it "
              "was read, so there is no fill to judge";
    } else if (v.peakResident >= kFitShare) {
        why = fmt::format("The whole file fit in the page cache ({:.0f}% of it cached at the "
                          "most): nothing had to be evicted, so there was no fill to judge. Use "
                          "a file several times larger than the memory limit",
                          v.peakResident * 100);
    } else if (v.peakResident < 0.01) {
        why = fmt::format("At most {:.1f}% of the file was ever cached: no strategy's reads "
                          "filled the cache, so there is no fill to judge",
                          v.peakResident * 100);
    } else if (v.filledAt && *v.filledAt > 0.75 * span) {
        why = fmt::format("The file's residency was still climbing late in the run (90% of its "
                          "peak, {:.0f}% of the file, only at {:.1f} s of {:.1f} s): {}",
                          v.peakResident * 100, *v.filledAt, span, runLonger);
    } else if (!enough) {
        why = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the most), "
                          "leaving fewer than {} rounds of some strategy on a side of it: {}, "
                          "or use a larger file",
                          v.filledAt.value_or(0), v.peakResident * 100, kRoundsEachSideOfFill,
                          runLonger);
    }
    const auto moved = [&](int sign) {
        return v.strategies.size() > 1 &&
               std::all_of(v.strategies.begin(), v.strategies.end(), [&](const auto& s) {
                   return s.verdict.directional() && s.change() * sign > kTieChange;
               });
    };
    std::string undecided; // why this run cannot tell, past the figures
    if (!why.empty()) {
        text = why;
    } else {
        text = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the most). "
                           "Median of the rounds before it against after it{}: {}",
                           *v.filledAt, v.peakResident * 100,
                           doc.plan.sizes.size() > 1 ? " at " + pointText(anchor->point())
                                                     : std::string(),
                           sideText(*judged, anchor->rangeBytes));
        for (const auto& s : v.strategies)
            if (s.strategy != finding.falls)
                text += "; " + sideText(s, anchor->rangeBytes);
        const auto others = [&](auto&& pred) {
            return std::all_of(v.strategies.begin(), v.strategies.end(), [&](const auto& s) {
                return s.strategy == finding.falls || pred(s);
            });
        };
        if (moved(1) || moved(-1)) {
            // Something other than the cache moved them all; no strategy can be told apart.
            undecided = fmt::format("every strategy {} after the fill, so the device or the "
                                    "machine changed speed during the run",
                                    moved(1) ? "rose" : "fell");
        } else if (judged->fell) {
            if (!others([](const auto& s) { return !s.fell; }))
                v.agreement = Agreement::Partly;
            else if (others(held))
                v.agreement = Agreement::Agrees;
            else
                undecided = fmt::format("{} fell, but whether the others held, their rounds vary "
                                        "too much to say",
                                        finding.falls);
        } else if (held(*judged)) {
            v.agreement = Agreement::Disagrees;
        } else {
            undecided = fmt::format("whether {} fell, its rounds vary too much to say (its "
                                    "interval reaches a fall of {:.0f}% or more without being "
                                    "sure of one)",
                                    finding.falls, kHeldFall * 100);
        }
    }
    if (!finding.published.empty())
        text += ". Published: " + finding.published;
    switch (v.agreement) {
    case Agreement::Agrees:
        text += v.strategies.size() > 1
                    ? fmt::format(". This machine agrees: {} fell, the others held.", finding.falls)
                    : fmt::format(". This machine agrees that {} fell (no other strategy was "
                                  "measured beside it).",
                                  finding.falls);
        break;
    case Agreement::Partly:
        text += fmt::format(". This machine agrees in part: {} fell, and so did another.",
                            finding.falls);
        break;
    case Agreement::Disagrees:
        text += fmt::format(". This machine does not agree: {} did not fall once the cache was "
                            "full (its interval leaves no room for a fall of {:.0f}% or more).",
                            finding.falls, kHeldFall * 100);
        break;
    case Agreement::Undecided:
        text += undecided.empty()
                    ? ". This run cannot tell."
                    : ". This run cannot tell: " + undecided + ". To tell, " + runLonger + ".";
        break;
    }
    v.text = text;
    return v;
}

} // namespace readscope
