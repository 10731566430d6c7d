#pragma once
// The shown results' exports, as the File and Edit menus make them: the document as JSON or
// CSV, the chart as PNG, PDF or SVG, the Markdown table, and the report folder (with the
// Compare tab's comparison when there is one). Each returns an empty string or a message
// naming the cause.
#include <QString>

namespace readscope::ui {

class ChartView;
class CompareView;
class ResultsModel;

class ResultExports {
public:
    ResultExports(const ResultsModel& model, ChartView& chart, const CompareView& compare)
        : model_(model), chart_(chart), compare_(compare) {}

    QString saveResults(const QString& path) const;
    QString exportSummaryCsv(const QString& path) const;
    QString exportSamplesCsv(const QString& path) const;
    QString exportChart(const QString& path) const;
    // Writes readscope-report.md, readscope-results.json and readscope-chart.png into dir.
    QString exportReport(const QString& dir) const;
    QString markdown() const;
    void copyChart() const;    // on the clipboard, as an image and as a PNG file
    void copyMarkdown() const; // on the clipboard

private:
    const ResultsModel& model_;
    ChartView& chart_;
    const CompareView& compare_;
};

} // namespace readscope::ui
