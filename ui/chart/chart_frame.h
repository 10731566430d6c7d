#pragma once
// The chart's layout on a QCustomPlot: the title across the top, the plot, and the legend
// beside the plot or, when the chart is narrow, below it (beside, it would squeeze the plot to
// a strip whose size labels run into each other). In the window the title wraps between its
// " · " parts to the width; an export's layout is set for its image (exporting).
#include <QFont>
#include <QString>

class QCustomPlot;
class QCPLayoutGrid;
class QCPTextElement;

namespace readscope::ui {

class ChartFrame {
public:
    ChartFrame(QCustomPlot* plot, const QFont& titleFont);

    QCPTextElement* title() const { return title_; }
    // The title as it should read; fitted to the width unless exporting.
    void setTitle(const QString& text);
    // After a resize: the title wrapped and the legend placed for the plot's width.
    void fitToWidth();
    // Below the plot, two legend columns when the widest entries fit side by side, else one.
    void fitLegendColumns();

    // An export laid out `width` pixels wide: the legend beside the plot (an image is wide
    // enough), the title given and a footnote under the plot, each wrapped between its " · "
    // parts where a line would run past the edge, until endExport() puts the window's back.
    void beginExport(const QString& fullTitle, QCPTextElement* footnote, int width);
    void endExport(QCPTextElement* footnote);

private:
    void fitLegendColumns(int width);
    int widestLegendEntry() const;
    void placeLegend(bool below); // moves it when it must, and fits its columns
    void moveLegend(bool below);

    QCustomPlot* plot_;
    QCPTextElement* title_ = nullptr;
    QString titleText_;             // the title before fitting it to the window's width
    QCPLayoutGrid* body_ = nullptr; // the plot, with the legend beside (side_) or below it
    QCPLayoutGrid* side_ = nullptr;
    QCPLayoutGrid* legendRow_ = nullptr; // the legend and a spacer, under a narrow plot
    bool legendBelow_ = false;
    bool exporting_ = false;
};

} // namespace readscope::ui
