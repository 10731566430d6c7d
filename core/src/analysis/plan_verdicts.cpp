#include "readscope/plan_verdicts.h"

#include "readscope/rank_tests.h"
#include "readscope/verdict.h"

#include <algorithm>

namespace readscope {

PlannedVerdicts plannedVerdicts(std::size_t tests, int rounds, bool paired) {
    PlannedVerdicts p;
    p.tests = tests;
    p.paired = paired;
    p.rounds = rounds;
    p.roundsToCall = roundsToCall(tests, paired);
    const auto n = std::size_t(std::max(rounds, 0));
    p.bestP =
        std::min(1.0, double(tests) * (paired ? smallestSignedRankP(n) : smallestRankSumP(n, n)));
    return p;
}

std::optional<PlannedVerdicts> referenceVerdicts(const Plan& plan, std::string_view reference,
                                                 std::uint64_t fileSize) {
    const auto& ids = plan.strategies;
    if (plan.durationSeconds > 0 || std::find(ids.begin(), ids.end(), reference) == ids.end())
        return std::nullopt;
    const std::size_t points = sweepPoints(plan, fileSize).size();
    return plannedVerdicts((ids.size() - 1) * points, plan.rounds, true);
}

std::optional<PlannedVerdicts> offsetTrapVerdicts(const Plan& plan) {
    const auto& offsets = plan.bufferOffsets;
    if (plan.durationSeconds > 0 || sweepAxis(plan) != SweepAxis::BufferOffset ||
        std::find(offsets.begin(), offsets.end(), 0u) == offsets.end())
        return std::nullopt;
    return plannedVerdicts(plan.strategies.size() * (offsets.size() - 1), plan.rounds, true);
}

} // namespace readscope
