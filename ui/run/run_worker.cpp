#include "run_worker.h"

#include "readscope/machine_drift.h"
#include "readscope/machine_drift_store.h"
#include "readscope/recovery.h"
#include "readscope/run_notes.h"
#include "readscope/worker_run.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace readscope::ui {

namespace {

class SignalSink final : public RunSink {
public:
    SignalSink(RunWorker& worker, quint64 job) : worker_(worker), job_(job) {}
    void onStarted(const ResultDocument& header) override { emit worker_.started(job_, header); }
    void onProgress(const Progress& p) override { emit worker_.progressed(job_, p); }
    void onRoundMeasured(const Cell& c) override { emit worker_.cellMeasured(job_, c); }
    void onCellFinished(const Cell& c) override { emit worker_.cellFinished(job_, c); }
    void onWarning(const RunWarning& w) override {
        emit worker_.warned(job_, QString::fromStdString(warningText(w)));
    }

private:
    RunWorker& worker_;
    quint64 job_;
};

// What a refinement reports: the run it adds to is already on screen, so its start (whose
// header would clear the table) is not passed on.
// Nor are cells passed on that gained no round (the rounds a refinement adds measure only
// the wide cells, but each round reports its point's cells).
class RefineSink final : public RunSink {
public:
    RefineSink(RunSink& to, const ResultDocument& done) : to_(to) {
        for (const auto& c : done.cells)
            rounds_.push_back({c.strategy, c.point(), c.samples.size()});
    }
    void onProgress(const Progress& p) override { to_.onProgress(p); }
    void onRoundMeasured(const Cell& c) override {
        const auto before = std::find_if(rounds_.begin(), rounds_.end(), [&](const Rounds& r) {
            return r.strategy == c.strategy && r.point == c.point();
        });
        if (before != rounds_.end()) {
            if (before->count == c.samples.size())
                return;
            before->count = c.samples.size();
        }
        to_.onRoundMeasured(c);
    }
    void onCellFinished(const Cell& c) override { to_.onCellFinished(c); }
    void onWarning(const RunWarning& w) override { to_.onWarning(w); }

private:
    struct Rounds {
        std::string strategy;
        SweepPoint point;
        std::size_t count; // the rounds last passed on
    };
    RunSink& to_;
    std::vector<Rounds> rounds_;
};

// What a drift measurement reports: its progress only (its cells are not the window's).
class ProgressSink final : public RunSink {
public:
    explicit ProgressSink(RunSink& to) : to_(to) {}
    void onProgress(const Progress& p) override { to_.onProgress(p); }
    void onWarning(const RunWarning& w) override { to_.onWarning(w); }

private:
    RunSink& to_;
};

// The measurement's own process for a run that needs a process-wide setting (a memory limit
// moves its whole process into a cgroup, which must never be the app's): readscope-cli,
// named by READSCOPE_WORKER, else beside the app (installed), else in the build tree's
// app/cli folder.
Result<Worker> measurementWorker() {
    QStringList tried;
    if (const QString named = qEnvironmentVariable("READSCOPE_WORKER"); !named.isEmpty())
        tried << named;
    const QDir here(QCoreApplication::applicationDirPath());
    tried << here.filePath("readscope-cli") << here.filePath("../cli/readscope-cli");
    for (const QString& path : tried)
        if (QFileInfo info(path); info.isFile() && info.isExecutable())
            return Worker{QDir::cleanPath(info.absoluteFilePath()).toStdString(), {}};
    return Error{fmt::format("a memory-limited run measures in its own process, readscope-cli, "
                             "which was not found (looked for {}): install it with the app",
                             tried.join(", ").toStdString())};
}

bool needsOwnProcess(const Plan& plan) { return plan.memoryLimit != 0; }

// `here()` in this process, or `there(worker)` in the measurement's own process when the
// plan needs one: the one place a measurement's process is chosen.
template <class Here, class There>
Result<ResultDocument> measureWhere(const Plan& plan, const RunWorker& worker, Here here,
                                    There there) {
    if (!needsOwnProcess(plan))
        return here();
    auto child = measurementWorker();
    if (!child)
        return child.error();
    child->onStarted = worker.onMeasurementProcess;
    return there(*child);
}

// What finishing a stopped or recovered run reports: its start brings back the cells already
// measured (to the window and to the new recovery file), so that they stay on screen and
// survive another crash while the rest is measured.
class ResumeSink final : public RunSink {
public:
    ResumeSink(RunSink& to, const ResultDocument& kept) : to_(to), kept_(kept) {}
    void onStarted(const ResultDocument& header) override {
        to_.onStarted(header);
        for (const Cell& c : kept_.cells)
            to_.onCellFinished(c);
    }
    void onProgress(const Progress& p) override { to_.onProgress(p); }
    void onRoundMeasured(const Cell& c) override { to_.onRoundMeasured(c); }
    void onCellFinished(const Cell& c) override { to_.onCellFinished(c); }
    void onWarning(const RunWarning& w) override { to_.onWarning(w); }

private:
    RunSink& to_;
    const ResultDocument& kept_;
};

} // namespace

template <class Measure>
void RunWorker::recorded(quint64 job, const std::string& recoveryPath,
                         const std::shared_ptr<const std::atomic<bool>>& keepRecovery,
                         Measure measure) {
    SignalSink toWindow(*this, job);
    std::optional<RecoverySink> recovery;
    if (!recoveryPath.empty())
        recovery.emplace(toWindow, recoveryPath);
    const auto result = measure(recovery ? static_cast<RunSink&>(*recovery) : toWindow);
    // The run ended: its cells are in the window now, unless the window is closing, whose
    // next start offers them from the file. A run that failed after it started (the
    // measurement's process killed) keeps its file: what it sent can be finished now, or
    // offered at the next start.
    if (recovery && result && !(keepRecovery && keepRecovery->load()))
        recovery->discard();
    finish(job, result);
}

void RunWorker::finish(quint64 job, const Result<ResultDocument>& result) {
    if (result)
        emit finished(job, *result, {});
    else
        emit finished(job, ResultDocument{}, QString::fromStdString(result.error().message));
}

void RunWorker::resume(quint64 job, const ResultDocument& kept, std::stop_token stop,
                       const std::string& recoveryPath,
                       std::shared_ptr<const std::atomic<bool>> keepRecovery) {
    recorded(job, recoveryPath, keepRecovery, [&](RunSink& recording) {
        ResumeSink sink(recording, kept);
        return measureWhere(
            kept.plan, *this, [&] { return resumeRun(kept, sink, stop); },
            [&](const Worker& w) { return resumeRunInWorker(w, kept, sink, stop); });
    });
}

void RunWorker::measureDrift(quint64 job, const Plan& plan, int runs, std::stop_token stop) {
    SignalSink toWindow(*this, job);
    ProgressSink sink(toWindow);
    Plan repeated = plan;
    repeated.repeats = runs;
    const auto done = measureWhere(
        repeated, *this, [&] { return runPlan(repeated, sink, stop); },
        [&](const Worker& w) { return runPlanInWorker(w, repeated, sink, stop); });
    if (!done) {
        emit driftMeasured(job, {}, QString::fromStdString(done.error().message));
        return;
    }
    if (!done->complete) {
        emit driftMeasured(job, {}, "stopped before every run ended: nothing was kept");
        return;
    }
    auto drift = measureMachineDriftFromRepeats(*done);
    if (!drift) {
        emit driftMeasured(job, {}, QString::fromStdString(drift.error().message));
        return;
    }
    if (auto saved = saveMachineDrift(*drift, machineDriftPath()); !saved) {
        emit driftMeasured(job, {}, QString::fromStdString(saved.error().message));
        return;
    }
    emit driftMeasured(
        job,
        QString::fromStdString(
            fmt::format("±{:.1f}% from {} runs of this plan ({} cells; the largest change "
                        "seen between two of them {:.1f}%)",
                        drift->drift * 100, drift->runs, drift->cells, drift->largestSeen * 100)),
        {});
}

void RunWorker::refine(quint64 job, const ResultDocument& done, double precision,
                       double maxTimeSeconds, std::stop_token stop) {
    SignalSink toWindow(*this, job);
    RefineSink sink(toWindow, done);
    finish(job, measureWhere(
                    done.plan, *this,
                    [&] { return refineRun(done, precision, maxTimeSeconds, sink, stop); },
                    [&](const Worker& w) {
                        return refineRunInWorker(w, done, precision, maxTimeSeconds, sink, stop);
                    }));
}

void RunWorker::run(quint64 job, const Plan& plan, std::stop_token stop,
                    const std::string& recoveryPath,
                    std::shared_ptr<const std::atomic<bool>> keepRecovery) {
    recorded(job, recoveryPath, keepRecovery, [&](RunSink& sink) {
        return measureWhere(
            plan, *this, [&] { return runPlan(plan, sink, stop); },
            [&](const Worker& w) { return runPlanInWorker(w, plan, sink, stop); });
    });
}

} // namespace readscope::ui
