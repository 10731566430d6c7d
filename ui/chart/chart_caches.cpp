#include "chart_caches.h"

#include "readscope/units.h"

#include <qcustomplot.h>

namespace readscope::ui {

void addCacheMarkers(QCustomPlot& plot, const CpuCaches& caches, const QColor& color) {
    for (const auto& [level, bytes] : cacheLevels(caches)) {
        const double x = double(bytes);
        if (!bytes)
            continue;
        const QString text = QString("%1 %2").arg(level, QString::fromStdString(formatSize(bytes)));
        auto* line = new QCPItemStraightLine(&plot);
        line->setPen(QPen(color, 1.2, Qt::DashLine));
        line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
        line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setSelectable(false);
        line->setProperty(kCacheMarkerProperty, text);
        auto* label = new QCPItemText(&plot);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.01);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(3, 0, 0, 0));
        label->setText(text);
        label->setColor(color);
        QFont font = plot.font();
        font.setPointSizeF(font.pointSizeF() * 0.85);
        label->setFont(font);
        label->setSelectable(false);
    }
}

} // namespace readscope::ui
