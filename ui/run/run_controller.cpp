#include "run_controller.h"

#include "run_worker.h"

#include <QEventLoop>
#include <QTimer>

namespace readscope::ui {

void registerMetaTypes() {
    qRegisterMetaType<readscope::Plan>();
    qRegisterMetaType<readscope::Cell>();
    qRegisterMetaType<readscope::Progress>();
    qRegisterMetaType<readscope::ResultDocument>();
}

RunController::RunController(QObject* parent) : QObject(parent) {
    registerMetaTypes();
    worker_ = new RunWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &RunWorker::started, this, [this](quint64 job, const ResultDocument& h) {
        if (job == job_)
            emit started(h);
    });
    connect(worker_, &RunWorker::progressed, this, [this](quint64 job, const Progress& p) {
        if (job == job_)
            emit progressed(p);
    });
    connect(worker_, &RunWorker::cellMeasured, this, [this](quint64 job, const Cell& c) {
        if (job == job_)
            emit cellMeasured(c);
    });
    connect(worker_, &RunWorker::cellFinished, this, [this](quint64 job, const Cell& c) {
        if (job == job_)
            emit cellFinished(c);
    });
    connect(worker_, &RunWorker::warned, this, [this](quint64 job, const QString& m) {
        if (job == job_)
            emit warned(m);
    });
    connect(worker_, &RunWorker::finished, this,
            [this](quint64 job, const ResultDocument& doc, const QString& error) {
                if (job != job_)
                    return;
                setRunning(false);
                emit finished(doc, error);
            });
    connect(worker_, &RunWorker::driftMeasured, this,
            [this](quint64 job, const QString& measured, const QString& error) {
                if (job != job_)
                    return;
                setRunning(false);
                emit driftMeasured(measured, error);
            });
    thread_.setObjectName("readscope-run");
    thread_.start();
}

RunController::~RunController() {
    stop_.request_stop();
    thread_.quit();
    thread_.wait();
}

template <class Work>
void RunController::startJob(std::shared_ptr<std::atomic<bool>> keepRecovery, Work work) {
    if (running_)
        return;
    const quint64 job = ++job_;
    stop_ = std::stop_source();
    keepRecovery_ = std::move(keepRecovery);
    setRunning(true);
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, job, token = stop_.get_token(), work] { work(*worker, job, token); },
        Qt::QueuedConnection);
}

void RunController::start(const Plan& plan) {
    auto keep = std::make_shared<std::atomic<bool>>(false);
    startJob(keep, [plan, path = recoveryPath_, keep](RunWorker& worker, quint64 job,
                                                      std::stop_token token) {
        worker.run(job, plan, token, path, keep);
    });
}

void RunController::resume(const ResultDocument& kept) {
    auto keep = std::make_shared<std::atomic<bool>>(false);
    startJob(keep, [kept, path = recoveryPath_, keep](RunWorker& worker, quint64 job,
                                                      std::stop_token token) {
        worker.resume(job, kept, token, path, keep);
    });
}

void RunController::refine(const ResultDocument& done, double precision, double maxTimeSeconds) {
    startJob(nullptr, [done, precision, maxTimeSeconds](RunWorker& worker, quint64 job,
                                                        std::stop_token token) {
        worker.refine(job, done, precision, maxTimeSeconds, token);
    });
}

void RunController::measureDrift(const Plan& plan, int runs) {
    startJob(nullptr, [plan, runs](RunWorker& worker, quint64 job, std::stop_token token) {
        worker.measureDrift(job, plan, runs, token);
    });
}

void RunController::stop() {
    if (running_)
        stop_.request_stop();
}

bool RunController::stopAndWait(int timeoutMs) {
    if (!running_)
        return true;
    stop_.request_stop();
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &RunController::runningChanged, &loop, &QEventLoop::quit);
    timeout.start(timeoutMs);
    if (running_)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return !running_;
}

bool RunController::stopKeepingRecovery(int timeoutMs) {
    if (keepRecovery_)
        keepRecovery_->store(true);
    return stopAndWait(timeoutMs);
}

void RunController::setRunning(bool running) {
    if (running_ == running)
        return;
    running_ = running;
    emit runningChanged(running);
}

} // namespace readscope::ui
