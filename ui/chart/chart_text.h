#pragma once
// The chart's words: its title, the category axis's name and the footnote under an export.
#include "chart_series.h"
#include "readscope/plan.h"
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

// "GB/s per range size", "CPU time per GB read" ...: what a mode shows, along the run's axis.
QString modeTitle(ChartMode mode, const QString& reference, const Plan& plan);

// What a category axis's values are, for its label.
QString categoryAxisName(SweepAxis axis);

// Line 1: what was measured; line 2: where (CPU, cores, kernel, filesystem, version, date).
// In the window the second line is the short form; exports carry the whole of it.
QString planTitle(const ResultDocument& doc, ChartMode mode, const QString& reference,
                  bool fullSystemLine);

// Under an exported chart: how the figures were made and what its marks mean.
QString footnote(const ResultDocument& doc, BarKind bars, bool throughput);
// The over-time chart's: each round's own figure, when it ran, the file's residency line.
QString overTimeFootnote(const ResultDocument& doc, bool shootdowns = false);
// A point of an over-time chart: "mmap-random at 12.5 s: 3.1 GB/s" (or its shootdowns, or for
// share, the file's cached share: "cached at 12.5 s: 18.0% of the file").
QString overTimeTooltip(const QString& lineName, double seconds, double value, bool share,
                        bool shootdowns);

// A chart point's tooltip (HTML): the line and the point; a throughput point's median, its
// interval, spread and status, any other point's value on the axis; the cell's notes last.
QString pointTooltip(const QString& lineName, const QString& pointName, const Cell* cell,
                     bool throughput, double value, const QString& axisLabel);

} // namespace readscope::ui
