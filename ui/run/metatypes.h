#pragma once
// Core types that cross threads in queued signals.
#include "readscope/plan.h"
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <QMetaType>

Q_DECLARE_METATYPE(readscope::Plan)
Q_DECLARE_METATYPE(readscope::Cell)
Q_DECLARE_METATYPE(readscope::Progress)
Q_DECLARE_METATYPE(readscope::ResultDocument)

namespace readscope::ui {
void registerMetaTypes();
}
