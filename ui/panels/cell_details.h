#pragma once
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

// What one cell measured, per round medians: CPU time, page faults, system calls, latency,
// residency, checksum, message. HTML for the Details tab.
QString cellDetailsHtml(const Cell& cell, const ResultDocument& doc);

} // namespace readscope::ui
