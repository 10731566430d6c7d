#pragma once
// The GUI side of a run: owns the run thread and its worker, hands out job ids, drops signals
// from abandoned jobs, and stops the thread cleanly on destruction.
#include "metatypes.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>
#include <stop_token>

namespace readscope::ui {

class RunWorker;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    bool isRunning() const { return running_; }
    void start(const Plan& plan);
    // Measures what a stopped or recovered run lacks (RunWorker::resume).
    void resume(const ResultDocument& kept);
    // Adds rounds to a finished run's cells wider than precision (see RunWorker::refine).
    void refine(const ResultDocument& done, double precision, double maxTimeSeconds);
    // Runs the plan `runs` times to measure this machine's drift between runs
    // (RunWorker::measureDrift): progress, then driftMeasured; no cell reaches the window.
    void measureDrift(const Plan& plan, int runs);
    void setRecoveryPath(const QString& path) { recoveryPath_ = path.toStdString(); }
    void stop();
    // Stops and waits up to timeoutMs for the worker to return (used when the window closes).
    bool stopAndWait(int timeoutMs);
    // The same, for a window that closes: the run's recovery file stays for the next start
    // to offer, instead of being removed when the run ends.
    bool stopKeepingRecovery(int timeoutMs);
    // Its worker, for tests that play a stale job's signals.
    RunWorker* workerForTesting() const { return worker_; }

signals:
    void runningChanged(bool running);
    void started(const readscope::ResultDocument& header);
    void progressed(const readscope::Progress& progress);
    void cellMeasured(const readscope::Cell& cell); // its rounds so far
    void cellFinished(const readscope::Cell& cell);
    void warned(const QString& message);
    void finished(const readscope::ResultDocument& doc, const QString& error);
    void driftMeasured(const QString& measured, const QString& error);

private:
    void setRunning(bool running);
    // A new job: its own id and stop token, running, and `work(worker, job, token)` queued to
    // the worker's thread; keepRecovery is its keep-the-recovery-file flag (none: it has no
    // recovery file).
    template <class Work> void startJob(std::shared_ptr<std::atomic<bool>> keepRecovery, Work work);

    QThread thread_;
    RunWorker* worker_ = nullptr;
    quint64 job_ = 0;
    std::stop_source stop_; // the current job's
    // Whether the current job's recovery file outlives it (set before its stop is asked for).
    std::shared_ptr<std::atomic<bool>> keepRecovery_;
    std::string recoveryPath_;
    bool running_ = false;
};

} // namespace readscope::ui
