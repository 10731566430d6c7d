#pragma once
// A published finding a lesson reproduces, in a form a run can be checked against: "faster is
// faster than than at these sizes (all, when none are named)", with the published change when
// there is one. judgeFinding says whether this machine agrees, from the run's own cells and
// the paired comparison of compare.h.
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct Finding {
    std::string faster, than;
    std::vector<std::uint64_t> sizes;                  // empty: every size of the run
    std::vector<std::uint64_t> ties;                   // sizes where the finding says they tie
    std::optional<double> publishedLow, publishedHigh; // the published change, e.g. 0.08, 0.19
    std::string published;                             // "on an Apple M3 Max", where and how
};

// Undecided: this run cannot tell (too few rounds for the test to reach p < 0.05 with the
// comparisons the finding makes, or too much noise), never counted as disagreement.
enum class Agreement { Agrees, Partly, Disagrees, Undecided };

struct FindingVerdict {
    Agreement agreement = Agreement::Undecided;
    int sizesFaster = 0, sizesJudged = 0; // sizes where the paired test says faster / has a say
    int sizesCannotTell = 0;              // sizes (ties included) this run cannot tell
    int tiesHeld = 0, tiesJudged = 0;     // the finding's tie sizes: tied here / told either way
    int roundsNeeded = 0;                 // paired rounds for a verdict to be reachable at all
    double lowChange = 0, highChange = 0; // the measured changes' range over those sizes
    int sizesWithinPublished = 0;         // sizes whose change lies in the published range
    std::string text;                     // the sentence the lesson shows
};

// A tie: the same within this (the whole interval inside it: an equivalence test).
inline constexpr double kTieChange = 0.05;

// Judged over the finding's own comparisons only (its sizes and its tie sizes: the Holm
// adjustment covers those, not every pair the run holds). Nothing when the run measured
// neither strategy at any of them.
std::optional<FindingVerdict> judgeFinding(const ResultDocument& doc, const Finding& finding);

} // namespace readscope
