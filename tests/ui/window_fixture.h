#pragma once
// A main window on a small generated file with a tiny sweep, for the UI suites.
#include "config_panel.h"
#include "main_window.h"
#include "test_file.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QStandardPaths>

namespace readscope::testing {

inline Plan tinyPlan(const TestFile& f, int rounds = 2) {
    Plan p;
    p.file = f.path();
    p.sizes = {16 << 10, 64 << 10, 1 << 20};
    p.strategies = {"pread-uninit", "mmap-touch"};
    p.rounds = rounds;
    p.warmup = 0;
    return p;
}

// Chooses the plan's file, runs the plan through the window and waits for it to finish.
inline bool runToEnd(ui::MainWindow& w, const Plan& plan) {
    if (!w.openTargetFile(QString::fromStdString(plan.file)))
        return false;
    w.config()->setPlan(plan);
    QSignalSpy finished(&w, &ui::MainWindow::runFinished);
    return w.startRun() && finished.wait(120000);
}

inline void isolateSettings() {
    // Settings go to a test location, never the user's own readscope configuration.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("readscope-tests");
    QCoreApplication::setApplicationName("readscope-tests");
}

} // namespace readscope::testing
