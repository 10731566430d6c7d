#include "result_exports.h"

#include "compare_view.h"
#include "exporter.h"
#include "results_model.h"

#include "readscope/documents.h"

#include <QApplication>
#include <QClipboard>

namespace readscope::ui {

QString ResultExports::saveResults(const QString& path) const {
    return saveDocument(model_.document(), DocumentFormat::Json, path);
}

QString ResultExports::exportSummaryCsv(const QString& path) const {
    return saveDocument(model_.document(), DocumentFormat::SummaryCsv, path);
}

QString ResultExports::exportSamplesCsv(const QString& path) const {
    return saveDocument(model_.document(), DocumentFormat::SamplesCsv, path);
}

QString ResultExports::exportChart(const QString& path) const { return saveChart(chart_, path); }

QString ResultExports::exportReport(const QString& dir) const {
    const Comparison* comparison = compare_.hasComparison() ? &compare_.comparison() : nullptr;
    return saveReport(model_.document(), chart_, comparison, dir);
}

QString ResultExports::markdown() const {
    return QString::fromStdString(toMarkdown(model_.document()));
}

void ResultExports::copyChart() const { copyChartToClipboard(chart_); }

void ResultExports::copyMarkdown() const { QApplication::clipboard()->setText(markdown()); }

} // namespace readscope::ui
