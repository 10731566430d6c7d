#pragma once
// Lives on the run thread and drives the core runner there. Everything it learns leaves as a
// queued signal tagged with the job id, so the window can ignore a run it already abandoned.
#include "metatypes.h"

#include <QObject>

#include <mutex>
#include <stop_token>

namespace readscope::ui {

class RunWorker : public QObject {
    Q_OBJECT
public:
    // Thread-safe: called from the GUI thread while run() is busy on the worker thread.
    void requestStop();

public slots:
    void run(quint64 job, const readscope::Plan& plan);

signals:
    void started(quint64 job, const readscope::ResultDocument& header);
    void progressed(quint64 job, const readscope::Progress& progress);
    void cellFinished(quint64 job, const readscope::Cell& cell);
    void warned(quint64 job, const QString& message);
    // Always emitted, also after a stop or an error (error is empty on success).
    void finished(quint64 job, const readscope::ResultDocument& doc, const QString& error);

private:
    std::mutex mutex_;
    std::stop_source stop_;
};

} // namespace readscope::ui
