#include "readscope/zeroing_lesson.h"

#include "readscope/stats.h"
#include "readscope/strategy.h"
#include "readscope/time_split.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

std::string spanOf(const std::vector<double>& shares) {
    const auto [lo, hi] = std::minmax_element(shares.begin(), shares.end());
    return std::round(*lo * 100) == std::round(*hi * 100)
               ? formatPercent(*lo)
               : fmt::format("{}–{}", formatPercent(*lo), formatPercent(*hi));
}

std::string perSize(const std::vector<ZeroingAtSize>& sizes, auto&& value) {
    std::string list;
    for (const auto& z : sizes)
        list += fmt::format("{}{} {}", list.empty() ? "" : ", ", formatSize(z.size), value(z));
    return list;
}

// "+14% predicted, +13% [+12% … +16%, 96%] measured", for one size (the interval's coverage
// last).
std::string gainText(const ZeroingAtSize& z) {
    if (!z.predictedGain)
        return "none predicted (the priced zeroing alone reaches the measured time)";
    if (!z.gain)
        return fmt::format("{} predicted, not measured", formatSignedPercent(*z.predictedGain));
    const auto& g = *z.gain;
    std::string interval =
        g.interval ? fmt::format(" [{} … {}, {:.0f}%]", formatSignedPercent(g.interval->low),
                                 formatSignedPercent(g.interval->high),
                                 std::floor(g.interval->coverage * 100 + 1e-9))
                   : std::string(" (no interval)");
    return fmt::format("{} predicted, {}{} measured", formatSignedPercent(*z.predictedGain),
                       formatSignedPercent(g.change.value_or(0)), interval);
}

// What crossing the L2 does to the zero-filler's parts: the sizes at or under it against those
// past it (the faults' only where every size priced them; the interval's only over the sizes
// whose gain was measured). When every size lies on one side, that is said instead.
std::string acrossL2(const std::vector<ZeroingAtSize>& sizes, std::uint64_t l2) {
    std::vector<double> inZero, pastZero, inFaults, pastFaults;
    std::vector<const ZeroingAtSize*> past;
    bool faultsPriced = true;
    for (const auto& z : sizes) {
        (z.pastL2 ? pastZero : inZero).push_back(z.zeroingShare);
        faultsPriced &= z.faultShare.has_value();
        if (z.faultShare)
            (z.pastL2 ? pastFaults : inFaults).push_back(*z.faultShare);
        if (z.pastL2)
            past.push_back(&z);
    }
    if (pastZero.empty())
        return fmt::format("\nEvery size measured lies at or under the {} L2 cache: this run "
                           "cannot show what crossing it changes.",
                           formatSize(l2));
    if (inZero.empty())
        return fmt::format("\nEvery size measured lies past the {} L2 cache: this run cannot "
                           "show what crossing it changes.",
                           formatSize(l2));
    // Whole percentage points: a move smaller than three is not called one.
    auto moved = [&](const std::vector<double>& before, const std::vector<double>& after) {
        const double d = (median(after) - median(before)) * 100;
        return fmt::format("{} ({} under it, {} past it)",
                           d >= 3    ? "rises"
                           : d <= -3 ? "falls"
                                     : "holds",
                           spanOf(before), spanOf(after));
    };
    const std::string pastSizes =
        past.size() == 1
            ? formatSize(past.front()->size)
            : fmt::format("{}–{}", formatSize(past.front()->size), formatSize(past.back()->size));
    std::string text = fmt::format("\nPast the {} L2 cache ({}), zeroing's share {}",
                                   formatSize(l2), pastSizes, moved(inZero, pastZero));
    if (faultsPriced)
        text += " and the page faults' " + moved(inFaults, pastFaults);
    int held = 0, told = 0;
    for (const auto* z : past)
        if (z->gainTold && z->predictedGain) {
            ++told;
            held += z->zeroingIsTheGap ? 1 : 0;
        }
    if (told > 0)
        text += fmt::format("; there the measured interval holds the predicted gain at {} of {} "
                            "size{}",
                            held, told, told == 1 ? "" : "s");
    return text + ".";
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
    std::string missing;
    for (const auto& c : doc.cells) {
        if (!plain(c) || c.strategy != finding.than)
            continue;
        anyZeroFiller = true;
        const auto split = timeSplit(doc, c);
        if (!split || !split->partSeconds(TimePart::Zeroing)) {
            missing = split ? "this run measured no memset rate" : timeSplitMissing(doc, c);
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

    std::string text = v.finding ? v.finding->text : std::string();
    if (v.sizes.empty()) {
        text += fmt::format("{}Where the time goes cannot be said for this run: {}.",
                            text.empty() ? "" : "\n", missing);
        v.text = text;
        return v;
    }
    text +=
        fmt::format("{}Zeroing's share of {}'s time, at this run's memset rate: {}",
                    text.empty() ? "" : "\n", finding.than,
                    perSize(v.sizes, [](const auto& z) { return formatPercent(z.zeroingShare); }));
    // The other zeroing strategies, one list each.
    std::map<std::string, std::string> others;
    for (const auto& z : v.sizes)
        for (const auto& [strategy, share] : z.others)
            others[strategy] += fmt::format("{}{} {}", others[strategy].empty() ? "" : ", ",
                                            formatSize(z.size), formatPercent(share));
    for (const auto& [strategy, list] : others)
        text += fmt::format("; {}'s: {}", strategy, list);
    text += ".";
    int held = 0, told = 0;
    for (const auto& z : v.sizes) {
        held += z.zeroingIsTheGap ? 1 : 0;
        told += z.gainTold && z.predictedGain ? 1 : 0;
    }
    if (std::any_of(v.sizes.begin(), v.sizes.end(), [](const auto& z) { return z.gain; })) {
        text += fmt::format("\nIf zeroing were the whole difference, {} would gain share / (1 − "
                            "share) over {}; ",
                            finding.faster, finding.than);
        text += told > 0 ? fmt::format("where the measured gain's interval tells that from no "
                                       "gain, it holds that at {} of {} size{} ({}).",
                                       held, told, told == 1 ? "" : "s", perSize(v.sizes, gainText))
                         : fmt::format("at no size does the measured gain's interval tell that "
                                       "from no gain ({}): this run cannot tell whether zeroing "
                                       "is the difference.",
                                       perSize(v.sizes, gainText));
    }
    if (v.l2 == 0)
        text += "\nThis machine did not say how large its L2 cache is.";
    else
        text += acrossL2(v.sizes, v.l2);
    v.text = text;
    return v;
}

} // namespace readscope
