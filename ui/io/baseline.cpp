#include "baseline.h"

#include "readscope/documents.h"

namespace readscope::ui {

QString Baseline::load(const QString& path) {
    auto doc = loadDocument(path.toStdString());
    if (!doc)
        return QString::fromStdString(doc.error().message);
    doc_ = std::move(*doc);
    emit changed(&*doc_);
    return {};
}

void Baseline::clear() {
    if (!doc_)
        return;
    doc_.reset();
    emit changed(nullptr);
}

} // namespace readscope::ui
