#include "file_inspector.h"

#include <QtConcurrent/QtConcurrentRun>

namespace readscope::ui {

FileInspector::FileInspector(QObject* parent) : QObject(parent) {}

// The watchers are children: destroyed with this object, they no longer deliver. Inspections
// still running finish in the thread pool on their own copy of the path.
FileInspector::~FileInspector() = default;

void FileInspector::inspect(const QString& path) {
    const quint64 job = ++job_;
    auto* watcher = new QFutureWatcher<Result<FileStatus>>(this);
    connect(watcher, &QFutureWatcher<Result<FileStatus>>::finished, this,
            [this, watcher, job, path] {
                watcher->deleteLater();
                if (job != job_) { // a later request replaced this one
                    emit lookEnded(path, false);
                    return;
                }
                answered_ = job;
                const Result<FileStatus> status = watcher->result();
                if (status)
                    emit inspected(path, &*status, {});
                else
                    emit inspected(path, nullptr, QString::fromStdString(status.error().message));
                emit lookEnded(path, true);
            });
    watcher->setFuture(QtConcurrent::run([p = path.toStdString()] { return inspectFile(p); }));
}

} // namespace readscope::ui
