#pragma once
#include "readscope/offset_trap.h"
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

// The teaching panel for one strategy: what it does per range and what that costs, then, for
// every cell of it in doc, what was measured per MiB, and where the two disagree.
// band: the slow buffer offsets "The 16-byte trap" measured on this machine, if it has run.
QString strategyHtml(const std::string& id, const ResultDocument& doc,
                     const SlowBand* band = nullptr);

} // namespace readscope::ui
