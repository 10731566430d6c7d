#pragma once
// The statistics behind every comparison, as pure functions: the two rank tests (Mann-Whitney
// U for two sets of rounds, the Wilcoxon signed-rank test for rounds paired by number) with
// exact p values where they are countable, the smallest p each can ever give, Holm's
// adjustment for many tests, and distribution-free intervals with the coverage they really
// have. No verdict is made here (verdict.h makes them).
#include <cstddef>
#include <span>

namespace readscope {

// Two-sided Mann-Whitney U p: exact (the permutation distribution of the ranks, ties at their
// average rank) up to kMaxExactRankSumSamples rounds in all, the normal approximation with tie
// and continuity corrections above (5 against 12 rounds, U = 11: exact 0.0485, normal 0.0512).
inline constexpr std::size_t kMaxExactRankSumSamples = 40;
double mannWhitneyPValue(std::span<const double> a, std::span<const double> b);

// Two-sided Wilcoxon signed-rank p of paired differences (zero differences dropped): exact up
// to 50 pairs, tied magnitudes at their average rank, else the normal approximation.
double signedRankPValue(std::span<const double> differences);

// The smallest two-sided p each exact test can reach, however far apart the rounds are: every
// one of n pairs the same way, 2 / 2^n (5 pairs: 0.0625, 6: 0.031, 9: 0.0039); every round
// of one side beyond every round of the other, 2 / C(n + m, n) (3 against 3: 0.1).
double smallestSignedRankP(std::size_t pairs);
double smallestRankSumP(std::size_t n, std::size_t m);

// Holm's step-down adjustment of a family of p values, in place: the k-th smallest (from 0)
// times (m - k), never below the one before it, at most 1.
void holmAdjust(std::span<double* const> pValues);

// An interval with the probability it really has of holding what it estimates.
struct Interval {
    double low = 0, high = 0;
    double coverage = 0;
    bool holds(double x) const { return low <= x && x <= high; }
};

// The shift between two sets of values (current minus baseline; on logarithms, a ratio): the
// order statistics d(k) and d(nm + 1 - k) of the n x m differences, k the largest whose
// coverage under the rank-sum null is still at least `level` (Moses' interval, the one that
// goes with the U test). Where no k reaches it (3 against 3: at most 90%), [min, max] of the
// differences with the coverage it has. Exact up to kMaxExactRankSumSamples values in all,
// the normal approximation above. Coverage 0 with fewer than one value a side.
Interval shiftInterval(std::span<const double> baseline, std::span<const double> current,
                       double level = 0.95);

} // namespace readscope
