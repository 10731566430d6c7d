#pragma once
// The results in the middle of the window: Chart, Table, Compare, Details and Log, over one
// ResultsModel. The table sorts by range size and keeps Strategy and Range in view; selecting
// a row shows that cell in Details; the Log counts its warnings in its tab's title.
#include <QTabWidget>

class QPlainTextEdit;
class QSortFilterProxyModel;
class QTextBrowser;

namespace readscope::ui {

class ChartView;
class CompareView;
class FrozenTableView;
class ResultsModel;

class ResultTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit ResultTabs(ResultsModel* model, QWidget* parent = nullptr);

    ChartView* chart() const { return chart_; }
    CompareView* compare() const { return compare_; }
    FrozenTableView* table() const { return table_; }

    // A line in the Log, timed; a warning counts in the tab's title.
    void log(const QString& message, bool warning = false);
    QString logText() const;
    void clearWarningCount(); // a new run's warnings count from none
    void step(int by);        // the next (1) or previous (-1) tab, round the end

signals:
    // The strategy of the cell a person selected in the table.
    void strategySelected(const QString& id);

private:
    void showDetailsFor(const QModelIndex& proxyIndex);
    void refreshDetails(int sourceRow); // the selected cell's, its figures changed

    ResultsModel* model_;
    QSortFilterProxyModel* proxy_;
    ChartView* chart_;
    FrozenTableView* table_;
    CompareView* compare_;
    QTextBrowser* details_;
    QPlainTextEdit* log_;
    int logTab_ = 0;
    int warnings_ = 0;
};

} // namespace readscope::ui
