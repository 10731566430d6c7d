// The main window's results in and out: results shown, opened from a file, restored from a
// recovery file and finished, and the baseline they are compared against.
#include "main_window.h"

#include "baseline.h"
#include "compare_view.h"
#include "config_panel.h"
#include "frozen_table_view.h"
#include "lesson_panel.h"
#include "recovery_file.h"
#include "result_tabs.h"
#include "results_model.h"
#include "run_controller.h"
#include "run_status.h"
#include "target_file.h"
#include "teaching_panel.h"

#include "readscope/documents.h"
#include "readscope/recovery.h"
#include "readscope/state_words.h"
#include "readscope/trace_formats.h"

#include <QFileInfo>

namespace readscope::ui {

void MainWindow::showResults(const ResultDocument& doc) {
    model_->setDocument(doc);
    tabs_->table()->scrollToStart();
    lessons_->showFor(doc.plan);
    judgeLesson(doc);
    refreshComparison();
    explanation_->explainAgain(model_->document());
}

QString MainWindow::openResults(const QString& path) {
    if (controller_->isRunning())
        return "A run is in progress: stop it before opening results.";
    auto doc = loadDocument(path.toStdString());
    if (!doc)
        return QString::fromStdString(doc.error().message);
    // The plan that made the results, measuring the file already chosen.
    if (!config_->showPlanKeepingFile(doc->plan))
        target_->refresh();
    showResults(*doc);
    log(QString("opened results %1 (%2 cells)").arg(path).arg(doc->cells.size()));
    logFindings(*doc);
    reportOffsetSweep(*doc, false);
    setWindowTitle(QString("readscope — %1").arg(QFileInfo(path).fileName()));
    return {};
}

QString MainWindow::openTrace(const QString& path) {
    if (controller_->isRunning())
        return "A run is in progress: stop it before opening a trace.";
    auto trace = loadTrace(path.toStdString());
    if (!trace)
        return QString::fromStdString(trace.error().message);
    const auto reads = trace->reads.size();
    config_->setTrace(std::make_shared<const Trace>(std::move(*trace)), path);
    log(QString("opened trace %1 (%2 reads): Run replays them with each strategy")
            .arg(path)
            .arg(reads));
    return {};
}

QString MainWindow::restoreRecovery(bool remove) {
    auto doc = readRecoveryFile();
    if (!doc)
        return QString::fromStdString(doc.error().message);
    config_->setPlan(doc->plan);
    showResults(*doc);
    log(QString("restored an interrupted run: %1; Run ▸ Finish the run measures the rest")
            .arg(keptCellsText(keptCells(*doc))));
    if (remove)
        removeRecoveryFile();
    return {};
}

QString MainWindow::finishRecoveredRun() {
    // The file stays until the resumed run writes its own over it: a resume that cannot start
    // (its file gone, the worker missing) loses nothing.
    if (const QString e = restoreRecovery(false); !e.isEmpty())
        return e;
    if (!finishRun())
        return bannerText();
    return {};
}

bool MainWindow::canFinishRun() const {
    const ResultDocument& doc = model_->document();
    return !controller_->isRunning() && !doc.complete && !doc.cells.empty() &&
           !doc.plan.file.empty() && finishable(doc).ok();
}

bool MainWindow::finishRun() {
    if (!canFinishRun()) {
        if (!controller_->isRunning())
            status_->flash("Nothing to finish: the results shown are a whole run.", 8000);
        return false;
    }
    const ResultDocument kept = model_->document();
    const KeptCells counts = keptCells(kept);
    log(QString("finishing the run: %1 kept, the rest measured now").arg(keptCellsText(counts)));
    tabs_->clearWarningCount();
    lessons_->runStarting(kept.plan);
    status_->starting("Finishing the run…");
    controller_->resume(kept);
    return true;
}

QString MainWindow::loadBaseline(const QString& path) {
    if (const QString error = baseline_->load(path); !error.isEmpty())
        return error;
    // What a person loads a baseline for: the Compare tab, against it.
    tabs_->compare()->setReference(QString());
    tabs_->setCurrentWidget(tabs_->compare());
    log(QString("baseline loaded: %1 (%2 cells)")
            .arg(path)
            .arg(baseline_->document()->cells.size()));
    return {};
}

void MainWindow::clearBaseline() { baseline_->clear(); }

} // namespace readscope::ui
