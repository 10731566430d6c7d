#include "readscope/report.h"
#include "readscope/comparison_text.h"

#include "readscope/documents.h"
#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

bool reportsOverTime(const ResultDocument& doc) { return doc.plan.durationSeconds > 0; }

bool reportsShootdowns(const ResultDocument& doc) {
    if (!reportsOverTime(doc))
        return false;
    for (const auto& cell : doc.cells)
        for (const auto& s : cell.samples)
            if (s.tlbShootdowns)
                return true;
    return false;
}

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName,
                           const std::string& overTimeChartFileName,
                           const std::string& shootdownsChartFileName) {
    std::string out = "# readscope results\n\n";
    if (!chartFileName.empty())
        out += fmt::format("![GB/s per range size]({})\n\n", chartFileName);
    if (!overTimeChartFileName.empty())
        out += fmt::format("![GB/s of each round over time]({})\n\n", overTimeChartFileName);
    if (!shootdownsChartFileName.empty())
        out += fmt::format("![TLB shootdowns of each round over time, machine-wide]({})\n\n",
                           shootdownsChartFileName);
    out += toMarkdown(doc);
    if (comparison) {
        out += fmt::format("\n## Comparison: {}\n\n", comparison->title);
        out += comparisonMarkdown(*comparison);
    }
    const auto& s = doc.system;
    out += "\n## System\n\n";
    out += fmt::format("- CPU: {} ({} logical cores)\n", s.cpuModel, s.logicalCores);
    if (const auto caches = cachesText(s.caches); !caches.empty())
        out += fmt::format("- CPU caches: {}\n", caches);
    out += fmt::format("- Kernel: {}\n- Filesystem: {}\n- Page size: {} B\n- readscope: {}\n- "
                       "Date: {}\n",
                       s.kernel, s.filesystem, s.pageSize, s.toolVersion, s.date);
    return out; // toMarkdown ends with the command that reruns it
}

} // namespace readscope
