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

std::vector<ReportExtraChart> reportExtraCharts(const ResultDocument& doc) {
    std::vector<ReportExtraChart> charts;
    if (reportsOverTime(doc))
        charts.push_back(
            {ReportChart::OverTime, ReportFiles::overTimeChart, "GB/s of each round over time"});
    if (reportsShootdowns(doc))
        charts.push_back({ReportChart::Shootdowns, ReportFiles::shootdownsChart,
                          "TLB shootdowns of each round over time, machine-wide"});
    return charts;
}

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName,
                           const std::vector<ReportExtraChart>& drawn) {
    std::string out = "# readscope results\n\n";
    if (!chartFileName.empty())
        out += fmt::format("![GB/s per range size]({})\n\n", chartFileName);
    for (const auto& extra : drawn)
        out += fmt::format("![{}]({})\n\n", extra.caption, extra.file);
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
