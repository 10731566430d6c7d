#include "recovery_file.h"

#include "readscope/recovery.h"
#include "readscope/runner.h"
#include "readscope/user_folders.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace readscope::ui {

QString recoveryFilePath() {
    const QString path = QDir(QString::fromStdString(stateFolder())).filePath("recovery-app.jsonl");
    // Where earlier versions kept it (Qt's data folder, doubled by the organization's
    // name): an interrupted run left there is still offered, from the one place.
    const QString earlier =
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
            .filePath("recovery.jsonl");
    if (QFile::exists(earlier) && !QFile::exists(path))
        QFile::rename(earlier, path);
    return path;
}

bool recoveryFileExists() { return QFile::exists(recoveryFilePath()); }

Result<ResultDocument> readRecoveryFile() { return readRecovery(recoveryFilePath().toStdString()); }

void removeRecoveryFile() {
    // A whole-file sweep that crashed left its copies in the folder the file names.
    if (auto doc = readRecoveryFile())
        removeLeftoverCopies(*doc);
    QFile::remove(recoveryFilePath());
}

} // namespace readscope::ui
