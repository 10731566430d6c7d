// A memory-limited run started from the window measures in its own process: the app's cgroup
// is the same before, during and after the run; the measurement's child runs in the limited
// cgroup; the finished run says the limit it ran under. Skipped, with the reason, where no
// memory cgroup can be made (run as root, or in a delegated cgroup v2 subtree).
#include "cgroups.h"
#include "recovery_file.h"
#include "results_model.h"
#include "run_controller.h"
#include "run_worker.h"
#include "window_fixture.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <atomic>
#include <csignal>
#include <unistd.h>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

class TestMeasurementProcess : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        testing::isolateSettings();
        qputenv("READSCOPE_WORKER", READSCOPE_CLI);
    }

    void aMemoryLimitedRunLeavesTheAppWhereItWas() {
        TestFile file(64 << 20);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(testing::openAndWait(w, file.path()));
        w.config()->setPlan(testing::tinyPlan(file, 3));
        // The limit typed into its field, as a person sets it.
        auto* limit = w.findChild<QSpinBox*>("memoryLimit");
        QVERIFY(limit);
        limit->setFocus();
        limit->findChild<QLineEdit*>()->selectAll();
        QTest::keyClicks(limit, "48");
        QTest::keyClick(limit, Qt::Key_Tab);
        QCOMPARE(w.config()->plan()->memoryLimit, std::uint64_t(48) << 20);

        const QString self = QString::number(QCoreApplication::applicationPid());
        const QString before = testing::memoryCgroupOf(self);
        QVERIFY(!before.isEmpty());
        auto* controller = w.findChild<RunController*>();
        QVERIFY(controller);
        std::atomic<int> childPid{0};
        controller->workerForTesting()->onMeasurementProcess = [&](int pid) { childPid = pid; };
        QString during, child;
        QObject context;
        connect(controller, &RunController::cellMeasured, &context, [&](const Cell&) {
            if (!child.isEmpty())
                return;
            during = testing::memoryCgroupOf(self);
            child = testing::memoryCgroupOf(QString::number(childPid.load()));
        });
        QSignalSpy finished(controller, &RunController::finished);
        auto* run = w.findChild<QPushButton*>("runButton");
        QVERIFY(run && run->isEnabled());
        QTest::mouseClick(run, Qt::LeftButton);
        QVERIFY2(w.isRunning(), qPrintable(w.config()->planProblem()));
        QVERIFY(finished.wait(120000));
        const QString error = finished.at(0).at(1).toString();
        if (error.startsWith("cannot run under a memory limit"))
            QSKIP(qPrintable(error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto doc = finished.at(0).at(0).value<ResultDocument>();
        QVERIFY(doc.complete);
        QVERIFY(doc.memoryLimit);
        QCOMPARE(doc.memoryLimit->bytes, std::uint64_t(48) << 20);
        QVERIFY(childPid > 0 && childPid != QCoreApplication::applicationPid());
        QCOMPARE(during, before);
        QCOMPARE(testing::memoryCgroupOf(self), before);
        QVERIFY2(child.contains(QString("readscope-%1").arg(childPid.load())) ||
                     QString::fromStdString(doc.memoryLimit->how).contains("scope"),
                 qPrintable(child));
        // The window shows the run's cells as for any run.
        QCOMPARE(w.model()->document().cells.size(), std::size_t(6));
    }

    // The measurement's process killed mid-run (as the kernel's OOM killer may under a
    // limit): the window says how it ended, keeps what it sent, and can finish it; the
    // recovery file stays for the next start.
    void aKilledMeasurementCanBeFinished() {
        TestFile file(64 << 20);
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file.path()));
        Plan plan = testing::tinyPlan(file, 2000);
        plan.memoryLimit = 48 << 20;
        w.config()->setPlan(plan);
        auto* controller = w.findChild<RunController*>();
        std::atomic<int> childPid{0};
        controller->workerForTesting()->onMeasurementProcess = [&](int pid) { childPid = pid; };
        QObject context;
        bool killed = false;
        connect(controller, &RunController::cellMeasured, &context, [&](const Cell&) {
            if (!killed && childPid > 0)
                killed = ::kill(childPid, SIGKILL) == 0;
        });
        QSignalSpy finished(controller, &RunController::finished);
        QVERIFY(w.startRun());
        QVERIFY(finished.wait(120000));
        const QString error = finished.at(0).at(1).toString();
        if (error.startsWith("cannot run under a memory limit"))
            QSKIP(qPrintable(error));
        QVERIFY(killed);
        QVERIFY2(error.contains("killed by signal 9"), qPrintable(error));
        QVERIFY(!w.model()->isEmpty());
        QVERIFY(!w.model()->document().complete);
        QVERIFY(w.canFinishRun());
        QVERIFY(recoveryFileExists());
        removeRecoveryFile();
    }
};

QTEST_MAIN(TestMeasurementProcess)
#include "tst_measurement_process.moc"
