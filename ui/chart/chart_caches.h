#pragma once
// The CPU's data caches on a range-size axis: a thin vertical line at each cache's size that
// lies within the axis, labelled at the top ("L2 2 MiB"). Past L2, a copy's bandwidth falls:
// the marker shows where on the chart that happens. Items the view clears on every rebuild.
#include "readscope/system_info.h"

#include <QColor>

class QCustomPlot;

namespace readscope::ui {

inline constexpr auto kCacheMarkerProperty = "readscopeCacheMarker"; // its text, on the line

// The markers for the caches between the x axis's current lower and upper bounds.
void addCacheMarkers(QCustomPlot& plot, const CpuCaches& caches, const QColor& color);

} // namespace readscope::ui
