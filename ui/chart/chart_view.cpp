#include "chart_view.h"

#include "chart_over_time.h"

#include "chart_caches.h"
#include "chart_file.h"
#include "chart_frame.h"
#include "chart_graphs.h"
#include "chart_text.h"
#include "chart_time_split.h"
#include "chart_trace.h"
#include "decade_ticker.h"
#include "results_model.h"
#include "size_axis_ticker.h"

#include "readscope/compare.h"
#include "readscope/documents.h"
#include "readscope/mark_notes.h"
#include "readscope/time_split_words.h"
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

ChartView::~ChartView() = default;

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
    modeBox_->addItem("GB/s over time (each round)", int(ChartMode::OverTime));
    modeBox_->addItem("TLB shootdowns over time", int(ChartMode::ShootdownsOverTime));
    modeBox_->addItem("Where the time goes (stacked parts)", int(ChartMode::TimeSplit));
    splitBox_ = new QComboBox(this);
    splitBox_->setObjectName("chartSplit");
    splitBox_->setToolTip("Every strategy at one range size, or one strategy at every size");
    splitBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "pread-zerofill, per size" whole
    pointBox_ = new QComboBox(this);
    pointBox_->setObjectName("overTimePoint");
    pointBox_->setToolTip("The rounds of one range size over time; every size while the lines "
                          "are few");
    pointBox_->setVisible(false);
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
    bar->addWidget(splitBox_);
    bar->addWidget(pointBox_);
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
    connect(pointBox_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(splitBox_, &QComboBox::currentIndexChanged, this, [this] {
        preferredSplit_.clear(); // a person's choice (rebuilds fill the box signals blocked)
        rebuild();
    });
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
    frame_ = std::make_unique<ChartFrame>(plot_, QFont(font().family(), 10, QFont::Bold));
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartView::showTooltip);
    connect(model_, &QAbstractItemModel::modelReset, this, &ChartView::rebuild);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ChartView::rebuild);
    connect(model_, &QAbstractItemModel::dataChanged, this, &ChartView::rebuild); // a new round
    // Every replot (a new mode, a resize) keeps the bar chart's slanted labels inside.
    plotMargins_ = plot_->axisRect()->minimumMargins();
    connect(plot_, &QCustomPlot::beforeReplot, this,
            [this] { keepSlantedLabelsInside(*plot_, plotMargins_); });
    applyPalette();
    rebuild();
}

bool ChartView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize) {
        frame_->fitToWidth();
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
    if (frame_)
        frame_->title()->setTextColor(text);
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

void ChartView::preferSplitOf(const QString& strategy) {
    preferredSplit_ =
        strategy.isEmpty() ? QString() : SplitChoice{std::nullopt, strategy.toStdString()}.label();
    if (mode_ == ChartMode::TimeSplit) // other modes take it when they switch to TimeSplit
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
    plot_->clearItems();
    const auto& doc = model_->document();
    if (referenceBox_->count() != int(strategyOrder(doc).size()))
        refreshReferenceChoices();
    frame_->setTitle(planTitle(doc, mode_, referenceBox_->currentText(), false));
    // The mode's name follows the run's axis: "GB/s per file size" for whole files.
    modeBox_->setItemText(modeBox_->findData(int(ChartMode::Throughput)),
                          modeTitle(ChartMode::Throughput, {}, doc.plan));
    splitBox_->setVisible(mode_ == ChartMode::TimeSplit);
    pointBox_->setVisible(false); // over time: pickOverTimePoint shows it when it offers a choice
    plot_->xAxis->setTickLabelRotation(0);
    if (mode_ == ChartMode::TimeSplit)
        return rebuildTimeSplit();
    if (mode_ == ChartMode::Throughput && doc.plan.pattern == Pattern::Trace)
        return rebuildTraceBars();
    const auto picked = overTimeMode(mode_) ? pickOverTimePoint() : std::nullopt;
    if (picked) // the title says which rounds the lines are, for an exported picture too
        frame_->setTitle(planTitle(doc, mode_, referenceBox_->currentText(), false) +
                         "\nthe rounds " + pointBox_->currentText());
    ChartData data = overTimeMode(mode_)
                         ? overTimeChart(doc, mode_ == ChartMode::ShootdownsOverTime, picked)
                         : buildChart(doc, baseline_ ? &*baseline_ : nullptr, mode_,
                                      referenceBox_->currentText().toStdString(), barKind());
    // memcpy's limit is priced before a point's rounds and again after them, and the limit is
    // the best of both: while the run goes on, a point's line would show only the first price,
    // which a busy machine can put under the copying strategies' own figures. It is drawn
    // once the run has ended.
    if (model_->isLive())
        std::erase_if(data.series,
                      [](const Series& s) { return s.limit && s.name == "memcpy limit"; });
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
    bool rightAxis = false;
    for (const auto& series : data.series) {
        const QColor color = seriesColor(series.colorIndex);
        const auto [g, hollow] = addSeriesGraphs(*plot_, series, palette().brush(QPalette::Base));
        if (hollow)
            hollows.push_back(hollow);
        if (series.rightAxis) { // a share in %, on an axis of its own
            rightAxis = true;
            continue;
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
            addErrorBars(*plot_, series, color, barLane++, barLanes, data.axis);
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
        legend->setName(QString::fromStdString("hollow: " + noisyLegendNote()));
        legend->setLineStyle(QCPGraph::lsNone);
        legend->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.6),
                                                palette().brush(QPalette::Base), 7));
        legend->setProperty(kLegendOnlyProperty, true);
    }
    markers(QString::fromStdString(tooFewRoundsNote() + " noisy from quiet"),
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(text, 1),
                            palette().brush(QPalette::Base), 6),
            data.tooFewX, data.tooFewY);
    markers("two speeds: the rounds fell in two groups (Details, Log)",
            QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(text, 1.6), Qt::NoBrush, 14),
            data.twoSpeedsX, data.twoSpeedsY);
    markers("unverified: a check these figures rest on did not happen (Details)",
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(red, 1.6), Qt::NoBrush, 16),
            data.unverifiedX, data.unverifiedY);
    markers(QString::fromStdString(notColdNote()),
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
    frame_->fitLegendColumns();
    plot_->yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->yAxis->setTicker(logY ? QSharedPointer<QCPAxisTicker>(new DecadeTicker)
                                 : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot_->yAxis->setRange(logY ? bottom / 1.5 : 0, axisTop);
    plot_->yAxis2->setVisible(rightAxis);
    if (rightAxis) {
        plot_->yAxis2->setLabel("file in the page cache (%)");
        plot_->yAxis2->setRange(0, 105);
        plot_->yAxis2->setTickLabelColor(text);
        plot_->yAxis2->setLabelColor(text);
        plot_->yAxis2->setBasePen(plot_->yAxis->basePen());
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<SweepPoint> ChartView::pickOverTimePoint() {
    const auto choices = overTimeChoices(model_->document());
    const QSignalBlocker blocker(pointBox_);
    const QString current = pointBox_->currentText();
    pointBox_->clear();
    for (const auto& choice : choices)
        pointBox_->addItem(choice.label);
    const int kept = pointBox_->findText(current);
    pointBox_->setCurrentIndex(kept >= 0 ? kept : 0);
    pointBox_->setVisible(!choices.empty());
    const int i = pointBox_->currentIndex();
    return i >= 0 && i < int(choices.size()) ? choices[i].point : std::nullopt;
}

void ChartView::rebuildTimeSplit() {
    const auto& doc = model_->document();
    const auto choices = splitChoices(doc);
    {
        const QSignalBlocker blocker(splitBox_);
        const QString current = splitBox_->currentText();
        splitBox_->clear();
        for (const auto& choice : choices)
            splitBox_->addItem(choice.label());
        int i = splitBox_->findText(preferredSplit_);
        if (preferredSplit_.isEmpty() || i < 0)
            i = splitBox_->findText(current);
        splitBox_->setCurrentIndex(i >= 0 ? i : 0);
    }
    logY_->setEnabled(false);
    barsBox_->setVisible(false);
    const int i = splitBox_->currentIndex();
    SplitBars bars = i >= 0 && i < int(choices.size()) ? splitBars(doc, choices[i]) : SplitBars{};
    if (choices.empty() && !doc.cells.empty())
        bars.missing = QString::fromStdString(timeSplitMissing(doc, doc.cells.front()));
    drawTimeSplit(*plot_, bars, palette().color(QPalette::WindowText));
    plot_->legend->setVisible(plot_->legend->itemCount() > 0);
    frame_->fitLegendColumns();
    plot_->yAxis2->setVisible(false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::rebuildTraceBars() {
    logY_->setEnabled(false);
    barsBox_->setVisible(true);
    drawTraceBars(*plot_, traceBars(model_->document(), barKind()),
                  palette().color(QPalette::WindowText));
    plot_->legend->setVisible(false); // each bar is labelled under it
    plot_->yAxis2->setVisible(false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

BarKind ChartView::barKind() const { return BarKind(barsBox_->currentData().toInt()); }

void ChartView::setBarKind(BarKind bars) {
    barsBox_->setCurrentIndex(barsBox_->findData(int(bars)));
}

// While alive, the chart wears what an exported or copied chart carries: the whole system line
// in its title and a footnote (rounds, consume mode, what bars and marks mean) under the plot.
ChartView::ExportDress::ExportDress(ChartView& chart, int width) : chart_(chart) {
    const auto& doc = chart.model_->document();
    note_ = new QCPTextElement(
        chart.plot_,
        overTimeMode(chart.mode_)
            ? overTimeFootnote(doc, chart.mode_ == ChartMode::ShootdownsOverTime)
            : footnote(doc, chart.barKind(), chart.mode_ == ChartMode::Throughput),
        QFont(chart.font().family(), 9));
    note_->setTextColor(chart.palette().color(QPalette::WindowText));
    chart.frame_->beginExport(
        planTitle(chart.model_->document(), chart.mode_, chart.referenceBox_->currentText(), true),
        note_, width);
    keepSlantedLabelsInside(*chart.plot_, chart.plotMargins_, width); // laid out at its width
}

ChartView::ExportDress::~ExportDress() {
    chart_.frame_->endExport(note_);
    keepSlantedLabelsInside(*chart_.plot_, chart_.plotMargins_);
}

QImage ChartView::imageForSharing(int width, int height) {
    const ExportDress dress(*this, width);
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
    const ExportDress dress(*this, exportLayoutWidth(*plot_, path, width));
    return writePlot(*plot_, path, error, width, height);
}

} // namespace readscope::ui
