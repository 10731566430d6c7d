#pragma once
// Writing exports: always through QSaveFile, so a failure leaves any previous file intact.
#include <QString>

namespace readscope::ui {

// Returns an empty string on success, else a message naming the path and the cause.
QString saveTextAtomically(const QString& path, const QByteArray& content);

} // namespace readscope::ui
