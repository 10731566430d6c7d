#include "main_window.h"

#include "banner.h"
#include "baseline.h"
#include "chart_view.h"
#include "close_question.h"
#include "compare_view.h"
#include "config_panel.h"
#include "file_dialogs.h"
#include "frozen_table_view.h"
#include "generate_dialog.h"
#include "lesson_panel.h"
#include "main_menus.h"
#include "offset_verdict.h"
#include "recovery_file.h"

#include "readscope/recovery.h"
#include "readscope/run_notes.h"
#include "result_exports.h"
#include "result_tabs.h"
#include "results_model.h"
#include "run_controller.h"
#include "run_status.h"
#include "settings_store.h"
#include "side_panels.h"
#include "target_file.h"
#include "teaching_panel.h"

#include "readscope/documents.h"
#include "readscope/finding_text.h"
#include "readscope/state_words.h"
#include "readscope/stats.h"
#include "readscope/units.h"

#include <QCloseEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>

namespace readscope::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("readscope");
    setAcceptDrops(true);
    model_ = new ResultsModel(this);
    controller_ = new RunController(this);
    controller_->setRecoveryPath(recoveryFilePath());
    baseline_ = new Baseline(this);
    buildLayout();
    target_ = new TargetFile(config_, this);
    connect(target_, &TargetFile::inspected, this, [this](bool ok, const QString& problem) {
        showBanner(problem);
        const FileStatus* status = config_->fileStatus();
        lessons_->setFileSize(ok && status ? status->probe.size : 0);
        emit fileInspected(ok);
    });
    exports_ = std::make_unique<ResultExports>(*model_, *tabs_->chart(), *tabs_->compare());
    menus_ = new MainMenus(this);
    connect(controller_, &RunController::started, model_, &ResultsModel::beginRun);
    // Every round of a point updates its cells' rows, so every point fills in a little at a
    // time; the finished cell takes its row's place.
    connect(controller_, &RunController::cellMeasured, model_, &ResultsModel::addCell);
    connect(controller_, &RunController::cellFinished, model_, &ResultsModel::addCell);
    connect(controller_, &RunController::progressed, status_, &RunStatus::showProgress);
    connect(controller_, &RunController::warned, this, [this](const QString& m) { log(m, true); });
    connect(controller_, &RunController::finished, this, &MainWindow::onFinished);
    connect(controller_, &RunController::driftMeasured, this,
            [this](const QString& measured, const QString& error) {
                tabs_->compare()->setMeasuringDrift(false);
                if (!error.isEmpty()) {
                    status_->finished("Drift not measured.", false);
                    log("drift between runs not measured: " + error, true);
                    return;
                }
                status_->finished("Drift between runs measured: " + measured, true);
                log("drift between runs measured: " + measured);
                refreshComparison(); // judged again, against it
            });
    connect(tabs_->compare(), &CompareView::measureDriftRequested, this, &MainWindow::measureDrift);
    connect(controller_, &RunController::runningChanged, this, [this](bool running) {
        status_->setRunning(running);
        config_->setEnabled(!running);
        updateActions();
    });
    connect(config_, &ConfigPanel::fileEdited, this, &MainWindow::openTargetFile);
    // The Open… and Generate… buttons beside the file field do what the File menu does.
    connect(config_, &ConfigPanel::browseRequested, this, &MainWindow::chooseTargetFile);
    connect(config_, &ConfigPanel::generateRequested, this, [this] { generateTargetFile(); });
    connect(lessons_, &LessonPanel::generateRequested, this,
            [this](std::uint64_t bytes) { generateTargetFile(bytes); });
    connect(config_, &ConfigPanel::changed, this, &MainWindow::clearFixedInputBanner);
    // Before a run (or after a lesson cleared the results) the empty chart's axis is the
    // plan's: sizes edited in the panel show at once, not the last run's 16 KiB - 8 MiB.
    connect(config_, &ConfigPanel::changed, this, [this] {
        if (!model_->isEmpty() || controller_->isRunning())
            return;
        if (auto plan = config_->plan(); plan && plan->sizes != model_->document().plan.sizes) {
            ResultDocument empty;
            empty.plan = *plan;
            model_->setDocument(empty);
        }
    });
    // The teaching panel explains the strategy last chosen, in the list or the table.
    auto explain = [this](const QString& id) { explanation_->explain(id, model_->document()); };
    connect(config_, &ConfigPanel::strategyFocused, this, explain);
    connect(tabs_, &ResultTabs::strategySelected, this, explain);
    connect(model_, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateActions);
    connect(baseline_, &Baseline::changed, this, [this](const ResultDocument* baseline) {
        tabs_->chart()->setBaseline(baseline);
        refreshComparison();
    });
    status_->setRunning(false);
    explanation_->explain("pread-zerofill", model_->document());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout() {
    config_ = new ConfigPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(config_);
    scroll->setWidgetResizable(true);
    scroll->setObjectName("configScroll");
    scroll->setMinimumWidth(300);
    tabs_ = new ResultTabs(model_);

    banner_ = new Banner;
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->addWidget(banner_);
    // A lesson stays in view above the tabs while its run goes on, and says at the end whether
    // this machine agrees with the finding it reproduces.
    lessons_ = new LessonPanel;
    centreLayout->addWidget(lessons_);
    centreLayout->addWidget(tabs_, 1);

    explanation_ = new TeachingPanel;
    splitter_ = new SidePanels(scroll, centre, explanation_);

    status_ = new RunStatus;
    connect(status_, &RunStatus::runClicked, this, &MainWindow::startRun);
    connect(status_, &RunStatus::stopClicked, this, &MainWindow::stopRun);

    auto* root = new QWidget;
    auto* rootLayout = new QVBoxLayout(root);
    rootLayout->addWidget(splitter_, 1);
    rootLayout->addWidget(status_);
    setCentralWidget(root);
    setMinimumSize(760, 520);
    fitToScreen();
}

void MainWindow::fitToScreen() {
    // First start: as large as the work wants (1400 x 860) but inside the screen's available
    // area, centred.
    const QRect avail = screen()->availableGeometry();
    const QSize size(std::min(1400, avail.width() - 40), std::min(860, avail.height() - 40));
    resize(size.expandedTo(minimumSize()));
    move(avail.center() - QPoint(width() / 2, height() / 2));
    splitter_->fitTo(size.width());
}

void MainWindow::stepResultTab(int by) { tabs_->step(by); }
ChartView* MainWindow::chart() const { return tabs_->chart(); }
CompareView* MainWindow::compareView() const { return tabs_->compare(); }
QString MainWindow::lessonText() const { return lessons_->text(); }
QString MainWindow::bannerText() const { return banner_->shown(); }
QString MainWindow::logText() const { return tabs_->logText(); }
bool MainWindow::isRunning() const { return controller_->isRunning(); }
void MainWindow::log(const QString& message, bool warning) { tabs_->log(message, warning); }

void MainWindow::judgeLesson(const ResultDocument& doc) {
    if (const QString verdict = lessons_->judge(doc); !verdict.isEmpty())
        log("lesson: " + verdict);
}

// A banner about the panel's input goes once the input is right again.
void MainWindow::clearFixedInputBanner() {
    if (banner_->isAboutInput() && config_->planProblem().isEmpty())
        showBanner({});
}

void MainWindow::showBanner(const QString& message, bool aboutInput) {
    banner_->say(message, aboutInput);
    if (!message.isEmpty())
        log("error: " + message);
}

void MainWindow::openTargetFile(const QString& path) { target_->open(path); }
bool MainWindow::isInspectingFile() const { return target_->busy(); }

void MainWindow::chooseTargetFile() {
    if (const QString path = askTargetFile(this, config_->filePath()); !path.isEmpty())
        openTargetFile(path);
}

void MainWindow::generateTargetFile(std::uint64_t bytes) {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::TempLocation);
    const QString name =
        bytes == kDefaultTestFileSize
            ? QString("readscope-test.bin")
            : QString("readscope-test-%1.bin").arg(QString::fromStdString(formatSizeShort(bytes)));
    if (const QString path = generateTestFile(this, folder, bytes, name); !path.isEmpty())
        openTargetFile(path);
}

bool MainWindow::startRun() {
    if (controller_->isRunning())
        return false;
    if (const QString why = target_->readiness(); !why.isEmpty()) {
        showBanner(why);
        return false;
    }
    if (const QString problem = config_->planProblem(); !problem.isEmpty()) {
        showBanner(problem, true); // cleared as soon as the input is fixed
        return false;
    }
    auto plan = config_->plan();
    saveSettings();
    tabs_->clearWarningCount();
    const auto sizes = effectiveSizes(*plan, config_->fileStatus()->probe.size).size();
    log(QString("run started: %1 strategies × %2, %3, %4")
            .arg(plan->strategies.size())
            .arg(plan->pattern == Pattern::Trace
                     ? QString("a trace of %1 reads").arg(plan->trace->reads.size())
                     : QString("%1 size%2").arg(sizes).arg(sizes == 1 ? "" : "s"))
            .arg(QString::fromStdString(cacheConditionText(*plan)))
            .arg(plan->durationSeconds > 0 ? QString("rounds for the duration")
                                           : QString("%1 rounds").arg(plan->rounds)));
    model_->clear();
    tabs_->table()->scrollToStart(); // the new run's rows, from their first column
    setWindowTitle("readscope");     // the loaded results' name no longer describes the window
    lessons_->runStarting(*plan);
    status_->starting("Starting…");
    controller_->start(*plan);
    return true;
}

bool MainWindow::refineRun() {
    if (controller_->isRunning() || model_->isEmpty())
        return false;
    const ResultDocument& doc = model_->document();
    const double precision = config_->precision() > 0 ? config_->precision() : kNoisyUncertainty;
    const std::size_t wide = cellsToRefine(doc, precision);
    if (wide == 0) {
        QString text = QString::fromStdString(warningText(NothingToRefine{precision}));
        text[0] = text[0].toUpper();
        status_->flash(text + ".", 8000);
        return false;
    }
    if (auto st = refinable(doc); !st) {
        showBanner(QString::fromStdString(st.error().message));
        return false;
    }
    const double maxTime = config_->precision() > 0 ? config_->maxTimeSeconds() : 60;
    log(QString("refining %1 cells toward ±%2% (at most %3 s); the others keep their rounds")
            .arg(wide)
            .arg(precision * 100)
            .arg(maxTime));
    refining_ = true;
    status_->refining(maxTime);
    controller_->refine(doc, precision, maxTime);
    return true;
}

bool MainWindow::measureDrift() {
    const ResultDocument& doc = model_->document();
    if (controller_->isRunning() || doc.plan.file.empty())
        return false;
    constexpr int kRuns = 3;
    log(QString("measuring the drift between runs: %1 runs of this plan").arg(kRuns));
    tabs_->compare()->setMeasuringDrift(true);
    status_->starting("Measuring drift between runs…");
    controller_->measureDrift(doc.plan, kRuns);
    return true;
}

void MainWindow::stopRun() {
    if (controller_->isRunning()) {
        status_->setText("Stopping…");
        controller_->stop();
    }
}

// Every finding of the results in the log (the serious ones as warnings), and cells that did
// not go cold in the status bar too.
void MainWindow::logFindings(const ResultDocument& doc) {
    for (const auto& finding : runFindings(doc)) {
        const QString text = QString::fromStdString(findingText(finding, doc, "the Rounds field"));
        log(text, finding.serious());
        if (finding.kind() == FindingKind::NotCold)
            status_->flash(text, 0);
    }
}

void MainWindow::onFinished(const ResultDocument& doc, const QString& error) {
    const bool refined = std::exchange(refining_, false);
    if (!error.isEmpty()) {
        // What it sent stays, no longer live, and incomplete: Finish measures the rest (the
        // header it started with said complete, as every header does).
        ResultDocument kept = model_->document();
        kept.complete = kept.cells.empty();
        model_->setDocument(kept);
        showBanner(error);
        status_->finished("Run failed.", false);
        updateActions(); // Finish the run, offered for a stopped one
        emit runFinished();
        return;
    }
    model_->finishRun(doc);
    if (refined) {
        // The refinement's own outcome (a run measured in the worker brings its notes as words).
        const QString said = QString::fromStdString(
            doc.notes.empty() ? documentNote(doc) : warningText(doc.notes.back()));
        status_->finished(said, true);
        log(said);
        lessons_->showFor(doc.plan); // the verdict about the rounds before goes
    } else {
        const KeptCells kept = keptCells(doc);
        status_->runEnded(doc.complete, kept);
        log(doc.complete ? QString("run finished: %1 cells").arg(doc.cells.size())
                         : QString("run stopped: kept %1").arg(keptCellsText(kept)));
        target_->refresh();
    }
    logFindings(doc);
    refreshComparison();
    explanation_->explainAgain(model_->document()); // this run's cells, or none of them
    judgeLesson(doc);
    if (refined) {
        updateActions(); // Finish the run, offered for a stopped one
        emit runFinished();
        return;
    }
    if (const QString reference = lessons_->takeReference(); !reference.isEmpty()) {
        tabs_->compare()->setReference(reference);
        if (!lessons_->hasOwnChart())
            tabs_->setCurrentWidget(tabs_->compare());
    }
    if (doc.complete)
        reportOffsetSweep(doc, true);
    updateActions(); // Finish the run, offered for a stopped one
    emit runFinished();
}

void MainWindow::flash(const QString& text, int ms) { status_->flash(text, ms); }

QString MainWindow::statusText() const { return status_->text(); }

void MainWindow::updateActions() {
    menus_->setResultsAvailable(!model_->isEmpty() && !controller_->isRunning());
    menus_->setFinishable(canFinishRun());
}

void MainWindow::refreshComparison() {
    tabs_->compare()->setDocuments(model_->document(), baseline_->document());
}

void MainWindow::applyLesson(int index) {
    const auto all = loadLessons();
    if (index < 0 || index >= all.size() || controller_->isRunning())
        return;
    Plan plan = all[index].plan;
    plan.file = config_->filePath().toStdString();
    config_->setPlan(plan);
    // A clean slate: no earlier results under the lesson's text (nor their comparison, nor
    // a verdict about them in the teaching panel); the chart waits for the lesson's run.
    if (!model_->isEmpty())
        log(QString("lesson \"%1\" opened: the results shown before were cleared")
                .arg(all[index].title));
    ResultDocument empty; // the chart's axis is the lesson's sizes until its run
    empty.plan = plan;
    model_->setDocument(empty);
    refreshComparison();
    explanation_->explain(QString::fromStdString(plan.strategies.front()), model_->document());
    lessons_->showLesson(all[index]);
    if (const auto status = config_->fileStatus())
        lessons_->setFileSize(status->probe.size);
    chart()->preferSplitOf(all[index].chartStrategy);
    chart()->setMode(all[index].chart);
}

void MainWindow::saveSettings() const {
    QSettings s;
    if (auto plan = config_->plan())
        savePlanSettings(s, config_->filePath(), *plan);
    else
        s.setValue("file", config_->filePath());
    saveWindowLayout(s, *this, *splitter_);
}

void MainWindow::restoreSettings() {
    QSettings s;
    config_->setPlan(loadPlanSettings(s, firstStartPlan()));
    // The size it was closed at, when that still fits this screen; else the first-start fit.
    if (!restoreWindowLayout(s, *this, *splitter_))
        fitToScreen();
    if (const QString file = s.value("file").toString(); !file.isEmpty())
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
        return;                    // a saved result document opens as results
    if (path.endsWith(".trace")) { // readscope-cli record's and trace's output
        if (const QString error = openTrace(path); !error.isEmpty())
            QMessageBox::warning(this, "Open trace", error);
        return;
    }
    openTargetFile(path);
}

void MainWindow::reportOffsetSweep(const ResultDocument& doc, bool remember) {
    explanation_->showOffsetVerdict(doc, remember); // the log has it with the other findings
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning() && !stopRunToClose(this, *controller_, refining_)) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

} // namespace readscope::ui
