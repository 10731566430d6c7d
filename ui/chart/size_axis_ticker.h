#pragma once
// A log-scale axis over byte sizes. Ticks stand at the sizes being measured (so every point
// has its label: 16 KiB, 64 KiB ... 8 MiB), or at powers of four when there are none or too
// many; labels read 4 KiB ... 64 MiB.
#include <qcustomplot.h>

#include <vector>

namespace readscope::ui {

class SizeAxisTicker : public QCPAxisTicker {
public:
    void setSizes(std::vector<double> sizes) { sizes_ = std::move(sizes); }

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double>& ticks) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    std::vector<double> sizes_;
};

} // namespace readscope::ui
