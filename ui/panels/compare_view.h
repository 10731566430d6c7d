#pragma once
// The Compare tab: the current results against a loaded baseline document, or every strategy
// against one reference strategy of the same run, with change, interval, p and verdict.
#include "readscope/compare.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableView;

namespace readscope::ui {

class ComparisonModel;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    void setDocuments(const ResultDocument& current, const ResultDocument* baseline);
    // "" compares with the baseline document; a strategy id compares within the run.
    void setReference(const QString& strategy);
    void setThreshold(double fraction);
    const Comparison& comparison() const { return comparison_; }
    bool hasComparison() const { return !comparison_.cells.empty(); }
    QString markdown() const;
    int rowCount() const;

    // While the drift between runs is being measured: the button says so and waits.
    void setMeasuringDrift(bool measuring);

signals:
    void copyRequested(const QString& markdown);
    // Measure drift: run the plan three times to learn how far runs of it drift apart here.
    void measureDriftRequested();

private:
    void recompute();

    QComboBox* against_;
    QDoubleSpinBox* threshold_;
    QLabel* notes_;
    bool showMethod_ = false; // how a row is judged, opened from the notes' link
    QPushButton* measureDrift_;
    QTableView* table_;
    ComparisonModel* model_;
    ResultDocument current_;
    std::optional<ResultDocument> baseline_;
    Comparison comparison_;
};

} // namespace readscope::ui
