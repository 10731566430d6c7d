#pragma once
// The chart: GB/s per range size (one line with markers per strategy, bars of the median's
// 95% interval (or quartiles, or min-max), noisy cells hollow, failed ones crossed, a
// baseline dashed beside), or the same cells as
// "× reference", CPU time per GB, or latency per range. Reads the same ResultsModel as the table.
#include "chart_series.h"

#include <QMargins>
#include <QSharedPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QImage;
class QPoint;
class QColor;
class QComboBox;
class QCustomPlot;
class QCPTextElement;
class QMouseEvent;

namespace readscope::ui {

class ChartFrame;
class ResultsModel;
class SizeAxisTicker;

class ChartView : public QWidget {
    Q_OBJECT
public:
    ~ChartView() override;
    explicit ChartView(ResultsModel* model, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    int graphCountForStrategies() const; // current-run lines (not baseline, not markers)
    int baselineGraphCount() const;
    int pointCount(const QString& strategy) const;
    double pointValue(const QString& strategy, double rangeBytes) const; // NaN when absent

    void setMode(ChartMode mode, const QString& reference = {});
    ChartMode mode() const { return mode_; }
    // The TimeSplit mode shows this strategy's bars per size once it has them, until a person
    // picks another choice (a lesson's chart); empty: no preference.
    void preferSplitOf(const QString& strategy);
    BarKind barKind() const;
    void setBarKind(BarKind bars);
    void setBaseline(const ResultDocument* baseline); // copied; nullptr clears

    // Writes the chart to a file chosen by its suffix (.png, .pdf, .svg), atomically.
    bool exportTo(const QString& path, QString* error, int width = 1200, int height = 700);
    // The chart as an exported PNG draws it (2x pixels, whole system line, footnote).
    QImage imageForSharing(int width = 1200, int height = 700);

signals:
    // The chart's context menu: what the window does with it.
    void copyRequested();
    void saveRequested();
    void copyMarkdownRequested();

public slots:
    void rebuild();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override; // the plot's resizes

private:
    class ExportDress {
    public:
        ExportDress(ChartView& chart, int width); // the width the image is laid out at
        ~ExportDress();
        ExportDress(const ExportDress&) = delete;
        ExportDress& operator=(const ExportDress&) = delete;

    private:
        ChartView& chart_;
        QCPTextElement* note_ = nullptr;
    };

    void showContextMenu(const QPoint& at);
    void applyPalette();
    void setUpXAxis(const ResultDocument& doc, const ChartData& data);
    SweepPoint pointAt(double x) const; // the sweep point a graph key stands for
    void showTooltip(QMouseEvent* event);
    void refreshReferenceChoices();
    void rebuildTimeSplit();
    void rebuildTraceBars(); // a trace run's GB/s: one bar per strategy
    // Over time: the picker filled with overTimeChoices (the choice kept by its label), and
    // the point it picks (none: every size).
    std::optional<SweepPoint>
    pickOverTimePoint(); // the TimeSplit mode's bars, and its choice of size or strategy

    ResultsModel* model_;
    QCustomPlot* plot_;
    QMargins plotMargins_; // the axis rect's own minimum margins (keepSlantedLabelsInside)
    QComboBox* modeBox_;
    QComboBox* referenceBox_;
    QComboBox* barsBox_;
    QComboBox* pointBox_;    // the over-time modes': every size, or one size's rounds
    QComboBox* splitBox_;    // the TimeSplit mode's: strategies at a size, or one strategy
    QString preferredSplit_; // its choice to take once there (preferSplitOf)
    QCheckBox* logY_;
    QSharedPointer<SizeAxisTicker> ticker_;
    std::unique_ptr<ChartFrame> frame_; // title, plot and legend, laid out
    ChartMode mode_ = ChartMode::Throughput;
    std::optional<ResultDocument> baseline_;
    std::vector<SweepPoint> points_;      // the category axis's points (empty: a size axis)
    std::optional<std::uint32_t> pinned_; // a size axis's one pinned buffer offset
};

} // namespace readscope::ui
