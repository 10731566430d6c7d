// Menus, shortcuts, exports, settings, and drag and drop for the main window.
#include "main_window.h"

#include "chart_view.h"
#include "compare_view.h"
#include "config_panel.h"
#include "exporter.h"
#include "frozen_table_view.h"
#include "generate_dialog.h"
#include "help_pages.h"
#include "lesson_panel.h"
#include "lessons.h"
#include "recovery_file.h"
#include "results_model.h"
#include "run_controller.h"
#include "strategy_picker.h"

#include "readscope/documents.h"
#include "readscope/report.h"
#include "settings_store.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>

#include <QStatusBar>
#include <QTextBrowser>
#include <QUrl>
#include <algorithm>

namespace readscope::ui {

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu("&File");
    auto add = [this](QMenu* menu, const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = menu->addAction(text);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    add(file, "Open &file to measure…", QKeySequence("Ctrl+Shift+O"),
        [this] { chooseTargetFile(); });
    add(file, "&Generate test file…", QKeySequence(), [this] { generateTargetFile(); });
    file->addSeparator();
    add(file, "&Open results…", QKeySequence::Open, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, "Open results", rememberedFolder(QSettings(), "results", {}),
            "readscope results (*.json *.csv);;All files (*)");
        if (!path.isEmpty()) {
            QSettings s;
            rememberFolder(s, "results", path);
        }
        if (!path.isEmpty())
            if (const QString error = openResults(path); !error.isEmpty())
                QMessageBox::warning(this, "Open results", error);
    });
    auto exportWith = [this](const QString& title, const QString& filter, const QString& suffix,
                             QString (MainWindow::*write)(const QString&) const,
                             const QString& part = {}) {
        return [=, this] {
            // In the folder used last, under a name that says what the file holds.
            QSettings settings;
            const QString start =
                QDir(rememberedFolder(settings, "results", QDir::homePath()))
                    .filePath(suggestedFileName(model_->document(), suffix, part));
            QString path = QFileDialog::getSaveFileName(this, title, start, filter);
            if (path.isEmpty())
                return;
            rememberFolder(settings, "results", path);
            if (QFileInfo(path).suffix().isEmpty())
                path += "." + suffix;
            const QString error = (this->*write)(path);
            if (!error.isEmpty())
                QMessageBox::warning(this, title, error);
            else
                statusBar()->showMessage("Wrote " + path, 5000);
        };
    };
    resultActions_ << add(
        file, "&Save results (JSON)…", QKeySequence::Save,
        exportWith("Save results", "JSON (*.json)", "json", &MainWindow::saveResults));
    resultActions_ << add(
        file, "Export &CSV summary…", QKeySequence("Ctrl+E"),
        exportWith("Export CSV summary", "CSV (*.csv)", "csv", &MainWindow::exportSummaryCsv));
    resultActions_ << add(file, "Export CSV &samples…", QKeySequence(),
                          exportWith("Export CSV samples", "CSV (*.csv)", "csv",
                                     &MainWindow::exportSamplesCsv, "samples"));
    QAction* exportPng = add(
        file, "Export chart as &PNG…", QKeySequence("Ctrl+Shift+E"),
        exportWith("Export chart", "PNG image (*.png)", "png", &MainWindow::exportChart, "chart"));
    resultActions_ << exportPng;
    resultActions_ << add(
        file, "Export chart as P&DF…", QKeySequence(),
        exportWith("Export chart", "PDF (*.pdf)", "pdf", &MainWindow::exportChart, "chart"));
    resultActions_ << add(
        file, "Export chart as S&VG…", QKeySequence(),
        exportWith("Export chart", "SVG (*.svg)", "svg", &MainWindow::exportChart, "chart"));
    resultActions_ << add(file, "Export &report…", QKeySequence("Ctrl+Shift+R"), [this] {
        QSettings settings;
        const QString dir = QFileDialog::getExistingDirectory(
            this, "Folder for the report", rememberedFolder(settings, "report", QDir::homePath()));
        if (dir.isEmpty())
            return;
        rememberFolder(settings, "report", dir);
        if (const QString error = exportReport(dir); !error.isEmpty())
            QMessageBox::warning(this, "Export report", error);
        else
            statusBar()->showMessage("Report written to " + dir, 5000);
    });
    file->addSeparator();
    add(file, "Load &baseline…", QKeySequence("Ctrl+B"), [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(
            this, "Baseline results", rememberedFolder(settings, "results", {}),
            "readscope results (*.json *.csv);;All files (*)");
        if (!path.isEmpty())
            rememberFolder(settings, "results", path);
        if (!path.isEmpty())
            if (const QString error = loadBaseline(path); !error.isEmpty())
                QMessageBox::warning(this, "Load baseline", error);
    });
    add(file, "C&lear baseline", QKeySequence(), [this] { clearBaseline(); });
    file->addSeparator();
    add(file, "&Quit", QKeySequence::Quit, [this] { close(); });

    auto* edit = menuBar()->addMenu("&Edit");
    QAction* copyChart =
        add(edit, "Copy &chart", QKeySequence("Ctrl+Shift+C"), [this] { copyChartImage(); });
    copyChart->setObjectName("copyChartAction");
    resultActions_ << copyChart;
    resultActions_ << add(edit, "Copy as &Markdown", QKeySequence("Ctrl+Shift+M"),
                          [this] { copyMarkdown(); });
    connect(chart_, &ChartView::copyRequested, this, &MainWindow::copyChartImage);
    connect(chart_, &ChartView::copyMarkdownRequested, this, &MainWindow::copyMarkdown);
    connect(chart_, &ChartView::saveRequested, exportPng, &QAction::trigger);

    // The side panels, for small screens: shut, the chart takes their room.
    auto* view = menuBar()->addMenu("&View");
    auto panelToggle = [this, view](const QString& text, const QKeySequence& keys, int index,
                                    const char* name) {
        QAction* a = view->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setShortcut(keys);
        connect(view, &QMenu::aboutToShow, a,
                [this, a, index] { a->setChecked(splitter_->sizes().at(index) > 0); });
        // Decided by the panel, not the action's check mark (a shortcut does not refresh it).
        connect(a, &QAction::triggered, this, [this, a, index] {
            auto sizes = splitter_->sizes();
            const bool show = sizes[index] == 0;
            const int want = show ? (index == 0 ? kConfigPanelWidth : kTeachingPanelWidth) : 0;
            sizes[1] = std::max(kChartMinWidth, sizes[1] + sizes[index] - want);
            sizes[index] = want;
            splitter_->setSizes(sizes);
            a->setChecked(show);
        });
    };
    panelToggle("&Configuration panel", QKeySequence("Ctrl+1"), 0, "toggleConfigPanel");
    panelToggle("&Teaching panel", QKeySequence("Ctrl+2"), 2, "toggleTeachingPanel");
    // The result tabs from anywhere in the window, as a browser's tabs: Ctrl+PgDn / Ctrl+Tab
    // and back (a QTabWidget takes them only with the focus inside it).
    view->addSeparator();
    auto tabStep = [this, view](const QString& text, int step, const QList<QKeySequence>& keys,
                                const char* name) {
        QAction* a = view->addAction(text);
        a->setObjectName(name);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, [this, step] {
            tabs_->setCurrentIndex((tabs_->currentIndex() + step + tabs_->count()) %
                                   tabs_->count());
        });
    };
    tabStep("&Next result tab", 1, {QKeySequence("Ctrl+PgDown"), QKeySequence("Ctrl+Tab")},
            "nextTab");
    tabStep("&Previous result tab", -1, {QKeySequence("Ctrl+PgUp"), QKeySequence("Ctrl+Shift+Tab")},
            "previousTab");
    view->addSeparator();
    QAction* lessonToggle = view->addAction("&Lesson");
    lessonToggle->setObjectName("toggleLesson");
    lessonToggle->setShortcut(QKeySequence("Ctrl+3"));
    lessonToggle->setCheckable(true);
    connect(view, &QMenu::aboutToShow, lessonToggle, [this, lessonToggle] {
        lessonToggle->setEnabled(lessons_->hasLesson());
        lessonToggle->setChecked(!lessonText().isEmpty());
    });
    connect(lessonToggle, &QAction::triggered, this, [this, lessonToggle] {
        toggleLesson();
        lessonToggle->setChecked(!lessonText().isEmpty());
    });

    auto* run = menuBar()->addMenu("&Run");
    QAction* runAction = add(run, "&Run", QKeySequence("Ctrl+R"), [this] { startRun(); });
    runAction->setObjectName("runAction");
    QAction* stopAction = add(run, "&Stop", QKeySequence(Qt::Key_Escape), [this] { stopRun(); });
    stopAction->setObjectName("stopAction");
    QAction* refineAction =
        add(run, "Re&fine noisy cells", QKeySequence("Ctrl+Shift+F"), [this] { refineRun(); });
    refineAction->setObjectName("refineAction");
    refineAction->setToolTip("More rounds for the cells whose median is less sure than the "
                             "Precision field asks (±5% when it is off); the others keep theirs");
    resultActions_ << refineAction;

    auto* lessons = menuBar()->addMenu("&Lessons");
    const auto all = loadLessons();
    for (int i = 0; i < all.size(); ++i)
        add(lessons, all[i].title, QKeySequence(), [this, i] { applyLesson(i); });

    auto* help = menuBar()->addMenu("&Help");
    add(help, "How readscope &measures", QKeySequence::HelpContents, [this] {
        showMeasuringHelp(this);
    })->setObjectName("measuringHelpAction");
    add(help, "&Keyboard shortcuts", QKeySequence(), [this] {
        showShortcuts(this, findChildren<QAction*>());
    })->setObjectName("shortcutsHelpAction");
    help->addSeparator();
    add(help, "&About readscope", QKeySequence(), [this] {
        QMessageBox::about(this, "About readscope",
                           QString("<b>readscope %1</b><p>What it costs to read byte ranges of "
                                   "a file, per strategy and range size.</p><p>GB/s = 10^9 "
                                   "bytes per second.</p>")
                               .arg(QApplication::applicationVersion()));
    });
    updateActions();
}

void MainWindow::updateActions() {
    const bool haveResults = !model_->isEmpty() && !controller_->isRunning();
    for (QAction* a : resultActions_)
        a->setEnabled(haveResults);
}

QString MainWindow::saveResults(const QString& path) const {
    return saveDocument(model_->document(), DocumentFormat::Json, path);
}

QString MainWindow::exportSummaryCsv(const QString& path) const {
    return saveDocument(model_->document(), DocumentFormat::SummaryCsv, path);
}

QString MainWindow::exportSamplesCsv(const QString& path) const {
    return saveDocument(model_->document(), DocumentFormat::SamplesCsv, path);
}

QString MainWindow::exportChart(const QString& path) const { return saveChart(*chart_, path); }

void MainWindow::copyChartImage() {
    copyChartToClipboard(*chart_);
    statusBar()->showMessage("Chart copied: paste it into an issue.", 5000);
}

void MainWindow::copyMarkdown() {
    QApplication::clipboard()->setText(markdown());
    statusBar()->showMessage("Markdown table copied: paste it into an issue.", 5000);
}

QString MainWindow::markdown() const {
    return QString::fromStdString(toMarkdown(model_->document()));
}

QString MainWindow::exportReport(const QString& dir) const {
    const Comparison* comparison = compare_->hasComparison() ? &compare_->comparison() : nullptr;
    return saveReport(model_->document(), *chart_, comparison, dir);
}

QString MainWindow::recoveryPath() { return recoveryFilePath(); }

bool MainWindow::hasRecovery() const { return recoveryFileExists(); }

QString MainWindow::restoreRecovery() {
    auto doc = readRecoveryFile();
    if (!doc)
        return QString::fromStdString(doc.error().message);
    model_->setDocument(*doc);
    table_->scrollToStart();
    config_->setPlan(doc->plan);
    lessons_->showFor(doc->plan);
    refreshComparison();
    log(QString("restored %1 finished cells of an interrupted run").arg(doc->cells.size()));
    removeRecoveryFile();
    return {};
}

void MainWindow::discardRecovery() { removeRecoveryFile(); }

QString MainWindow::loadBaseline(const QString& path) {
    auto doc = loadDocument(path.toStdString());
    if (!doc)
        return QString::fromStdString(doc.error().message);
    baseline_ = std::move(*doc);
    chart_->setBaseline(&*baseline_);
    refreshComparison();
    // What a person loads a baseline for: the Compare tab, against it.
    compare_->setReference(QString());
    tabs_->setCurrentWidget(compare_);
    log(QString("baseline loaded: %1 (%2 cells)").arg(path).arg(baseline_->cells.size()));
    return {};
}

void MainWindow::clearBaseline() {
    baseline_.reset();
    chart_->setBaseline(nullptr);
    refreshComparison();
}

void MainWindow::chooseTargetFile() {
    QSettings settings;
    const QString start = config_->filePath().isEmpty()
                              ? rememberedFolder(settings, "target", QDir::homePath())
                              : config_->filePath();
    const QString path = QFileDialog::getOpenFileName(this, "File to measure", start, {}, nullptr,
                                                      QFileDialog::DontUseNativeDialog);
    if (path.isEmpty())
        return;
    rememberFolder(settings, "target", path);
    openTargetFile(path);
}

void MainWindow::generateTargetFile() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::TempLocation);
    const QString path = generateTestFile(this, folder);
    if (!path.isEmpty())
        openTargetFile(path);
}

void MainWindow::applyLesson(int index) {
    const auto all = loadLessons();
    if (index < 0 || index >= all.size() || controller_->isRunning())
        return;
    const Lesson& lesson = all[index];
    Plan plan = lesson.plan;
    plan.file = config_->filePath().toStdString();
    config_->setPlan(plan);
    const QString next =
        lesson.reference.isEmpty()
            ? QString("Press Run (Ctrl+R) and watch the chart.")
            : QString("Press Run (Ctrl+R); then open the Compare tab, which compares against %1.")
                  .arg(lesson.reference);
    lessons_->showLesson(lesson, next);
}

QString MainWindow::openResults(const QString& path) {
    if (controller_->isRunning())
        return "A run is in progress: stop it before opening results.";
    auto doc = loadDocument(path.toStdString());
    if (!doc)
        return QString::fromStdString(doc.error().message);
    model_->setDocument(*doc);
    table_->scrollToStart();
    lessons_->showFor(doc->plan);
    judgeLesson(*doc);
    // Show the plan that made the results, but keep measuring the file already chosen: the
    // document's file may be on another machine or long gone.
    const QString current = config_->filePath();
    config_->setPlan(doc->plan);
    if (!current.isEmpty())
        config_->setFilePath(current);
    else
        refreshFileStatus();
    refreshComparison();
    showExplanation(explainedId_);
    log(QString("opened results %1 (%2 cells)").arg(path).arg(doc->cells.size()));
    reportOffsetSweep(*doc, false);
    setWindowTitle(QString("readscope — %1").arg(QFileInfo(path).fileName()));
    return {};
}

void MainWindow::saveSettings() const {
    QSettings s;
    if (auto plan = config_->plan())
        savePlanSettings(s, config_->filePath(), *plan);
    else
        s.setValue("file", config_->filePath());
    s.setValue("geometry", saveGeometry());
    s.setValue("state", saveState());
    s.setValue("splitter", splitter_->saveState());
}

void MainWindow::restoreSettings() {
    QSettings s;
    Plan defaults;
    defaults.strategies = {"pread-zerofill", "pread-uninit", "seek-read",
                           "pread-reuse",    "mmap-copy",    "mmap-touch"};
    config_->setPlan(loadPlanSettings(s, defaults));
    // The size it was closed at, when that still fits this screen; else the first-start fit.
    if (!restoreGeometry(s.value("geometry").toByteArray()) ||
        !screen()->availableGeometry().contains(frameGeometry()))
        fitToScreen();
    else
        splitter_->restoreState(s.value("splitter").toByteArray());
    restoreState(s.value("state").toByteArray());
    const QString file = s.value("file").toString();
    if (!file.isEmpty())
        openTargetFile(file);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return;
    const QString path = urls.front().toLocalFile();
    event->acceptProposedAction();
    if (path.endsWith(".json") && openResults(path).isEmpty())
        return; // a saved result document opens as results
    openTargetFile(path);
}

} // namespace readscope::ui

namespace readscope::ui {

void MainWindow::reportOffsetSweep(const ResultDocument& doc, bool remember) {
    const auto verdict = judgeOffsetSweep(doc);
    if (!verdict)
        return;
    const QString text = QString::fromStdString(verdict->text);
    log(text, verdict->cliff);
    explanation_->setHtml(QString("<h3>Where the buffer lands: this machine's verdict</h3>"
                                  "<p>%1</p><p><i>Select a cell to see where its buffers "
                                  "started (Details, and the table's Buffers column).</i></p>")
                              .arg(text.toHtmlEscaped()));
    if (!remember)
        return; // opened results may come from another machine
    QSettings s;
    saveSlowBand(s, doc.system.cpuModel, text, slowBand(*verdict));
}

std::optional<SlowBand> MainWindow::measuredSlowBand() const {
    const QSettings s;
    return loadSlowBand(s, model_->document().system.cpuModel);
}

} // namespace readscope::ui
