#include "conditions_found.h"

#include "cache_control.h"
#include "readscope/runner.h"
#include "readscope/strategy.h"

#include <algorithm>

namespace readscope {

bool finishWithConditions(Cell& cell, const FinishedCellContext& context) {
    const Plan& plan = context.plan;
    cell.summarize();
    auto& conditions = cell.conditions;
    if (context.change)
        conditions.push_back({FileChanged{*context.change}});
    const int measured = int(cell.samples.size());
    if (cell.status == CellStatus::Ok || cell.status == CellStatus::Noisy ||
        cell.status == CellStatus::TooFewRounds) {
        if (context.sweep)
            if (auto elsewhere = context.sweep->elsewhere(context.target))
                conditions.push_back(std::move(*elsewhere));
        if (cell.bufferOffset && findStrategy(cell.strategy)->access == Access::Direct)
            conditions.push_back(
                {OffsetNotApplied{*cell.bufferOffset, context.reading.directAlign}});
        const auto asked = queueDepthAt(plan, cell.point());
        if (asked && cell.queueDepth && *cell.queueDepth < *asked)
            conditions.push_back({ShallowQueue{*cell.queueDepth, *asked, cell.rangesPerRound,
                                               threadsAt(plan, cell.point())}});
        if (measured < plan.rounds && !(plan.durationSeconds > 0 && !context.stopped))
            conditions.push_back({RoundsCut{measured, plan.rounds, context.stopped}});
        if (plan.precision > 0 && !context.sweep && !meetsPrecision(cell, plan.precision))
            conditions.push_back({PrecisionNotMet{plan.precision, cell.summary.uncertainty(),
                                                  measured, context.stopped}});
        // Under a memory limit smaller than the file, a warm run finding it partly evicted is
        // the point (memoryLimitSentence says so), not a warm run gone wrong.
        if (auto off = cacheCondition(cell, plan.cache);
            off && !warmCannotHold(plan, context.reading.size)) {
            if (std::holds_alternative<NotCold>(off->what))
                cell.status = CellStatus::NotCold;
            conditions.push_back(std::move(*off));
        }
    }
    // Said once for the run when the run starts; a warning per cell would bury the rest.
    // (Noise, too, is said once for the run: noiseFinding().)
    const bool warn = !cell.message.empty() || std::ranges::any_of(conditions, worthWarning);
    if (cell.measured() && !cell.residentBefore && plan.cache != CacheMode::Direct) {
        conditions.push_back({ResidencyUnverified{}});
        // A cold figure whose eviction nobody saw may be a warm one: not "ok".
        if (plan.cache == CacheMode::Cold && cell.status != CellStatus::NotCold)
            cell.status = CellStatus::Unverified;
    }
    // Bytes that were read but never checked (a duration run stopped, or its file changed,
    // before its ranges were verified): its figures may count a lazy or wrong read.
    if (cell.measured() && notChecked(cell.checksum))
        cell.status = CellStatus::Unverified;
    return warn;
}

} // namespace readscope
