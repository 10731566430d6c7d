#include "readscope/cache_fill.h"

#include "readscope/compare.h"
#include "readscope/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace readscope {

namespace {

// The file's residency reached 90% of its peak: the cache holds what the limit lets it.
constexpr double kFilledShare = 0.9;
// A file whose residency reached this was never evicted: it fit.
constexpr double kFitShare = 0.95;

std::string pct(double change) { return fmt::format("{:+.0f}%", change * 100); }

// Holm's step-down adjustment, in place.
void holm(std::vector<StrategyAcrossFill>& s) {
    std::vector<std::size_t> order(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return s[a].p < s[b].p; });
    double running = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        auto& x = s[order[k]];
        running = std::max(running, std::min(1.0, x.p * double(order.size() - k)));
        x.p = running;
    }
}

std::string sideText(const StrategyAcrossFill& s) {
    const std::string interval =
        s.ciLow && s.ciHigh ? fmt::format(", 95% interval {} to {}", pct(*s.ciLow), pct(*s.ciHigh))
                            : "";
    return fmt::format("{} {:.3g} -> {:.3g} GB/s ({}{}, {})", s.strategy, s.before, s.after,
                       pct(s.change), interval,
                       s.fell       ? "fell"
                       : s.p < 0.05 ? (s.change > 0 ? "rose" : "slower by less than 5%")
                                    : "no significant change");
}

} // namespace

std::optional<CacheFillVerdict> judgeCacheFill(const ResultDocument& doc,
                                               const CacheFillFinding& finding) {
    // Every round with a time and the file's residency after it, in time order.
    std::vector<std::pair<double, double>> residency;
    double first = std::numeric_limits<double>::infinity();
    for (const auto& c : doc.cells)
        for (const auto& s : c.samples)
            if (s.startedAt) {
                first = std::min(first, *s.startedAt);
                if (s.fileResidentAfter)
                    residency.emplace_back(*s.startedAt, *s.fileResidentAfter);
            }
    if (residency.empty())
        return std::nullopt;
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
    for (const auto& id : doc.plan.strategies) {
        std::vector<double> before, after;
        for (const auto& c : doc.cells)
            if (c.strategy == id)
                for (const auto& s : c.samples)
                    if (s.startedAt && s.gbps())
                        (*s.startedAt < filledAt ? before : after).push_back(*s.gbps());
        if (before.empty() && after.empty())
            continue;
        StrategyAcrossFill s;
        s.strategy = id;
        s.roundsBefore = int(before.size());
        s.roundsAfter = int(after.size());
        if (!before.empty() && !after.empty()) {
            s.before = median(before);
            s.after = median(after);
            s.change = s.before > 0 ? s.after / s.before - 1 : 0;
            s.p = mannWhitneyPValue(before, after);
            const auto estimate = estimateChange(before, after);
            s.ciLow = estimate.ciLow;
            s.ciHigh = estimate.ciHigh;
        }
        v.strategies.push_back(s);
    }
    holm(v.strategies);
    for (auto& s : v.strategies)
        s.fell = s.p < 0.05 && s.change < -kTieChange;
    const auto judged = std::find_if(v.strategies.begin(), v.strategies.end(),
                                     [&](const auto& s) { return s.strategy == finding.falls; });
    const bool enough = judged != v.strategies.end() &&
                        std::all_of(v.strategies.begin(), v.strategies.end(), [](const auto& s) {
                            return s.roundsBefore >= kRoundsEachSideOfFill &&
                                   s.roundsAfter >= kRoundsEachSideOfFill;
                        });
    std::string text;
    if (v.peakResident >= kFitShare) {
        text = fmt::format("The whole file fit in the page cache ({:.0f}% of it cached at the "
                           "most): nothing had to be evicted, so there was no fill to judge. Use "
                           "a file several times larger than the memory limit",
                           v.peakResident * 100);
    } else if (!enough) {
        text = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the most), "
                           "leaving fewer than {} rounds of some strategy on a side of it: run "
                           "longer, or with a larger file",
                           v.filledAt.value_or(0), v.peakResident * 100, kRoundsEachSideOfFill);
    } else {
        const bool othersHeld =
            std::none_of(v.strategies.begin(), v.strategies.end(),
                         [&](const auto& s) { return s.strategy != finding.falls && s.fell; });
        // Not surely fallen is not yet held: only an interval that leaves no room for a fall
        // of kHeldFall says it did not fall; anything between is no verdict either way.
        const bool held = judged->ciLow && *judged->ciLow > -kHeldFall;
        v.agreement = judged->fell ? (othersHeld ? Agreement::Agrees : Agreement::Partly)
                      : held       ? Agreement::Disagrees
                                   : Agreement::Undecided;
        text = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the most). "
                           "Median of the rounds before it against after it: {}",
                           *v.filledAt, v.peakResident * 100, sideText(*judged));
        for (const auto& s : v.strategies)
            if (s.strategy != finding.falls)
                text += "; " + sideText(s);
        // Every strategy moved the same way, surely: something other than the cache did it.
        const auto moved = [&](int sign) {
            return v.strategies.size() > 1 &&
                   std::all_of(v.strategies.begin(), v.strategies.end(), [&](const auto& s) {
                       return s.p < 0.05 && s.change * sign > kTieChange;
                   });
        };
        if (moved(1) || moved(-1))
            text +=
                fmt::format(". Every strategy {} after the fill{}: the device or the machine "
                            "changed speed during the run, whatever the cache did",
                            moved(1) ? "rose" : "fell",
                            std::any_of(v.strategies.begin(), v.strategies.end(),
                                        [](const auto& s) { return s.strategy == "direct-pread"; })
                                ? ", direct-pread too, which does not use the cache"
                                : "");
    }
    if (!finding.published.empty())
        text += ". Published: " + finding.published;
    switch (v.agreement) {
    case Agreement::Agrees:
        text += fmt::format(". This machine agrees: {} fell, the others held.", finding.falls);
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
        text += ". This run cannot tell";
        text += enough && v.peakResident < kFitShare
                    ? fmt::format(": whether {} fell, its rounds vary too much to say (its "
                                  "interval reaches a fall of {:.0f}% or more without being sure "
                                  "of one). Run longer.",
                                  finding.falls, kHeldFall * 100)
                    : ".";
        break;
    }
    v.text = text;
    return v;
}

} // namespace readscope
