#include "chart_file.h"

#include "chart_view.h"
#include "results_model.h"

#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <algorithm>
#include <memory>

namespace readscope::ui {

namespace {
int exportDpi(const QCustomPlot& plot) { return std::max(72, plot.logicalDpiY()); }
bool isPdf(const QString& path) { return QFileInfo(path).suffix().toLower() == "pdf"; }
} // namespace

int exportLayoutWidth(const QCustomPlot& plot, const QString& path, int width) {
    return isPdf(path) ? 842 * exportDpi(plot) / 72 : width;
}

bool writePlot(QCustomPlot& plot, const QString& path, QString* error, int width, int height) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QString("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const int dpi = exportDpi(plot);
    bool painted = true;
    if (suffix == "png") {
        // Twice the pixels: sharp when GitHub scales it down to the column width.
        const QPixmap pixmap = plot.toPixmap(width, height, 2.0);
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
            width = exportLayoutWidth(plot, path, width);
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
        plot.toPainter(&painter, width, height);
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

QString saveDocumentChart(const ResultDocument& doc, const QString& path, ReportChart which) {
    ResultsModel model;
    model.setDocument(doc);
    ChartView chart(&model);
    if (which == ReportChart::OverTime)
        chart.setMode(ChartMode::OverTime);
    else if (which == ReportChart::Shootdowns)
        chart.setMode(ChartMode::ShootdownsOverTime);
    chart.resize(1200, 700); // the export's size, as a maximized window lays it out
    QString error;
    return chart.exportTo(path, &error) ? QString() : error;
}

} // namespace readscope::ui
