#include "main_window.h"

#include "lesson_panel.h"
#include "run_status.h"

#include "cell_details.h"
#include "chart_view.h"
#include "compare_view.h"
#include "config_panel.h"
#include "explanation_html.h"
#include "file_inspector.h"
#include "frozen_table_view.h"
#include "results_model.h"
#include "run_controller.h"
#include "strategy_picker.h"

#include "readscope/compare.h"
#include "readscope/finding.h"
#include "readscope/probe.h"
#include "readscope/run_findings.h"
#include "readscope/runner.h"
#include "readscope/stats.h"
#include "readscope/units.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTime>
#include <QVBoxLayout>

#include <algorithm>

namespace readscope::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("readscope");
    setAcceptDrops(true);
    model_ = new ResultsModel(this);
    controller_ = new RunController(this);
    controller_->setRecoveryPath(recoveryPath());
    inspector_ = new FileInspector(this);
    connect(inspector_, &FileInspector::inspected, this, &MainWindow::onFileInspected);
    buildLayout();
    buildActions();
    connect(controller_, &RunController::started, model_, &ResultsModel::beginRun);
    // Every round of a point updates its cells' rows, so every point fills in a little at a
    // time; the finished cell takes its row's place.
    connect(controller_, &RunController::cellMeasured, model_, &ResultsModel::addCell);
    connect(controller_, &RunController::cellFinished, model_, &ResultsModel::addCell);
    connect(controller_, &RunController::progressed, this, &MainWindow::onProgress);
    connect(controller_, &RunController::warned, this, [this](const QString& m) { log(m, true); });
    connect(controller_, &RunController::finished, this, &MainWindow::onFinished);
    connect(controller_, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(config_, &ConfigPanel::fileEdited, this, &MainWindow::openTargetFile);
    // The Open… and Generate… buttons beside the file field do what the File menu does.
    connect(config_, &ConfigPanel::browseRequested, this, &MainWindow::chooseTargetFile);
    connect(config_, &ConfigPanel::generateRequested, this, &MainWindow::generateTargetFile);
    connect(config_, &ConfigPanel::changed, this, &MainWindow::clearFixedInputBanner);
    connect(config_, &ConfigPanel::strategyFocused, this, &MainWindow::showExplanation);
    connect(model_, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateActions);
    onRunningChanged(false);
    showExplanation("pread-zerofill");
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout() {
    config_ = new ConfigPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(config_);
    scroll->setWidgetResizable(true);
    scroll->setObjectName("configScroll");
    scroll->setMinimumWidth(300);

    chart_ = new ChartView(model_);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ResultsModel::SortRole);
    // Strategy and Range stay in view while the figures scroll sideways.
    table_ = new FrozenTableView(ResultsModel::Range + 1);
    table_->setObjectName("resultsTable");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    // By range size; cells of one size keep the plan's strategy order (a stable sort).
    table_->sortByColumn(ResultsModel::Range, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDetailsFor(current); });
    details_ = new QTextBrowser;
    details_->setPlaceholderText("Select a row in the Table tab to see what that cell measured.");
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    tabs_ = new QTabWidget;
    compare_ = new CompareView;
    tabs_->addTab(chart_, "Chart");
    tabs_->addTab(table_, "Table");
    tabs_->addTab(compare_, "Compare");
    tabs_->addTab(details_, "Details");
    logTab_ = tabs_->addTab(log_, "Log");
    connect(compare_, &CompareView::copyRequested, this, [this](const QString& md) {
        QApplication::clipboard()->setText(md);
        statusBar()->showMessage("Comparison copied as Markdown.", 5000);
    });

    banner_ = new QLabel;
    banner_->setObjectName("banner");
    banner_->setWordWrap(true);
    banner_->setStyleSheet("background: #fdecea; color: #611a15; padding: 6px; border-radius: 3px");
    banner_->hide();
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->addWidget(banner_);
    // A lesson stays in view above the tabs while its run goes on, and says at the end whether
    // this machine agrees with the finding it reproduces.
    // It closes with its × (or View ▸ Lesson) and leaves by itself when other results are shown.
    lessons_ = new LessonPanel;
    centreLayout->addWidget(lessons_);
    centreLayout->addWidget(tabs_, 1);

    explanation_ = new QTextBrowser;
    explanation_->setObjectName("explanation");
    explanation_->setMinimumWidth(220);

    // The chart gets every pixel the panels do not need, and keeps kChartMinWidth; both
    // side panels can be dragged shut (or toggled in the View menu) on a small screen.
    splitter_ = new QSplitter;
    splitter_->setObjectName("mainSplitter");
    splitter_->addWidget(scroll);
    splitter_->addWidget(centre);
    splitter_->addWidget(explanation_);
    centre->setMinimumWidth(kChartMinWidth);
    splitter_->setCollapsible(0, true);
    splitter_->setCollapsible(1, false);
    splitter_->setCollapsible(2, true);
    splitter_->setStretchFactor(0, 0);
    splitter_->setStretchFactor(1, 1);
    splitter_->setStretchFactor(2, 0);

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
    // area, centred; the teaching panel starts shut below 1280 px so the chart keeps its room.
    const QRect avail = screen()->availableGeometry();
    const QSize size(std::min(1400, avail.width() - 40), std::min(860, avail.height() - 40));
    resize(size.expandedTo(minimumSize()));
    move(avail.center() - QPoint(width() / 2, height() / 2));
    const int config = kConfigPanelWidth, teaching = size.width() >= 1280 ? kTeachingPanelWidth : 0;
    splitter_->setSizes({config, size.width() - config - teaching, teaching});
}

QString MainWindow::lessonText() const { return lessons_->text(); }
void MainWindow::toggleLesson() { lessons_->toggle(); }

void MainWindow::judgeLesson(const ResultDocument& doc) {
    if (const QString verdict = lessons_->judge(doc); !verdict.isEmpty())
        log("lesson: " + verdict);
}

QString MainWindow::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }
QString MainWindow::logText() const { return log_->toPlainText(); }
bool MainWindow::isRunning() const { return controller_->isRunning(); }

QString MainWindow::inputProblem() const {
    const FileStatus* status = config_->fileStatus();
    auto plan = config_->plan();
    if (!plan)
        return QString::fromStdString(plan.error().message);
    if (status)
        if (auto st = validatePlan(*plan, status->probe); !st)
            return QString::fromStdString(st.error().message);
    return {};
}

// A banner about the panel's input goes once the input is right again.
void MainWindow::clearFixedInputBanner() {
    if (bannerFromInput_ && inputProblem().isEmpty())
        showBanner({});
}

void MainWindow::showBanner(const QString& message) {
    bannerFromInput_ = false;
    banner_->setText(message);
    banner_->setVisible(!message.isEmpty());
    if (!message.isEmpty())
        log("error: " + message);
}

void MainWindow::log(const QString& message, bool warning) {
    log_->appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") +
                          (warning ? "warning: " : "") + message);
    if (warning)
        tabs_->setTabText(logTab_, QString("Log (%1)").arg(++warnings_));
}

void MainWindow::openTargetFile(const QString& path) {
    config_->setFilePath(path);
    config_->showInspecting();
    inspector_->inspect(path);
}

bool MainWindow::isInspectingFile() const { return inspector_->busy(); }

void MainWindow::onFileInspected(const QString& path, const FileStatus* status,
                                 const QString& error) {
    if (path != config_->filePath())
        return; // the field names another file by now; its own look is on its way
    // The core's advice to generate a test file, made into where the app does it.
    const QString problem = advisesGenerating(error.toStdString())
                                ? error + " with the Generate… button beside the file field."
                                : error;
    config_->showFileStatus(status, problem);
    fileProblem_ = problem;
    inspectedPath_ = path;
    showBanner(problem);
    emit fileInspected(status != nullptr);
}

void MainWindow::refreshFileStatus() {
    if (!config_->filePath().isEmpty())
        openTargetFile(config_->filePath());
}

bool MainWindow::startRun() {
    if (controller_->isRunning())
        return false;
    if (config_->filePath().isEmpty()) {
        showBanner("Choose a file to read first (Open…, Generate…, or drop one on the window).");
        return false;
    }
    // The status must be the look at the file the field names now: a path typed without
    // Return was never looked at, and its answer may have been dropped for an older name.
    if (inspectedPath_ != config_->filePath() && !inspector_->busy())
        openTargetFile(config_->filePath());
    if (inspector_->busy()) {
        showBanner("Still looking at the file; press Run again in a moment.");
        return false;
    }
    // The last look at the file decides here; the run probes it again before its first read,
    // so a file that changed since is caught there.
    const FileStatus* status = config_->fileStatus();
    if (!status) {
        showBanner(fileProblem_);
        return false;
    }
    if (const QString problem = inputProblem(); !problem.isEmpty()) {
        showBanner(problem);
        bannerFromInput_ = true; // cleared as soon as the input is fixed
        return false;
    }
    auto plan = config_->plan();
    saveSettings();
    warnings_ = 0;
    tabs_->setTabText(logTab_, "Log");
    log(QString("run started: %1 strategies × %2 sizes, %3 cache, %4 rounds")
            .arg(plan->strategies.size())
            .arg(effectiveSizes(*plan, status->probe.size).size())
            .arg(QString::fromStdString(std::string(toString(plan->cache))))
            .arg(plan->rounds));
    model_->clear();
    table_->scrollToStart();     // the new run's rows, from their first column
    setWindowTitle("readscope"); // the loaded results' name no longer describes the window
    lessons_->showFor(*plan);
    if (!lessons_->isLessonPlan(*plan))
        lessons_->dropReference(); // the lesson's reference is about the lesson's strategies
    status_->starting("Starting…");
    runClock_.start();
    controller_->start(*plan);
    return true;
}

bool MainWindow::refineRun() {
    if (controller_->isRunning() || model_->isEmpty())
        return false;
    const ResultDocument& doc = model_->document();
    const double precision = config_->precision() > 0 ? config_->precision() : kNoisyUncertainty;
    const auto wide = std::count_if(doc.cells.begin(), doc.cells.end(), [&](const Cell& c) {
        return c.measured() && !c.samples.empty() && !meetsPrecision(c, precision);
    });
    if (wide == 0) {
        statusBar()->showMessage(
            QString("Every cell is already within ±%1%: nothing to refine.").arg(precision * 100),
            8000);
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
    runClock_.start();
    controller_->refine(doc, precision, maxTime);
    return true;
}

void MainWindow::stopRun() {
    if (controller_->isRunning()) {
        status_->setText("Stopping…");
        controller_->stop();
    }
}

void MainWindow::onProgress(const Progress& p) { status_->showProgress(p); }

// Every finding of the run in the log; the noise as a note, the others as warnings, and cells
// that did not go cold in the status bar too.
void MainWindow::logFindings(const ResultDocument& doc) {
    for (const auto& finding : runFindings(doc, "the Rounds field")) {
        const QString text = QString::fromStdString(finding.text);
        log(text, finding.kind != FindingKind::Noise);
        if (finding.kind == FindingKind::NotCold)
            statusBar()->showMessage(text);
    }
}

void MainWindow::onFinished(const ResultDocument& doc, const QString& error) {
    const bool refined = std::exchange(refining_, false);
    if (refined && error.isEmpty()) {
        model_->finishRun(doc);
        status_->finished(QString::fromStdString(doc.note), true);
        log(QString::fromStdString(doc.note));
        logFindings(doc);
        refreshComparison();
        showExplanation(explainedId_);
        lessons_->showFor(doc.plan); // the verdict about the rounds before goes
        judgeLesson(doc);
        emit runFinished();
        return;
    }
    if (!error.isEmpty()) {
        showBanner(error);
        status_->finished("Run failed.", false);
    } else {
        model_->finishRun(doc);
        const double secs = runClock_.elapsed() / 1000.0;
        status_->finished(doc.complete ? QString("Finished in %1.").arg(clockText(secs))
                                       : QString("Stopped after %1; %2 finished cells kept.")
                                             .arg(clockText(secs))
                                             .arg(doc.cells.size()),
                          doc.complete);
        log(QString("run %1: %2 cells")
                .arg(doc.complete ? "finished" : "stopped")
                .arg(doc.cells.size()));
        logFindings(doc);
        refreshFileStatus();
        refreshComparison();
        showExplanation(explainedId_); // this run's cells, or that it did not measure them
        judgeLesson(doc);
        if (const QString reference = lessons_->takeReference(); !reference.isEmpty()) {
            compare_->setReference(reference);
            tabs_->setCurrentWidget(compare_);
        }
        if (doc.complete)
            reportOffsetSweep(doc, true);
    }
    emit runFinished();
}

void MainWindow::onRunningChanged(bool running) {
    status_->setRunning(running);
    config_->setEnabled(!running);
    updateActions();
}

void MainWindow::showDetailsFor(const QModelIndex& proxyIndex) {
    const QModelIndex source = proxy_->mapToSource(proxyIndex);
    const Cell* cell = model_->cellAt(source.row());
    details_->setHtml(cell ? cellDetailsHtml(*cell, model_->document()) : QString());
    if (cell)
        showExplanation(QString::fromStdString(cell->strategy));
}

void MainWindow::showExplanation(const QString& id) {
    explainedId_ = id;
    const auto band = measuredSlowBand();
    const QString html =
        strategyHtml(id.toStdString(), model_->document(), band ? &*band : nullptr);
    if (!html.isEmpty())
        explanation_->setHtml(html);
}

void MainWindow::refreshComparison() {
    compare_->setDocuments(model_->document(), baseline_ ? &*baseline_ : nullptr);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning()) {
        // A run may have taken minutes: closing ends it only when the person says so.
        // A refinement keeps no recovery file: the results it adds to were on screen only.
        QMessageBox ask(QMessageBox::Question, "Close readscope",
                        refining_ ? "Rounds are being added to the noisy cells. Stop and close "
                                    "the window?\n\nThe results shown are not kept: save them "
                                    "first (File ▸ Save results) to keep them."
                                  : "A run is in progress. Stop it and close the window?\n\nThe "
                                    "cells that finished are kept in the recovery file until the "
                                    "next start.",
                        QMessageBox::NoButton, this);
        ask.setObjectName("confirmClose");
        QPushButton* stop = ask.addButton("Stop and close", QMessageBox::AcceptRole);
        stop->setObjectName("stopAndClose");
        ask.addButton("Keep running", QMessageBox::RejectRole)->setObjectName("keepRunning");
        // A run that ends on its own while the question is up answers it: there is nothing
        // left to stop, and the window closes as asked.
        connect(controller_, &RunController::runningChanged, &ask, [&ask](bool running) {
            if (!running)
                ask.done(QMessageBox::Cancel);
        });
        ask.exec();
        if (controller_->isRunning()) {
            if (ask.clickedButton() != stop) {
                event->ignore();
                return;
            }
            controller_->stopKeepingRecovery(5000); // as the dialog promised
        }
    }
    saveSettings();
    event->accept();
}

} // namespace readscope::ui
