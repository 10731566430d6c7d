#include "exporter.h"

#include <QSaveFile>

namespace readscope::ui {

QString saveTextAtomically(const QString& path, const QByteArray& content) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("Cannot write %1: %2").arg(path, file.errorString());
    if (file.write(content) != content.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QString("Writing %1 failed: %2. Any previous file is unchanged.").arg(path, why);
    }
    if (!file.commit())
        return QString("Writing %1 failed: %2. Any previous file is unchanged.")
            .arg(path, file.errorString());
    return {};
}

} // namespace readscope::ui
