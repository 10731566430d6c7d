#pragma once
// One Markdown file to attach to an issue: the table, the comparison if any, the machine, and
// the exact readscope-cli command that reproduces the run.
#include "readscope/compare.h"
#include "readscope/provenance.h"
#include "readscope/result_document.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope {

// A report folder's files, the same from the CLI (--report DIR) and the app (File ▸ Export
// report): the Markdown that links the chart, the chart, and the reloadable results.
struct ReportFiles {
    static constexpr const char* markdown = "readscope-report.md";
    static constexpr const char* chart = "readscope-chart.png";
    // A duration run's rounds over time (reportsOverTime), beside the chart.
    static constexpr const char* overTimeChart = "readscope-over-time.png";
    // ... and their TLB shootdowns over time, where the rounds counted them
    // (reportsShootdowns).
    static constexpr const char* shootdownsChart = "readscope-tlb-shootdowns.png";
    static constexpr const char* results = "readscope-results.json";
};

// Whether a report shows the rounds' GB/s over time too: a duration run's (--duration), whose
// rounds are a time series.
bool reportsOverTime(const ResultDocument& doc);
// Whether it shows the rounds' TLB shootdowns over time too: a duration run's whose rounds
// counted them (a machine whose /proc/interrupts counts none has no such chart).
bool reportsShootdowns(const ResultDocument& doc);

// The charts a report draws: GB/s per range size, the rounds' GB/s over time, their TLB
// shootdowns over time.
enum class ReportChart { PerSize, OverTime, Shootdowns };

// A chart a report draws beside its main one: which, its file, and the Markdown's words for it.
struct ReportExtraChart {
    ReportChart chart;
    const char* file;
    const char* caption;
};
// The ones this run has, in the report's order (reportsOverTime, reportsShootdowns): each
// front end draws them and passes the ones it could draw to reportMarkdown.
std::vector<ReportExtraChart> reportExtraCharts(const ResultDocument& doc);

// An empty chart name: the chart could not be drawn, and the report goes without it; `drawn`:
// the extra charts that were.
std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName,
                           const std::vector<ReportExtraChart>& drawn = {});

} // namespace readscope
