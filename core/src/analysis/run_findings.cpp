#include "readscope/run_findings.h"

#include <type_traits>

#include <algorithm>

namespace readscope {

static_assert(
    std::is_same_v<std::variant_alternative_t<std::size_t(FindingKind::TraceRanking), FindingValue>,
                   TraceRankingFinding>,
    "FindingKind follows FindingValue's alternatives");

bool RunFinding::serious() const {
    if (const auto* verdict = std::get_if<OffsetVerdictFinding>(&value))
        return verdict->verdict.cliff;
    return kind() != FindingKind::Noise && kind() != FindingKind::TraceRanking;
}

std::vector<RunFinding> runFindings(const ResultDocument& doc) {
    std::vector<RunFinding> out;
    const auto add = [&](auto found) {
        if (found)
            out.push_back({std::move(*found)});
    };
    add(noiseFinding(doc));
    add(aboveCopyLimit(doc));
    add(aboveDeviceLimit(doc));
    add(notCold(doc));
    for (std::size_t i = 0; i < doc.cells.size(); ++i)
        if (doc.cells[i].measured())
            if (auto split = twoSpeedCell(doc.cells[i], doc.system.logicalCores))
                out.push_back({TwoSpeedsFinding{i, std::move(*split)}});
    if (auto verdict = doc.complete ? judgeOffsetSweep(doc) : std::nullopt)
        out.push_back({OffsetVerdictFinding{std::move(*verdict)}});
    if (doc.complete)
        add(traceRanking(doc));
    return out;
}

std::optional<TraceRankingFinding> traceRanking(const ResultDocument& doc) {
    if (doc.plan.pattern != Pattern::Trace)
        return std::nullopt;
    std::optional<std::size_t> top;
    std::size_t measured = 0;
    for (std::size_t i = 0; i < doc.cells.size(); ++i) {
        const Cell& c = doc.cells[i];
        if (!c.measured() || !(c.summary.median > 0))
            continue;
        ++measured;
        if (!top || c.summary.median > doc.cells[*top].summary.median)
            top = i;
    }
    if (!top || measured < 2)
        return std::nullopt;
    TraceRankingFinding found{*top, {}};
    for (auto& cc : compareToReference(doc, doc.cells[*top].strategy).cells)
        if (cc.strategy != doc.cells[*top].strategy)
            found.others.push_back(std::move(cc));
    return found;
}

std::optional<AboveCopyLimitFinding> aboveCopyLimit(const ResultDocument& doc) {
    AboveCopyLimitFinding found;
    for (std::size_t i = 0; i < doc.cells.size(); ++i) {
        const Cell& c = doc.cells[i];
        const auto pct = pctOfCopyLimit(c);
        if (copiesTheBytes(c.strategy) && pct && *pct > kAboveCopyLimitPct)
            found.cells.push_back({i, *pct});
    }
    return found.cells.empty() ? std::nullopt : std::optional(std::move(found));
}

std::optional<AboveDeviceLimitFinding> aboveDeviceLimit(const ResultDocument& doc) {
    AboveDeviceLimitFinding found;
    for (std::size_t i = 0; i < doc.cells.size(); ++i)
        if (passesDeviceLimit(doc, doc.cells[i]))
            found.cells.push_back({i, *pctOfDeviceLimit(doc, doc.cells[i])});
    if (found.cells.empty())
        return std::nullopt;
    found.limitGbps = *deviceLimitGbps(doc);
    return found;
}

std::optional<NotColdFinding> notCold(const ResultDocument& doc) {
    const auto n = std::count_if(doc.cells.begin(), doc.cells.end(),
                                 [](const Cell& c) { return c.status == CellStatus::NotCold; });
    return n ? std::optional(NotColdFinding{std::size_t(n)}) : std::nullopt;
}

std::optional<NoiseFinding> noiseFinding(const ResultDocument& doc) {
    NoiseFinding found;
    std::vector<const Cell*> noisy;
    for (const auto& c : doc.cells) {
        found.measured += c.measured() ? 1 : 0;
        if (c.status == CellStatus::Noisy || (c.status == CellStatus::NotCold && c.summary.noisy))
            noisy.push_back(&c);
    }
    if (noisy.empty())
        return std::nullopt;
    found.noisy = noisy.size();
    found.during = disturbanceOf(noisy, doc.system.logicalCores);
    return found;
}

Disturbance disturbanceOf(const std::vector<const Cell*>& cells, int logicalCores) {
    // /proc/stat counts in ticks of 10 ms: over less than half a second of rounds a share is
    // a handful of ticks, too few to say anything.
    constexpr double kShortestWall = 0.5;
    // Rounds under a few milliseconds read several times the others' share here (1 ms rounds
    // with a shell loop on one of two cores: 91% instead of 50%): left out of the shares.
    constexpr double kShortestRound = 0.005;
    Disturbance d;
    double cpuTime = 0, stolen = 0, other = 0, wall = 0;
    for (const Cell* c : cells)
        for (const auto& s : c->samples) {
            ++d.rounds;
            d.preemptedRounds += s.involuntarySwitches > 0 ? 1 : 0;
            if (!s.stolenSeconds || !s.otherCpuSeconds || s.seconds < kShortestRound)
                continue;
            wall += s.seconds;
            cpuTime += s.seconds * std::max(1, logicalCores);
            stolen += *s.stolenSeconds;
            other += *s.otherCpuSeconds;
            d.roundsWithSteal += *s.stolenSeconds > 0 ? 1 : 0;
        }
    d.measured = wall >= kShortestWall;
    if (d.measured) {
        d.stolenShare = std::min(1.0, stolen / cpuTime);
        d.otherShare = std::min(1.0, other / cpuTime);
    }
    return d;
}

std::optional<DisturbanceCause> mainCause(const Disturbance& d) {
    constexpr double kNotable = 0.05;
    if (d.rounds == 0)
        return std::nullopt;
    if (d.measured && d.stolenShare >= kNotable && d.stolenShare >= d.otherShare)
        return DisturbanceCause::Steal;
    if (d.measured && d.otherShare >= kNotable)
        return DisturbanceCause::OtherProcesses;
    if (d.preemptedRounds > 0 && double(d.preemptedRounds) / double(d.rounds) >= kNotable)
        return DisturbanceCause::Preemption;
    return std::nullopt;
}

Disturbance runDisturbance(const ResultDocument& doc) {
    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        if (c.measured())
            cells.push_back(&c);
    return disturbanceOf(cells, doc.system.logicalCores);
}

} // namespace readscope
