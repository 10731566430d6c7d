#pragma once
// The main window: configuration on the left, Chart / Table / Details / Log in the middle,
// the selected strategy's explanation on the right, progress and Run / Stop at the bottom.
#include "lessons.h"

#include "readscope/file_status.h"
#include "readscope/offset_trap.h"
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QSplitter;
class QTableView;
class QTextBrowser;

namespace readscope::ui {

class ChartView;
class CompareView;
class ConfigPanel;
class ResultsModel;
class RunController;
class FileInspector;
class FrozenTableView;
class LessonPanel;
class RunStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Chooses the file to measure and looks at it in the background; fileInspected tells when
    // the look is done (and the panel, or the banner, what it found).
    void openTargetFile(const QString& path);
    bool isInspectingFile() const;
    void chooseTargetFile();   // the Open… dialog for the file to measure
    void copyChartImage();     // Edit ▸ Copy chart: the exported picture, on the clipboard
    void copyMarkdown();       // Edit ▸ Copy as Markdown
    void generateTargetFile(); // the Generate… dialog, then opens what it made
    // Starts a run with the panel's plan; false (with a message on screen) when it cannot.
    bool startRun();
    void stopRun();
    // Run ▸ Refine noisy cells: more rounds for the shown run's cells that are wider than the
    // Precision field asks (the noise threshold when it is off), the quiet ones untouched.
    // False (with a message) when there is nothing it can refine.
    bool refineRun();
    bool isRunning() const;

    // Exports and documents; each returns an empty string or a message naming the cause.
    QString saveResults(const QString& path) const;
    QString exportSummaryCsv(const QString& path) const;
    QString exportSamplesCsv(const QString& path) const;
    QString exportChart(const QString& path) const;
    QString openResults(const QString& path);
    QString markdown() const;
    // Writes readscope-report.md, readscope-results.json and readscope-chart.png into dir.
    QString exportReport(const QString& dir) const;
    QString loadBaseline(const QString& path);
    void clearBaseline();
    void applyLesson(int index);
    // Cells a crashed or killed run left behind, and showing them as if just run.
    static QString recoveryPath();
    bool hasRecovery() const;
    QString restoreRecovery();
    void discardRecovery();
    CompareView* compareView() const { return compare_; }

    ConfigPanel* config() const { return config_; }
    ChartView* chart() const { return chart_; }
    ResultsModel* model() const { return model_; }
    QString bannerText() const;
    QString lessonText() const; // the lesson panel's text; empty when no lesson is shown
    QString logText() const;
    void restoreSettings();
    void toggleLesson(); // View ▸ Lesson: shows or hides the lesson chosen last

signals:
    void runFinished();
    // The chosen file was looked at: usable (ok) or not (the banner says why).
    void fileInspected(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QString explainedId_; // the strategy the teaching panel explains
    void buildLayout();
    void fitToScreen();
    // The side panels' widths when open, and the least the chart's column keeps.
    static constexpr int kConfigPanelWidth = 390, kTeachingPanelWidth = 280, kChartMinWidth = 420;
    void judgeLesson(const ResultDocument& doc);
    void buildActions();
    void saveSettings() const;
    void refreshFileStatus();
    void onFileInspected(const QString& path, const FileStatus* status, const QString& error);
    void showBanner(const QString& message);
    QString inputProblem() const; // what is wrong with the panel's plan; empty when nothing
    void clearFixedInputBanner();
    void log(const QString& message, bool warning = false);
    void onProgress(const Progress& p);
    void onFinished(const ResultDocument& doc, const QString& error);
    void logFindings(const ResultDocument& doc);
    void onRunningChanged(bool running);
    void showDetailsFor(const QModelIndex& proxyIndex);
    void showExplanation(const QString& id);
    void updateActions();
    void refreshComparison();
    // An offset sweep's verdict: said in the log and the teaching panel, and its slow band
    // kept (settings, when remember) for the teaching panel of later runs on this machine.
    void reportOffsetSweep(const ResultDocument& doc, bool remember);
    std::optional<SlowBand> measuredSlowBand() const;

    ConfigPanel* config_ = nullptr;
    ResultsModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    ChartView* chart_ = nullptr;
    FrozenTableView* table_ = nullptr;
    QTextBrowser* details_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QSplitter* splitter_ = nullptr;
    CompareView* compare_ = nullptr;
    int logTab_ = 0;
    std::optional<ResultDocument> baseline_;
    LessonPanel* lessons_ = nullptr; // the lesson chosen last, above the tabs
    QTextBrowser* explanation_ = nullptr;
    QLabel* banner_ = nullptr;
    RunStatus* status_ = nullptr; // progress, where the run is, Run and Stop
    RunController* controller_ = nullptr;
    FileInspector* inspector_ = nullptr;
    QString fileProblem_;   // why the last file looked at cannot be measured
    QString inspectedPath_; // the file the panel's status is about
    QElapsedTimer runClock_;
    int warnings_ = 0;
    QList<QAction*> resultActions_;
    bool bannerFromInput_ = false; // the banner says what is wrong with the input
    bool refining_ = false;        // the run under way adds rounds to the shown one
};

} // namespace readscope::ui
