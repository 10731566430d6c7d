#pragma once
// The main window: configuration on the left, Chart / Table / Compare / Details / Log in the
// middle, the selected strategy's explanation on the right, progress and Run / Stop at the
// bottom. It composes the parts and carries a run from the panel's plan to the results; the
// menus (MainMenus), the exports (ResultExports), the baseline (Baseline), the lesson
// (LessonPanel) and the recovery file (recovery_file.h) are each their own.
#include "readscope/file_status.h"
#include "readscope/generator.h"
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <QMainWindow>

#include <memory>

namespace readscope::ui {

class Banner;
class Baseline;
class ChartView;
class CompareView;
class ConfigPanel;
class LessonPanel;
class MainMenus;
class ResultExports;
class ResultTabs;
class ResultsModel;
class RunController;
class RunStatus;
class SidePanels;
class TargetFile;
class TeachingPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Chooses the file to measure and looks at it in the background; fileInspected tells when
    // the look is done (and the panel, or the banner, what it found).
    void openTargetFile(const QString& path);
    bool isInspectingFile() const;
    void chooseTargetFile(); // the Open… dialog for the file to measure
    // The Generate… dialog (its size field at `bytes`), then opens what it made.
    void generateTargetFile(std::uint64_t bytes = kDefaultTestFileSize);
    // Starts a run with the panel's plan; false (with a message on screen) when it cannot.
    bool startRun();
    void stopRun();
    // Run ▸ Refine noisy cells: more rounds for the shown run's cells that are wider than the
    // Precision field asks (the noise threshold when it is off), the quiet ones untouched.
    // False (with a message) when there is nothing it can refine.
    bool refineRun();
    // Run ▸ Finish the run: what a stopped or restored run lacks (its missing points and its
    // cells with fewer rounds than planned) measured, its kept cells on screen meanwhile.
    // False (with a message) when the shown run is complete or nothing is shown.
    bool finishRun();
    bool canFinishRun() const;
    // The Compare tab's Measure drift: the current results' plan run three times, this
    // machine's drift between runs kept, and the comparison judged again against it.
    bool measureDrift();
    bool isRunning() const;

    // File ▸ Open trace… and a dropped .trace: the trace in the panel, the Trace pattern
    // chosen, so Run replays it; empty, or why not (an unreadable or unknown trace).
    QString openTrace(const QString& path);
    // Shows saved results (JSON or CSV) as if just run: empty, or why not.
    QString openResults(const QString& path);
    // The cells a crashed or killed run left in the recovery file, shown as if just run.
    QString restoreRecovery(bool remove = true);
    // The same, then Finish the run: the rest of it measured.
    QString finishRecoveredRun();
    QString loadBaseline(const QString& path); // empty, or why not
    void clearBaseline();
    void applyLesson(int index); // its plan in the panel, and its text above the results
    LessonPanel* lessons() const { return lessons_; } // the lesson chosen last
    SidePanels* sidePanels() const { return splitter_; }
    void stepResultTab(int by); // the next (1) or previous (-1) result tab
    void restoreSettings();

    const ResultExports& exports() const { return *exports_; }
    ConfigPanel* config() const { return config_; }
    ChartView* chart() const;
    CompareView* compareView() const;
    ResultsModel* model() const { return model_; }
    QString bannerText() const;
    // A note in the status line for ms (0: until replaced): RunStatus::flash.
    void flash(const QString& text, int ms);
    QString statusText() const; // what the status line says now
    QString lessonText() const; // the lesson panel's text; empty when no lesson is shown
    QString logText() const;

signals:
    void runFinished();
    // The chosen file was looked at: usable (ok) or not (the banner says why).
    void fileInspected(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildLayout();
    void fitToScreen();
    void saveSettings() const;
    void showBanner(const QString& message, bool aboutInput = false);
    void clearFixedInputBanner();
    void log(const QString& message, bool warning = false);
    void onFinished(const ResultDocument& doc, const QString& error);
    void logFindings(const ResultDocument& doc);
    void judgeLesson(const ResultDocument& doc);
    // Results now shown (a run's, opened, restored): the table from its start, the lesson, the
    // comparison and the explanation about them.
    void showResults(const ResultDocument& doc);
    void updateActions();
    void refreshComparison();
    // An offset sweep's verdict in the teaching panel, which keeps its slow band for later runs
    // on this machine when remember.
    void reportOffsetSweep(const ResultDocument& doc, bool remember);

    ConfigPanel* config_ = nullptr;
    ResultsModel* model_ = nullptr;
    ResultTabs* tabs_ = nullptr;
    SidePanels* splitter_ = nullptr;
    LessonPanel* lessons_ = nullptr; // the lesson chosen last, above the tabs
    TeachingPanel* explanation_ = nullptr;
    Banner* banner_ = nullptr;
    RunStatus* status_ = nullptr; // progress, where the run is, Run and Stop
    RunController* controller_ = nullptr;
    TargetFile* target_ = nullptr; // the file to measure, and the look at it
    Baseline* baseline_ = nullptr;
    std::unique_ptr<ResultExports> exports_;
    MainMenus* menus_ = nullptr;
    bool refining_ = false; // the run under way adds rounds to the shown one
};

} // namespace readscope::ui
