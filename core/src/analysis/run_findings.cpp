#include "readscope/run_findings.h"

#include "readscope/mark_notes.h"
#include "readscope/offset_trap.h"
#include "readscope/strategy.h"
#include "readscope/two_speeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace readscope {

std::vector<RunFinding> runFindings(const ResultDocument& doc, std::string_view roundsOption) {
    std::vector<RunFinding> out;
    const auto add = [&](FindingKind kind, std::string text, bool serious = true) {
        if (!text.empty())
            out.push_back({kind, std::move(text), serious});
    };
    add(FindingKind::Noise, noiseSummary(doc, roundsOption), false);
    add(FindingKind::AboveCopyLimit, aboveCopyLimitWarning(doc));
    add(FindingKind::AboveDeviceLimit, aboveDeviceLimitWarning(doc));
    add(FindingKind::NotCold, notColdWarning(doc));
    for (const auto& c : doc.cells)
        if (c.measured())
            if (const auto split = twoSpeedCell(c, doc.system.logicalCores))
                add(FindingKind::TwoSpeeds, twoSpeedsFinding(c, *split));
    // A stopped sweep's figures are not a verdict about this machine.
    if (auto verdict = doc.complete ? judgeOffsetSweep(doc) : std::nullopt) {
        if (verdict->text.ends_with('.'))
            verdict->text.pop_back();
        add(FindingKind::OffsetVerdict, std::move(verdict->text), verdict->cliff);
    }
    return out;
}

namespace {
// "a at 8 KiB (120%), b at 64 KiB (115%) and 2 more": the cells a warning names.
std::string someCells(const std::vector<std::string>& cells) {
    std::string list;
    for (std::size_t i = 0; i < cells.size() && i < 3; ++i)
        list += (i ? ", " : "") + cells[i];
    if (cells.size() > 3)
        list += fmt::format(" and {} more", cells.size() - 3);
    return list;
}
} // namespace

std::string aboveCopyLimitWarning(const ResultDocument& doc) {
    std::vector<std::string> cells;
    for (const auto& c : doc.cells) {
        const auto pct = pctOfCopyLimit(c);
        if (copiesTheBytes(c.strategy) && pct && *pct > kAboveCopyLimitPct)
            cells.push_back(
                fmt::format("{} at {} ({:.0f}%)", c.strategy, pointText(c.point()), *pct));
    }
    if (cells.empty())
        return {};
    const std::string list = someCells(cells);
    std::string ceiling = copyCeilingNote();
    ceiling[0] = char(std::toupper(static_cast<unsigned char>(ceiling[0])));
    return fmt::format("{} faster than memcpy copies here: {}. {} memcpy; past it, the limit may "
                       "have been measured low, the kernel's own copy may beat this memcpy at "
                       "these sizes and buffer offsets, or the source may have stayed in the CPU "
                       "caches (not measured; the time split's copy share tells the first two "
                       "apart)",
                       cells.size() == 1 ? "1 copying cell ran"
                                         : fmt::format("{} copying cells ran", cells.size()),
                       list, ceiling);
}

std::string aboveDeviceLimitWarning(const ResultDocument& doc) {
    std::vector<std::string> cells;
    for (const auto& c : doc.cells)
        if (passesDeviceLimit(doc, c))
            cells.push_back(fmt::format("{} at {} ({:.0f}%)", c.strategy, pointText(c.point()),
                                        *pctOfDeviceLimit(doc, c)));
    if (cells.empty())
        return {};
    const std::string way = deviceLimitWay(doc);
    return fmt::format("{} faster than the device limit ({:.2f} GB/s{}{}): {}. They may have been "
                       "{}",
                       cells.size() == 1 ? "1 cell read"
                                         : fmt::format("{} cells read", cells.size()),
                       *deviceLimitGbps(doc), way.empty() ? "" : ": ", way, someCells(cells),
                       deviceLimitPassedWhy(doc));
}

std::string notColdWarning(const ResultDocument& doc) {
    const auto n = std::count_if(doc.cells.begin(), doc.cells.end(),
                                 [](const Cell& c) { return c.status == CellStatus::NotCold; });
    if (n == 0)
        return {};
    return fmt::format("{} cell{} {} {} (status not-cold), so {} figures are warm ones", n,
                       n == 1 ? "" : "s", n == 1 ? "was" : "were", notColdNote(),
                       n == 1 ? "its" : "their");
}

std::string noiseSummary(const ResultDocument& doc, std::string_view roundsOption) {
    std::size_t measured = 0;
    std::vector<const Cell*> noisy;
    for (const auto& c : doc.cells) {
        measured += c.measured() ? 1 : 0;
        if (c.status == CellStatus::Noisy || (c.status == CellStatus::NotCold && c.summary.noisy))
            noisy.push_back(&c);
    }
    if (noisy.empty())
        return {};
    const auto cause = disturbanceText(disturbanceOf(noisy, doc.system.logicalCores));
    return fmt::format(
        "{} of {} cells noisy: {} median is uncertain by more than ±{:.0f}% (the "
        "interval over the rounds, coverage {}){}; close other programs or raise "
        "{}",
        noisy.size(), measured, noisy.size() == 1 ? "its" : "their", kNoisyUncertainty * 100,
        intervalCoverageText(doc), cause.empty() ? "" : "; during their rounds " + cause,
        // A duration run's rounds are its time: --rounds would change nothing.
        doc.plan.durationSeconds > 0 ? std::string_view("the duration") : roundsOption);
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

std::string disturbanceText(const Disturbance& d) {
    constexpr double kNotable = 0.05;
    if (d.rounds == 0)
        return {};
    const double preempted = double(d.preemptedRounds) / double(d.rounds);
    if (d.measured && d.stolenShare >= kNotable && d.stolenShare >= d.otherShare)
        return fmt::format("the hypervisor took {:.0f}% of the CPUs' time (steal in {} of {} "
                           "rounds)",
                           d.stolenShare * 100, d.roundsWithSteal, d.rounds);
    if (d.measured && d.otherShare >= kNotable)
        return fmt::format("other processes and the kernel's threads kept {:.0f}% of the CPUs "
                           "busy",
                           d.otherShare * 100);
    if (d.preemptedRounds > 0 && preempted >= kNotable)
        return fmt::format("the workers were preempted in {} of {} rounds", d.preemptedRounds,
                           d.rounds);
    return {};
}

Disturbance runDisturbance(const ResultDocument& doc) {
    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        if (c.measured())
            cells.push_back(&c);
    return disturbanceOf(cells, doc.system.logicalCores);
}

} // namespace readscope
