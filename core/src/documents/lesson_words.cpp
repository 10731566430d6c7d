// The words of a lesson's verdicts: a published finding judged on this machine, and where a
// zero-filler's time goes (finding.h and zeroing_lesson.h hold the values).
#include "readscope/lesson_words.h"
#include "readscope/time_split_words.h"

#include "readscope/stats.h"
#include "readscope/time_split.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace readscope {

namespace {

std::string range(double lo, double hi) {
    return std::abs(hi - lo) < 0.005
               ? formatSignedPercent(lo)
               : fmt::format("{} … {}", formatSignedPercent(lo), formatSignedPercent(hi));
}

std::string sizeSpan(std::uint64_t lo, std::uint64_t hi) {
    return lo == hi ? formatSize(lo) : fmt::format("{}–{}", formatSize(lo), formatSize(hi));
}

std::string plural(int n) { return n == 1 ? "" : "s"; }

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
                            held, told, plural(told));
    return text + ".";
}

// "27.1k": reads per second, as the published small-read figures are given.
std::string readsPerSecond(double gbps, std::uint64_t rangeBytes) {
    const double rate = gbps * 1e9 / double(rangeBytes);
    return rate >= 1e6   ? fmt::format("{:.3g}M", rate / 1e6)
           : rate >= 1e3 ? fmt::format("{:.3g}k", rate / 1e3)
                         : fmt::format("{:.3g}", rate);
}

// Small reads are counted in reads per second where they are published (4 KiB pages): said
// beside GB/s up to this size.
constexpr std::uint64_t kReadsPerSecondUpTo = 64 << 10;

std::string sideText(const StrategyAcrossFill& s, std::uint64_t rangeBytes) {
    const auto& i = s.verdict.interval;
    const std::string interval =
        i ? fmt::format(", interval {} to {} ({:.0f}% coverage)", formatSignedPercent(i->low),
                        formatSignedPercent(i->high), std::floor(i->coverage * 100 + 1e-9))
          : "";
    std::string_view said = "this run cannot tell";
    if (s.fell)
        said = "fell";
    else if (s.verdict.outcome == Outcome::Faster)
        said = "rose";
    else if (s.verdict.outcome == Outcome::Slower)
        said = "slower by less than 5%";
    else if (s.verdict.outcome == Outcome::Same || s.held())
        said = "held";
    const std::string reads =
        rangeBytes > 0 && rangeBytes <= kReadsPerSecondUpTo
            ? fmt::format(", {} -> {} reads/s", readsPerSecond(s.before, rangeBytes),
                          readsPerSecond(s.after, rangeBytes))
            : "";
    return fmt::format("{} {:.3g} -> {:.3g} GB/s{} ({}{}, {})", s.strategy, s.before, s.after,
                       reads, formatSignedPercent(s.change()), interval, said);
}

} // namespace

std::string findingVerdictText(const Finding& finding, const FindingVerdict& v) {
    const int n = v.sizesNamed;
    std::string text;
    if (n > 0) {
        text = fmt::format("{} against {} at {} here: {} (faster by the paired test at {} of {} "
                           "size{}",
                           finding.faster, finding.than, sizeSpan(v.smallest, v.largest),
                           range(v.lowChange, v.highChange), v.sizesFaster, n, plural(n));
        if (v.namedCannotTell > 0)
            text += fmt::format("; this run cannot tell at {}", v.namedCannotTell);
        text += ")";
    }
    for (const auto& t : v.tieSizes)
        text += fmt::format("{}at {}, where the finding says they tie: {}, {}",
                            text.empty() ? "" : "; ", formatSize(t.rangeBytes),
                            formatSignedPercent(t.change),
                            t.here == TieHere::Held     ? "a tie here"
                            : t.here == TieHere::Broken ? "not a tie here"
                                                        : "this run cannot tell");
    const bool published = finding.publishedLow && finding.publishedHigh;
    if (published)
        text +=
            fmt::format("; published: {}{}", range(*finding.publishedLow, *finding.publishedHigh),
                        finding.published.empty() ? "" : " " + finding.published);
    else if (!finding.published.empty())
        text += "; published: " + finding.published;
    switch (v.agreement) {
    case Agreement::Agrees: text += ". This machine agrees"; break;
    case Agreement::Partly: text += ". This machine agrees at some sizes only"; break;
    case Agreement::Disagrees: text += ". This machine does not agree"; break;
    case Agreement::Undecided: text += ". This run cannot tell"; break;
    }
    if (v.agreement != Agreement::Undecided && n > 0 && published)
        text += v.withinPublished ? ", within the published range." : ", by a different margin.";
    else
        text += ".";
    if (v.sizesCannotTell > 0) {
        if (!v.reachable)
            text += fmt::format(" With {} paired round{} and {} comparison{}, no difference can "
                                "reach p < 0.05: run {} more round{}.",
                                v.fewestPairs, plural(v.fewestPairs), v.comparisons,
                                plural(v.comparisons), v.roundsNeeded - v.fewestPairs,
                                plural(v.roundsNeeded - v.fewestPairs));
        else
            text += fmt::format(" Where it cannot tell, the rounds disagree among themselves: "
                                "run {} more rounds to narrow them.",
                                v.fewestPairs);
    }
    if (!v.perSize.empty() && published) {
        std::string list;
        for (const auto& [size, change] : v.perSize)
            list += fmt::format("{}{} {}", list.empty() ? "" : ", ", formatSize(size),
                                formatSignedPercent(change));
        text += fmt::format(" Per size here: {}; {} of {} within the published {}.", list,
                            v.sizesWithinPublished, n,
                            range(*finding.publishedLow, *finding.publishedHigh));
    }
    return text;
}

std::string zeroingVerdictText(const ResultDocument& doc, const Finding& finding,
                               const ZeroingVerdict& v) {
    std::string text = v.finding ? findingVerdictText(finding, *v.finding) : std::string();
    if (v.sizes.empty()) {
        const std::string missing = v.noMemsetRate ? std::string("this run measured no memset rate")
                                    : v.unsplitCell && *v.unsplitCell < doc.cells.size()
                                        ? timeSplitMissing(doc, doc.cells[*v.unsplitCell])
                                        : std::string();
        text += fmt::format("{}Where the time goes cannot be said for this run: {}.",
                            text.empty() ? "" : "\n", missing);
        return text;
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
                                       held, told, plural(told), perSize(v.sizes, gainText))
                         : fmt::format("at no size does the measured gain's interval tell that "
                                       "from no gain ({}): this run cannot tell whether zeroing "
                                       "is the difference.",
                                       perSize(v.sizes, gainText));
    }
    if (v.l2 == 0)
        text += "\nThis machine did not say how large its L2 cache is.";
    else
        text += acrossL2(v.sizes, v.l2);
    return text;
}

std::string cacheFillVerdictText(const ResultDocument& doc, const CacheFillFinding& finding,
                                 const CacheFillVerdict& v) {
    using NoFill = CacheFillVerdict::NoFill;
    using CannotTell = CacheFillVerdict::CannotTell;
    const std::string runLonger =
        fmt::format("run longer: set Duration to {:.0f} s or more (--duration {:.0f})",
                    v.longerSeconds, v.longerSeconds);
    std::string text;
    switch (v.noFill) {
    case NoFill::NothingMeasured:
        text = fmt::format("{} measured nothing here (unavailable or failed): there is nothing "
                           "to judge",
                           finding.falls);
        break;
    case NoFill::NoLimit:
        text = "This run had no memory limit: nothing forced the cache to evict the file while "
               "it was read, so there is no fill to judge";
        break;
    case NoFill::Fit:
        text = fmt::format("The whole file fit in the page cache ({:.0f}% of it cached at the "
                           "most): nothing had to be evicted, so there was no fill to judge. Use "
                           "a file several times larger than the memory limit",
                           v.peakResident * 100);
        break;
    case NoFill::NeverCached:
        text = fmt::format("At most {:.1f}% of the file was ever cached: no strategy's reads "
                           "filled the cache, so there is no fill to judge",
                           v.peakResident * 100);
        break;
    case NoFill::StillClimbing:
        text = fmt::format("The file's residency was still climbing late in the run (90% of its "
                           "peak, {:.0f}% of the file, only at {:.1f} s of {:.1f} s): {}",
                           v.peakResident * 100, v.filledAt.value_or(0), v.span, runLonger);
        break;
    case NoFill::TooFewRounds:
        text = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the "
                           "most), leaving fewer than {} rounds of some strategy on a side of "
                           "it: {}, or use a larger file",
                           v.filledAt.value_or(0), v.peakResident * 100, kRoundsEachSideOfFill,
                           runLonger);
        break;
    case NoFill::None: {
        const auto judged =
            std::find_if(v.strategies.begin(), v.strategies.end(),
                         [&](const auto& s) { return s.strategy == finding.falls; });
        const std::uint64_t rangeBytes = v.at ? v.at->rangeBytes : 0;
        text = fmt::format("The cache filled at {:.1f} s ({:.0f}% of the file cached at the most). "
                           "Median of the rounds before it against after it{}",
                           v.filledAt.value_or(0), v.peakResident * 100,
                           doc.plan.sizes.size() > 1 && v.at ? " at " + pointText(*v.at)
                                                             : std::string());
        if (judged != v.strategies.end())
            text += ": " + sideText(*judged, rangeBytes);
        for (const auto& s : v.strategies)
            if (s.strategy != finding.falls)
                text += "; " + sideText(s, rangeBytes);
        break;
    }
    }
    if (!finding.published.empty())
        text += ". Published: " + finding.published;
    std::string undecided;
    switch (v.cannotTell) {
    case CannotTell::None: break;
    case CannotTell::AllRose:
    case CannotTell::AllFell:
        undecided = fmt::format("every strategy {} after the fill, so the device or the machine "
                                "changed speed during the run",
                                v.cannotTell == CannotTell::AllRose ? "rose" : "fell");
        break;
    case CannotTell::OthersVary:
        undecided = fmt::format("{} fell, but whether the others held, their rounds vary too "
                                "much to say",
                                finding.falls);
        break;
    case CannotTell::FallVaries:
        undecided = fmt::format("whether {} fell, its rounds vary too much to say (its interval "
                                "reaches a fall of {:.0f}% or more without being sure of one)",
                                finding.falls, kHeldFall * 100);
        break;
    }
    switch (v.agreement) {
    case Agreement::Agrees:
        text += v.strategies.size() > 1
                    ? fmt::format(". This machine agrees: {} fell, the others held.", finding.falls)
                    : fmt::format(". This machine agrees that {} fell (no other strategy was "
                                  "measured beside it).",
                                  finding.falls);
        break;
    case Agreement::Partly:
        text += fmt::format(". This machine agrees in part: {} fell, and so did another.",
                            finding.falls);
        break;
    case Agreement::Disagrees:
        text += fmt::format(". This machine does not agree: {} did not fall once the cache was "
                            "full (its interval leaves no room for a fall of {:.0f}% or more).",
                            finding.falls, kHeldFall * 100);
        break;
    case Agreement::Undecided:
        text += undecided.empty()
                    ? ". This run cannot tell."
                    : ". This run cannot tell: " + undecided + ". To tell, " + runLonger + ".";
        break;
    }
    return text;
}

} // namespace readscope
