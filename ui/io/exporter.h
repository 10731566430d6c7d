#pragma once
// Writing exports: always through QSaveFile, so a failure leaves any previous file intact.
// Every export returns an empty string on success, else a message naming the path and cause.
#include "readscope/compare.h"
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

class ChartView;

QString saveTextAtomically(const QString& path, const QByteArray& content);

// A name that says what a saved file holds: readscope-2026-12-01-sequential-warm.csv, with
// "-samples" (or another part) before the suffix when given.
QString suggestedFileName(const ResultDocument& doc, const QString& suffix,
                          const QString& part = {});

enum class DocumentFormat { Json, SummaryCsv, SamplesCsv };
QString saveDocument(const ResultDocument& doc, DocumentFormat format, const QString& path);
QString saveChart(ChartView& chart, const QString& path);
// readscope-report.md, readscope-results.json and readscope-chart.png into dir (ReportFiles).
QString saveReport(const ResultDocument& doc, ChartView& chart, const Comparison* comparison,
                   const QString& dir);
// The chart as an image on the clipboard (what GitHub, GitLab and chat tools take as a paste),
// and as a PNG file's URL in the temporary folder for the platforms that paste files.
void copyChartToClipboard(ChartView& chart);

} // namespace readscope::ui
