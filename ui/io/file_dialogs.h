#pragma once
// The app's file dialogs. Each starts in the folder its purpose ("target", "results",
// "report") used last and remembers the folder chosen; each returns an empty string when the
// person cancels.
#include <QString>

class QWidget;

namespace readscope::ui {

// A result document (JSON or CSV) to open, as results or as a baseline.
// "The folder F does not exist." for a chosen folder that is gone.
QString missingFolderText(const QString& folder);
QString askResultsFile(QWidget* parent, const QString& title);
// Where to write a file: suggestedName in the results folder used last; the suffix is added
// when the name typed has none.
QString askSavePath(QWidget* parent, const QString& title, const QString& filter,
                    const QString& suggestedName, const QString& suffix);
// A folder for a report.
QString askReportFolder(QWidget* parent, const QString& title);
// A trace to replay (readscope's, an strace log, a fio I/O log, a CSV of offset,length).
QString askTraceFile(QWidget* parent);
// The file to measure; starts at current when there is one.
QString askTargetFile(QWidget* parent, const QString& current);

} // namespace readscope::ui
