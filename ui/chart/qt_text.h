#pragma once
// The core's UTF-8 text as a QString: one conversion for every part of the window.
#include "readscope/units.h"

#include <QString>

#include <string_view>

namespace readscope::ui {

inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// A rate (GB/s) with three significant digits, as every table and tooltip shows one: "17.3",
// "1.02", "0.0213" (a small rate never shows as 0.00).
inline QString rateText(double gbps) { return qs(formatRate(gbps)); }

} // namespace readscope::ui
