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

namespace readscope {

namespace {

std::string cellText(const Cell* c) {
    if (!c)
        return "";
    switch (c->status) {
    case CellStatus::Failed: return "failed";
    case CellStatus::Unavailable: return "n/a";
    case CellStatus::Noisy: return fmt::format("{:.2f}*", c->summary.median);
    case CellStatus::NotCold: return fmt::format("{:.2f}†", c->summary.median);
    case CellStatus::TooFewRounds: return fmt::format("{:.2f}§", c->summary.median);
    case CellStatus::Unverified: return fmt::format("{:.2f}?", c->summary.median);
    case CellStatus::Ok: break;
    }
    return fmt::format("{:.2f}", c->summary.median);
}

// Where the buffers were, in words: what a reader of the table needs to compare it with theirs.
std::string placementSentence(const ResultDocument& doc) {
    const auto& offsets = doc.plan.bufferOffsets;
    if (sweepAxis(doc.plan) == SweepAxis::BufferOffset)
        return fmt::format(" Rows: {}.", sweepPointMeaning(doc));
    if (offsets.empty())
        return " Buffers where the allocator put them (page offsets in the CSV).";
    return fmt::format(" Every buffer pinned at page offset {}.", formatBufferOffset(offsets[0]));
}

} // namespace

// Each cell's GB/s per round, collapsed on GitHub and plain lines in a terminal, so a reader
// can check the spread without the JSON.
std::string roundsBlock(const ResultDocument& doc) {
    std::string lines;
    std::size_t width = 0;
    for (const auto& c : doc.cells)
        width = std::max(width, c.strategy.size());
    for (const auto& c : doc.cells) {
        if (c.samples.empty())
            continue;
        lines += fmt::format("{:<{}} {:>8}:", c.strategy, width, pointText(c.point()));
        for (const auto& s : c.samples)
            lines += s.gbps() ? fmt::format(" {:.2f}", *s.gbps()) : std::string(" –");
        lines += "\n";
    }
    if (lines.empty())
        return {};
    return "\n<details><summary>GB/s of every round</summary>\n\n```\n" + lines +
           "```\n\n</details>\n";
}

std::string toMarkdown(const ResultDocument& doc) { return toMarkdown(doc, runFindings(doc)); }

std::string toMarkdown(const ResultDocument& doc, const std::vector<RunFinding>& findings) {
    const auto ids = doc.measuredStrategies();
    const SweepAxis axis = sweepAxis(doc.plan);
    std::string out = doc.plan.pattern == Pattern::Trace ? std::string("| reads |")
                      : axis == SweepAxis::RangeSize && !wholeFileSweep(doc.plan)
                          ? std::string("| range |")
                          : fmt::format("| {} |", axisName(doc.plan));
    std::string rule = "|---:|";
    // Under --consume minimal an in-place mapping touched one byte per page: its column is
    // marked, so that nobody sets it beside copies that had every byte.
    auto onePerPage = [&](const std::string& id) {
        return touchesOnePerPage(id, doc.plan.consume);
    };
    bool anyOnePerPage = false;
    for (const auto& id : ids) {
        anyOnePerPage |= onePerPage(id);
        out += fmt::format(" {}{} |", id, onePerPage(id) ? " ‡" : "");
        rule += "---:|";
    }
    out += "\n" + rule + "\n";
    for (const auto& point : doc.points()) {
        out += fmt::format("| {} |", rowLabel(doc, pointLabel(axis, point)));
        for (const auto& id : ids)
            out += fmt::format(" {} |", cellText(doc.find(id, point)));
        out += "\n";
    }
    const auto& p = doc.plan;
    out += fmt::format("\nGB/s (10^9 bytes/s), {}; {} cache, {}, {}, file {}, consume {}.",
                       roundsText(doc), toString(p.cache), patternWords(p), concurrencyText(p),
                       formatSize(doc.fileSize), toString(p.consume));
    if (sweepAxis(p) == SweepAxis::Threads || sweepAxis(p) == SweepAxis::QueueDepth)
        out += fmt::format(" Rows: {}.", sweepPointMeaning(doc));
    out += placementSentence(doc);
    if (const auto limit = memoryLimitSentence(doc); !limit.empty())
        out += " " + limit;
    const bool anyNoisy = std::any_of(doc.cells.begin(), doc.cells.end(),
                                      [](const Cell& c) { return c.status == CellStatus::Noisy; });
    if (anyNoisy)
        out +=
            fmt::format(" \\* {} (interval coverage {}).", noisyNote(), intervalCoverageText(doc));
    const auto tooFew = std::count_if(doc.cells.begin(), doc.cells.end(), [](const Cell& c) {
        return c.status == CellStatus::TooFewRounds;
    });
    if (tooFew)
        out += fmt::format(" § {}: the median's interval (coverage {}) is too unsure to call {} "
                           "noisy or not.",
                           tooFewRoundsNote(), intervalCoverageText(doc),
                           tooFew == 1 ? "the cell" : "these cells");
    const auto notCold = std::count_if(doc.cells.begin(), doc.cells.end(), [](const Cell& c) {
        return c.status == CellStatus::NotCold;
    });
    if (notCold) // what it means is the run's not-cold finding, below
        out += " † " + notColdNote() + ".";
    if (std::any_of(doc.cells.begin(), doc.cells.end(),
                    [](const Cell& c) { return c.status == CellStatus::Unverified; }))
        out += " ? unverified: a check these figures rest on did not happen (the cell's notes "
               "say which).";
    if (const auto read = readAmplificationLine(doc); !read.empty())
        out += " Bytes read: " + read + ".";
    if (const auto line = fetchedLine(doc); !line.empty())
        out += " Fetched: " + line + ".";
    if (const auto limit = deviceLimitText(doc); !limit.empty())
        out += " Limit: " + limit + ".";
    for (const auto& finding : findings)
        out += " **" + findingText(finding, doc, "--rounds") + ".**";
    if (anyOnePerPage)
        out += " ‡ 1 byte/page: " + onePerPageNote() + ".";
    if (const auto note = documentNote(doc); !note.empty())
        out += " Note: " + note + ".";
    out += "\n" + systemLine(doc) + "\n";
    const auto costs = costModelLines(doc);
    for (const auto& lines : {costs, timeSplitLines(doc, costs.empty())}) {
        if (lines.empty())
            continue;
        out += "\n```\n";
        for (const auto& line : lines)
            out += line + "\n";
        out += "```\n";
    }
    out += "\nRerun: `" + rerunCommand(doc) + "`\n";
    out += roundsBlock(doc);
    return out;
}

} // namespace readscope
