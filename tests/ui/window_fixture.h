#pragma once
// A main window on a small generated file with a tiny sweep, for the UI suites.
#include "config_panel.h"
#include "main_window.h"
#include "recovery_file.h"
#include "result_exports.h"
#include "run_controller.h"
#include "test_file.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

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

// Chooses a file as a person does and waits until the window has looked at it (in the
// background). True when the window found it usable.
inline bool openAndWait(ui::MainWindow& w, const QString& path) {
    QSignalSpy inspected(&w, &ui::MainWindow::fileInspected);
    w.openTargetFile(path);
    if (!inspected.wait(30000))
        return false;
    return inspected.takeFirst().at(0).toBool();
}
inline bool openAndWait(ui::MainWindow& w, const std::string& path) {
    return openAndWait(w, QString::fromStdString(path));
}

// Chooses the plan's file, runs the plan through the window and waits for it to finish.
inline bool runToEnd(ui::MainWindow& w, const Plan& plan) {
    if (!openAndWait(w, plan.file))
        return false;
    w.config()->setPlan(plan);
    QSignalSpy finished(&w, &ui::MainWindow::runFinished);
    return w.startRun() && finished.wait(120000);
}

// Waits until the window's run reports a measured round under way (the worker's own progress
// signal, not a guess at how long setting up takes), at or past `share` of the run's steps.
// False after timeoutMs without one.
inline bool waitForMeasuredRound(ui::MainWindow& w, int timeoutMs = 60000, double share = 0) {
    auto* controller = w.findChild<ui::RunController*>();
    if (!controller)
        return false;
    bool measuring = false;
    QObject context;
    QObject::connect(controller, &ui::RunController::progressed, &context, [&](const Progress& p) {
        measuring |= (p.at.phase == RunPhase::Round || p.at.phase == RunPhase::TimedRound) &&
                     double(p.step) >= share * double(p.total);
    });
    return QTest::qWaitFor([&] { return measuring; }, timeoutMs);
}

inline void isolateSettings() {
    // Settings go to a folder of this test process's own, never the user's readscope
    // configuration, nor one that another suite running at the same time writes to.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("readscope-tests");
    // The recovery file lives in the application's data folder: one per test process, or two
    // suites running at once write the same file (a torn header under a parallel ASan run,
    // now that a stop-and-close keeps the file).
    QCoreApplication::setApplicationName(
        QString("readscope-tests-%1").arg(QCoreApplication::applicationPid()));
    static QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    // The machine drift readscope-cli keeps: none of the user's reaches a test's comparisons.
    qputenv("READSCOPE_DATA_DIR", settings.path().toUtf8());
    // readscope's state and cache folders (the recovery file, the default test file): this
    // process's own too.
    qputenv("XDG_STATE_HOME", (settings.path() + "/state").toUtf8());
    qputenv("XDG_CACHE_HOME", (settings.path() + "/cache").toUtf8());
}

} // namespace readscope::testing
