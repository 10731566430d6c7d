#pragma once
// An offset sweep's verdict as the teaching panel shows it, and its slow band kept per machine
// for the teaching panel of later runs (the log has the verdict with the run's findings).
#include "readscope/offset_trap.h"
#include "readscope/result_document.h"

#include <QSettings>
#include <QString>

#include <optional>

namespace readscope::ui {

struct OffsetVerdictView {
    QString text; // the verdict
    QString html; // the teaching panel's page
};

// None when the document is not an offset sweep.
std::optional<OffsetVerdictView> offsetVerdictView(const ResultDocument& doc);
// Keeps the sweep's slow band (or that it found none) for the CPU that measured it.
void rememberOffsetVerdict(QSettings& s, const ResultDocument& doc);
// The band kept for the CPU that measured doc; none when it was measured on another CPU.
std::optional<SlowBand> rememberedSlowBand(const QSettings& s, const ResultDocument& doc);

} // namespace readscope::ui
