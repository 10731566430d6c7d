#include "trace_shape.h"

#include "readscope/units.h"

#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace readscope::ui {

namespace {
constexpr int kHistogramHeight = 70, kStripHeight = 60, kLabel = 14, kGap = 8;

QString shortSize(std::uint64_t bytes) { return QString::fromStdString(formatSizeShort(bytes)); }
} // namespace

TraceShape::TraceShape(QWidget* parent) : QWidget(parent) {
    setObjectName("traceShape");
    setMinimumHeight(kHistogramHeight + kStripHeight + 2 * kLabel + kGap);
    setToolTip("Above: reads per size class (up to the size below each bar). Below: each read's "
               "offset in the file (down), in the order the program made them (across).");
}

void TraceShape::setTrace(std::shared_ptr<const Trace> trace, TraceSummary summary) {
    trace_ = std::move(trace);
    summary_ = std::move(summary);
    setVisible(trace_ != nullptr);
    update();
}

QSize TraceShape::sizeHint() const {
    return {260, kHistogramHeight + kStripHeight + 2 * kLabel + kGap};
}

void TraceShape::paintEvent(QPaintEvent*) {
    if (!trace_ || trace_->reads.empty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    p.setFont(small);
    const QRect histogram(0, 0, width(), kHistogramHeight + kLabel);
    const QRect strip(0, histogram.bottom() + kGap, width(), kStripHeight + kLabel);
    paintHistogram(p, histogram);
    paintOffsets(p, strip);
}

void TraceShape::paintHistogram(QPainter& p, const QRect& area) const {
    const auto& classes = summary_.histogram;
    if (classes.empty())
        return;
    std::uint64_t most = 1;
    for (const auto& [upTo, count] : classes)
        most = std::max(most, count);
    const double slot = double(area.width()) / double(classes.size());
    const QColor bar = palette().color(QPalette::Highlight);
    p.setPen(palette().color(QPalette::WindowText));
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const auto [upTo, count] = classes[i];
        const double h = double(kHistogramHeight - kLabel) * double(count) / double(most);
        const QRectF r(area.left() + slot * double(i) + 1,
                       area.top() + kLabel + (kHistogramHeight - kLabel) - h,
                       std::max(1.0, slot - 2), h);
        p.fillRect(r, bar);
        p.drawText(QRectF(r.left() - 4, r.top() - kLabel, r.width() + 8, kLabel),
                   Qt::AlignHCenter | Qt::AlignBottom, QString::number(count));
        p.drawText(
            QRectF(area.left() + slot * double(i), area.top() + kHistogramHeight, slot, kLabel),
            Qt::AlignHCenter | Qt::AlignTop, shortSize(upTo));
    }
}

void TraceShape::paintOffsets(QPainter& p, const QRect& area) const {
    const auto& reads = trace_->reads;
    const double end =
        double(std::max<std::uint64_t>(trace_->fileBytes.value_or(0), trace_->end()));
    const QRectF band(area.left(), area.top(), area.width(), kStripHeight);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(band.adjusted(0, 0, -1, -1));
    const QColor dot = palette().color(QPalette::Highlight);
    const double n = double(reads.size());
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const double x = band.left() + (double(i) + 0.5) / n * band.width();
        // At least 3 px tall, and inside the band: a footer's 8 bytes at the very end show.
        const double h = std::max(3.0, double(reads[i].length) / end * band.height());
        const double top =
            std::min(band.top() + double(reads[i].offset) / end * band.height(), band.bottom() - h);
        p.fillRect(QRectF(x - 1.5, top, 3, h), dot);
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRectF(area.left(), band.bottom() + 1, area.width(), kLabel),
               Qt::AlignLeft | Qt::AlignTop,
               QString("read 1 … %1 → offset 0 (top) to %2 (bottom)")
                   .arg(reads.size())
                   .arg(shortSize(std::uint64_t(end))));
}

} // namespace readscope::ui
