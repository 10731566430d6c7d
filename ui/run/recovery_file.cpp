#include "recovery_file.h"

#include "readscope/recovery.h"
#include "readscope/runner.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace readscope::ui {

QString recoveryFilePath() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(dir);
    return QDir(dir).filePath("recovery.jsonl");
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
