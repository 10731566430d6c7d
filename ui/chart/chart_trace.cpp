#include "chart_trace.h"

#include "chart_graphs.h"

#include <qcustomplot.h>

#include <algorithm>

namespace readscope::ui {

TraceBars traceBars(const ResultDocument& doc, BarKind kind) {
    TraceBars out;
    out.yLabel = QString("GB/s of the trace's bytes (median; bars: %1)")
                     .arg(kind == BarKind::MedianInterval ? "CI of the median"
                          : kind == BarKind::Quartiles    ? "quartiles"
                                                          : "min-max");
    const auto order = strategyOrder(doc);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto cell = std::find_if(doc.cells.begin(), doc.cells.end(), [&](const Cell& c) {
            return c.strategy == order[i] && c.measured() && c.summary.median > 0;
        });
        if (cell == doc.cells.end())
            continue;
        const Summary& s = cell->summary;
        QString label = QString::fromStdString(order[i]);
        if (const auto seconds = replaySeconds(doc, s.median)) // one replay at the median
            label += *seconds >= 1e-3 ? QString("\n%1 ms").arg(*seconds * 1e3, 0, 'f', 2)
                                      : QString("\n%1 µs").arg(*seconds * 1e6, 0, 'f', 1);
        out.labels << label;
        out.median << s.median;
        out.low << (kind == BarKind::MedianInterval ? s.ciLow
                    : kind == BarKind::Quartiles    ? s.p25
                                                    : s.min);
        out.high << (kind == BarKind::MedianInterval ? s.ciHigh
                     : kind == BarKind::Quartiles    ? s.p75
                                                     : s.max);
        out.colors << int(i);
    }
    return out;
}

void drawTraceBars(QCustomPlot& plot, const TraceBars& bars, const QColor& text) {
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    double top = 0;
    for (int i = 0; i < bars.labels.size(); ++i) {
        ticker->addTick(i, bars.labels[i]);
        // One QCPBars per strategy, so each keeps its colour and its legend entry.
        auto* b = new QCPBars(plot.xAxis, plot.yAxis);
        b->setName(bars.labels[i].section('\n', 0, 0));
        b->setWidth(0.6);
        const QColor color = seriesColor(bars.colors[i]);
        b->setPen(QPen(color.darker(130), 1));
        b->setBrush(color);
        b->setData({double(i)}, {bars.median[i]}, true);
        auto* err = new QCPErrorBars(plot.xAxis, plot.yAxis);
        err->removeFromLegend();
        err->setDataPlottable(b);
        err->setPen(QPen(text, 1.5));
        err->setData({std::max(0.0, bars.median[i] - bars.low[i])},
                     {std::max(0.0, bars.high[i] - bars.median[i])});
        top = std::max({top, bars.median[i], bars.high[i]});
    }
    plot.xAxis->setScaleType(QCPAxis::stLinear);
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setTickLabelRotation(0);
    plot.xAxis->setLabel(bars.labels.isEmpty() ? "no strategy measured yet"
                                               : "strategy, and the time one replay of the "
                                                 "trace takes at its median");
    plot.xAxis->setRange(-0.6, std::max<double>(0, bars.labels.size() - 1) + 0.6);
    plot.yAxis->setScaleType(QCPAxis::stLinear);
    plot.yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot.yAxis->setLabel(bars.yLabel);
    plot.yAxis->setRange(0, top > 0 ? top * 1.12 : 1);
}

} // namespace readscope::ui
