#pragma once
// A published finding about time, as a lesson checks it: once a memory-limited run's page
// cache is full, one strategy reads slower while the others hold (Crotty, Leis and Pavlo,
// CIDR 2022: mmap's random reads fell when the cache filled, O_DIRECT's did not). Judged from a
// duration run's rounds: when the file's residency stopped climbing, and each strategy's
// rounds before that against its rounds after.
#include "readscope/finding.h"
#include "readscope/result_document.h"
#include "readscope/verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct CacheFillFinding {
    std::string falls;     // the strategy that should read slower once the cache is full
    std::string published; // the published figures, as the verdict cites them
};

struct StrategyAcrossFill {
    std::string strategy;
    int roundsBefore = 0, roundsAfter = 0;
    double before = 0, after = 0; // median GB/s of the rounds started before / after the fill
    // After against before (verdict.h: rank-sum test, Holm over the strategies, Moses'
    // interval with its coverage); change: after / before - 1.
    Verdict verdict;
    double change() const { return verdict.change.value_or(0); }
    bool fell = false; // slower, by more than kTieChange
    // Its interval leaves no room for a fall of kHeldFall (with at least 90% coverage).
    bool held() const;
};

struct CacheFillVerdict {
    Agreement agreement = Agreement::Undecided;
    double peakResident = 0;        // the largest share of the file cached after any round
    std::optional<double> filledAt; // seconds after the first round: residency at 90% of peak
    std::vector<StrategyAcrossFill> strategies;
    std::optional<SweepPoint> at; // the point judged: the falling strategy's first measured one
    double span = 0;              // seconds from the first round judged to the last
    double longerSeconds = 0;     // a Duration long enough to tell: twice this run's, >= 60 s
    // Why there is no fill to judge: the falling strategy measured nothing, the run had no
    // memory limit, the whole file fit, almost none of it was ever cached, its residency was
    // still climbing late in the run, or too few rounds lie on a side of the fill.
    enum class NoFill {
        None,
        NothingMeasured,
        NoLimit,
        Fit,
        NeverCached,
        StillClimbing,
        TooFewRounds
    };
    NoFill noFill = NoFill::None;
    // Why a fill judged cannot tell: every strategy rose or fell alike (the machine changed
    // speed), the falling one fell but the others vary too much, or the falling one's rounds
    // vary too much to tell a fall.
    enum class CannotTell { None, AllRose, AllFell, OthersVary, FallVaries };
    CannotTell cannotTell = CannotTell::None;
};

// Rounds on each side of the fill a strategy needs before it is judged.
inline constexpr int kRoundsEachSideOfFill = 6;
// "Did not fall" is said only of a strategy whose interval excludes a fall this large.
inline constexpr double kHeldFall = 0.10;

// Nothing when the run holds no round with a time and the file's residency (not a duration
// run, or residency unverifiable here); Undecided when the cache never filled short of the
// whole file, or too few rounds lie on a side of the fill.
std::optional<CacheFillVerdict> judgeCacheFill(const ResultDocument& doc,
                                               const CacheFillFinding& finding);

} // namespace readscope
