#include "run_worker.h"

namespace readscope::ui {

namespace {

class SignalSink final : public RunSink {
public:
    SignalSink(RunWorker& worker, quint64 job) : worker_(worker), job_(job) {}
    void onStarted(const ResultDocument& header) override { emit worker_.started(job_, header); }
    void onProgress(const Progress& p) override { emit worker_.progressed(job_, p); }
    void onCellFinished(const Cell& c) override { emit worker_.cellFinished(job_, c); }
    void onWarning(const std::string& m) override {
        emit worker_.warned(job_, QString::fromStdString(m));
    }

private:
    RunWorker& worker_;
    quint64 job_;
};

} // namespace

void RunWorker::run(quint64 job, const Plan& plan, std::stop_token stop) {
    SignalSink sink(*this, job);
    auto result = runPlan(plan, sink, stop);
    if (result)
        emit finished(job, *result, {});
    else
        emit finished(job, ResultDocument{}, QString::fromStdString(result.error().message));
}

} // namespace readscope::ui
