#include "readscope/offset_trap.h"

#include "readscope/units.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace readscope {

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
    v.machine = doc.system.cpuModel;
    v.pageSize = page;
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

std::vector<std::uint32_t> offsetsInBand(const Cell& cell, const SlowBand& band,
                                         std::uint32_t pageSize) {
    std::vector<std::uint32_t> inBand;
    for (const auto& o : cell.bufferPageOffsets) {
        if (o.offset == kOtherOffsets) // a count of 0 is a CSV's single offset: present
            continue;
        const std::uint32_t inPage = o.offset % (pageSize ? pageSize : 4096);
        if (band.contains(inPage))
            inBand.push_back(inPage);
    }
    return inBand;
}

} // namespace readscope
