#include "chart_view.h"

#include "results_model.h"
#include "size_axis_ticker.h"

#include "readscope/units.h"

#include <QEvent>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

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

QColor seriesColor(int i) { return kSeries[i % int(std::size(kSeries))]; }
QCPScatterStyle::ScatterShape seriesShape(int i) {
    return kShapes[(i + i / int(std::size(kSeries))) % int(std::size(kShapes))];
}

QString planTitle(const ResultDocument& doc) {
    if (doc.cells.empty())
        return "readscope: press Run to measure";
    const auto& p = doc.plan;
    return QString("%1 cache · %2 ranges · %3 thread%4 · file %5 · %6 rounds")
        .arg(QString::fromStdString(std::string(toString(p.cache))),
             QString::fromStdString(std::string(toString(p.pattern))))
        .arg(p.threads)
        .arg(p.threads == 1 ? "" : "s")
        .arg(QString::fromStdString(formatSize(doc.fileSize)))
        .arg(p.rounds);
}

} // namespace

ChartView::ChartView(ResultsModel* model, QWidget* parent)
    : QWidget(parent), model_(model), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setObjectName("chart");
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    ticker_ = QSharedPointer<SizeAxisTicker>(new SizeAxisTicker);
    plot_->xAxis->setTicker(ticker_);
    plot_->xAxis->setLabel("range size (log scale)");
    plot_->yAxis->setLabel("GB/s (10^9 bytes/s), median of rounds; bars: min-max");
    plot_->legend->setVisible(true);
    // Title on top; the legend beside the plot, at the top, never over the points.
    title_ = new QCPTextElement(plot_, "", QFont(font().family(), 10, QFont::Bold));
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    auto* side = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 1, side);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactor(0, 0.001);
    plot_->legend->setMargins(QMargins(8, 6, 8, 6));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartView::showTooltip);
    connect(model_, &QAbstractItemModel::modelReset, this, &ChartView::rebuild);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ChartView::rebuild);
    applyPalette();
    rebuild();
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

void ChartView::rebuild() {
    plot_->clearPlottables();
    const auto& doc = model_->document();
    title_->setText(planTitle(doc));
    // Strategies keep the colour of their position in the plan, so a line keeps its colour
    // while a run fills in.
    std::vector<std::string> order = doc.plan.strategies;
    for (const auto& c : doc.cells)
        if (std::find(order.begin(), order.end(), c.strategy) == order.end())
            order.push_back(c.strategy);

    QVector<double> noisyX, noisyY, failedX, failedY;
    double top = 0, left = 1e18, right = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        std::map<double, const Cell*> points;
        for (const auto& c : doc.cells)
            if (c.strategy == order[i]) {
                const double x = double(c.rangeBytes);
                left = std::min(left, x);
                right = std::max(right, x);
                if (c.status == CellStatus::Ok || c.status == CellStatus::Noisy)
                    points[x] = &c;
                else if (c.status == CellStatus::Failed) {
                    failedX << x;
                    failedY << 0;
                }
            }
        if (points.empty())
            continue;
        QVector<double> xs, ys, below, above;
        for (const auto& [x, c] : points) {
            xs << x;
            ys << c->summary.median;
            below << c->summary.median - c->summary.min;
            above << c->summary.max - c->summary.median;
            top = std::max(top, c->summary.max);
            if (c->status == CellStatus::Noisy) {
                noisyX << x;
                noisyY << c->summary.median;
            }
        }
        const QColor color = seriesColor(int(i));
        QCPGraph* g = plot_->addGraph();
        g->setName(QString::fromStdString(order[i]));
        g->setProperty(kStrategyProperty, QString::fromStdString(order[i]));
        g->setPen(QPen(color, 2));
        g->setScatterStyle(QCPScatterStyle(seriesShape(int(i)), color, color, 7));
        g->setData(xs, ys, true);
        auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(g);
        bars->setData(below, above);
        bars->setPen(QPen(color, 1));
        bars->setWhiskerWidth(6);
    }
    const QColor text = palette().color(QPalette::WindowText);
    if (!noisyX.isEmpty()) {
        QCPGraph* g = plot_->addGraph();
        g->setName("noisy: CV above 5%");
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.5),
                                           Qt::NoBrush, 15));
        g->setData(noisyX, noisyY, true);
    }
    if (!failedX.isEmpty()) {
        QCPGraph* g = plot_->addGraph();
        g->setName("failed");
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xd62728), 3),
                                           Qt::NoBrush, 12));
        g->setData(failedX, failedY, true);
    }
    // The axis spans the planned sizes from the start, so points land where they belong
    // while a run fills in.
    std::vector<double> sizes;
    for (auto size : doc.plan.pattern == Pattern::Whole ? std::vector<std::uint64_t>{}
                                                         : doc.plan.sizes)
        sizes.push_back(double(size));
    for (const auto& c : doc.cells)
        if (std::find(sizes.begin(), sizes.end(), double(c.rangeBytes)) == sizes.end())
            sizes.push_back(double(c.rangeBytes));
    ticker_->setSizes(sizes);
    if (!sizes.empty()) {
        left = std::min(left, *std::min_element(sizes.begin(), sizes.end()));
        right = std::max(right, *std::max_element(sizes.begin(), sizes.end()));
        plot_->xAxis->setRange(left / 1.6, right * 1.6);
    } else {
        plot_->xAxis->setRange(4096 / 1.6, (64 << 20) * 1.6);
    }
    plot_->yAxis->setRange(0, top > 0 ? top * 1.12 : 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int ChartView::graphCountForStrategies() const {
    int n = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        n += plot_->graph(i)->property(kStrategyProperty).isValid() ? 1 : 0;
    return n;
}

int ChartView::pointCount(const QString& strategy) const {
    for (int i = 0; i < plot_->graphCount(); ++i)
        if (plot_->graph(i)->property(kStrategyProperty).toString() == strategy)
            return plot_->graph(i)->dataCount();
    return 0;
}

void ChartView::showTooltip(QMouseEvent* event) {
    const auto& doc = model_->document();
    const Cell* best = nullptr;
    double bestDistance = 12; // pixels
    for (const auto& c : doc.cells) {
        if (c.status != CellStatus::Ok && c.status != CellStatus::Noisy &&
            c.status != CellStatus::Failed)
            continue;
        const double y = c.status == CellStatus::Failed ? 0 : c.summary.median;
        const double px = plot_->xAxis->coordToPixel(double(c.rangeBytes));
        const double py = plot_->yAxis->coordToPixel(y);
        const double d = std::hypot(px - event->pos().x(), py - event->pos().y());
        if (d < bestDistance) {
            bestDistance = d;
            best = &c;
        }
    }
    if (!best) {
        QToolTip::hideText();
        return;
    }
    const auto& s = best->summary;
    QString text = QString("<b>%1</b> at %2<br>")
                       .arg(QString::fromStdString(best->strategy),
                            QString::fromStdString(formatSize(best->rangeBytes)));
    if (best->status == CellStatus::Failed)
        text += "failed: " + QString::fromStdString(best->message).toHtmlEscaped();
    else
        text += QString("median %1 GB/s<br>min %2 · max %3<br>spread (CV) %4%%5")
                    .arg(s.median, 0, 'f', 2)
                    .arg(s.min, 0, 'f', 2)
                    .arg(s.max, 0, 'f', 2)
                    .arg(s.cv * 100, 0, 'f', 1)
                    .arg(best->status == CellStatus::Noisy ? " — noisy" : "");
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

bool ChartView::exportTo(const QString& path, QString* error, int width, int height) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QString("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    bool painted = true;
    if (suffix == "png") {
        const QPixmap pixmap = plot_->toPixmap(width, height, 2.0);
        painted = pixmap.save(&file, "PNG");
    } else if (suffix == "pdf" || suffix == "svg") {
        std::unique_ptr<QPaintDevice> device;
        if (suffix == "pdf") {
            auto* pdf = new QPdfWriter(&file);
            pdf->setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
            pdf->setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf->setResolution(72);
            pdf->setTitle("readscope chart");
            device.reset(pdf);
        } else {
            auto* svg = new QSvgGenerator;
            svg->setOutputDevice(&file);
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
