#include "text_table.h"

#include "readscope/column_notes.h"
#include "readscope/comparison_text.h"
#include "readscope/condition_words.h"
#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/document_words.h"
#include "readscope/documents.h"
#include "readscope/finding_text.h"
#include "readscope/mark_notes.h"
#include "readscope/run_notes.h"
#include "readscope/time_split.h"
#include "readscope/time_split_words.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace readscope::cli {

namespace {
std::string percent(const std::optional<double>& f) {
    return f ? fmt::format("{:.1f}%", *f * 100) : std::string("unverified");
}

// Ranges per second, short: "812", "61.2k", "1.25M".
std::string iops(const std::optional<double>& v) {
    if (!v)
        return "-";
    if (*v >= 1e6)
        return fmt::format("{:.2f}M", *v / 1e6);
    if (*v >= 1e3)
        return fmt::format("{:.1f}k", *v / 1e3);
    return *v >= 100 ? fmt::format("{:.0f}", *v) : fmt::format("{:.3g}", *v);
}

std::string ofLimit(const std::optional<double>& pct) {
    return pct ? fmt::format("{:.0f}%", *pct) : std::string("-");
}
} // namespace

std::string plainTable(const ResultDocument& doc) {
    const SweepAxis axis = sweepAxis(doc.plan);
    const std::vector<const Cell*> cells = cellsInTableOrder(doc);
    // Cold and direct runs say what the device fetched per byte wanted, after residency.
    const bool fetched = readsStorage(doc);
    const char* row = "{:<9} {:<15} {:>8} {:>8} {:>8} {:>6} {:>8} {:>7} {:>10}{} {:>8}  {}\n";
    auto fetchedColumn = [fetched](const std::string& text) {
        return fetched ? fmt::format(" {:>8}", text) : std::string();
    };
    std::string out = fmt::format(fmt::runtime(row),
                                  axis == SweepAxis::BufferOffset      ? "offset"
                                  : axis == SweepAxis::Threads         ? "threads"
                                  : axis == SweepAxis::QueueDepth      ? "in flight"
                                  : wholeFileSweep(doc.plan)           ? "file"
                                  : doc.plan.pattern == Pattern::Trace ? "reads"
                                                                       : "range",
                                  "strategy", "GB/s", "min", "max", "cv", "IOPS", runLimitName(doc),
                                  "resident", fetchedColumn("fetched"), "buffers", "status");
    std::optional<SweepPoint> last;
    for (const Cell* c : cells) {
        if (last && c->point() != *last)
            out += "\n";
        last = c->point();
        const auto& s = c->summary;
        std::string status = statusText(*c);
        if (!cellNotes(*c).empty())
            status += ": " + cellNotes(*c);
        const std::string where = rowLabel(doc, pointLabel(axis, c->point()));
        if (!c->measured()) {
            out += fmt::format(fmt::runtime(row), where, c->strategy, "-", "-", "-", "-", "-", "-",
                               "-", fetchedColumn("-"), "-", status);
            continue;
        }
        // Several offsets (growing buffers, a heap that moves) are counted here; the CSV and
        // JSON list them.
        const auto& offsets = c->bufferPageOffsets;
        const std::string placed = offsets.size() > 2 ? fmt::format("{} offs", offsets.size())
                                                      : formatOffsetCounts(offsets);
        out += fmt::format(
            "{:<9} {:<15} {:>8.2f} {:>8.2f} {:>8.2f} {:>5.1f}% {:>8} {:>7} {:>10}{} {:>8}  "
            "{}\n",
            where, c->strategy, s.median, s.min, s.max, s.cv * 100, iops(medianIops(*c)),
            ofLimit(pctOfRunLimit(doc, *c)), percent(c->residentBefore),
            fetchedColumn(c->fetchedPerWanted ? fmt::format("{:.2f}x", *c->fetchedPerWanted)
                                              : std::string("-")),
            placed.empty() ? "in place" : placed, status);
    }
    const auto& p = doc.plan;
    out += fmt::format("\nGB/s = 10^9 bytes/s; {}; {} cache, {}, {}, consume {}; "
                       "file {} ({}).\n",
                       roundsText(doc), toString(p.cache), patternWords(p), concurrencyText(p),
                       toString(p.consume), p.file, formatSize(doc.fileSize));
    if (const auto meaning = sweepPointMeaning(doc); !meaning.empty())
        out += fmt::format("{}{}: {}.\n", char(std::toupper(axisName(p)[0])), axisName(p).substr(1),
                           meaning);
    if (const auto limit = memoryLimitSentence(doc); !limit.empty())
        out += limit + "\n";
    out += "Buffers: " + buffersColumnNote() + ".\n";
    out += "IOPS: " + iopsColumnNote(p) + ". " + limitColumnNote(doc) + ".\n";
    if (p.consume == Consume::Minimal &&
        std::any_of(doc.cells.begin(), doc.cells.end(),
                    [&](const Cell& c) { return touchesOnePerPage(c.strategy, p.consume); }))
        out += onePerPageNote() + ".\n";
    if (const auto read = readAmplificationLine(doc); !read.empty())
        out += "Bytes read: " + read + ".\n";
    if (const auto line = fetchedLine(doc); !line.empty())
        out += "Fetched: " + line + ".\n";
    if (const auto note = documentNote(doc); !note.empty())
        out += "Note: " + note + ".\n";
    out += systemLine(doc) + "\n";
    const auto costs = costModelLines(doc);
    for (const auto& lines : {costs, timeSplitLines(doc, costs.empty())}) {
        if (lines.empty())
            continue;
        out += "\n";
        for (const auto& line : lines)
            out += line + "\n";
    }
    return out;
}

std::string runOutput(const ResultDocument& doc, const std::vector<RunFinding>& findings,
                      bool markdown, const Comparison* comparison, std::string_view baselinePath) {
    std::string out = markdown ? toMarkdown(doc, findings) : plainTable(doc);
    // An offset sweep's verdict is the run's answer: on stdout with the table (the Markdown
    // says it among its findings already).
    for (const auto& finding : findings)
        if ((finding.kind() == FindingKind::OffsetVerdict ||
             finding.kind() == FindingKind::TraceRanking) &&
            !markdown)
            out += fmt::format("\n{}.\n", findingText(finding, doc, "--rounds"));
    if (comparison)
        out +=
            fmt::format("\nThis run compared with {}:\n\n{}", baselinePath,
                        markdown ? comparisonMarkdown(*comparison) : comparisonText(*comparison));
    return out;
}

std::vector<FindingLine> runWarnings(const ResultDocument& doc,
                                     const std::vector<RunFinding>& findings) {
    std::vector<FindingLine> out;
    for (const auto& finding : findings) {
        if (finding.kind() == FindingKind::OffsetVerdict ||
            finding.kind() == FindingKind::TraceRanking)
            continue; // on stdout, with the table (runOutput)
        const bool fails = finding.kind() == FindingKind::NotCold;
        out.push_back(
            {(fails ? "readscope-cli: " : "warning: ") + findingText(finding, doc, "--rounds"),
             fails});
    }
    return out;
}

} // namespace readscope::cli
