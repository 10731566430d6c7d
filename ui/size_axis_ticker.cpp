#include "size_axis_ticker.h"

#include "readscope/units.h"

#include <cmath>

namespace readscope::ui {

SizeAxisTicker::SizeAxisTicker() {
    setLogBase(4); // 4 KiB, 16 KiB, 64 KiB ...: one label per factor of four stays readable
    setSubTickCount(1);
}

QString SizeAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (tick < 1)
        return {};
    return QString::fromStdString(formatSize(static_cast<std::uint64_t>(std::llround(tick))));
}

} // namespace readscope::ui
