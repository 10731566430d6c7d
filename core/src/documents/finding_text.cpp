#include "readscope/finding_text.h"

#include "readscope/comparison_text.h"
#include "readscope/document_words.h"
#include "readscope/mark_notes.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace readscope {

namespace {

// "a at 8 KiB (120%), b at 64 KiB (115%) and 2 more": the cells a warning names.
std::string someCells(const std::vector<CellAtLimit>& cells, const ResultDocument& doc) {
    std::string list;
    for (std::size_t i = 0; i < cells.size() && i < 3; ++i) {
        const Cell& c = doc.cells.at(cells[i].cell);
        list += fmt::format("{}{} at {} ({:.0f}%)", i ? ", " : "", c.strategy, pointText(c.point()),
                            cells[i].pct);
    }
    if (cells.size() > 3)
        list += fmt::format(" and {} more", cells.size() - 3);
    return list;
}

std::string offsetList(const std::vector<std::uint32_t>& offsets) {
    return fmt::format("{}", fmt::join(offsets, ", "));
}

// "9 pairs of rounds reach p = 0.055 at best over 14 comparisons; 10 can call one".
std::string cannotTellWhy(const Verdict& v) {
    switch (v.cause) {
    case Undecided::TooFewRounds:
        return fmt::format("{} pair{} of rounds reach p = {:.3f} at best over {} comparisons; {} "
                           "rounds can call one",
                           v.rounds, v.rounds == 1 ? "" : "s", v.bestP.value_or(1), v.tests,
                           v.roundsToCall);
    case Undecided::TwoSpeeds: return "the rounds ran at two speeds";
    case Undecided::WideInterval:
        return v.interval ? fmt::format("the rounds disagree: interval {} to {}",
                                        formatSignedPercent(v.interval->low),
                                        formatSignedPercent(v.interval->high))
                          : std::string("the rounds disagree");
    default: return "the rounds do not say";
    }
}

} // namespace

std::string findingText(const RunFinding& finding, const ResultDocument& doc,
                        std::string_view roundsOption) {
    struct Words {
        const ResultDocument& doc;
        std::string_view roundsOption;
        std::string operator()(const NoiseFinding& f) const {
            return noiseText(f, doc, roundsOption);
        }
        std::string operator()(const AboveCopyLimitFinding& f) const {
            return aboveCopyLimitText(f, doc);
        }
        std::string operator()(const AboveDeviceLimitFinding& f) const {
            return aboveDeviceLimitText(f, doc);
        }
        std::string operator()(const NotColdFinding& f) const { return notColdText(f); }
        std::string operator()(const TwoSpeedsFinding& f) const {
            return twoSpeedsFindingText(f, doc);
        }
        std::string operator()(const TraceRankingFinding& f) const {
            return traceRankingText(f, doc);
        }
        std::string operator()(const OffsetVerdictFinding& f) const {
            std::string text = offsetVerdictText(f.verdict);
            if (text.ends_with('.'))
                text.pop_back();
            return text;
        }
    };
    return std::visit(Words{doc, roundsOption}, finding.value);
}

std::string traceRankingText(const TraceRankingFinding& f, const ResultDocument& doc) {
    const Cell& top = doc.cells.at(f.top);
    const auto bytes = replayBytes(doc);
    const auto seconds = replaySeconds(doc, top.summary.median);
    std::string text = fmt::format(
        "For this trace, {} has the highest median: {:.2f} GB/s{}{}", top.strategy,
        top.summary.median,
        seconds ? fmt::format(", {:.2f} ms a replay", *seconds * 1e3) : std::string(),
        bytes && *bytes ? fmt::format(" of its {}", formatSize(*bytes)) : std::string());
    for (const auto& cc : f.others) {
        const Verdict& v = cc.verdict;
        std::string how = outcomeText(v);
        if (const auto cause = causeText(cc); !cause.empty())
            how += ": " + cause;
        text += fmt::format("; {} {:.2f} GB/s{} ({})", cc.strategy, cc.currentMedian,
                            v.change ? ", " + formatSignedPercent(*v.change) : std::string(), how);
    }
    return text;
}

std::string aboveCopyLimitText(const AboveCopyLimitFinding& f, const ResultDocument& doc) {
    std::string ceiling = copyCeilingNote();
    ceiling[0] = char(std::toupper(static_cast<unsigned char>(ceiling[0])));
    return fmt::format("{} faster than memcpy copies here: {}. {} memcpy; past it, the limit may "
                       "have been measured low, the kernel's own copy may beat this memcpy at "
                       "these sizes and buffer offsets, or the source may have stayed in the CPU "
                       "caches (not measured; the time split's copy share tells the first two "
                       "apart)",
                       f.cells.size() == 1 ? "1 copying cell ran"
                                           : fmt::format("{} copying cells ran", f.cells.size()),
                       someCells(f.cells, doc), ceiling);
}

std::string aboveDeviceLimitText(const AboveDeviceLimitFinding& f, const ResultDocument& doc) {
    const std::string way = deviceLimitWay(doc);
    return fmt::format("{} faster than the device limit ({:.2f} GB/s{}{}): {}. They may have been "
                       "{}",
                       f.cells.size() == 1 ? "1 cell read"
                                           : fmt::format("{} cells read", f.cells.size()),
                       f.limitGbps, way.empty() ? "" : ": ", way, someCells(f.cells, doc),
                       deviceLimitPassedWhy(doc));
}

std::string notColdText(const NotColdFinding& f) {
    const auto n = f.cells;
    return fmt::format("{} cell{} {} {} (status not-cold), so {} figures are warm ones", n,
                       n == 1 ? "" : "s", n == 1 ? "was" : "were", notColdNote(),
                       n == 1 ? "its" : "their");
}

std::string noiseText(const NoiseFinding& f, const ResultDocument& doc,
                      std::string_view roundsOption) {
    const auto cause = disturbanceText(f.during);
    return fmt::format(
        "{} of {} cells noisy: {} median is uncertain by more than ±{:.0f}% (the "
        "interval over the rounds, coverage {}){}; close other programs or raise "
        "{}",
        f.noisy, f.measured, f.noisy == 1 ? "its" : "their", kNoisyUncertainty * 100,
        intervalCoverageText(doc), cause.empty() ? "" : "; during their rounds " + cause,
        // A duration run's rounds are its time: --rounds would change nothing.
        doc.plan.durationSeconds > 0 ? std::string_view("the duration") : roundsOption);
}

std::string disturbanceText(const Disturbance& d) {
    const auto cause = mainCause(d);
    if (!cause)
        return {};
    switch (*cause) {
    case DisturbanceCause::Steal:
        return fmt::format("the hypervisor took {:.0f}% of the CPUs' time (steal in {} of {} "
                           "rounds)",
                           d.stolenShare * 100, d.roundsWithSteal, d.rounds);
    case DisturbanceCause::OtherProcesses:
        return fmt::format("other processes and the kernel's threads kept {:.0f}% of the CPUs "
                           "busy",
                           d.otherShare * 100);
    case DisturbanceCause::Preemption:
        return fmt::format("the workers were preempted in {} of {} rounds", d.preemptedRounds,
                           d.rounds);
    }
    return {};
}

static std::string twoSpeedsCounters(const TwoSpeedsFinding& f, const ResultDocument& doc);

namespace {
// A machine that evicts idle memory under a run (a DAMON pageout scheme) is a cause two speeds
// can have that no counter per round shows: said when the run recorded one.
std::string evictorNote(const ResultDocument& doc) {
    const auto& m = doc.system.memory;
    if (!m || !canEvictDuringRun(*m))
        return {};
    return fmt::format(". This machine runs {}: it can evict the file's cached pages, or the "
                       "buffers', between rounds, and a round that finds them gone is slow",
                       memoryDaemonsText(*m));
}
} // namespace

std::string twoSpeedsFindingText(const TwoSpeedsFinding& f, const ResultDocument& doc) {
    return twoSpeedsCounters(f, doc) + evictorNote(doc);
}

static std::string twoSpeedsCounters(const TwoSpeedsFinding& f, const ResultDocument& doc) {
    const Cell& cell = doc.cells.at(f.cell);
    const auto& split = f.split;
    std::string out =
        fmt::format("{} at {} ran at two speeds, {}: its median lands in one "
                    "group and says neither",
                    cell.strategy, pointText(cell.point()), twoSpeedsText(split.speeds));
    if (split.compared.empty())
        return out + "; this platform recorded no counter per round to set beside them";
    if (split.differing.empty()) {
        std::vector<std::string_view> names;
        for (auto c : split.compared)
            names.push_back(toString(c));
        return out + fmt::format("; no counter readscope records per round differs between the "
                                 "two groups ({}): the cause is one this run could not see",
                                 fmt::join(names, ", "));
    }
    std::vector<std::string> parts;
    for (const auto& d : split.differing)
        parts.push_back(fmt::format("{} {} in the slow rounds, {} in the fast", toString(d.counter),
                                    formatRate(d.slow), formatRate(d.fast)));
    return out + "; the slow rounds differ in " + fmt::format("{}", fmt::join(parts, "; "));
}

std::string offsetVerdictText(const OffsetSweepVerdict& v) {
    const std::string where = fmt::format("{} ranges on {}", formatSize(v.rangeBytes),
                                          v.machine.empty() ? "this machine" : v.machine);
    const bool sixteen =
        std::find(v.slowOffsets.begin(), v.slowOffsets.end(), 16u) != v.slowOffsets.end();
    const std::string test = fmt::format("the paired test, Holm-adjusted over {} comparison{}",
                                         v.tests, v.tests == 1 ? "" : "s");
    const std::string worst = formatBufferOffset(v.worstOffset, v.pageSize);
    if (v.cliff)
        return fmt::format("{} ({}): buffers starting at page offset {} read below {:.0f}% of "
                           "page-aligned ones, round by round ({}); the worst, {} at offset "
                           "{}, ran at {:.2f}x. {}",
                           v.worstRatio < 0.5 ? "Cliff seen"
                                              : "Slower at some offsets, a mild effect rather "
                                                "than the 5-7x cliff seen on some CPUs",
                           where, offsetList(v.slowOffsets), kSlowPlacementRatio * 100, test,
                           v.worstStrategy, worst, v.worstRatio,
                           sixteen ? "A program whose large buffers come from malloc (page "
                                     "offset 16) pays this on every read."
                                   : "Offset 16, where malloc puts large buffers, was not "
                                     "among them.");
    if (v.worstStrategy.empty())
        return fmt::format("No verdict ({}): no offset other than 0 was measured.", where);
    if (v.undecided)
        return fmt::format("Cannot tell ({}): at page offset {} this run cannot tell the reads "
                           "from page-aligned ones ({}); the slowest median ratio, {} at "
                           "offset {}, was {:.2f}x.",
                           where, offsetList(v.undecidedOffsets), cannotTellWhy(*v.undecided),
                           v.worstStrategy, worst, v.worstRatio);
    return fmt::format("No cliff on this machine ({}): no offset read below {:.0f}% of "
                       "page-aligned ({}); the slowest, {} at offset {}, was {:.2f}x. "
                       "Where the buffer lands does not decide these figures here.",
                       where, kSlowPlacementRatio * 100, test, v.worstStrategy, worst,
                       v.worstRatio);
}

std::string offsetTrapNote(const Cell& cell, const SlowBand& band, std::uint32_t pageSize) {
    const auto inBand = offsetsInBand(cell, band, pageSize);
    if (inBand.empty())
        return {};
    return fmt::format("at {} its buffers started at page offset {}, inside the slow band "
                       "(offsets {}) that 'The 16-byte trap' measured on this machine (down to "
                       "{:.2f}x of page-aligned): placement, not the strategy, may hold this "
                       "figure back; pin it with --buffer-offset 0 to see",
                       pointText(cell.point()), offsetList(inBand), offsetList(band.slow),
                       band.worstRatio);
}

} // namespace readscope
