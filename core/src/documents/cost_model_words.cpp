#include "readscope/cost_model_words.h"

#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace readscope {

std::string cacheCutSentence(const CacheCut& cut) {
    std::string left;
    for (auto n : cut.leftOut)
        left += (left.empty() ? "" : ", ") + formatSize(n);
    return fmt::format("Fitted up to the {} cache ({}); {} left out: past it a copy's bandwidth "
                       "falls, and one straight line cannot fit both sides.",
                       cut.level, formatSize(cut.bytes), left);
}

std::string unresolvedFixedText(const CostFit& fit) {
    const auto at = formatSize(static_cast<std::uint64_t>(fit.smallestBytes));
    if (fit.fixedSeconds <= 0)
        return fmt::format("not resolved: the best line has no fixed cost above zero, and "
                           "at {} the fit's error is {:.0f}%",
                           at, fit.worstMisfit * 100);
    return fmt::format("not resolved: at {} it would be {:.1f}% of a range's time, within the "
                       "fit's {:.0f}% error",
                       at, 100 * fit.fixedSeconds / fit.smallestSeconds, fit.worstMisfit * 100);
}

std::string costFitMissing(const ResultDocument& doc, const std::string& strategy) {
    const auto cut = fitCut(doc);
    if (!cut || !readAmplificationText(doc, strategy).empty())
        return {};
    std::set<std::uint64_t> all, under;
    for (const auto& c : doc.cells)
        if (c.strategy == strategy && secondsPerRange(c, threadsAt(doc.plan, c.point()))) {
            all.insert(c.rangeBytes);
            if (c.rangeBytes <= cut->bytes)
                under.insert(c.rangeBytes);
        }
    if (under.size() >= 3 || all.size() < 3)
        return {};
    return fmt::format("not fitted: {} of its sizes lie at or below the {} cache ({}), and a "
                       "line needs 3 (its other sizes at or below it were not measured)",
                       under.empty() ? std::string("none") : fmt::format("only {}", under.size()),
                       cut->level, formatSize(cut->bytes));
}

std::string seekCheckSentence(const SeekCheck& check) {
    std::string line =
        check.extraFixedSeconds
            ? fmt::format("seek-read pays {} µs {} per range than pread-uninit",
                          microseconds(std::abs(*check.extraFixedSeconds)),
                          *check.extraFixedSeconds >= 0 ? "more" : "less")
            : std::string("These sizes do not resolve the fixed costs of both seek-read and "
                          "pread-uninit, so the fits cannot show what the lseek adds");
    if (check.seeksPerRange)
        line += fmt::format("; it makes {:.2f} lseek per range (counted)", *check.seeksPerRange);
    if (check.lseekSeconds)
        line += fmt::format("{} one lseek costs {} µs here", check.seeksPerRange ? ", and" : ";",
                            microseconds(*check.lseekSeconds));
    return line + ".";
}

std::string unitCostsSentence(const ResultDocument& doc, bool withLseek) {
    const auto& u = doc.unitCosts;
    std::string parts;
    for (const auto& [what, seconds] :
         {std::pair{"a system call that does nothing", u.nullSyscall},
          std::pair{"a page fault on a fresh anonymous page (a new buffer's first touch)",
                    u.anonymousFault},
          std::pair{"a page fault on a mapped, cached page of the file's first MiBs (the "
                    "kernel maps its neighbours with it: 16 to 256 pages here, as the page "
                    "cache holds them; a mapping's cells are priced on their own pages)",
                    u.fileFault},
          std::pair{"a cached page through a read, beyond copying its bytes", u.cachedPage},
          std::pair{"a mapped file page unmapped", u.unmapPage},
          std::pair{"one lseek", withLseek ? doc.lseekSeconds : std::nullopt}})
        if (seconds)
            parts +=
                fmt::format("{}{} {} µs", parts.empty() ? "" : "; ", what, microseconds(*seconds));
    return parts.empty() ? std::string() : "Unit costs here, measured at the start: " + parts + ".";
}

std::vector<std::string> costModelLines(const ResultDocument& doc) {
    const auto fits = fitCosts(doc);
    std::vector<std::string> lines, missing;
    for (const auto& id : doc.measuredStrategies())
        if (const auto why = costFitMissing(doc, id); !why.empty())
            missing.push_back(fmt::format("  {}: {}", id, why));
    if (fits.empty() && missing.empty())
        return lines;
    const std::string axis(axisName(doc.plan));
    lines.push_back(fmt::format("Cost per {}: t(n) = fixed + n / bandwidth, fitted to the medians "
                                "(least squares on relative error)",
                                wholeFileSweep(doc.plan) ? "file" : "range"));
    lines.push_back(fmt::format("{:<18} {:>10} {:>12} {:>20} {:>8}", "strategy", "fixed µs", "GB/s",
                                "fixed-dominated below", "misfit"));
    bool unresolved = false;
    for (const auto& f : fits) {
        unresolved |= !f.fixedResolved();
        lines.push_back(fmt::format(
            "{:<18} {:>10} {:>12.2f} {:>20} {:>7.0f}%", f.strategy,
            f.fixedResolved() ? microseconds(f.fixedSeconds) : std::string("n/r"),
            f.bytesPerSecond / 1e9,
            f.fixedResolved() ? formatSize(static_cast<std::uint64_t>(f.halfFixedBytes()))
                              : std::string("-"),
            f.worstMisfit * 100));
    }
    lines.push_back(fmt::format("(fixed-dominated below: the {} under which half the time or more "
                                "is fixed cost; misfit: the fit's worst error over the sizes)",
                                axis));
    if (unresolved) {
        lines.push_back("n/r: these sizes do not resolve the fixed cost (at the smallest size it "
                        "is within the fit's own error):");
        for (const auto& f : fits)
            if (!f.fixedResolved())
                lines.push_back(fmt::format("  {}: {}", f.strategy, unresolvedFixedText(f)));
    }
    if (const auto cut = fitCut(doc))
        lines.push_back(cacheCutSentence(*cut));
    if (!missing.empty()) {
        lines.push_back("Not in the table:");
        lines.insert(lines.end(), missing.begin(), missing.end());
    }
    const auto check = seekCheck(doc, fits);
    if (check)
        lines.push_back(seekCheckSentence(*check));
    if (const auto units = unitCostsSentence(doc, !check); !units.empty())
        lines.push_back(units);
    return lines;
}

} // namespace readscope
