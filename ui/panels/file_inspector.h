#pragma once
// Looks at a target file off the GUI thread: inspectFile() does a statx, a trial O_DIRECT read,
// an io_uring setup and a residency check, which on a slow or network file takes long enough to
// freeze a window. Only the latest request is answered; an earlier one that finishes later is
// dropped, as the run controller drops an abandoned run's results.
#include "readscope/file_status.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <memory>

namespace readscope::ui {

class FileInspector : public QObject {
    Q_OBJECT
public:
    explicit FileInspector(QObject* parent = nullptr);
    ~FileInspector() override;

    void inspect(const QString& path);
    // The latest request is still unanswered.
    bool busy() const { return answered_ != job_; }

signals:
    // status is null when the file cannot be read; error then says why.
    void inspected(const QString& path, const readscope::FileStatus* status, const QString& error);
    // Every look, answered or dropped, once it is over (after inspected, when answered).
    void lookEnded(const QString& path, bool answered);

private:
    quint64 job_ = 0, answered_ = 0;
};

} // namespace readscope::ui
