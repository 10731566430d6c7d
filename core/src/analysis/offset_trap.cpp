#include "readscope/offset_trap.h"

#include "readscope/compare.h"
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

std::optional<OffsetSweepVerdict> judgeOffsetSweep(const ResultDocument& doc) {
    if (sweepAxis(doc.plan) != SweepAxis::BufferOffset)
        return std::nullopt;
    const std::uint32_t page = doc.system.pageSize ? doc.system.pageSize : 4096;
    OffsetSweepVerdict v;
    v.worstRatio = std::numeric_limits<double>::infinity();
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
            const double ratio = c.summary.median / aligned.summary.median;
            if (ratio < v.worstRatio) {
                v.worstRatio = ratio;
                v.worstOffset = *c.bufferOffset;
                v.worstStrategy = c.strategy;
            }
            const std::uint32_t inPage = *c.bufferOffset % page;
            // Slow only when the rounds say so too: a noisy median alone is no cliff.
            const bool separated = c.summary.p75 < aligned.summary.p25;
            auto& list = ratio < kSlowPlacementRatio && separated && inPage != 0 ? v.slowOffsets
                                                                                 : v.fastOffsets;
            if (std::find(list.begin(), list.end(), inPage) == list.end())
                list.push_back(inPage);
        }
    }
    if (!judged)
        return std::nullopt;
    if (v.worstStrategy.empty())
        v.worstRatio = 1;
    v.fastOffsets.push_back(0);
    // An offset slow for one strategy counts as slow: it is a place to beware of.
    std::erase_if(v.fastOffsets, [&](std::uint32_t o) {
        return std::find(v.slowOffsets.begin(), v.slowOffsets.end(), o) != v.slowOffsets.end();
    });
    std::sort(v.slowOffsets.begin(), v.slowOffsets.end());
    std::sort(v.fastOffsets.begin(), v.fastOffsets.end());
    v.fastOffsets.erase(std::unique(v.fastOffsets.begin(), v.fastOffsets.end()),
                        v.fastOffsets.end());
    v.cliff = !v.slowOffsets.empty();
    const std::string where =
        fmt::format("{} ranges on {}", formatSize(v.rangeBytes),
                    doc.system.cpuModel.empty() ? "this machine" : doc.system.cpuModel);
    const bool sixteen =
        std::find(v.slowOffsets.begin(), v.slowOffsets.end(), 16u) != v.slowOffsets.end();
    if (v.cliff)
        v.text = fmt::format("{} ({}): buffers starting at page offset {} ran below "
                             "{:.0f}% of page-aligned ones, with the rounds' quartiles apart; "
                             "the worst, {} at offset {}, ran at {:.2f}x. {}",
                             v.worstRatio < 0.5 ? "Cliff seen"
                                                : "Slower at some offsets, a mild effect rather "
                                                  "than the 5-7x cliff seen on some CPUs",
                             where, offsetList(v.slowOffsets), kSlowPlacementRatio * 100,
                             v.worstStrategy, formatBufferOffset(v.worstOffset, page), v.worstRatio,
                             sixteen ? "A program whose large buffers come from malloc (page "
                                       "offset 16) pays this on every read."
                                     : "Offset 16, where malloc puts large buffers, was not "
                                       "among them.");
    else if (v.worstStrategy.empty())
        v.text = fmt::format("No verdict ({}): no offset other than 0 was measured.", where);
    else
        v.text = fmt::format("No cliff on this machine ({}): no offset ran below {:.0f}% of "
                             "page-aligned with the rounds' quartiles apart; the slowest median, "
                             "{} at offset {}, was {:.2f}x. Where the buffer lands does not "
                             "decide these figures here.",
                             where, kSlowPlacementRatio * 100, v.worstStrategy,
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
