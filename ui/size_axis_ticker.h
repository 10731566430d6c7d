#pragma once
// A log-scale axis over byte sizes whose labels read 4 KiB, 16 KiB ... 64 MiB.
#include <qcustomplot.h>

namespace readscope::ui {

class SizeAxisTicker : public QCPAxisTickerLog {
public:
    SizeAxisTicker();

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace readscope::ui
