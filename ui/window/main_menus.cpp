#include "main_menus.h"

#include "main_window.h"

#include "chart_view.h"
#include "compare_view.h"
#include "file_dialogs.h"
#include "help_pages.h"
#include "lesson_panel.h"
#include "lessons.h"
#include "results_model.h"
#include "side_panels.h"

#include "exporter.h"
#include "result_exports.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace readscope::ui {

MainMenus::MainMenus(MainWindow* window) : QObject(window), window_(window) {
    addFileMenu();
    addEditMenu();
    addViewMenu();
    addRunMenu();
    addLessonsAndHelp();
    setResultsAvailable(false);
}

void MainMenus::setResultsAvailable(bool available) {
    for (QAction* a : resultActions_)
        a->setEnabled(available);
}

template <typename Slot>
QAction* MainMenus::add(QMenu* menu, const QString& text, const QKeySequence& key, Slot slot) {
    QAction* a = menu->addAction(text);
    if (!key.isEmpty())
        a->setShortcut(key);
    connect(a, &QAction::triggered, window_, slot);
    return a;
}

void MainMenus::exportWith(const QString& title, const QString& filter, const QString& suffix,
                           Writer write, const QString& part) {
    // In the folder used last, under a name that says what the file holds.
    const QString path =
        askSavePath(window_, title, filter,
                    suggestedFileName(window_->model()->document(), suffix, part), suffix);
    if (path.isEmpty())
        return;
    if (const QString error = (window_->exports().*write)(path); !error.isEmpty())
        QMessageBox::warning(window_, title, error);
    else
        window_->flash("Wrote " + path, 5000);
}

void MainMenus::copyChart() {
    window_->exports().copyChart();
    window_->flash("Chart copied: paste it into an issue.", 5000);
}

void MainMenus::copyMarkdown() {
    window_->exports().copyMarkdown();
    window_->flash("Markdown table copied: paste it into an issue.", 5000);
}

void MainMenus::addFileMenu() {
    MainWindow* w = window_;
    QMenu* file = w->menuBar()->addMenu("&File");
    add(file, "Open &file to measure…", QKeySequence("Ctrl+Shift+O"),
        [w] { w->chooseTargetFile(); });
    add(file, "&Generate test file…", QKeySequence(), [w] { w->generateTargetFile(); });
    add(file, "Open &trace…", QKeySequence("Ctrl+T"), [w] {
        if (const QString path = askTraceFile(w); !path.isEmpty())
            if (const QString error = w->openTrace(path); !error.isEmpty())
                QMessageBox::warning(w, "Open trace", error);
    });
    file->addSeparator();
    add(file, "&Open results…", QKeySequence::Open, [w] {
        if (const QString path = askResultsFile(w, "Open results"); !path.isEmpty())
            if (const QString error = w->openResults(path); !error.isEmpty())
                QMessageBox::warning(w, "Open results", error);
    });
    auto exporting = [this](const QString& title, const QString& filter, const QString& suffix,
                            Writer write, const QString& part = {}) {
        return [=, this] { exportWith(title, filter, suffix, write, part); };
    };
    resultActions_ << add(
        file, "&Save results (JSON)…", QKeySequence::Save,
        exporting("Save results", "JSON (*.json)", "json", &ResultExports::saveResults));
    resultActions_ << add(
        file, "Export &CSV summary…", QKeySequence("Ctrl+E"),
        exporting("Export CSV summary", "CSV (*.csv)", "csv", &ResultExports::exportSummaryCsv));
    resultActions_ << add(file, "Export CSV &samples…", QKeySequence(),
                          exporting("Export CSV samples", "CSV (*.csv)", "csv",
                                    &ResultExports::exportSamplesCsv, "samples"));
    exportPng_ = add(file, "Export chart as &PNG…", QKeySequence("Ctrl+Shift+E"),
                     exporting("Export chart", "PNG image (*.png)", "png",
                               &ResultExports::exportChart, "chart"));
    resultActions_ << exportPng_;
    resultActions_ << add(
        file, "Export chart as P&DF…", QKeySequence(),
        exporting("Export chart", "PDF (*.pdf)", "pdf", &ResultExports::exportChart, "chart"));
    resultActions_ << add(
        file, "Export chart as S&VG…", QKeySequence(),
        exporting("Export chart", "SVG (*.svg)", "svg", &ResultExports::exportChart, "chart"));
    resultActions_ << add(file, "Export &report…", QKeySequence("Ctrl+Shift+R"), [w] {
        const QString dir = askReportFolder(w, "Folder for the report");
        if (dir.isEmpty())
            return;
        if (const QString error = w->exports().exportReport(dir); !error.isEmpty())
            QMessageBox::warning(w, "Export report", error);
        else
            w->flash("Report written to " + dir, 5000);
    });
    file->addSeparator();
    add(file, "Load &baseline…", QKeySequence("Ctrl+B"), [w] {
        if (const QString path = askResultsFile(w, "Baseline results"); !path.isEmpty())
            if (const QString error = w->loadBaseline(path); !error.isEmpty())
                QMessageBox::warning(w, "Load baseline", error);
    });
    add(file, "C&lear baseline", QKeySequence(), [w] { w->clearBaseline(); });
    file->addSeparator();
    add(file, "&Quit", QKeySequence::Quit, [w] { w->close(); });
}

void MainMenus::addEditMenu() {
    MainWindow* w = window_;
    QMenu* edit = w->menuBar()->addMenu("&Edit");
    QAction* chart =
        add(edit, "Copy &chart", QKeySequence("Ctrl+Shift+C"), [this] { copyChart(); });
    chart->setObjectName("copyChartAction");
    resultActions_ << chart;
    resultActions_ << add(edit, "Copy as &Markdown", QKeySequence("Ctrl+Shift+M"),
                          [this] { copyMarkdown(); });
    // The chart's own context menu does the same.
    connect(w->chart(), &ChartView::copyRequested, this, &MainMenus::copyChart);
    connect(w->chart(), &ChartView::copyMarkdownRequested, this, &MainMenus::copyMarkdown);
    connect(w->chart(), &ChartView::saveRequested, exportPng_, &QAction::trigger);
    connect(w->compareView(), &CompareView::copyRequested, this, [w](const QString& markdown) {
        QApplication::clipboard()->setText(markdown);
        w->flash("Comparison copied as Markdown.", 5000);
    });
}

void MainMenus::addViewMenu() {
    MainWindow* w = window_;
    QMenu* view = w->menuBar()->addMenu("&View");
    // The side panels, for small screens: shut, the chart takes their room.
    auto panelToggle = [w, view](const QString& text, const QKeySequence& keys,
                                 SidePanels::Panel panel, const char* name) {
        QAction* a = view->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setShortcut(keys);
        connect(view, &QMenu::aboutToShow, a,
                [w, a, panel] { a->setChecked(w->sidePanels()->isShown(panel)); });
        // Decided by the panel, not the action's check mark (a shortcut does not refresh it).
        connect(a, &QAction::triggered, w,
                [w, a, panel] { a->setChecked(w->sidePanels()->toggle(panel)); });
    };
    panelToggle("&Configuration panel", QKeySequence("Ctrl+1"), SidePanels::Config,
                "toggleConfigPanel");
    panelToggle("&Teaching panel", QKeySequence("Ctrl+2"), SidePanels::Teaching,
                "toggleTeachingPanel");
    // The result tabs from anywhere in the window, as a browser's tabs: Ctrl+PgDn / Ctrl+Tab
    // and back (a QTabWidget takes them only with the focus inside it).
    view->addSeparator();
    auto tabStep = [w, view](const QString& text, int step, const QList<QKeySequence>& keys,
                             const char* name) {
        QAction* a = view->addAction(text);
        a->setObjectName(name);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, w, [w, step] { w->stepResultTab(step); });
    };
    tabStep("&Next result tab", 1, {QKeySequence("Ctrl+PgDown"), QKeySequence("Ctrl+Tab")},
            "nextTab");
    tabStep("&Previous result tab", -1, {QKeySequence("Ctrl+PgUp"), QKeySequence("Ctrl+Shift+Tab")},
            "previousTab");
    view->addSeparator();
    QAction* lesson = view->addAction("&Lesson");
    lesson->setObjectName("toggleLesson");
    lesson->setShortcut(QKeySequence("Ctrl+3"));
    lesson->setCheckable(true);
    connect(view, &QMenu::aboutToShow, lesson, [w, lesson] {
        lesson->setEnabled(w->lessons()->hasLesson());
        lesson->setChecked(!w->lessonText().isEmpty());
    });
    connect(lesson, &QAction::triggered, w, [w, lesson] {
        w->lessons()->toggle();
        lesson->setChecked(!w->lessonText().isEmpty());
    });
}

void MainMenus::addRunMenu() {
    MainWindow* w = window_;
    QMenu* run = w->menuBar()->addMenu("&Run");
    add(run, "&Run", QKeySequence("Ctrl+R"), [w] { w->startRun(); })->setObjectName("runAction");
    add(run, "&Stop", QKeySequence(Qt::Key_Escape), [w] {
        w->stopRun();
    })->setObjectName("stopAction");
    QAction* refine =
        add(run, "Re&fine noisy cells", QKeySequence("Ctrl+Shift+F"), [w] { w->refineRun(); });
    refine->setObjectName("refineAction");
    refine->setToolTip("More rounds for the cells whose median is less sure than the "
                       "Precision field asks (±5% when it is off); the others keep theirs");
    resultActions_ << refine;
    finish_ = add(run, "F&inish the run", QKeySequence("Ctrl+Alt+R"), [w] { w->finishRun(); });
    finish_->setObjectName("finishAction");
    finish_->setToolTip("Measure what a stopped or restored run lacks: its missing sizes and "
                        "its cells with fewer rounds than planned, going on from their rounds");
    finish_->setEnabled(false);
}

void MainMenus::setFinishable(bool finishable) {
    if (finish_)
        finish_->setEnabled(finishable);
}

void MainMenus::addLessonsAndHelp() {
    MainWindow* w = window_;
    QMenu* lessons = w->menuBar()->addMenu("&Lessons");
    const auto all = loadLessons();
    for (int i = 0; i < all.size(); ++i)
        add(lessons, all[i].title, QKeySequence(), [w, i] { w->applyLesson(i); });

    QMenu* help = w->menuBar()->addMenu("&Help");
    add(help, "How readscope &measures", QKeySequence::HelpContents, [w] {
        showMeasuringHelp(w);
    })->setObjectName("measuringHelpAction");
    add(help, "&Keyboard shortcuts", QKeySequence(), [w] {
        showShortcuts(w, w->findChildren<QAction*>());
    })->setObjectName("shortcutsHelpAction");
    help->addSeparator();
    add(help, "&About readscope", QKeySequence(), [w] {
        QMessageBox::about(w, "About readscope",
                           QString("<b>readscope %1</b><p>What it costs to read byte ranges of "
                                   "a file, per strategy and range size.</p><p>GB/s = 10^9 "
                                   "bytes per second.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

} // namespace readscope::ui
