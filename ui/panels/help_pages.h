#pragma once
// Help ▸ How readscope measures (docs/how-readscope-measures.md, built into the app and rendered)
// and Help ▸ Keyboard shortcuts (listed from the window's own actions, so it cannot go stale). Both
// open beside the window, not modal: a person can read while using the app.
#include <QList>

class QAction;
class QDialog;
class QWidget;

namespace readscope::ui {

QDialog* showMeasuringHelp(QWidget* parent);
QDialog* showShortcuts(QWidget* parent, const QList<QAction*>& actions);

} // namespace readscope::ui
