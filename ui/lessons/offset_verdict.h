#pragma once
// An offset sweep's verdict as the window says it (the log line, and a page for the teaching
// panel), and its slow band kept per machine for the teaching panel of later runs. Works
// without the main window (tst_window_parts).
#include "readscope/offset_trap.h"
#include "readscope/result_document.h"

#include <QSettings>
#include <QString>

#include <optional>

namespace readscope::ui {

struct OffsetVerdictView {
    QString text;       // the verdict, for the log
    bool cliff = false; // a slow band was found: the log says it as a warning
    QString html;       // the teaching panel's page
};

// None when the document is not a finished offset sweep.
std::optional<OffsetVerdictView> offsetVerdictView(const ResultDocument& doc);
// Keeps the sweep's slow band (or that it found none) for the CPU that measured it.
void rememberOffsetVerdict(QSettings& s, const ResultDocument& doc);
// The band kept for the CPU that measured doc (doc's own, when it is another machine's).
std::optional<SlowBand> rememberedSlowBand(const QSettings& s, const ResultDocument& doc);

} // namespace readscope::ui
