#pragma once
// The app's remembered configuration (QSettings): the plan of the last run and its file, the
// folders the file dialogs chose, this machine's offset slow band, and the window's layout.
// What is read back is validated, never cast: a value from an older version or a hand-edited
// file that names no pattern, cache mode or consume mode, or a count outside the plan's limits,
// is dropped for the default (Run still validates the whole plan and says what is wrong).
#include "readscope/offset_trap.h"
#include "readscope/plan.h"

#include <QSettings>
#include <QString>

namespace readscope::ui {

void savePlanSettings(QSettings& s, const QString& file, const Plan& plan);
Plan loadPlanSettings(const QSettings& s, const Plan& defaults);
// The plan a first start shows: the plan's defaults, with the strategies the published
// figures compare (pread zero-filled and not, lseek + read, a reused buffer, both mappings).
Plan firstStartPlan();

// The folder a file dialog for this purpose ("target", "results", "report") last chose, or
// fallback; dialogs start there.
QString rememberedFolder(const QSettings& s, const QString& purpose, const QString& fallback);
// Remembers the folder of path (a file, or a folder itself) for the next dialog.
void rememberFolder(QSettings& s, const QString& purpose, const QString& path);

// The slow band of this machine's last offset sweep (the teaching panel warns about cells in
// it), with the CPU it was measured on and the verdict's text; none clears it.
void saveSlowBand(QSettings& s, const std::string& cpu, const QString& verdict,
                  const std::optional<SlowBand>& band);
// The remembered band, when it was measured on this CPU (an empty cpu: any).
std::optional<SlowBand> loadSlowBand(const QSettings& s, const std::string& cpu);

} // namespace readscope::ui

class QMainWindow;
class QSplitter;

namespace readscope::ui {

// The window's size and place, and its panels' widths.
void saveWindowLayout(QSettings& s, const QMainWindow& window, const QSplitter& panels);
// The kept size and place, then the panels' widths, then the window's state; false when no
// size was kept or it no longer fits this screen (the panels then keep theirs): the caller
// fits the window.
bool restoreWindowLayout(const QSettings& s, QMainWindow& window, QSplitter& panels);

} // namespace readscope::ui
