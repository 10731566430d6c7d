#include "file_dialogs.h"

#include "settings_store.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace readscope::ui {

QString missingFolderText(const QString& folder) {
    return QString("The folder %1 does not exist.").arg(folder);
}

QString askResultsFile(QWidget* parent, const QString& title) {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(parent, title, rememberedFolder(settings, "results", {}),
                                     "readscope results (*.json *.csv);;All files (*)");
    if (!path.isEmpty())
        rememberFolder(settings, "results", path);
    return path;
}

QString askTraceFile(QWidget* parent) {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(parent, "Open trace", rememberedFolder(settings, "trace", {}),
                                     "Traces (*.trace *.log *.iolog *.csv);;All files (*)");
    if (!path.isEmpty())
        rememberFolder(settings, "trace", path);
    return path;
}

QString askSavePath(QWidget* parent, const QString& title, const QString& filter,
                    const QString& suggestedName, const QString& suffix) {
    QSettings settings;
    const QString start =
        QDir(rememberedFolder(settings, "results", QDir::homePath())).filePath(suggestedName);
    QString path = QFileDialog::getSaveFileName(parent, title, start, filter);
    if (path.isEmpty())
        return {};
    rememberFolder(settings, "results", path);
    if (QFileInfo(path).suffix().isEmpty())
        path += "." + suffix;
    return path;
}

QString askReportFolder(QWidget* parent, const QString& title) {
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        parent, title, rememberedFolder(settings, "report", QDir::homePath()));
    if (!dir.isEmpty())
        rememberFolder(settings, "report", dir);
    return dir;
}

QString askTargetFile(QWidget* parent, const QString& current) {
    QSettings settings;
    const QString start =
        current.isEmpty() ? rememberedFolder(settings, "target", QDir::homePath()) : current;
    const QString path = QFileDialog::getOpenFileName(parent, "File to measure", start, {}, nullptr,
                                                      QFileDialog::DontUseNativeDialog);
    if (!path.isEmpty())
        rememberFolder(settings, "target", path);
    return path;
}

} // namespace readscope::ui
