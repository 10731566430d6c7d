#include "readscope/cache_fill.h"

#include "readscope/compare.h"
#include "readscope/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace readscope {

namespace {

// The file's residency reached 90% of its peak: the cache holds what the limit lets it.
constexpr double kFilledShare = 0.9;
// A file whose residency reached this was never evicted: it fit.
constexpr double kFitShare = 0.95;

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
    v.span = last - first;
    // How long a run that can tell would take: twice this one, in whole tens of seconds, for
    // the field a person sets (Duration, in the Run box; --duration in the CLI).
    v.longerSeconds =
        std::max(60.0, std::ceil(2 * std::max(v.span, doc.plan.durationSeconds) / 10) * 10);
    if (anchor)
        v.at = anchor->point();
    using NoFill = CacheFillVerdict::NoFill;
    using CannotTell = CacheFillVerdict::CannotTell;
    if (!anchor)
        v.noFill = NoFill::NothingMeasured;
    else if (!limited)
        v.noFill = NoFill::NoLimit;
    else if (v.peakResident >= kFitShare)
        v.noFill = NoFill::Fit;
    else if (v.peakResident < 0.01)
        v.noFill = NoFill::NeverCached;
    else if (v.filledAt && *v.filledAt > 0.75 * v.span)
        v.noFill = NoFill::StillClimbing;
    else if (!enough)
        v.noFill = NoFill::TooFewRounds;
    const auto moved = [&](int sign) {
        return v.strategies.size() > 1 &&
               std::all_of(v.strategies.begin(), v.strategies.end(), [&](const auto& s) {
                   return s.verdict.directional() && s.change() * sign > kTieChange;
               });
    };
    if (v.noFill == NoFill::None) {
        const auto others = [&](auto&& pred) {
            return std::all_of(v.strategies.begin(), v.strategies.end(), [&](const auto& s) {
                return s.strategy == finding.falls || pred(s);
            });
        };
        if (moved(1) || moved(-1)) {
            // Something other than the cache moved them all; no strategy can be told apart.
            v.cannotTell = moved(1) ? CannotTell::AllRose : CannotTell::AllFell;
        } else if (judged->fell) {
            if (!others([](const auto& s) { return !s.fell; }))
                v.agreement = Agreement::Partly;
            else if (others(held))
                v.agreement = Agreement::Agrees;
            else
                v.cannotTell = CannotTell::OthersVary;
        } else if (held(*judged)) {
            v.agreement = Agreement::Disagrees;
        } else {
            v.cannotTell = CannotTell::FallVaries;
        }
    }
    return v;
}

} // namespace readscope
