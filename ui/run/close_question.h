#pragma once
// Closing the window while a run goes on: a run may have taken minutes, so it ends only when
// the person says so.
class QWidget;

namespace readscope::ui {

class RunController;

// Asks whether to stop the run and close. True when the window may close: the person chose
// "Stop and close" (the run is then stopped, its cells kept in the recovery file) or the run
// ended by itself while the question was up. A refinement keeps no recovery file, and the
// question says so.
bool stopRunToClose(QWidget* parent, RunController& controller, bool refining);

} // namespace readscope::ui
