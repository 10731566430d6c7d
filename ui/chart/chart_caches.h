#pragma once
// The CPU's data caches on a range-size axis: a thin vertical line at each cache's size,
// labelled at the top ("L2 2 MiB"). Past L2, a copy's bandwidth falls: the marker shows where
// on the chart that happens. Every known level has one, clipped to the axis rect as items are,
// so a person who zooms or drags the axis finds the levels past its first range there too.
// Items the view clears on every rebuild.
#include "readscope/system_info.h"

#include <QColor>

class QCustomPlot;

namespace readscope::ui {

inline constexpr auto kCacheMarkerProperty = "readscopeCacheMarker"; // its text, on the line

// The markers for every cache level the system reported (0: not reported, none drawn).
void addCacheMarkers(QCustomPlot& plot, const CpuCaches& caches, const QColor& color);

} // namespace readscope::ui
