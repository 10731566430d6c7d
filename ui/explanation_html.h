#pragma once
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

// The teaching panel for one strategy: what it does per range and what that costs, then, for
// every cell of it in doc, what was measured per MiB, and where the two disagree.
QString strategyHtml(const std::string& id, const ResultDocument& doc);

} // namespace readscope::ui
