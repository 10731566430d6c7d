#include "run_worker.h"

#include "readscope/recovery.h"

#include <optional>

namespace readscope::ui {

namespace {

class SignalSink final : public RunSink {
public:
    SignalSink(RunWorker& worker, quint64 job) : worker_(worker), job_(job) {}
    void onStarted(const ResultDocument& header) override { emit worker_.started(job_, header); }
    void onProgress(const Progress& p) override { emit worker_.progressed(job_, p); }
    void onRoundMeasured(const Cell& c) override { emit worker_.cellMeasured(job_, c); }
    void onCellFinished(const Cell& c) override { emit worker_.cellFinished(job_, c); }
    void onWarning(const std::string& m) override {
        emit worker_.warned(job_, QString::fromStdString(m));
    }

private:
    RunWorker& worker_;
    quint64 job_;
};

} // namespace

void RunWorker::run(quint64 job, const Plan& plan, std::stop_token stop,
                    const std::string& recoveryPath,
                    std::shared_ptr<const std::atomic<bool>> keepRecovery) {
    SignalSink toWindow(*this, job);
    std::optional<RecoverySink> recovery;
    if (!recoveryPath.empty())
        recovery.emplace(toWindow, recoveryPath);
    RunSink& sink = recovery ? static_cast<RunSink&>(*recovery) : toWindow;
    auto result = runPlan(plan, sink, stop);
    // The run ended: its cells are in the window now, unless the window is closing, whose
    // next start offers them from the file.
    if (recovery && !(keepRecovery && keepRecovery->load()))
        recovery->discard();
    if (result)
        emit finished(job, *result, {});
    else
        emit finished(job, ResultDocument{}, QString::fromStdString(result.error().message));
}

} // namespace readscope::ui
