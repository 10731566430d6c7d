#pragma once
// The app's remembered configuration (QSettings): the plan of the last run and its file.
// What is read back is validated, never cast: a value from an older version or a hand-edited
// file that names no pattern, cache mode or consume mode, or a count outside the plan's limits,
// is dropped for the default, so the window never starts from a plan validatePlan refuses.
#include "readscope/plan.h"

#include <QSettings>
#include <QString>

namespace readscope::ui {

void savePlanSettings(QSettings& s, const QString& file, const Plan& plan);
Plan loadPlanSettings(const QSettings& s, const Plan& defaults);

} // namespace readscope::ui
