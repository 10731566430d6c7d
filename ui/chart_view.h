#pragma once
// GB/s per range size: one line with markers per strategy, min-max error bars, noisy cells
// ringed, failed cells crossed at zero. Reads the same ResultsModel as the table.
#include <QWidget>

#include <QSharedPointer>

class QCustomPlot;
class QCPTextElement;
class QMouseEvent;

namespace readscope::ui {

class ResultsModel;
class SizeAxisTicker;

class ChartView : public QWidget {
    Q_OBJECT
public:
    explicit ChartView(ResultsModel* model, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    int graphCountForStrategies() const; // lines drawn for strategies (not markers)
    int pointCount(const QString& strategy) const;

    // Writes the chart to a file chosen by its suffix (.png, .pdf, .svg), atomically.
    bool exportTo(const QString& path, QString* error, int width = 1200, int height = 700);

public slots:
    void rebuild();

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    void showTooltip(QMouseEvent* event);

    ResultsModel* model_;
    QCustomPlot* plot_;
    QSharedPointer<SizeAxisTicker> ticker_;
    QCPTextElement* title_ = nullptr;
};

} // namespace readscope::ui
