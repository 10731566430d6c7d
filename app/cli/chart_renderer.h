#pragma once
// readscope-cli has no Qt; for a chart it asks the desktop app, installed beside it, to render
// a saved result document headless (QT_QPA_PLATFORM=offscreen).
#include "readscope/result.h"

#include <string>

namespace readscope::cli {

Status renderChart(const std::string& resultsJson, const std::string& chartPath);

} // namespace readscope::cli
