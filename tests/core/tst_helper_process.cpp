// A helper program run to its end (systemd-run, for a memory limit's scope): its output and
// exit status, also when it closes its output before it exits; a program that is not there;
// one that does not finish in time, killed.
#include "posix/helper_process.h"

#include <QElapsedTimer>
#include <QTest>

using readscope::platform::runHelper;

class TestHelperProcess : public QObject {
    Q_OBJECT
private slots:
    void outputAndStatus() {
        const auto [status, output] = runHelper({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
        QCOMPARE(status, 3);
        QCOMPARE(QString::fromStdString(output), QString("out\nerr"));
    }

    // Its output closed first, then a wait before it exits (as a program whose last act is not
    // writing): the exit status, not "did not finish".
    void closesItsOutputBeforeItExits() {
        const auto [status, output] =
            runHelper({"sh", "-c", "exec >&- 2>&-; sleep 0.3; exit 4"}, 10);
        QCOMPARE(status, 4);
        QVERIFY2(output.empty(), output.c_str());
    }

    void notThere() {
        const auto [status, output] = runHelper({"readscope-no-such-program"}, 10);
        QCOMPARE(status, -1);
        QVERIFY2(output.find("could not be started") != std::string::npos, output.c_str());
    }

    void killedWhenItDoesNotFinish() {
        QElapsedTimer clock;
        clock.start();
        const auto [status, output] = runHelper({"sleep", "30"}, 1);
        QCOMPARE(status, -1);
        QVERIFY2(output.find("did not finish in 1 s") != std::string::npos, output.c_str());
        QVERIFY2(clock.elapsed() < 20000, "it waited for the helper instead of killing it");
    }
};

QTEST_GUILESS_MAIN(TestHelperProcess)
#include "tst_helper_process.moc"
