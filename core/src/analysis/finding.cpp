#include "readscope/finding.h"

#include "readscope/compare.h"
#include "readscope/units.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace readscope {

std::optional<FindingVerdict> judgeFinding(const ResultDocument& doc, const Finding& finding) {
    auto isTie = [&](std::uint64_t size) {
        return std::find(finding.ties.begin(), finding.ties.end(), size) != finding.ties.end();
    };
    auto named = [&](std::uint64_t size) {
        return finding.sizes.empty() ||
               std::find(finding.sizes.begin(), finding.sizes.end(), size) != finding.sizes.end();
    };
    // Only the finding's comparisons: the two strategies at its sizes and its tie sizes.
    ResultDocument own;
    own.plan = doc.plan;
    for (const auto& cell : doc.cells)
        if ((cell.strategy == finding.faster || cell.strategy == finding.than) &&
            !cell.bufferOffset && !cell.pointThreads && !cell.pointQueueDepth &&
            (named(cell.rangeBytes) || isTie(cell.rangeBytes)))
            own.cells.push_back(cell);
    const Comparison c = compareToReference(own, finding.than, kDefaultNoiseThreshold, kTieChange);
    std::vector<const CellComparison*> rows, ties;
    for (const auto& cc : c.cells)
        if (cc.strategy == finding.faster)
            (isTie(cc.at.rangeBytes) && !(named(cc.at.rangeBytes) && !finding.sizes.empty()) ? ties
                                                                                             : rows)
                .push_back(&cc);
    if (rows.empty() && ties.empty())
        return std::nullopt;
    FindingVerdict v;
    v.roundsNeeded = roundsToCall(rows.size() + ties.size(), true);
    std::size_t fewestPairs = SIZE_MAX;
    for (const auto& cell : own.cells)
        fewestPairs = std::min(fewestPairs, cell.samples.size());
    const bool reachable = fewestPairs != SIZE_MAX && int(fewestPairs) >= v.roundsNeeded;
    // A row told either way, a tie (the same within kTieChange: an equivalence test), or this
    // run cannot tell: never "not significant" taken for a tie.
    auto told = [](const Verdict& e) { return e.directional(); };
    auto tie = [](const Verdict& e) { return e.outcome == Outcome::Same; };
    int disagree = 0;
    std::uint64_t smallest = 0, largest = 0;
    for (const auto* cc : rows) {
        const auto& e = cc->verdict;
        if (v.sizesJudged + v.sizesCannotTell == 0) {
            smallest = largest = cc->at.rangeBytes;
            v.lowChange = v.highChange = e.change.value_or(0);
        }
        smallest = std::min(smallest, cc->at.rangeBytes);
        largest = std::max(largest, cc->at.rangeBytes);
        v.lowChange = std::min(v.lowChange, e.change.value_or(0));
        v.highChange = std::max(v.highChange, e.change.value_or(0));
        if (e.outcome == Outcome::Faster)
            ++v.sizesFaster;
        if (told(e) || tie(e)) {
            ++v.sizesJudged;
            disagree += e.outcome == Outcome::Faster ? 0 : 1; // slower, or a tie
        } else {
            ++v.sizesCannotTell;
        }
    }
    for (const auto* cc : ties) {
        if (tie(cc->verdict)) {
            ++v.tiesHeld;
            ++v.tiesJudged;
        } else if (told(cc->verdict)) {
            ++v.tiesJudged;
            ++disagree;
        } else {
            ++v.sizesCannotTell;
        }
    }
    const int agree = v.sizesFaster + v.tiesHeld;
    const int all = int(rows.size() + ties.size());
    if (agree == all)
        v.agreement = Agreement::Agrees;
    else if (agree > 0)
        v.agreement = Agreement::Partly;
    else if (disagree > 0)
        v.agreement = Agreement::Disagrees;
    else
        v.agreement = Agreement::Undecided;

    v.sizesNamed = int(rows.size());
    v.smallest = smallest;
    v.largest = largest;
    v.namedCannotTell = v.sizesCannotTell - (int(ties.size()) - v.tiesJudged);
    for (const auto* cc : ties)
        v.tieSizes.push_back({cc->at.rangeBytes, cc->verdict.change.value_or(0),
                              tie(cc->verdict)    ? TieHere::Held
                              : told(cc->verdict) ? TieHere::Broken
                                                  : TieHere::CannotTell});
    v.reachable = reachable;
    v.fewestPairs = fewestPairs == SIZE_MAX ? 0 : int(fewestPairs);
    v.comparisons = all;
    if (finding.publishedLow && finding.publishedHigh) {
        v.withinPublished = v.lowChange >= *finding.publishedLow - 0.02 &&
                            v.highChange <= *finding.publishedHigh + 0.02;
        if (rows.size() > 1) {
            // A published curve is judged point by point: where on it this machine differs.
            std::vector<const CellComparison*> bySize = rows;
            std::sort(bySize.begin(), bySize.end(),
                      [](auto* a, auto* b) { return a->at.rangeBytes < b->at.rangeBytes; });
            for (const auto* cc : bySize) {
                const double change = cc->verdict.change.value_or(0);
                if (change >= *finding.publishedLow - 0.02 &&
                    change <= *finding.publishedHigh + 0.02)
                    ++v.sizesWithinPublished;
                v.perSize.emplace_back(cc->at.rangeBytes, change);
            }
        }
    }
    return v;
}

} // namespace readscope
