// The verdict policy (verdict.h): every comparison readscope makes is decided here.
#include "readscope/verdict.h"

#include "readscope/stats.h"

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

constexpr double kAlpha = 0.05;
// Past a shift of e^5 (150x) a change that still cannot be called never will be.
constexpr double kLargestShift = 5;

// One row's figures before the family's adjustment: its logarithms, ready for the test.
struct Prepared {
    bool paired = false;
    std::vector<double> logRatios;         // paired
    std::vector<double> logBase, logCur;   // not paired
    std::optional<double> rawP, smallestP; // the test's p, and the smallest it could give
};

std::vector<double> logsOf(const std::vector<double>& values) {
    std::vector<double> out;
    for (double x : values)
        if (x > 0)
            out.push_back(std::log(x));
    return out;
}

Interval asChange(const Interval& onLogs) {
    return {std::expm1(onLogs.low), std::expm1(onLogs.high), onLogs.coverage};
}

// The test and interval on rounds shifted by `shift` (on the logarithm) from no change at
// all: whether a change of that size would be called with `tests` comparisons made (the
// first step of Holm's adjustment, the strictest), whatever the observed change was.
bool callable(const Prepared& r, double shift, std::size_t tests) {
    if (r.paired) {
        const double centre = median(r.logRatios);
        std::vector<double> moved;
        for (double x : r.logRatios)
            moved.push_back(x - centre + shift);
        const auto mi = medianInterval(moved);
        return signedRankPValue(moved) * double(tests) < kAlpha && mi.low > 0;
    }
    const double centre = median(r.logCur) - median(r.logBase);
    std::vector<double> moved;
    for (double x : r.logCur)
        moved.push_back(x - centre + shift);
    return mannWhitneyPValue(r.logBase, moved) * double(tests) < kAlpha &&
           shiftInterval(r.logBase, moved).low > 0;
}

// The smallest shift these rounds could call, as a change; none when even 150x could not.
std::optional<double> smallestCallable(const Prepared& r, std::size_t tests) {
    if (!callable(r, kLargestShift, tests))
        return std::nullopt;
    double lo = 0, hi = kLargestShift;
    for (int i = 0; i < 30; ++i) {
        const double mid = (lo + hi) / 2;
        (callable(r, mid, tests) ? hi : lo) = mid;
    }
    return std::expm1(hi);
}

void decide(Verdict& v, const Prepared& r, const VerdictPolicy& policy) {
    const double change = *v.change;
    if (policy.twoSpeedsUndecided && (v.baselineSpeeds || v.currentSpeeds)) {
        v.cause = Undecided::TwoSpeeds;
        return;
    }
    if (policy.betweenRuns && !policy.drift) {
        v.cause = Undecided::NoDrift;
        return;
    }
    if (*v.bestP >= kAlpha) {
        v.cause = Undecided::TooFewRounds;
        v.roundsToCall = roundsToCall(v.tests, r.paired);
        return;
    }
    const bool apart = v.interval && (v.interval->low > 0 || v.interval->high < 0);
    const bool significant = *v.p < kAlpha && apart;
    const bool large = std::abs(change) >= policy.noiseThreshold;
    // The drift holds on the logarithm, as it was measured: a level k times higher or lower.
    const bool pastDrift =
        !v.drift || change <= -1 || std::abs(std::log1p(change)) >= std::log1p(*v.drift);
    if (significant && large) {
        if (!pastDrift)
            v.cause = Undecided::WithinDrift;
        else if (policy.betweenRuns && policy.machineDiffered)
            v.cause = Undecided::MachineDiffered;
        else {
            v.outcome = change > 0 ? Outcome::Faster : Outcome::Slower;
            v.cause = Undecided::None;
        }
        return;
    }
    v.smallest = smallestCallable(r, v.tests);
    if (v.smallest)
        v.smallest = std::max({*v.smallest, policy.noiseThreshold, v.drift.value_or(0)});
    if (v.interval && v.interval->coverage >= kSameCoverage && v.interval->low >= -v.margin &&
        v.interval->high <= v.margin) {
        v.outcome = Outcome::Same;
        v.cause = Undecided::None;
        return;
    }
    v.cause = Undecided::WideInterval;
}

} // namespace

std::vector<Verdict> judgeRows(std::span<const RowRounds> rows, const VerdictPolicy& policy) {
    std::vector<Verdict> out(rows.size());
    std::vector<Prepared> prepared(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RowRounds& row = rows[i];
        Verdict& v = out[i];
        Prepared& r = prepared[i];
        if (policy.betweenRuns)
            v.drift = policy.drift;
        v.threshold = policy.noiseThreshold;
        v.margin = policy.sameMargin > 0 ? policy.sameMargin
                                         : std::max(policy.noiseThreshold, v.drift.value_or(0));
        const double baseMedian = median(row.baseline), curMedian = median(row.current);
        if (!row.measured || row.baseline.empty() || row.current.empty() || baseMedian <= 0)
            continue; // NotMeasured
        v.baselineSpeeds = twoSpeeds(row.baseline);
        v.currentSpeeds = twoSpeeds(row.current);
        if (row.mediansOnly) {
            v.change = curMedian / baseMedian - 1;
            v.cause = Undecided::MediansOnly;
            continue;
        }
        r.paired = v.paired = !row.pairs.empty();
        if (r.paired) {
            std::vector<double> ratios;
            for (const auto& [base, cur] : row.pairs)
                if (base > 0 && cur > 0) {
                    ratios.push_back(cur / base);
                    r.logRatios.push_back(std::log(cur / base));
                }
            v.change = median(ratios) - 1;
            v.rounds = int(ratios.size());
            if (ratios.size() >= 2) {
                const auto mi = medianInterval(ratios);
                v.interval = Interval{mi.low - 1, mi.high - 1, mi.coverage};
                v.test = RankTest::SignedRank;
                r.rawP = signedRankPValue(r.logRatios);
            }
            r.smallestP = smallestSignedRankP(ratios.size());
        } else {
            r.logBase = logsOf(row.baseline);
            r.logCur = logsOf(row.current);
            v.change = curMedian / baseMedian - 1;
            v.rounds = int(std::min(r.logBase.size(), r.logCur.size()));
            if (r.logBase.size() >= 2 && r.logCur.size() >= 2) {
                v.interval = asChange(shiftInterval(r.logBase, r.logCur));
                v.test = RankTest::RankSum;
                r.rawP = mannWhitneyPValue(row.baseline, row.current);
            }
            r.smallestP = smallestRankSumP(r.logBase.size(), r.logCur.size());
        }
        v.cause = Undecided::TooFewRounds; // until decided below
    }
    // Holm over the rows with a test: so many rows do not give verdicts by chance alone.
    std::vector<double> adjusted;
    std::vector<std::size_t> tested;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (prepared[i].rawP) {
            adjusted.push_back(*prepared[i].rawP);
            tested.push_back(i);
        }
    std::vector<double*> pointers;
    for (double& p : adjusted)
        pointers.push_back(&p);
    holmAdjust(pointers);
    for (std::size_t k = 0; k < tested.size(); ++k) {
        Verdict& v = out[tested[k]];
        v.tests = tested.size();
        v.p = adjusted[k];
        v.bestP = std::min(1.0, *prepared[tested[k]].smallestP * double(tested.size()));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        Verdict& v = out[i];
        if (!v.change || v.cause == Undecided::MediansOnly)
            continue;
        if (!v.p) { // a single round or pair: the fewest that could be called alone
            v.cause = Undecided::TooFewRounds;
            v.tests = std::max<std::size_t>(tested.size(), 1);
            v.roundsToCall = roundsToCall(v.tests, prepared[i].paired);
            continue;
        }
        decide(v, prepared[i], policy);
    }
    return out;
}

int roundsToCall(std::size_t tests, bool paired) {
    const double family = double(std::max<std::size_t>(tests, 1));
    int n = 1;
    while ((paired ? smallestSignedRankP(std::size_t(n))
                   : smallestRankSumP(std::size_t(n), std::size_t(n))) *
               family >=
           kAlpha)
        ++n;
    return n;
}

} // namespace readscope
