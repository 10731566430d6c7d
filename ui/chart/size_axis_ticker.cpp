#include "size_axis_ticker.h"

#include "readscope/units.h"

#include <cmath>

namespace readscope::ui {

namespace {
constexpr std::size_t kMaxLabelledSizes = 10;
}

QVector<double> SizeAxisTicker::createTickVector(double, const QCPRange& range) {
    QVector<double> ticks;
    if (!sizes_.empty() && sizes_.size() <= kMaxLabelledSizes) {
        for (double s : sizes_)
            if (range.contains(s))
                ticks << s;
        std::sort(ticks.begin(), ticks.end());
        return ticks;
    }
    const double lower = std::max(range.lower, 1.0);
    for (double t = std::pow(4.0, std::floor(std::log(lower) / std::log(4.0))); t <= range.upper;
         t *= 4)
        if (t >= lower)
            ticks << t;
    return ticks;
}

QVector<double> SizeAxisTicker::createSubTickVector(int, const QVector<double>&) { return {}; }

QString SizeAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick < 1)
        return {};
    return QString::fromStdString(formatSize(static_cast<std::uint64_t>(std::llround(tick))));
}

} // namespace readscope::ui
