#pragma once
// The report's chart, drawn in-process by the same chart library the desktop app shows
// (offscreen Qt, no display needed). Builds without Qt (the Windows cross build) say so.
#include "readscope/report.h"
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <string>

namespace readscope::cli {

Status renderChart(const ResultDocument& doc, const std::string& chartPath,
                   ReportChart which = ReportChart::PerSize);

} // namespace readscope::cli
