#include "readscope/documents.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope {

namespace {

std::vector<std::string> strategyColumns(const ResultDocument& doc) {
    std::vector<std::string> ids;
    for (const auto& c : doc.cells)
        if (std::find(ids.begin(), ids.end(), c.strategy) == ids.end())
            ids.push_back(c.strategy);
    return ids;
}

std::vector<std::uint64_t> sizeRows(const ResultDocument& doc) {
    std::vector<std::uint64_t> sizes;
    for (const auto& c : doc.cells)
        if (std::find(sizes.begin(), sizes.end(), c.rangeBytes) == sizes.end())
            sizes.push_back(c.rangeBytes);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

std::string cellText(const Cell* c) {
    if (!c)
        return "";
    switch (c->status) {
    case CellStatus::Failed: return "failed";
    case CellStatus::Unavailable: return "n/a";
    case CellStatus::Noisy: return fmt::format("{:.2f}*", c->summary.median);
    case CellStatus::Ok: break;
    }
    return fmt::format("{:.2f}", c->summary.median);
}

} // namespace

std::string systemLine(const ResultDocument& doc) {
    const auto& s = doc.system;
    std::string date = s.date.substr(0, 10);
    return fmt::format("readscope {} · {} · {} logical cores · {} · {} · page {} B · {}",
                       s.toolVersion, s.cpuModel, s.logicalCores, s.kernel, s.filesystem,
                       s.pageSize, date);
}

std::string toMarkdown(const ResultDocument& doc) {
    const auto ids = strategyColumns(doc);
    std::string out = "| range |";
    std::string rule = "|---:|";
    for (const auto& id : ids) {
        out += fmt::format(" {} |", id);
        rule += "---:|";
    }
    out += "\n" + rule + "\n";
    for (auto size : sizeRows(doc)) {
        out += fmt::format("| {} |", formatSize(size));
        for (const auto& id : ids)
            out += fmt::format(" {} |", cellText(doc.find(id, size)));
        out += "\n";
    }
    const auto& p = doc.plan;
    out += fmt::format("\nGB/s (10^9 bytes/s), median of {} interleaved rounds; {} cache, {} "
                       "ranges, {} thread{}, file {}, consume {}.",
                       p.rounds, toString(p.cache), toString(p.pattern), p.threads,
                       p.threads == 1 ? "" : "s", formatSize(doc.fileSize), toString(p.consume));
    const bool anyNoisy = std::any_of(doc.cells.begin(), doc.cells.end(),
                                      [](const Cell& c) { return c.status == CellStatus::Noisy; });
    if (anyNoisy)
        out += " \\* spread (CV) above 5%: noisy.";
    if (!doc.complete)
        out += " Run stopped before it finished.";
    out += "\n" + systemLine(doc) + "\n";
    return out;
}

} // namespace readscope
