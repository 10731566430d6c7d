#pragma once
// At start, when a run did not finish (closed mid-run, or the app stopped unexpectedly): what
// it kept, and the choice to finish it, only show it, or discard it.
namespace readscope::ui {

class MainWindow;

// Asks (a modal question on the window) and does what was chosen. The buttons are named
// finishRecovered, showRecovered and discardRecovered; Finish is the default.
void offerRecovery(MainWindow& window);

} // namespace readscope::ui
