#include "chart_time_split.h"

#include "readscope/time_split_words.h"
#include "readscope/units.h"

#include <qcustomplot.h>

#include <QtMath>

#include <algorithm>
#include <cmath>
#include <vector>

namespace readscope::ui {

namespace {

// One colour per part, the same in every chart: the copy blue, zeroing orange, ...
QColor partColor(TimePart part) {
    switch (part) {
    case TimePart::Syscalls: return QColor(0x9467bd);
    case TimePart::Faults: return QColor(0xd62728);
    case TimePart::Zeroing: return QColor(0xff7f0e);
    case TimePart::PageCache: return QColor(0x8c564b);
    case TimePart::Copying: return QColor(0x1f77b4);
    case TimePart::Fold: return QColor(0x2ca02c);
    }
    return Qt::gray;
}

QString partLegend(TimePart part) {
    switch (part) {
    case TimePart::Syscalls: return "system calls";
    case TimePart::Faults: return "page faults";
    case TimePart::Zeroing: return "zeroing (memset)";
    case TimePart::PageCache: return "page-cache work";
    case TimePart::Copying: return "copy (kernel's or memcpy)";
    case TimePart::Fold: return "fold (--consume all)";
    }
    return {};
}

} // namespace

QString SplitChoice::label() const {
    return rangeBytes ? "at " + QString::fromStdString(formatSize(*rangeBytes))
                      : QString::fromStdString(strategy) + ", per size";
}

std::vector<SplitChoice> splitChoices(const ResultDocument& doc) {
    std::vector<std::uint64_t> sizes;
    std::vector<std::string> strategies;
    for (const auto& c : doc.cells) {
        if (!timeSplit(doc, c))
            continue;
        if (std::find(sizes.begin(), sizes.end(), c.rangeBytes) == sizes.end())
            sizes.push_back(c.rangeBytes);
        if (std::find(strategies.begin(), strategies.end(), c.strategy) == strategies.end())
            strategies.push_back(c.strategy);
    }
    std::sort(sizes.begin(), sizes.end());
    std::vector<SplitChoice> out;
    for (auto size : sizes)
        out.push_back({size, {}});
    for (const auto& id : strategies)
        out.push_back({std::nullopt, id});
    return out;
}

SplitBars splitBars(const ResultDocument& doc, const SplitChoice& choice) {
    SplitBars bars;
    bars.percent = !choice.rangeBytes;
    for (TimePart p : kTimeParts)
        bars.parts.push_back({p, {}});
    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        if (choice.rangeBytes ? c.rangeBytes == *choice.rangeBytes : c.strategy == choice.strategy)
            cells.push_back(&c);
    if (!choice.rangeBytes)
        std::stable_sort(cells.begin(), cells.end(), [](const Cell* a, const Cell* b) {
            return a->rangeBytes < b->rangeBytes;
        });
    bars.cells = int(cells.size());
    for (const Cell* c : cells) {
        const auto split = timeSplit(doc, *c);
        if (!split) {
            ++bars.leftOut;
            if (bars.missing.isEmpty())
                bars.missing = QString::fromStdString(timeSplitMissing(doc, *c));
            continue;
        }
        bars.labels.push_back(
            QString::fromStdString(choice.rangeBytes ? c->strategy : formatSize(c->rangeBytes)));
        // Per size, the times span decades: each bar in % of its own measured time.
        const double unit = bars.percent ? 100 / split->measuredSeconds : 1e6;
        bars.measured.push_back(split->measuredSeconds * unit);
        for (auto& [part, values] : bars.parts)
            values.push_back(split->partSeconds(part).value_or(0) * unit);
    }
    return bars;
}

void drawTimeSplit(QCustomPlot& plot, const SplitBars& bars, const QColor& text) {
    QVector<double> keys;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i < bars.labels.size(); ++i) {
        keys.push_back(i);
        ticker->addTick(i, bars.labels[i]);
    }
    QCPBars* below = nullptr;
    double top = 0;
    QVector<double> stack(bars.labels.size(), 0);
    for (const auto& [part, values] : bars.parts) {
        if (std::all_of(values.begin(), values.end(), [](double v) { return v <= 0; }))
            continue; // a part no bar has (no zeroing in a run without fills)
        auto* b = new QCPBars(plot.xAxis, plot.yAxis);
        b->setName(partLegend(part));
        b->setWidth(0.6);
        b->setPen(QPen(partColor(part).darker(130), 1));
        b->setBrush(partColor(part));
        b->setData(keys, values, true);
        if (below)
            b->moveAbove(below);
        below = b;
        for (int i = 0; i < values.size(); ++i)
            stack[i] += values[i];
    }
    // The measured time as a wide dash over each bar: the gap below it is unexplained.
    QCPGraph* measured = plot.addGraph();
    measured->setName("measured time per range (the gap up to it: unexplained)");
    measured->setLineStyle(QCPGraph::lsNone);
    QPainterPath dash;
    dash.moveTo(-0.5, 0);
    dash.lineTo(0.5, 0);
    QCPScatterStyle style(dash, QPen(text, 3), Qt::NoBrush, 28);
    measured->setScatterStyle(style);
    measured->setData(keys, bars.measured, true);
    for (int i = 0; i < bars.labels.size(); ++i)
        top = std::max({top, stack[i], bars.measured[i]});
    plot.xAxis->setScaleType(QCPAxis::stLinear);
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setTickLabelRotation(bars.labels.size() > 3 ? 30 : 0); // ids side by side overlap
    // Cells left out are said, with the first one's reason: a chart of one bar out of 30
    // said nothing of the other 29.
    plot.xAxis->setLabel(bars.missing.isEmpty()  ? QString()
                         : bars.labels.isEmpty() ? "no split: " + bars.missing
                                                 : QString("%1 of %2 cells have no split: %3")
                                                       .arg(bars.leftOut)
                                                       .arg(bars.cells)
                                                       .arg(bars.missing));
    plot.xAxis->setRange(-0.6, std::max<double>(0, bars.labels.size() - 1) + 0.6);
    plot.yAxis->setScaleType(QCPAxis::stLinear);
    plot.yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot.yAxis->setLabel(bars.percent
                             ? "% of the measured time per range: predicted parts (stacked)"
                             : "µs per range: predicted parts (stacked), measured (the black bar "
                               "over each)");
    plot.yAxis->setRange(0, top > 0 ? top * 1.12 : 1);
}

void keepSlantedLabelsInside(QCustomPlot& plot, const QMargins& base, int width) {
    QCPAxisRect* rect = plot.axisRect();
    const double degrees = plot.xAxis->tickLabelRotation();
    auto ticker = plot.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (degrees <= 0 || !ticker || ticker->ticks().isEmpty()) {
        rect->setMinimumMargins(base);
        return;
    }
    const QFontMetrics metrics(plot.xAxis->tickLabelFont());
    const double slant = std::cos(qDegreesToRadians(degrees));
    // Only the labels drawn count: a zoomed or dragged axis shows some of the bars. Each
    // shown one's key and how far right of it its slanted text runs.
    const QCPRange range = plot.xAxis->range();
    std::vector<std::pair<double, double>> shown;
    double widest = 0;
    for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it)
        if (range.contains(it.key())) {
            shown.emplace_back(it.key(), metrics.horizontalAdvance(it.value()) * slant);
            widest = std::max(widest, shown.back().second);
        }
    // Each label runs right from its tick; the axis ends `upper - key` bars after it. The bars'
    // spacing is taken as if the widest label's room were already given: the margin it yields
    // can only be wider than the final layout needs.
    const int viewport = width > 0 ? width : plot.viewport().width();
    const double pixels = viewport - rect->margins().left() - widest;
    const double perKey = range.size() > 0 ? std::max(0.0, pixels) / range.size() : 0;
    double overhang = 0;
    for (const auto& [key, run] : shown)
        overhang = std::max(overhang, run - (range.upper - key) * perKey);
    // A slanted label's box reaches half its height further; never more than half the chart.
    const int wanted = int(std::ceil(overhang)) + metrics.height() / 2;
    QMargins margins = base;
    margins.setRight(std::clamp(wanted, base.right(), std::max(base.right(), viewport / 2)));
    rect->setMinimumMargins(margins);
}

} // namespace readscope::ui
