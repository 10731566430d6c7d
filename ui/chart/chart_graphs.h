#pragma once
// A chart's series drawn on a QCustomPlot: one graph per line in its colour, pen and marker,
// its noisy points hollow on a graph of their own, its error bars. The properties name what a
// graph stands for, so that the view finds a strategy's line again (tooltips, tests).
#include "chart_series.h"

#include <QBrush>
#include <QColor>

class QCustomPlot;
class QCPGraph;

namespace readscope::ui {

inline constexpr auto kStrategyProperty = "readscopeStrategy";
inline constexpr auto kBaselineProperty = "readscopeBaseline";
inline constexpr auto kHollowProperty = "readscopeHollow";         // a line's noisy points
inline constexpr auto kLegendOnlyProperty = "readscopeLegendOnly"; // names a mark, draws nothing

// Tableau 10, distinguishable on light and dark backgrounds alike; past ten lines the colours
// repeat, so every line also gets its own marker shape.
QColor seriesColor(int i);

// The series' line (named in the legend unless it is a fitted model's), and, when it has
// noisy points, their hollow marks filled with `background` (returned, else nullptr).
struct SeriesGraphs {
    QCPGraph* line = nullptr;
    QCPGraph* hollow = nullptr;
};
SeriesGraphs addSeriesGraphs(QCustomPlot& plot, const Series& series, const QBrush& background);

// Error bars for the series, shifted sideways by its lane among `lanes` barred series so that
// bars at one point do not overlap (octaves on a size axis, fractions of a category).
void addErrorBars(QCustomPlot& plot, const Series& series, const QColor& color, int lane, int lanes,
                  SweepAxis axis);

} // namespace readscope::ui
