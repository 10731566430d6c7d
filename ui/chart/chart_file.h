#pragma once
// The chart written to a file, for the app's exports and readscope-cli --report alike.
#include "readscope/report.h"
#include "readscope/result_document.h"

#include <QString>

class QCustomPlot;

namespace readscope::ui {

// The plot as it stands, as PNG (twice the pixels), PDF (an A4 landscape page) or SVG, by the
// path's suffix; written atomically. False with *error set when it cannot be.
bool writePlot(QCustomPlot& plot, const QString& path, QString* error, int width, int height);

// The width an export to this path is laid out at: a PDF's A4 page at the plot's resolution,
// else `width`.
int exportLayoutWidth(const QCustomPlot& plot, const QString& path, int width);

// One of a result document's report charts (GB/s per range size, its rounds' GB/s or TLB
// shootdowns over time), drawn offscreen as the app exports it (title with the whole system
// line, legend, footnote): empty, or why it could not be written. Needs a QApplication (any
// platform, offscreen included).
QString saveDocumentChart(const ResultDocument& doc, const QString& path,
                          ReportChart which = ReportChart::PerSize);

} // namespace readscope::ui
