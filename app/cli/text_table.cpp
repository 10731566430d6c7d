#include "text_table.h"

#include "readscope/documents.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope::cli {

namespace {
std::string percent(const std::optional<double>& f) {
    return f ? fmt::format("{:.1f}%", *f * 100) : std::string("unverified");
}
} // namespace

std::string plainTable(const ResultDocument& doc) {
    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        cells.push_back(&c);
    std::stable_sort(cells.begin(), cells.end(),
                     [](const Cell* a, const Cell* b) { return a->rangeBytes < b->rangeBytes; });
    std::string out = fmt::format("{:<9} {:<15} {:>8} {:>8} {:>8} {:>6} {:>10}  {}\n", "range",
                                  "strategy", "GB/s", "min", "max", "cv", "resident", "status");
    std::uint64_t lastSize = 0;
    for (const Cell* c : cells) {
        if (lastSize && c->rangeBytes != lastSize)
            out += "\n";
        lastSize = c->rangeBytes;
        const auto& s = c->summary;
        std::string status(toString(c->status));
        if (!c->message.empty())
            status += ": " + c->message;
        if (c->status == CellStatus::Failed || c->status == CellStatus::Unavailable) {
            out += fmt::format("{:<9} {:<15} {:>8} {:>8} {:>8} {:>6} {:>10}  {}\n",
                               formatSize(c->rangeBytes), c->strategy, "-", "-", "-", "-", "-",
                               status);
            continue;
        }
        out += fmt::format("{:<9} {:<15} {:>8.2f} {:>8.2f} {:>8.2f} {:>5.1f}% {:>10}  {}\n",
                           formatSize(c->rangeBytes), c->strategy, s.median, s.min, s.max,
                           s.cv * 100, percent(c->residentBefore), status);
    }
    const auto& p = doc.plan;
    out += fmt::format("\nGB/s = 10^9 bytes/s; median of {} interleaved rounds; {} cache, {} "
                       "pattern, {} thread(s), consume {}; file {} ({}).\n",
                       p.rounds, toString(p.cache), toString(p.pattern), p.threads,
                       toString(p.consume), p.file, formatSize(doc.fileSize));
    out += systemLine(doc) + "\n";
    return out;
}

} // namespace readscope::cli
