#include "readscope/finding.h"

#include "readscope/compare.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope {

namespace {

std::string pct(double v) { return fmt::format("{:+.0f}%", v * 100); }

std::string range(double lo, double hi) {
    return std::abs(hi - lo) < 0.005 ? pct(lo) : fmt::format("{} … {}", pct(lo), pct(hi));
}

std::string sizeSpan(std::uint64_t lo, std::uint64_t hi) {
    return lo == hi ? formatSize(lo) : fmt::format("{}–{}", formatSize(lo), formatSize(hi));
}

} // namespace

std::optional<FindingVerdict> judgeFinding(const ResultDocument& doc, const Finding& finding) {
    const Comparison c = compareToReference(doc, finding.than);
    std::vector<const CellComparison*> rows;
    for (const auto& cc : c.cells)
        if (cc.strategy == finding.faster && !cc.at.bufferOffset && !cc.at.threads &&
            !cc.at.queueDepth &&
            (finding.sizes.empty() || std::find(finding.sizes.begin(), finding.sizes.end(),
                                                cc.at.rangeBytes) != finding.sizes.end()))
            rows.push_back(&cc);
    if (rows.empty())
        return std::nullopt;
    FindingVerdict v;
    std::uint64_t smallest = rows.front()->at.rangeBytes, largest = smallest;
    v.lowChange = v.highChange = rows.front()->estimate.change;
    for (const auto* cc : rows) {
        const auto& e = cc->estimate;
        smallest = std::min(smallest, cc->at.rangeBytes);
        largest = std::max(largest, cc->at.rangeBytes);
        v.lowChange = std::min(v.lowChange, e.change);
        v.highChange = std::max(v.highChange, e.change);
        if (e.verdict == Verdict::Faster || e.verdict == Verdict::Slower ||
            e.verdict == Verdict::WithinNoise)
            ++v.sizesJudged;
        if (e.verdict == Verdict::Faster)
            ++v.sizesFaster;
    }
    const int n = int(rows.size());
    if (v.sizesJudged == 0)
        v.agreement = Agreement::Undecided;
    else if (v.sizesFaster == n)
        v.agreement = Agreement::Agrees;
    else if (v.sizesFaster > 0)
        v.agreement = Agreement::Partly;
    else
        v.agreement = Agreement::Disagrees;

    std::string text =
        fmt::format("{} against {} at {} here: {} (faster by the paired test at {} "
                    "of {} size{})",
                    finding.faster, finding.than, sizeSpan(smallest, largest),
                    range(v.lowChange, v.highChange), v.sizesFaster, n, n == 1 ? "" : "s");
    if (finding.publishedLow && finding.publishedHigh)
        text +=
            fmt::format("; published: {}{}", range(*finding.publishedLow, *finding.publishedHigh),
                        finding.published.empty() ? "" : " " + finding.published);
    else if (!finding.published.empty())
        text += "; published: " + finding.published;
    switch (v.agreement) {
    case Agreement::Agrees: text += ". This machine agrees"; break;
    case Agreement::Partly: text += ". This machine agrees at some sizes only"; break;
    case Agreement::Disagrees: text += ". This machine does not agree"; break;
    case Agreement::Undecided:
        text += ". Too few rounds or too much noise to say (raise the rounds)";
        break;
    }
    if (v.agreement != Agreement::Undecided && finding.publishedLow && finding.publishedHigh) {
        const bool within = v.lowChange >= *finding.publishedLow - 0.02 &&
                            v.highChange <= *finding.publishedHigh + 0.02;
        text += within ? ", within the published range." : ", by a different margin.";
    } else {
        text += ".";
    }
    if (n > 1 && finding.publishedLow && finding.publishedHigh) {
        // A published curve is judged point by point: where on it this machine differs.
        std::vector<const CellComparison*> bySize = rows;
        std::sort(bySize.begin(), bySize.end(),
                  [](auto* a, auto* b) { return a->at.rangeBytes < b->at.rangeBytes; });
        std::string list;
        for (const auto* cc : bySize) {
            const double change = cc->estimate.change;
            if (change >= *finding.publishedLow - 0.02 && change <= *finding.publishedHigh + 0.02)
                ++v.sizesWithinPublished;
            list += fmt::format("{}{} {}", list.empty() ? "" : ", ", formatSize(cc->at.rangeBytes),
                                pct(change));
        }
        text += fmt::format(" Per size here: {}; {} of {} within the published {}.", list,
                            v.sizesWithinPublished, n,
                            range(*finding.publishedLow, *finding.publishedHigh));
    }
    v.text = text;
    return v;
}

} // namespace readscope
