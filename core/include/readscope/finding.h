#pragma once
// A published finding a lesson reproduces, in a form a run can be checked against: "faster is
// faster than than at these sizes (all, when none are named)", with the published change when
// there is one. judgeFinding says whether this machine agrees, from the run's own cells and
// the paired comparison of compare.h.
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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
// A size where the finding says the two tie: a tie here, told apart here, or this run cannot
// tell.
enum class TieHere { Held, Broken, CannotTell };

struct FindingVerdict {
    Agreement agreement = Agreement::Undecided;
    int sizesFaster = 0, sizesJudged = 0; // sizes where the paired test says faster / has a say
    int sizesCannotTell = 0;              // sizes (ties included) this run cannot tell
    int tiesHeld = 0, tiesJudged = 0;     // the finding's tie sizes: tied here / told either way
    int roundsNeeded = 0;                 // paired rounds for a verdict to be reachable at all
    double lowChange = 0, highChange = 0; // the measured changes' range over those sizes
    int sizesWithinPublished = 0;         // sizes whose change lies in the published range
    // The sizes the finding says differ, measured here: how many, their span, and at how many
    // this run cannot tell.
    int sizesNamed = 0, namedCannotTell = 0;
    std::uint64_t smallest = 0, largest = 0;
    // The finding's tie sizes measured here: each one's change and what it is here.
    struct TieSize {
        std::uint64_t rangeBytes = 0;
        double change = 0;
        TieHere here = TieHere::CannotTell;
    };
    std::vector<TieSize> tieSizes;
    // Whether any difference can reach p < 0.05 with the fewest paired rounds a cell has, over
    // the finding's comparisons.
    bool reachable = false;
    int fewestPairs = 0, comparisons = 0;
    bool withinPublished = false; // the changes' range lies in the published one (2% slack)
    // With a published range and two sizes or more: each size's change, by size.
    std::vector<std::pair<std::uint64_t, double>> perSize;
};

// A tie: the same within this (the whole interval inside it: an equivalence test).
inline constexpr double kTieChange = 0.05;

// Judged over the finding's own comparisons only (its sizes and its tie sizes: the Holm
// adjustment covers those, not every pair the run holds). Nothing when the run measured
// neither strategy at any of them.
std::optional<FindingVerdict> judgeFinding(const ResultDocument& doc, const Finding& finding);

} // namespace readscope
