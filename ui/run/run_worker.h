#pragma once
// Lives on the run thread and drives the core runner there. Everything it learns leaves as a
// queued signal tagged with the job id, so the window can ignore a run it already abandoned.
#include "metatypes.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <stop_token>

namespace readscope::ui {

class RunWorker : public QObject {
    Q_OBJECT
public:
    // Runs on the worker thread. The stop token belongs to the job: it is created when the
    // job is started, so a Stop pressed before the run begins is not lost.
    // Finished cells are also appended to recoveryPath (when not empty) until the run ends.
    // keepRecovery, when it reads true as the run ends, leaves the recovery file in place (the
    // window is closing: its next start offers the cells).
    void run(quint64 job, const readscope::Plan& plan, std::stop_token stop,
             const std::string& recoveryPath,
             std::shared_ptr<const std::atomic<bool>> keepRecovery = {});
    // The rest of a stopped or recovered run (core resumeRun): started brings back its kept
    // cells as cellFinished, then its missing and cut-short points are measured; recovery as
    // for run().
    void resume(quint64 job, const readscope::ResultDocument& kept, std::stop_token stop,
                const std::string& recoveryPath,
                std::shared_ptr<const std::atomic<bool>> keepRecovery = {});
    // More rounds for a finished run's cells wider than `precision` (core refineRun). The
    // window keeps showing the run: no started signal, and each refined cell's rounds arrive
    // as cellMeasured. No recovery file: the refined rounds add to results already shown.
    void refine(quint64 job, const readscope::ResultDocument& done, double precision,
                double maxTimeSeconds, std::stop_token stop);

    // This machine's drift between runs, measured for the Compare tab: the plan run `runs`
    // times back to back (its repeats), the drift between them kept in the machine's drift
    // store (machine_drift_store.h), where every later comparison of two runs finds it. Only
    // progress leaves while it runs: the results on screen stay as they are.
    void measureDrift(quint64 job, const readscope::Plan& plan, int runs, std::stop_token stop);

    // Called on the run thread with the pid of the measurement's own process, when a run needs
    // one (a memory limit: run_worker.cpp); a test reads the process's cgroup here. Set before
    // a run starts.
    std::function<void(int pid)> onMeasurementProcess;

private:
    // Builds the window's sink (and the recovery file's, when recoveryPath is set), runs
    // `measure(sink)`, lets go of the file when the run ended well, and says it finished.
    template <class Measure>
    void recorded(quint64 job, const std::string& recoveryPath,
                  const std::shared_ptr<const std::atomic<bool>>& keepRecovery, Measure measure);
    void finish(quint64 job, const Result<ResultDocument>& result); // finished, always

signals:
    void started(quint64 job, const readscope::ResultDocument& header);
    void progressed(quint64 job, const readscope::Progress& progress);
    // A cell with the rounds recorded so far (every round of a point), then finished.
    void cellMeasured(quint64 job, const readscope::Cell& cell);
    void cellFinished(quint64 job, const readscope::Cell& cell);
    void warned(quint64 job, const QString& message);
    // Always emitted, also after a stop or an error (error is empty on success).
    void finished(quint64 job, const readscope::ResultDocument& doc, const QString& error);
    // After measureDrift: what was measured ("±8.1% from 3 runs"), or why not.
    void driftMeasured(quint64 job, const QString& measured, const QString& error);
};

} // namespace readscope::ui
