#pragma once
// The trace a trace run replays (Pattern::Trace): what File ▸ Open trace… or a dropped .trace
// file loaded, shown as its source, reads, bytes and size histogram under the Pattern box.
#include "readscope/trace.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace readscope::ui {
class TraceShape;
}

namespace readscope::ui {

class TraceField : public QWidget {
    Q_OBJECT
public:
    explicit TraceField(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path);
    const std::shared_ptr<const Trace>& trace() const { return trace_; }
    const QString& path() const { return path_; }
    // The summary as shown ("38 reads, 7.6 MiB, ..."), for tests and the status line.
    QString text() const;

private:
    QLabel* label_;
    TraceShape* shape_; // its size histogram and offsets, drawn
    std::shared_ptr<const Trace> trace_;
    QString path_;
};

} // namespace readscope::ui
