#pragma once
// The configuration panel's field helpers (config_panel.cpp's).
#include "readscope/plan.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

class QComboBox;
class QSpinBox;
class QWidget;

namespace readscope::ui {

// "16K,64K,1M": a size list as the sizes field takes it.
QString sizeListText(const std::vector<std::uint64_t>& sizes);
// A setting's help from the core (plan_help.h) as a tooltip: rich text, so that it wraps, each
// part on a line of its own.
QString helpTip(const std::string& help);
// An editable box for a value or a list (threads, queue depth, buffer offset), with presets.
QComboBox* listBox(QWidget* parent, const char* name, const QStringList& presets);
// The memory limit in MiB (0: off), at least kMinMemoryLimit when on.
QSpinBox* memoryLimitBox(QWidget* parent);
// A duration run's seconds (0: off, rounds as planned), at most kMaxDurationSeconds.
QSpinBox* durationBox(QWidget* parent);
// Fills a preset box; the last entry (Custom) carries no list, so choosing it keeps the text.
void fillPresets(QComboBox* box, const std::vector<std::pair<QString, QString>>& presets);

} // namespace readscope::ui
