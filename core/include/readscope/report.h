#pragma once
// One Markdown file to attach to an issue: the table, the comparison if any, the machine, and
// the exact readscope-cli command that reproduces the run.
#include "readscope/compare.h"
#include "readscope/provenance.h"
#include "readscope/result_document.h"

#include <optional>
#include <string>

namespace readscope {

// A report folder's files, the same from the CLI (--report DIR) and the app (File ▸ Export
// report): the Markdown that links the chart, the chart, and the reloadable results.
struct ReportFiles {
    static constexpr const char* markdown = "readscope-report.md";
    static constexpr const char* chart = "readscope-chart.png";
    static constexpr const char* results = "readscope-results.json";
};

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName);

} // namespace readscope
