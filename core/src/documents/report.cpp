#include "readscope/report.h"
#include "readscope/comparison_text.h"

#include "readscope/documents.h"
#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

bool reportsOverTime(const ResultDocument& doc) { return doc.plan.durationSeconds > 0; }

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName,
                           const std::string& overTimeChartFileName) {
    std::string out = "# readscope results\n\n";
    if (!chartFileName.empty())
        out += fmt::format("![GB/s per range size]({})\n\n", chartFileName);
    if (!overTimeChartFileName.empty())
        out += fmt::format("![GB/s of each round over time]({})\n\n", overTimeChartFileName);
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
