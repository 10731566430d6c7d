#pragma once
// A trace run's chart: one bar per strategy, the GB/s of the trace's bytes (median of the
// rounds, with the interval the Bars box asks for), each labelled with the time one replay of
// the whole trace takes at that median.
#include "chart_series.h"

#include "readscope/result_document.h"

#include <QString>
#include <QVector>

class QCustomPlot;
class QColor;

namespace readscope::ui {

struct TraceBars {
    QVector<QString> labels;           // "pread-uninit\n0.57 ms": the strategy, a replay's time
    QVector<double> median, low, high; // GB/s
    QVector<int> colors;               // the strategy's colour, as in the line charts
    QString yLabel;
};
// The measured cells of a trace run, in the plan's strategy order.
TraceBars traceBars(const ResultDocument& doc, BarKind bars);

// Draws the bars into an emptied plot (its own x and y axes).
void drawTraceBars(QCustomPlot& plot, const TraceBars& bars, const QColor& text);

} // namespace readscope::ui
