#pragma once
// Before a run: the comparisons its verdicts will make, and whether its rounds can call any of
// them at all (verdict.h's policy: the exact test's smallest p times the comparisons made must
// be under 0.05). A plan that cannot is said to be one before it runs ("9 rounds cannot call
// any of 14 comparisons; 10 can when every round agrees"); a lesson plans enough itself.
#include "readscope/plan.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace readscope {

struct PlannedVerdicts {
    std::size_t tests = 0; // the comparisons of one family (Holm adjusts over them)
    bool paired = true;    // rounds paired within one run; else rounds a side
    int rounds = 0;        // what the plan gives each cell
    int roundsToCall = 0;  // the fewest with which any of them can be called
    double bestP = 1;      // the smallest adjusted p the plan's rounds can reach
    bool reachable() const { return tests == 0 || rounds >= roundsToCall; }
};

// Every other strategy against `reference` at every point of the plan (the Compare tab and
// compare --reference): (strategies - 1) x points, paired. A duration run plans no number of
// rounds: none.
std::optional<PlannedVerdicts> referenceVerdicts(const Plan& plan, std::string_view reference,
                                                 std::uint64_t fileSize);
// Every strategy at a buffer offset against its page-aligned cell (the 16-byte trap's offset
// sweep), paired: none for a plan that is not an offset sweep measuring offset 0.
std::optional<PlannedVerdicts> offsetTrapVerdicts(const Plan& plan);
// The family `tests` comparisons make with `rounds` each.
PlannedVerdicts plannedVerdicts(std::size_t tests, int rounds, bool paired);

} // namespace readscope
