#include "readscope/zeroing_lesson.h"

#include "readscope/strategy.h"
#include "readscope/time_split.h"

#include <algorithm>
#include <map>

namespace readscope {

namespace {

// A plain sweep cell: no pinned offset, thread count or depth (those are other lessons' axes).
bool plain(const Cell& c) { return !c.bufferOffset && !c.pointThreads && !c.pointQueueDepth; }

// A strategy that zeroes its buffer (pread-zerofill's memset, pread-calloc's calloc).
bool zeroes(const Cell& c) {
    const StrategyInfo* s = findStrategy(c.strategy);
    return s && (s->buffer == BufferKind::FreshZeroed || s->buffer == BufferKind::FreshCalloc);
}

} // namespace

std::optional<ZeroingVerdict> judgeZeroing(const ResultDocument& doc, const Finding& finding) {
    ZeroingVerdict v;
    v.l2 = doc.system.caches.l2;
    v.finding = judgeFinding(doc, finding);

    // The measured gains, paired round by round, against the zero-filler at every size.
    ResultDocument pair;
    pair.plan = doc.plan;
    for (const auto& c : doc.cells)
        if (plain(c) && (c.strategy == finding.faster || c.strategy == finding.than))
            pair.cells.push_back(c);
    std::map<std::uint64_t, Verdict> gains;
    for (const auto& cc : compareToReference(pair, finding.than).cells)
        if (cc.strategy == finding.faster)
            gains[cc.at.rangeBytes] = cc.verdict;

    bool anyZeroFiller = false;
    for (std::size_t i = 0; i < doc.cells.size(); ++i) {
        const Cell& c = doc.cells[i];
        if (!plain(c) || c.strategy != finding.than)
            continue;
        anyZeroFiller = true;
        const auto split = timeSplit(doc, c);
        if (!split || !split->partSeconds(TimePart::Zeroing)) {
            v.unsplitCell = i;
            v.noMemsetRate = split.has_value();
            continue;
        }
        ZeroingAtSize z;
        z.size = c.rangeBytes;
        z.zeroingShare = split->share(TimePart::Zeroing);
        if (split->partSeconds(TimePart::Faults))
            z.faultShare = split->share(TimePart::Faults);
        if (z.zeroingShare < 1)
            z.predictedGain = z.zeroingShare / (1 - z.zeroingShare);
        if (auto g = gains.find(c.rangeBytes); g != gains.end()) {
            z.gain = g->second;
            const auto& i = g->second.interval;
            z.gainTold = i && z.predictedGain && i->coverage >= kSameCoverage &&
                         !(i->holds(0) && i->holds(*z.predictedGain));
            z.zeroingIsTheGap = z.gainTold && z.predictedGain && i->holds(*z.predictedGain);
        }
        z.pastL2 = v.l2 > 0 && c.rangeBytes > v.l2;
        for (const auto& o : doc.cells)
            if (plain(o) && o.rangeBytes == c.rangeBytes && o.strategy != finding.than &&
                o.strategy != finding.faster)
                if (const auto os = timeSplit(doc, o);
                    os && zeroes(o) && os->partSeconds(TimePart::Zeroing))
                    z.others.emplace_back(o.strategy, os->share(TimePart::Zeroing));
        v.sizes.push_back(std::move(z));
    }
    if (!anyZeroFiller)
        return std::nullopt;
    std::sort(v.sizes.begin(), v.sizes.end(),
              [](const auto& a, const auto& b) { return a.size < b.size; });

    return v;
}

} // namespace readscope
