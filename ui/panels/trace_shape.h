#pragma once
// A trace's shape at a glance, under its summary: how many reads fall in each power-of-two
// size class (bars), and where in the file each read lands, in the order they were made (a
// strip: read number across, offset in the file down the side).
#include "readscope/trace.h"

#include <QWidget>

#include <memory>

namespace readscope::ui {

class TraceShape : public QWidget {
    Q_OBJECT
public:
    explicit TraceShape(QWidget* parent = nullptr);
    // The trace and its summary (summarize(), made once by the panel for its text too).
    void setTrace(std::shared_ptr<const Trace> trace, TraceSummary summary);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    void paintHistogram(class QPainter& p, const QRect& area) const;
    void paintOffsets(class QPainter& p, const QRect& area) const;

    std::shared_ptr<const Trace> trace_;
    TraceSummary summary_;
};

} // namespace readscope::ui
