#pragma once
// A logarithmic value axis labelled at every decade and, while the axis spans few enough
// decades for them to fit, at its 2x and 5x steps (1, 2, 5, 10, 20, 50 ...), with the other
// integer steps as unlabelled sub-ticks. QCustomPlot's log ticker labels by a tick count, so an
// axis from 3 to 15 GB/s got one label or none.
#include <qcustomplot.h>

namespace readscope::ui {

class DecadeTicker : public QCPAxisTicker {
public:
    // 2x and 5x steps are labelled up to this many decades; beyond, decades only.
    static constexpr double kStepDecades = 4;
    // The labels of a range: the values the ticker puts ticks at (for tests and for layout).
    static QVector<double> ticksFor(const QCPRange& range);
    static QString label(double value); // 0.5, 2, 20, 5k, 1M

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double>& ticks) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace readscope::ui
