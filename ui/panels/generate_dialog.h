#pragma once
// "Generate test file…": asks for a size and a folder, then writes the file on a background
// thread with a progress bar and a Cancel button.
#include "readscope/generator.h"

#include <QString>

#include <cstdint>

class QWidget;

namespace readscope::ui {

// Returns the path written, or an empty string when cancelled or failed (after telling why).
QString generateTestFile(QWidget* parent, const QString& suggestedFolder,
                         std::uint64_t size = kDefaultTestFileSize,
                         const QString& name = "readscope-test.bin");

// Writes path with progress and cancel, no questions asked (used at first start).
bool generateWithProgress(QWidget* parent, const QString& path, quint64 size, QString* error);

// After a dialog on `window` closes: the window takes the keyboard back, the Run button
// focused.
void giveKeyboardBack(QWidget* window);

} // namespace readscope::ui
