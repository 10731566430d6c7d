#include "readscope/offset_trap.h"

#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>

namespace readscope {

namespace {

std::string offsetList(const std::vector<std::uint32_t>& offsets) {
    std::string out;
    for (auto o : offsets)
        out += (out.empty() ? "" : ", ") + std::to_string(o);
    return out;
}

} // namespace

namespace {

// The rounds both cells ran in ({page-aligned GB/s, placed GB/s} per round number).
std::vector<std::pair<double, double>> pairedRounds(const Cell& aligned, const Cell& placed) {
    std::vector<std::pair<double, double>> pairs;
    for (const auto& s : placed.samples)
        for (const auto& a : aligned.samples)
            if (a.round == s.round && a.repeat == s.repeat && a.gbps() && s.gbps()) {
                pairs.push_back({*a.gbps(), *s.gbps()});
                break;
            }
    return pairs;
}

void addOnce(std::vector<std::uint32_t>& list, std::uint32_t x) {
    if (std::find(list.begin(), list.end(), x) == list.end())
        list.push_back(x);
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

std::optional<OffsetSweepVerdict> judgeOffsetSweep(const ResultDocument& doc) {
    if (sweepAxis(doc.plan) != SweepAxis::BufferOffset)
        return std::nullopt;
    const std::uint32_t page = doc.system.pageSize ? doc.system.pageSize : 4096;
    OffsetSweepVerdict v;
    v.worstRatio = std::numeric_limits<double>::infinity();
    // Every strategy's placed cells against its page-aligned one, paired round by round: one
    // family of comparisons, so that many offsets do not find a slow one by chance.
    struct Placed {
        const Cell* cell;
        std::uint32_t inPage;
    };
    std::vector<Placed> placed;
    std::vector<RowRounds> rows;
    bool judged = false;
    for (const auto& aligned : doc.cells) {
        if (aligned.bufferOffset != 0u || !aligned.measured() || aligned.summary.median <= 0)
            continue;
        judged = true;
        v.rangeBytes = aligned.rangeBytes;
        for (const auto& c : doc.cells) {
            if (c.strategy != aligned.strategy || !c.bufferOffset || *c.bufferOffset == 0 ||
                !c.measured())
                continue;
            placed.push_back({&c, *c.bufferOffset % page});
            rows.push_back({aligned.roundRates(), c.roundRates(), pairedRounds(aligned, c)});
        }
    }
    if (!judged)
        return std::nullopt;
    const auto verdicts = judgeRows(rows, VerdictPolicy{});
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const Verdict& verdict = verdicts[i];
        const Cell& c = *placed[i].cell;
        const double ratio = 1 + verdict.change.value_or(0);
        v.tests = std::max(v.tests, verdict.tests);
        if (ratio < v.worstRatio) {
            v.worstRatio = ratio;
            v.worstOffset = *c.bufferOffset;
            v.worstStrategy = c.strategy;
        }
        const std::uint32_t inPage = placed[i].inPage;
        if (verdict.outcome == Outcome::Slower && ratio < kSlowPlacementRatio && inPage != 0)
            addOnce(v.slowOffsets, inPage);
        else if (verdict.outcome == Outcome::CannotTell && inPage != 0) {
            addOnce(v.undecidedOffsets, inPage);
            if (!v.undecided)
                v.undecided = verdict;
        } else
            addOnce(v.fastOffsets, inPage);
    }
    if (v.worstStrategy.empty())
        v.worstRatio = 1;
    v.fastOffsets.push_back(0);
    // An offset slow for one strategy counts as slow: it is a place to beware of; one that a
    // strategy cannot tell is not fast.
    auto in = [](const std::vector<std::uint32_t>& list, std::uint32_t o) {
        return std::find(list.begin(), list.end(), o) != list.end();
    };
    std::erase_if(v.fastOffsets, [&](std::uint32_t o) {
        return in(v.slowOffsets, o) || in(v.undecidedOffsets, o);
    });
    std::erase_if(v.undecidedOffsets, [&](std::uint32_t o) { return in(v.slowOffsets, o); });
    for (auto* list : {&v.slowOffsets, &v.fastOffsets, &v.undecidedOffsets}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    v.cliff = !v.slowOffsets.empty();
    const std::string where =
        fmt::format("{} ranges on {}", formatSize(v.rangeBytes),
                    doc.system.cpuModel.empty() ? "this machine" : doc.system.cpuModel);
    const bool sixteen = in(v.slowOffsets, 16u);
    const std::string test = fmt::format("the paired test, Holm-adjusted over {} comparison{}",
                                         v.tests, v.tests == 1 ? "" : "s");
    if (v.cliff)
        v.text = fmt::format("{} ({}): buffers starting at page offset {} read below {:.0f}% of "
                             "page-aligned ones, round by round ({}); the worst, {} at offset "
                             "{}, ran at {:.2f}x. {}",
                             v.worstRatio < 0.5 ? "Cliff seen"
                                                : "Slower at some offsets, a mild effect rather "
                                                  "than the 5-7x cliff seen on some CPUs",
                             where, offsetList(v.slowOffsets), kSlowPlacementRatio * 100, test,
                             v.worstStrategy, formatBufferOffset(v.worstOffset, page), v.worstRatio,
                             sixteen ? "A program whose large buffers come from malloc (page "
                                       "offset 16) pays this on every read."
                                     : "Offset 16, where malloc puts large buffers, was not "
                                       "among them.");
    else if (v.worstStrategy.empty())
        v.text = fmt::format("No verdict ({}): no offset other than 0 was measured.", where);
    else if (v.undecided)
        v.text =
            fmt::format("Cannot tell ({}): at page offset {} this run cannot tell the reads "
                        "from page-aligned ones ({}); the slowest median ratio, {} at "
                        "offset {}, was {:.2f}x.",
                        where, offsetList(v.undecidedOffsets), cannotTellWhy(*v.undecided),
                        v.worstStrategy, formatBufferOffset(v.worstOffset, page), v.worstRatio);
    else
        v.text = fmt::format("No cliff on this machine ({}): no offset read below {:.0f}% of "
                             "page-aligned ({}); the slowest, {} at offset {}, was {:.2f}x. "
                             "Where the buffer lands does not decide these figures here.",
                             where, kSlowPlacementRatio * 100, test, v.worstStrategy,
                             formatBufferOffset(v.worstOffset, page), v.worstRatio);
    return v;
}

std::optional<SlowBand> slowBand(const OffsetSweepVerdict& verdict) {
    if (verdict.slowOffsets.empty())
        return std::nullopt;
    return SlowBand{verdict.slowOffsets, verdict.fastOffsets, verdict.worstRatio};
}

bool SlowBand::contains(std::uint32_t x) const {
    if (std::binary_search(slow.begin(), slow.end(), x))
        return true;
    if (std::binary_search(fast.begin(), fast.end(), x))
        return false;
    // The nearest measured offsets on either side must both have been slow.
    auto below = [x](const std::vector<std::uint32_t>& v) {
        auto it = std::upper_bound(v.begin(), v.end(), x);
        return it == v.begin() ? std::optional<std::uint32_t>() : *std::prev(it);
    };
    auto above = [x](const std::vector<std::uint32_t>& v) {
        auto it = std::lower_bound(v.begin(), v.end(), x);
        return it == v.end() ? std::optional<std::uint32_t>() : *it;
    };
    const auto slowBelow = below(slow), slowAbove = above(slow);
    const auto fastBelow = below(fast), fastAbove = above(fast);
    return slowBelow && slowAbove && (!fastBelow || *fastBelow < *slowBelow) &&
           (!fastAbove || *fastAbove > *slowAbove);
}

std::string offsetTrapNote(const Cell& cell, const SlowBand& band, std::uint32_t pageSize) {
    std::vector<std::uint32_t> inBand;
    for (const auto& o : cell.bufferPageOffsets) {
        if (o.offset == kOtherOffsets) // a count of 0 is a CSV's single offset: present
            continue;
        const std::uint32_t inPage = o.offset % (pageSize ? pageSize : 4096);
        if (band.contains(inPage))
            inBand.push_back(inPage);
    }
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
