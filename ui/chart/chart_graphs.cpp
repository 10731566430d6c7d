#include "chart_graphs.h"

#include <qcustomplot.h>

#include <cmath>

namespace readscope::ui {

namespace {

// Tableau 10: distinguishable on light and dark backgrounds alike. Past ten lines the colours
// repeat, so every line also gets its own marker shape.
const QColor kSeries[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                          0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
const QCPScatterStyle::ScatterShape kShapes[] = {
    QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssDiamond,
    QCPScatterStyle::ssTriangle, QCPScatterStyle::ssTriangleInverted};
QCPScatterStyle::ScatterShape seriesShape(int i) {
    return kShapes[(i + i / int(std::size(kSeries))) % int(std::size(kShapes))];
}

} // namespace

QColor seriesColor(int i) { return kSeries[i % int(std::size(kSeries))]; }

SeriesGraphs addSeriesGraphs(QCustomPlot& plot, const Series& series, const QBrush& background) {
    const QColor color = seriesColor(series.colorIndex);
    QCPGraph* g = series.rightAxis ? plot.addGraph(plot.xAxis, plot.yAxis2) : plot.addGraph();
    SeriesGraphs graphs{g, nullptr};
    g->setName(series.name);
    if (!series.strategy.isEmpty())
        g->setProperty(kStrategyProperty, series.strategy);
    if (series.baseline)
        g->setProperty(kBaselineProperty, true);
    QPen pen(color, series.dashed ? 1.6 : 2);
    if (series.dashed || series.fitted)
        pen.setStyle(Qt::DashLine);
    if (series.dotted)
        pen.setStyle(Qt::DotLine);
    if (series.limit || series.rightAxis)
        pen = QPen(QColor(110, 110, 110), 1.5, Qt::DashDotLine);
    if (series.fitted)
        pen.setWidthF(1.2);
    g->setPen(pen);
    const auto shape = seriesShape(series.colorIndex);
    if (series.plain)
        pen.setWidthF(1.2);
    g->setScatterStyle(series.limit || series.fitted || series.plain || series.rightAxis
                           ? QCPScatterStyle(QCPScatterStyle::ssNone)
                       : series.dashed ? QCPScatterStyle(shape, QPen(color, 1.5), Qt::NoBrush, 6)
                                       : QCPScatterStyle(shape, color, color, 7));
    g->setData(series.x, series.y, true);
    if (series.fitted)         // the axis label says what dashed lines are; the teaching panel
        g->removeFromLegend(); // gives each fit's numbers
    if (!series.hollowX.isEmpty()) {
        // A noisy point keeps its line's colour and shape, hollow: the background inside.
        QCPGraph* h = plot.addGraph();
        h->removeFromLegend();
        h->setLineStyle(QCPGraph::lsNone);
        h->setScatterStyle(QCPScatterStyle(shape, QPen(color, 1.6), background, 7));
        h->setData(series.hollowX, series.hollowY, true);
        h->setSelectable(QCP::stNone);
        h->setProperty(kHollowProperty, series.strategy);
        graphs.hollow = h;
    }
    return graphs;
}

void addErrorBars(QCustomPlot& plot, const Series& series, const QColor& color, int lane, int lanes,
                  SweepAxis axis) {
    const double middle = (lanes - 1) / 2.0;
    const double step = lanes > 1 ? std::min(0.06, 0.3 / lanes) : 0; // octaves, or categories
    QVector<double> keys = series.x;
    for (auto& k : keys)
        k = axis != SweepAxis::RangeSize ? k + (lane - middle) * step
                                         : k * std::pow(2.0, (lane - middle) * step);
    QCPGraph* anchor = plot.addGraph();
    anchor->removeFromLegend();
    anchor->setLineStyle(QCPGraph::lsNone);
    anchor->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    anchor->setData(keys, series.y, true);
    anchor->setSelectable(QCP::stNone);
    auto* bars = new QCPErrorBars(plot.xAxis, plot.yAxis);
    bars->removeFromLegend();
    bars->setDataPlottable(anchor);
    bars->setData(series.below, series.above);
    bars->setPen(QPen(color, 1.2));
    bars->setWhiskerWidth(5);
}

} // namespace readscope::ui
