// The chart's x axis (range sizes, offsets, threads or depths, with their ticks) and what
// the pointer shows over it: the point under it and its figures in a tooltip.
#include "chart_view.h"

#include "chart_caches.h"
#include "chart_file.h"
#include "chart_frame.h"
#include "chart_graphs.h"
#include "chart_text.h"
#include "chart_time_split.h"
#include "decade_ticker.h"
#include "results_model.h"
#include "size_axis_ticker.h"

#include "readscope/compare.h"
#include "readscope/documents.h"
#include "readscope/mark_notes.h"
#include "readscope/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <map>

namespace readscope::ui {

void ChartView::setUpXAxis(const ResultDocument& doc, const ChartData& data) {
    points_ = data.points;
    pinned_.reset();
    if (doc.plan.bufferOffsets.size() == 1)
        pinned_ = doc.plan.bufferOffsets.front();
    if (data.timeAxis) {
        double end = 1;
        for (const auto& s : data.series)
            for (double x : s.x)
                end = std::max(end, x);
        plot_->xAxis->setScaleType(QCPAxis::stLinear);
        plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot_->xAxis->setLabel("seconds since the first measured round");
        plot_->xAxis->setRange(0, end * 1.02);
        return;
    }
    if (data.axis != SweepAxis::RangeSize) {
        // Evenly spaced categories: offsets 0, 8 and 16 would sit on top of each other on a
        // byte scale beside 4096+16; threads and depths are read as steps, 1 2 4 8.
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        for (int i = 0; i < data.labels.size(); ++i)
            ticker->addTick(i, data.labels[i]);
        plot_->xAxis->setScaleType(QCPAxis::stLinear);
        plot_->xAxis->setTicker(ticker);
        plot_->xAxis->setLabel(QString("%1 · %2 ranges")
                                   .arg(categoryAxisName(data.axis),
                                        data.points.empty() ? QString("?")
                                                            : QString::fromStdString(formatSize(
                                                                  data.points[0].rangeBytes))));
        plot_->xAxis->setRange(-0.5, std::max<double>(0, data.labels.size() - 1) + 0.5);
        return;
    }
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(ticker_);
    plot_->xAxis->setLabel(QString::fromStdString(std::string(axisName(doc.plan))) +
                           " (log scale)");
    // The axis spans the planned sizes from the start, so points land where they belong
    // while a run fills in.
    std::vector<double> sizes;
    for (auto size : effectiveSizes(doc.plan, doc.fileSize))
        sizes.push_back(double(size));
    for (const auto& c : doc.cells)
        if (std::find(sizes.begin(), sizes.end(), double(c.rangeBytes)) == sizes.end())
            sizes.push_back(double(c.rangeBytes));
    ticker_->setSizes(sizes);
    if (!sizes.empty()) {
        const double left = *std::min_element(sizes.begin(), sizes.end());
        const double right = *std::max_element(sizes.begin(), sizes.end());
        plot_->xAxis->setRange(left / 1.6, right * 1.6);
    } else {
        plot_->xAxis->setRange(4096 / 1.6, (64 << 20) * 1.6);
    }
    addCacheMarkers(*plot_, doc.system.caches, palette().color(QPalette::PlaceholderText));
}

SweepPoint ChartView::pointAt(double x) const {
    if (!points_.empty()) {
        const auto i = std::size_t(std::max<long long>(0, std::llround(x)));
        return i < points_.size() ? points_[i] : SweepPoint{};
    }
    return {std::uint64_t(std::llround(x)), pinned_};
}

void ChartView::showTooltip(QMouseEvent* event) {
    if (mode_ == ChartMode::TimeSplit) // bars: the legend names their parts
        return;
    // The nearest point of any line, within a few pixels.
    const QCPGraph* bestGraph = nullptr;
    double bestX = 0, bestY = 0, bestDistance = 12;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        const QCPGraph* g = plot_->graph(i);
        if (g->name().isEmpty())
            continue; // an error bars' anchor, at shifted keys
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            const double d = std::hypot(plot_->xAxis->coordToPixel(it->key) - event->pos().x(),
                                        plot_->yAxis->coordToPixel(it->value) - event->pos().y());
            if (d < bestDistance) {
                bestDistance = d;
                bestGraph = g;
                bestX = it->key;
                bestY = it->value;
            }
        }
    }
    if (!bestGraph) {
        QToolTip::hideText();
        return;
    }
    if (overTimeMode(mode_)) {
        QToolTip::showText(event->globalPosition().toPoint(),
                           overTimeTooltip(bestGraph->name(), bestX, bestY,
                                           bestGraph->valueAxis() == plot_->yAxis2,
                                           mode_ == ChartMode::ShootdownsOverTime),
                           plot_);
        return;
    }
    const SweepPoint point = pointAt(bestX);
    const QString size = QString::fromStdString(pointText(point));
    const QString strategy = bestGraph->property(kStrategyProperty).toString();
    const Cell* cell =
        strategy.isEmpty() ? nullptr : model_->document().find(strategy.toStdString(), point);
    const QString text = pointTooltip(bestGraph->name(), size, cell, mode_ == ChartMode::Throughput,
                                      bestY, plot_->yAxis->label());
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

} // namespace readscope::ui
