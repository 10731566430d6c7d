#pragma once
// The baseline a person loaded to compare the shown results against: it holds the document,
// says why a file cannot be one, and tells the chart and the Compare tab when it changes.
// Works without the main window (tst_window_parts).
#include "readscope/result_document.h"

#include <QObject>
#include <QString>

#include <optional>

namespace readscope::ui {

class Baseline : public QObject {
    Q_OBJECT
public:
    explicit Baseline(QObject* parent = nullptr) : QObject(parent) {}

    // Loads a saved result (JSON or CSV): empty on success, else why not; a file that fails
    // leaves the baseline as it was.
    QString load(const QString& path);
    void clear();
    const ResultDocument* document() const { return doc_ ? &*doc_ : nullptr; }

signals:
    // The baseline now shown; nullptr when cleared.
    void changed(const ResultDocument* baseline);

private:
    std::optional<ResultDocument> doc_;
};

} // namespace readscope::ui
