#include "chart_frame.h"

#include <qcustomplot.h>

#include <algorithm>

namespace readscope::ui {

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

// Each line of text wrapped so.
QString wrapLines(const QString& text, const QFontMetrics& metrics, int width) {
    QStringList lines = text.split('\n');
    for (auto& line : lines)
        line = wrapAtSeparators(line, metrics, width);
    return lines.join('\n');
}

constexpr int kLegendBelowWidth = 760; // narrower charts put the legend under the plot

} // namespace

ChartFrame::ChartFrame(QCustomPlot* plot, const QFont& titleFont) : plot_(plot) {
    // Title on top across the whole width; below it the plot with the legend beside it, at
    // the top, never over the points.
    auto* body = body_ = new QCPLayoutGrid;
    QCPAxisRect* rect = plot_->axisRect();
    plot_->plotLayout()->take(rect);
    plot_->plotLayout()->simplify();
    title_ = new QCPTextElement(plot_, "", titleFont);
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
    // Out of the layout (the legend beside the plot) it belongs to nothing: the plot owns it,
    // as the layout hands back what it takes out (side_, when the legend is below).
    legendRow_->setParent(plot_);
    legendRow_->addElement(0, 1, new QCPLayoutElement(plot_));
    legendRow_->setColumnStretchFactor(0, 0.001);
    plot_->legend->setMargins(QMargins(8, 6, 8, 6));
}

void ChartFrame::setTitle(const QString& text) {
    titleText_ = text;
    fitToWidth();
}

void ChartFrame::fitToWidth() {
    if (exporting_)
        return;
    const int width = plot_->width() - 16;
    title_->setText(wrapLines(titleText_, QFontMetrics(title_->font()), width));
    placeLegend(plot_->width() < kLegendBelowWidth);
}

// The legend's widest visible entry.
int ChartFrame::widestLegendEntry() const {
    auto* legend = plot_->legend;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = legend->item(i); item && item->visible())
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    return widest;
}

// A legend narrower than its entries clips them ("memcpy 16-21 GB/s (off sca").
void ChartFrame::fitLegendColumns() { fitLegendColumns(plot_->width()); }

// Below the plot: two columns when two of its widest entries fit in `width`, else one.
void ChartFrame::fitLegendColumns(int width) {
    if (!legendBelow_)
        return;
    auto* legend = plot_->legend;
    const QMargins m = legend->margins();
    const int two = 2 * (widestLegendEntry() - m.left() - m.right()) + legend->columnSpacing() +
                    m.left() + m.right() + 8;
    const int wrap = two <= width ? 2 : 1;
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst); // rearranges by the new wrap
    }
}

void ChartFrame::placeLegend(bool below) {
    if (below != legendBelow_)
        moveLegend(below);
    fitLegendColumns(); // below, the columns follow the width
}

void ChartFrame::moveLegend(bool below) {
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

void ChartFrame::beginExport(const QString& fullTitle, QCPTextElement* footnote, int width) {
    exporting_ = true;
    // Beside the plot while the legend's widest entry leaves the plot most of the width; a
    // long entry (a note, a strategy with its read amplification) put it past the picture's
    // right edge with the plot at 60%: below the plot then, in as many columns as fit.
    const QMargins m = plot_->legend->margins();
    const bool below = widestLegendEntry() + m.left() + m.right() > width * 35 / 100;
    if (below != legendBelow_)
        moveLegend(below);
    fitLegendColumns(width - 16);
    plot_->plotLayout()->addElement(legendBelow_ ? 3 : 2, 0, footnote);
    title_->setText(wrapLines(fullTitle, QFontMetrics(title_->font()), width - 16));
    footnote->setText(wrapLines(footnote->text(), QFontMetrics(footnote->font()), width - 16));
}

void ChartFrame::endExport(QCPTextElement* footnote) {
    plot_->plotLayout()->remove(footnote);
    plot_->plotLayout()->simplify();
    exporting_ = false;
    fitToWidth();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace readscope::ui
