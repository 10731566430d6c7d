#pragma once
// The core's UTF-8 text as a QString: one conversion for every part of the window.
#include <QString>

#include <string_view>

namespace readscope::ui {

inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

} // namespace readscope::ui
