#include "readscope/cost_model.h"
#include "readscope/time_split.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace readscope {

namespace {

// Column titles, in kTimeParts order.
constexpr const char* kHeads[] = {"syscalls", "faults", "zeroing", "page-cache", "copy", "fold"};
static_assert(std::size(kHeads) == kTimeParts.size());

// Whole percent; a share that rounds to zero is "0%", never "-0%".
std::string share(double v) {
    const double pct = std::round(v * 100);
    return fmt::format("{:.0f}%", pct == 0 ? 0.0 : pct);
}

} // namespace

std::vector<std::string> timeSplitLines(const ResultDocument& doc, bool withUnitCosts) {
    std::vector<std::string> rows, large;
    bool anyUnpriced = false;
    // The point column as wide as its longest ("1 MiB @ +16" on an offset sweep).
    std::size_t width = 9;
    for (const auto& cell : doc.cells)
        width = std::max(width, pointText(cell.point()).size());
    for (const auto& cell : doc.cells) {
        const auto split = timeSplit(doc, cell);
        if (!split)
            continue;
        std::string row =
            fmt::format("{:<18} {:>{}} {:>10}", cell.strategy, pointText(cell.point()), width,
                        microseconds(split->measuredSeconds));
        for (TimePart p : kTimeParts)
            row += fmt::format(" {:>10}",
                               split->partSeconds(p) ? share(split->share(p)) : std::string("-"));
        const double rest = split->unexplainedShare();
        row += fmt::format(" {:>11}", share(rest));
        rows.push_back(row);
        anyUnpriced |= !split->unpriced.empty();
        if (std::abs(rest) > kLargeUnexplainedShare)
            large.push_back(
                fmt::format("{} at {} ({})", cell.strategy, pointText(cell.point()), share(rest)));
    }
    if (rows.empty())
        return {};
    std::vector<std::string> lines;
    lines.push_back("Where the time goes: each cell's counts per range times this machine's unit "
                    "costs, as shares of the measured time per range");
    std::string head = fmt::format("{:<18} {:>{}} {:>10}", "strategy", "size", width, "µs/range");
    for (const char* h : kHeads)
        head += fmt::format(" {:>10}", h);
    lines.push_back(head + fmt::format(" {:>11}", "unexplained"));
    lines.insert(lines.end(), rows.begin(), rows.end());
    lines.push_back("(copy: the kernel's copy out of the page cache for reads, memcpy for "
                    "mappings; -: counted but not priced here; unexplained: measured minus the "
                    "parts, negative when they predict more)");
    if (anyUnpriced)
        lines.push_back("Some counts have no unit cost in this run: the teaching panel and the "
                        "JSON's time_split say which.");
    if (!large.empty()) {
        std::string list;
        for (const auto& l : large)
            list += (list.empty() ? "" : ", ") + l;
        lines.push_back(
            fmt::format("More than {:.0f}% unexplained: {}.", kLargeUnexplainedShare * 100, list));
    }
    if (const auto units = unitCostsSentence(doc); withUnitCosts && !units.empty())
        lines.push_back(units);
    return lines;
}

} // namespace readscope
