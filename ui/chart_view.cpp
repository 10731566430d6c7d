#include "chart_view.h"

#include "decade_ticker.h"
#include "results_model.h"
#include "size_axis_ticker.h"

#include "readscope/compare.h"
#include "readscope/documents.h"
#include "readscope/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <map>

namespace readscope::ui {

namespace {

// Tableau 10: distinguishable on light and dark backgrounds alike. Past ten lines the colours
// repeat, so every line also gets its own marker shape.
const QColor kSeries[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                          0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
const QCPScatterStyle::ScatterShape kShapes[] = {
    QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssDiamond,
    QCPScatterStyle::ssTriangle, QCPScatterStyle::ssTriangleInverted};
constexpr auto kStrategyProperty = "readscopeStrategy";
constexpr auto kBaselineProperty = "readscopeBaseline";
constexpr auto kHollowProperty = "readscopeHollow";         // a line's noisy points, hollow
constexpr auto kLegendOnlyProperty = "readscopeLegendOnly"; // names a mark, draws nothing

QColor seriesColor(int i) { return kSeries[i % int(std::size(kSeries))]; }
QCPScatterStyle::ScatterShape seriesShape(int i) {
    return kShapes[(i + i / int(std::size(kSeries))) % int(std::size(kShapes))];
}

// "per range size", "per buffer offset", "by number of threads", "by queue depth".
QString alongTheAxis(const Plan& plan) {
    switch (sweepAxis(plan)) {
    case SweepAxis::Threads: return "by number of threads";
    case SweepAxis::QueueDepth: return "by queue depth";
    default: return "per " + QString::fromStdString(std::string(axisName(plan)));
    }
}

QString modeTitle(ChartMode mode, const QString& reference, const Plan& plan) {
    switch (mode) {
    case ChartMode::Throughput: return "GB/s " + alongTheAxis(plan);
    case ChartMode::Relative: return "GB/s relative to " + reference;
    case ChartMode::CpuPerGB: return "CPU time per GB read";
    case ChartMode::Latency: return "Latency per range";
    case ChartMode::Iops:
        return wholeFileSweep(plan) ? "Files per second" : "IOPS " + alongTheAxis(plan);
    case ChartMode::TimePerRange:
        return wholeFileSweep(plan) ? "Time per file and its cost model"
                                    : "Time per range and its cost model";
    }
    return {};
}

// What a category axis's values are, for its label.
QString categoryAxisName(SweepAxis axis) {
    switch (axis) {
    case SweepAxis::BufferOffset: return "page offset of the destination buffer (bytes)";
    case SweepAxis::Threads: return "threads reading together";
    case SweepAxis::QueueDepth: return "io_uring reads in flight per thread (queue depth)";
    case SweepAxis::RangeSize: break;
    }
    return "range size";
}

// Line 1: what was measured; line 2: where (CPU, cores, kernel, filesystem, version, date),
// so that a pasted chart says both (a document from Wine says "Wine ..., not Windows" in its
// kernel field). Two lines, so that a narrow window clips neither half; in the window the
// second line is the short form (CPU, kernel, filesystem), exports carry the whole of it.
QString planTitle(const ResultDocument& doc, ChartMode mode, const QString& reference,
                  bool fullSystemLine) {
    if (doc.cells.empty() && doc.plan.file.empty())
        return "readscope: press Run to measure";
    const auto& p = doc.plan;
    const QString what =
        QString("%1 · %2 cache · %3 · %4 · %5 file")
            .arg(modeTitle(mode, reference, p),
                 QString::fromStdString(std::string(toString(p.cache))),
                 QString::fromStdString(patternWords(p)),
                 QString::fromStdString(concurrencyText(p)),
                 QString::fromStdString(formatSize(doc.fileSize))) +
        // In the window too: a pinned run is not comparable with an auto one.
        (p.bufferOffsets.size() == 1
             ? QString(" · buffers at page offset %1")
                   .arg(QString::fromStdString(formatBufferOffset(p.bufferOffsets[0])))
             : QString());
    if (doc.system.cpuModel.empty())
        return what;
    if (fullSystemLine)
        return what + "\n" + QString::fromStdString(systemLine(doc));
    const auto& s = doc.system;
    return what + "\n" +
           QString("%1 · %2 · %3")
               .arg(QString::fromStdString(s.cpuModel), QString::fromStdString(s.kernel),
                    QString::fromStdString(s.filesystem));
}

// Under an exported chart: how the figures were made and what its marks mean.
QString footnote(const ResultDocument& doc, BarKind bars, bool throughput) {
    const auto& p = doc.plan;
    QString text = QString("GB/s = 10^9 bytes/s, %1 · consume %2 · bars: %3 · hollow point: "
                           "noisy (median uncertain by more than ±%4%)")
                       .arg(QString::fromStdString(roundsText(doc)))
                       .arg(p.consume == Consume::All ? "all (every byte read once)"
                                                      : "minimal (1 byte per range or page)")
                       .arg(barDescription(bars, doc))
                       .arg(kNoisyUncertainty * 100);
    if (std::any_of(doc.cells.begin(), doc.cells.end(),
                    [](const Cell& c) { return c.status == CellStatus::NotCold; }))
        text += " · red square: not cold (the file stayed cached)";
    if (throughput && std::any_of(doc.cells.begin(), doc.cells.end(),
                                  [](const Cell& c) { return c.copyLimitGbps.has_value(); }))
        // A line of its own: appended, it ran the footnote past both edges of a 1200 px export.
        text += "\ndash-dot: memcpy's speed here, which a strategy that copies cannot pass";
    if (const auto way = deviceLimitWay(doc); throughput && deviceLimitGbps(doc)) {
        text += doc.plan.cache == CacheMode::Direct
                    ? "\ndash-dot: the device limit, the faster of this file's large direct reads"
                    : "\ndash-dot: the device limit, the fastest of this file's large sequential "
                      "reads";
        if (!way.empty()) // a CSV keeps only the figure
            text += QString(" (%1) on %2, %3")
                        .arg(QString::fromStdString(way),
                             QString::fromStdString(doc.deviceLimit->device),
                             QString::fromStdString(doc.deviceLimit->measuredAt.substr(0, 10)));
    }
    return text;
}

} // namespace

ChartView::ChartView(ResultsModel* model, QWidget* parent)
    : QWidget(parent), model_(model), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName("chartMode");
    modeBox_->addItem("GB/s per range size", int(ChartMode::Throughput));
    modeBox_->addItem("× a reference strategy", int(ChartMode::Relative));
    modeBox_->addItem("CPU time per GB (user, system)", int(ChartMode::CpuPerGB));
    modeBox_->addItem("Latency per range (p50, p99)", int(ChartMode::Latency));
    modeBox_->addItem("IOPS (ranges per second)", int(ChartMode::Iops));
    modeBox_->addItem("Time per range (cost model)", int(ChartMode::TimePerRange));
    referenceBox_ = new QComboBox(this);
    referenceBox_->setObjectName("chartReference");
    referenceBox_->setToolTip("The strategy every other one is divided by");
    referenceBox_->setVisible(false);
    barsBox_ = new QComboBox(this);
    barsBox_->setObjectName("chartBars");
    barsBox_->setToolTip("What the bars around each median span");
    barsBox_->addItem("Bars: CI of the median", int(BarKind::MedianInterval));
    barsBox_->addItem("Bars: quartiles", int(BarKind::Quartiles));
    barsBox_->addItem("Bars: min-max", int(BarKind::MinMax));
    logY_ = new QCheckBox("Log scale", this);
    logY_->setObjectName("chartLogY");
    logY_->setToolTip("A logarithmic y axis, for sweeps where one strategy is 10x the others");
    bar->addWidget(new QLabel("Show:", this));
    bar->addWidget(modeBox_);
    bar->addWidget(referenceBox_);
    bar->addWidget(barsBox_);
    bar->addWidget(logY_);
    bar->addStretch(1);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    connect(modeBox_, &QComboBox::currentIndexChanged, this, [this] {
        mode_ = ChartMode(modeBox_->currentData().toInt());
        referenceBox_->setVisible(mode_ == ChartMode::Relative);
        rebuild();
    });
    connect(referenceBox_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(barsBox_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(logY_, &QCheckBox::toggled, this, [this] { rebuild(); });
    plot_->setObjectName("chart");
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, &ChartView::showContextMenu);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    ticker_ = QSharedPointer<SizeAxisTicker>(new SizeAxisTicker);
    plot_->xAxis->setTicker(ticker_);
    plot_->xAxis->setLabel("range size (log scale)");
    plot_->yAxis->setLabel("GB/s (10^9 bytes/s), median of rounds; bars: " +
                           barDescription(BarKind::MedianInterval, ResultDocument{}));
    plot_->legend->setVisible(true);
    // At least 9 pt everywhere, so that a PDF page or a scaled-down PNG stays legible.
    QFont text = font();
    text.setPointSizeF(std::max(9.0, text.pointSizeF()));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setTickLabelFont(text);
        axis->setLabelFont(text);
    }
    plot_->legend->setFont(text);
    // Title on top across the whole width; below it the plot with the legend beside it, at
    // the top, never over the points.
    auto* body = body_ = new QCPLayoutGrid;
    QCPAxisRect* rect = plot_->axisRect();
    plot_->plotLayout()->take(rect);
    plot_->plotLayout()->simplify();
    title_ = new QCPTextElement(plot_, "", QFont(font().family(), 10, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->plotLayout()->addElement(1, 0, body);
    body->addElement(0, 0, rect);
    rect->insetLayout()->take(plot_->legend);
    auto* side = side_ = new QCPLayoutGrid;
    body->addElement(0, 1, side);
    body->setColumnStretchFactor(1, 0.001);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactor(0, 0.001);
    legendRow_ = new QCPLayoutGrid; // the legend's row under a narrow plot, with a spacer
    legendRow_->addElement(0, 1, new QCPLayoutElement(plot_));
    legendRow_->setColumnStretchFactor(0, 0.001);
    plot_->legend->setMargins(QMargins(8, 6, 8, 6));
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartView::showTooltip);
    connect(model_, &QAbstractItemModel::modelReset, this, &ChartView::rebuild);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ChartView::rebuild);
    connect(model_, &QAbstractItemModel::dataChanged, this, &ChartView::rebuild); // a new round
    applyPalette();
    rebuild();
}

namespace {

// A title line broken between its " · " parts wherever it would run past width.
QString wrapAtSeparators(const QString& line, const QFontMetrics& metrics, int width) {
    const QStringList parts = line.split(" · ");
    QString out, current;
    for (const auto& part : parts) {
        const QString longer = current.isEmpty() ? part : current + " · " + part;
        if (!current.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            out += (out.isEmpty() ? "" : "\n") + current;
            current = part;
        } else {
            current = longer;
        }
    }
    return out.isEmpty() ? current : out + "\n" + current;
}

constexpr int kLegendBelowWidth = 760; // narrower charts put the legend under the plot

} // namespace

void ChartView::setTitle(const QString& text) {
    titleText_ = text;
    fitToWidth();
}

void ChartView::fitToWidth() {
    if (exporting_)
        return;
    const int width = plot_->width() - 16;
    const QFontMetrics metrics(title_->font());
    QStringList lines = titleText_.split('\n');
    for (auto& line : lines)
        line = wrapAtSeparators(line, metrics, width);
    title_->setText(lines.join('\n'));
    placeLegend(plot_->width() < kLegendBelowWidth);
}

// Below the plot, two columns when the widest entries fit side by side, else one: a legend
// narrower than its entries clips them ("memcpy 16-21 GB/s (off sca").
void ChartView::fitLegendColumns() {
    if (!legendBelow_)
        return;
    auto* legend = plot_->legend;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = legend->item(i); item && item->visible())
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const QMargins m = legend->margins();
    const int two = 2 * widest + legend->columnSpacing() + m.left() + m.right() + 8;
    const int wrap = two <= plot_->width() ? 2 : 1;
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst); // rearranges by the new wrap
    }
}

void ChartView::placeLegend(bool below) {
    if (below != legendBelow_)
        moveLegend(below);
    fitLegendColumns(); // below, the columns follow the width
}

void ChartView::moveLegend(bool below) {
    legendBelow_ = below;
    // Beside the plot, the legend tops the side column; below, it is a row of the chart's own
    // layout under the plot, and the side column leaves the layout.
    auto* legend = plot_->legend;
    auto* chart = plot_->plotLayout();
    if (below) {
        side_->take(legend);
        body_->take(side_); // kept (it is the plot's child) for when the legend goes back
        body_->simplify();
        // A legend caps the width of any layout column it sits in (it does not stretch), so
        // below the plot it shares a row with a spacer that takes the rest of the width.
        legendRow_->addElement(0, 0, legend);
        chart->addElement(2, 0, legendRow_);
        chart->setRowStretchFactor(2, 0.001); // its columns: fitLegendColumns
    } else {
        legendRow_->take(legend);
        chart->take(legendRow_);
        chart->simplify();
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
        side_->addElement(0, 0, legend);
        body_->addElement(0, 1, side_);
        body_->setColumnStretchFactor(1, 0.001);
    }
}

bool ChartView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize) {
        fitToWidth();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    return QWidget::eventFilter(watched, event);
}

void ChartView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        rebuild();
    }
    QWidget::changeEvent(event);
}

void ChartView::applyPalette() {
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    plot_->setBackground(pal.brush(QPalette::Base));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    }
    plot_->legend->setBrush(pal.brush(QPalette::Base));
    plot_->legend->setBorderPen(QPen(grid));
    plot_->legend->setTextColor(text);
    if (title_)
        title_->setTextColor(text);
}

void ChartView::setMode(ChartMode mode, const QString& reference) {
    refreshReferenceChoices();
    if (!reference.isEmpty()) {
        const int i = referenceBox_->findText(reference);
        if (i >= 0)
            referenceBox_->setCurrentIndex(i);
    }
    modeBox_->setCurrentIndex(modeBox_->findData(int(mode)));
    mode_ = mode;
    referenceBox_->setVisible(mode_ == ChartMode::Relative);
    rebuild();
}

void ChartView::setBaseline(const ResultDocument* baseline) {
    if (baseline)
        baseline_ = *baseline;
    else
        baseline_.reset();
    rebuild();
}

void ChartView::refreshReferenceChoices() {
    const QSignalBlocker blocker(referenceBox_);
    const QString current = referenceBox_->currentText();
    referenceBox_->clear();
    for (const auto& id : strategyOrder(model_->document()))
        referenceBox_->addItem(QString::fromStdString(id));
    const int i = referenceBox_->findText(current);
    referenceBox_->setCurrentIndex(i >= 0 ? i : 0);
}

void ChartView::rebuild() {
    plot_->clearPlottables();
    const auto& doc = model_->document();
    if (referenceBox_->count() != int(strategyOrder(doc).size()))
        refreshReferenceChoices();
    setTitle(planTitle(doc, mode_, referenceBox_->currentText(), false));
    // The mode's name follows the run's axis: "GB/s per file size" for whole files.
    modeBox_->setItemText(modeBox_->findData(int(ChartMode::Throughput)),
                          modeTitle(ChartMode::Throughput, {}, doc.plan));
    const ChartData data = buildChart(doc, baseline_ ? &*baseline_ : nullptr, mode_,
                                      referenceBox_->currentText().toStdString(), barKind());
    barsBox_->setVisible(mode_ == ChartMode::Throughput);
    // Latency, IOPS and time per range are always on a log axis: the box cannot say otherwise.
    logY_->setEnabled(mode_ != ChartMode::Latency && mode_ != ChartMode::Iops &&
                      mode_ != ChartMode::TimePerRange);
    int barLane = 0;
    const int barLanes = int(std::count_if(data.series.begin(), data.series.end(),
                                           [](const Series& s) { return s.errorBars; }));
    plot_->yAxis->setLabel(data.yLabel);
    double top = 0, bottom = 0;
    bool first = true;
    QCPGraph* limitGraph = nullptr;
    const Series* limitSeries = nullptr;
    double limitTop = 0;
    std::vector<QCPGraph*> hollows; // drawn over every line, so no line crosses a hollow point
    for (const auto& series : data.series) {
        const QColor color = seriesColor(series.colorIndex);
        QCPGraph* g = plot_->addGraph();
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
        if (series.limit)
            pen = QPen(QColor(110, 110, 110), 1.5, Qt::DashDotLine);
        if (series.fitted)
            pen.setWidthF(1.2);
        g->setPen(pen);
        const auto shape = seriesShape(series.colorIndex);
        g->setScatterStyle(series.limit || series.fitted ? QCPScatterStyle(QCPScatterStyle::ssNone)
                           : series.dashed
                               ? QCPScatterStyle(shape, QPen(color, 1.5), Qt::NoBrush, 6)
                               : QCPScatterStyle(shape, color, color, 7));
        g->setData(series.x, series.y, true);
        if (series.fitted)         // the axis label says what dashed lines are; the teaching panel
            g->removeFromLegend(); // gives each fit's numbers
        if (!series.hollowX.isEmpty()) {
            // A noisy point keeps its line's colour and shape, hollow: the background inside.
            QCPGraph* h = plot_->addGraph();
            h->removeFromLegend();
            h->setLineStyle(QCPGraph::lsNone);
            h->setScatterStyle(
                QCPScatterStyle(shape, QPen(color, 1.6), palette().brush(QPalette::Base), 7));
            h->setData(series.hollowX, series.hollowY, true);
            h->setSelectable(QCP::stNone);
            h->setProperty(kHollowProperty, series.strategy);
            hollows.push_back(h);
        }
        if (series.limit) { // scales the axis only where it does not flatten the figures
            limitGraph = g;
            limitSeries = &series;
            for (double y : series.y)
                limitTop = std::max(limitTop, y);
            continue;
        }
        for (int i = 0; i < series.y.size(); ++i) {
            const double hi = series.y[i] + (series.errorBars ? series.above[i] : 0);
            const double lo = series.y[i] - (series.errorBars ? series.below[i] : 0);
            top = first ? hi : std::max(top, hi);
            bottom =
                first ? (lo > 0 ? lo : series.y[i]) : std::min(bottom, lo > 0 ? lo : series.y[i]);
            first = false;
        }
        if (series.errorBars)
            addErrorBars(series, color, barLane++, barLanes, data.axis);
    }
    const QColor text = palette().color(QPalette::WindowText);
    // Markers over the lines, each named in the legend. A warm figure in a cold run is the
    // most misleading point a chart can hold: marked louder than noise.
    auto markers = [this](const QString& name, QCPScatterStyle style, const QVector<double>& x,
                          const QVector<double>& y) {
        if (x.isEmpty())
            return;
        QCPGraph* g = plot_->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(style);
        g->setData(x, y, true);
    };
    const QColor red(0xd62728);
    // Over the error bars and the lines drawn after their own line.
    if (!plot_->layer("hollows"))
        plot_->addLayer("hollows", plot_->layer("main"), QCustomPlot::limAbove);
    for (QCPGraph* h : hollows)
        h->setLayer("hollows");
    // Noise is marked quietly: the point turns hollow in its own colour and shape (drawn
    // above). The legend names the mark once, with a point of no line's colour; it draws no
    // point of its own.
    if (!hollows.empty()) {
        QCPGraph* legend = plot_->addGraph();
        legend->setName(QString("hollow: noisy, CI wider than ±%1%").arg(kNoisyUncertainty * 100));
        legend->setLineStyle(QCPGraph::lsNone);
        legend->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.6),
                                                palette().brush(QPalette::Base), 7));
        legend->setProperty(kLegendOnlyProperty, true);
    }
    markers("too few rounds to tell noisy from quiet",
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(text, 1),
                            palette().brush(QPalette::Base), 6),
            data.tooFewX, data.tooFewY);
    markers("not cold: file stayed cached",
            QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(red, 2), Qt::NoBrush, 16),
            data.notColdX, data.notColdY);
    markers("failed", QCPScatterStyle(QCPScatterStyle::ssCross, QPen(red, 3), Qt::NoBrush, 12),
            data.failedX, data.failedY);
    setUpXAxis(doc, data);
    // Latency, IOPS and time per range span decades across the sizes: always logarithmic.
    const bool alwaysLog =
        mode_ == ChartMode::Latency || mode_ == ChartMode::Iops || mode_ == ChartMode::TimePerRange;
    const bool logY = (alwaysLog || logY_->isChecked()) && bottom > 0;
    // A limit line joins the scale on a log axis, or when it is near the figures; far above
    // them on a linear axis it would squeeze every line into the bottom of the plot, so the
    // axis stays with the figures and the legend says where the limit is.
    if (limitGraph && (logY || limitTop <= top * 1.5))
        top = std::max(top, limitTop);
    const double axisTop = logY ? top * 1.5 : top > 0 ? top * 1.12 : 1;
    if (limitGraph)
        limitGraph->setName(limitLegendName(*limitSeries, axisTop));
    // A legend entry names something drawn: a line with no point it can draw (no value yet,
    // or none above zero on a log axis) leaves the legend.
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        if (g->property(kLegendOnlyProperty).toBool())
            continue;
        const bool drawsAPoint = std::any_of(
            g->data()->constBegin(), g->data()->constEnd(), [logY](const QCPGraphData& p) {
                return std::isfinite(p.value) && (!logY || p.value > 0);
            });
        if (!drawsAPoint)
            g->removeFromLegend();
    }
    plot_->legend->setVisible(plot_->legend->itemCount() > 0); // no empty box before a run
    fitLegendColumns();
    plot_->yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->yAxis->setTicker(logY ? QSharedPointer<QCPAxisTicker>(new DecadeTicker)
                                 : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot_->yAxis->setRange(logY ? bottom / 1.5 : 0, axisTop);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

BarKind ChartView::barKind() const { return BarKind(barsBox_->currentData().toInt()); }

void ChartView::setBarKind(BarKind bars) {
    barsBox_->setCurrentIndex(barsBox_->findData(int(bars)));
}

// The bars of strategy lane `lane` of `lanes` at each point, shifted sideways a little so that
// the bars of different strategies at one range size do not lie on top of each other. They
// hang on an invisible copy of the line with shifted keys: the line and its points stay where
// the size is.
void ChartView::addErrorBars(const Series& series, const QColor& color, int lane, int lanes,
                             SweepAxis axis) {
    const double middle = (lanes - 1) / 2.0;
    const double step = lanes > 1 ? std::min(0.06, 0.3 / lanes) : 0; // octaves, or categories
    QVector<double> keys = series.x;
    for (auto& k : keys)
        k = axis != SweepAxis::RangeSize ? k + (lane - middle) * step
                                         : k * std::pow(2.0, (lane - middle) * step);
    QCPGraph* anchor = plot_->addGraph();
    anchor->removeFromLegend();
    anchor->setLineStyle(QCPGraph::lsNone);
    anchor->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    anchor->setData(keys, series.y, true);
    anchor->setSelectable(QCP::stNone);
    auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    bars->removeFromLegend();
    bars->setDataPlottable(anchor);
    bars->setData(series.below, series.above);
    bars->setPen(QPen(color, 1.2));
    bars->setWhiskerWidth(5);
}

void ChartView::setUpXAxis(const ResultDocument& doc, const ChartData& data) {
    points_ = data.points;
    pinned_.reset();
    if (doc.plan.bufferOffsets.size() == 1)
        pinned_ = doc.plan.bufferOffsets.front();
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
}

SweepPoint ChartView::pointAt(double x) const {
    if (!points_.empty()) {
        const auto i = std::size_t(std::max<long long>(0, std::llround(x)));
        return i < points_.size() ? points_[i] : SweepPoint{};
    }
    return {std::uint64_t(std::llround(x)), pinned_};
}

int ChartView::graphCountForStrategies() const {
    int n = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        n += plot_->graph(i)->property(kStrategyProperty).isValid() ? 1 : 0;
    return n;
}

int ChartView::baselineGraphCount() const {
    int n = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        n += plot_->graph(i)->property(kBaselineProperty).toBool() ? 1 : 0;
    return n;
}

double ChartView::pointValue(const QString& strategy, double rangeBytes) const {
    for (int i = 0; i < plot_->graphCount(); ++i)
        if (plot_->graph(i)->property(kStrategyProperty).toString() == strategy) {
            auto it = plot_->graph(i)->data()->findBegin(rangeBytes, false);
            if (it != plot_->graph(i)->data()->constEnd() && it->key == rangeBytes)
                return it->value;
        }
    return std::nan("");
}

int ChartView::pointCount(const QString& strategy) const {
    for (int i = 0; i < plot_->graphCount(); ++i)
        if (plot_->graph(i)->property(kStrategyProperty).toString() == strategy)
            return plot_->graph(i)->dataCount();
    return 0;
}

void ChartView::showTooltip(QMouseEvent* event) {
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
    const SweepPoint point = pointAt(bestX);
    const QString size = QString::fromStdString(pointText(point));
    const QString strategy = bestGraph->property(kStrategyProperty).toString();
    const Cell* cell =
        strategy.isEmpty() ? nullptr : model_->document().find(strategy.toStdString(), point);
    QString text = QString("<b>%1</b> at %2<br>").arg(bestGraph->name().toHtmlEscaped(), size);
    if (mode_ == ChartMode::Throughput && cell) {
        const auto& s = cell->summary;
        const QString interval =
            s.ciCoverage > 0 ? QString("%1 interval %2 – %3 over %4 rounds")
                                   .arg(QString::fromStdString(coverageText(s)))
                                   .arg(s.ciLow, 0, 'f', 2)
                                   .arg(s.ciHigh, 0, 'f', 2)
                                   .arg(cell->samples.size())
                             : QString("no interval from %1 round").arg(cell->samples.size());
        text += QString("median %1 GB/s (±%2%)<br>%3<br>"
                        "quartiles %4 – %5 · min %6 · max %7%8")
                    .arg(s.median, 0, 'f', 2)
                    .arg(s.uncertainty() * 100, 0, 'f', 1)
                    .arg(interval)
                    .arg(s.p25, 0, 'f', 2)
                    .arg(s.p75, 0, 'f', 2)
                    .arg(s.min, 0, 'f', 2)
                    .arg(s.max, 0, 'f', 2)
                    .arg(cell->status == CellStatus::Noisy ? " — noisy"
                         : cell->status == CellStatus::TooFewRounds
                             ? " — too few rounds to tell whether it is noisy"
                         : cell->status == CellStatus::NotCold
                             ? " — NOT COLD: the file stayed in the page cache"
                             : "");
    } else {
        text += QString("%1").arg(bestY, 0, 'f', 2) + " — " + plot_->yAxis->label().toHtmlEscaped();
    }
    if (cell && !cell->message.empty())
        text += "<br><i>" + QString::fromStdString(cell->message).toHtmlEscaped() + "</i>";
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

// While alive, the chart wears what an exported or copied chart carries: the whole system line
// in its title and a footnote (rounds, consume mode, what bars and marks mean) under the plot.
ChartView::ExportDress::ExportDress(ChartView& chart) : chart_(chart) {
    note_ = new QCPTextElement(
        chart.plot_,
        footnote(chart.model_->document(), chart.barKind(), chart.mode_ == ChartMode::Throughput),
        QFont(chart.font().family(), 9));
    note_->setTextColor(chart.palette().color(QPalette::WindowText));
    chart.exporting_ = true;
    chart.placeLegend(false); // an image is wide enough for the legend beside the plot
    chart.plot_->plotLayout()->addElement(2, 0, note_);
    chart.title_->setText(
        planTitle(chart.model_->document(), chart.mode_, chart.referenceBox_->currentText(), true));
}

ChartView::ExportDress::~ExportDress() {
    chart_.plot_->plotLayout()->remove(note_);
    chart_.plot_->plotLayout()->simplify();
    chart_.exporting_ = false;
    chart_.fitToWidth();
    chart_.plot_->replot(QCustomPlot::rpQueuedReplot);
}

QImage ChartView::imageForSharing(int width, int height) {
    const ExportDress dress(*this);
    return plot_->toPixmap(width, height, 2.0).toImage();
}

void ChartView::showContextMenu(const QPoint& at) {
    QMenu menu(this);
    menu.setObjectName("chartMenu");
    menu.addAction("Copy chart", this, &ChartView::copyRequested);
    menu.addAction("Save chart as…", this, &ChartView::saveRequested);
    menu.addAction("Copy as Markdown", this, &ChartView::copyMarkdownRequested);
    menu.exec(plot_->mapToGlobal(at));
}

bool ChartView::exportTo(const QString& path, QString* error, int width, int height) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QString("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const ExportDress dress(*this);
    const int dpi = std::max(72, plot_->logicalDpiY());
    bool painted = true;
    if (suffix == "png") {
        // Twice the pixels: sharp when GitHub scales it down to the column width.
        const QPixmap pixmap = plot_->toPixmap(width, height, 2.0);
        painted = pixmap.save(&file, "PNG");
    } else if (suffix == "pdf" || suffix == "svg") {
        std::unique_ptr<QPaintDevice> device;
        if (suffix == "pdf") {
            // A standard page (A4 landscape, 842 x 595 pt) with the chart drawn at the page's
            // own size, so that its text prints at the font's point size (9-10 pt), not
            // shrunk from a 1200-point-wide custom page. At the screen's resolution, so that
            // the layout's font metrics are the ones the text is drawn with.
            auto* pdf = new QPdfWriter(&file);
            pdf->setPageSize(QPageSize(QPageSize::A4));
            pdf->setPageOrientation(QPageLayout::Landscape);
            pdf->setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf->setResolution(dpi);
            pdf->setTitle("readscope chart");
            width = 842 * dpi / 72;
            height = 595 * dpi / 72;
            device.reset(pdf);
        } else {
            auto* svg = new QSvgGenerator;
            svg->setOutputDevice(&file);
            // Text is laid out with the screen's font metrics: at the generator's default
            // 72 dpi it would come out smaller than its box and sit above the legend markers.
            svg->setResolution(dpi);
            svg->setSize(QSize(width, height));
            svg->setViewBox(QRect(0, 0, width, height));
            svg->setTitle("readscope chart");
            device.reset(svg);
        }
        QCPPainter painter(device.get());
        plot_->toPainter(&painter, width, height);
        painted = painter.end();
    } else {
        file.cancelWriting();
        *error = QString("Unknown chart format '%1': use .png, .pdf or .svg").arg(suffix);
        return false;
    }
    if (!painted) {
        file.cancelWriting();
        *error = QString("Could not render the chart to %1").arg(path);
        return false;
    }
    if (!file.commit()) {
        *error = QString("Writing %1 failed: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace readscope::ui
