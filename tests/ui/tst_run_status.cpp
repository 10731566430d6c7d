// The window's bottom bar on its own: where the run is in words, the refinement's bound instead
// of an ETA, and the Run and Stop buttons as a person clicks them.
#include "run_status.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;

class TestRunStatus : public QObject {
    Q_OBJECT
private slots:
    void saysWhereTheRunIs() {
        RunStatus status;
        auto* text = status.findChild<QLabel*>("progressText");
        auto* bar = status.findChild<QProgressBar*>();
        QVERIFY(text && bar);
        status.starting("Starting…");
        Progress p;
        p.step = 25;
        p.total = 100;
        p.rangeBytes = 1 << 20;
        p.strategy = "pread-uninit";
        p.at = {RunPhase::Round, 7, 12};
        p.elapsedSeconds = 12;
        p.etaSeconds = 40;
        status.showProgress(p);
        QCOMPARE(text->text(),
                 QString("1 MiB · pread-uninit · round 7/12 — elapsed 0:12, ETA 0:40"));
        QCOMPARE(bar->value(), 250);
        // A refinement: no fixed end, and the time it may still take instead of an ETA.
        status.refining(60);
        QCOMPARE(bar->maximum(), 0);
        p.elapsedSeconds = 15;
        status.showProgress(p);
        QVERIFY2(text->text().endsWith("elapsed 0:15, at most 0:45 left"),
                 qPrintable(text->text()));
        status.finished("Finished in 0:16.", true);
        QCOMPARE(bar->maximum(), 1000);
        QCOMPARE(bar->value(), 1000);
        // A run's end says how long it took, timed from its start; a stopped one keeps cells.
        // A stop keeps rounds, not only whole cells: the partial ones are said with theirs.
        status.starting("Starting…");
        status.runEnded(false, KeptCells{0, 30, 5, 6, 12});
        QVERIFY2(text->text().startsWith("Stopped after 0:0"), qPrintable(text->text()));
        QVERIFY2(text->text().endsWith("; kept 30 cells, all partial (5-6 of 12 rounds)."),
                 qPrintable(text->text()));
        QCOMPARE(bar->value(), 0);
        QCOMPARE(keptCellsText({12, 18, 3, 3, 12}),
                 QString("30 cells, 18 of them partial (3 of 12 rounds)"));
        QCOMPARE(keptCellsText({3, 0, 0, 0, 12}), QString("3 cells, each with all 12 rounds"));
        QCOMPARE(keptCellsText({2, 0, 0, 0, 0}), QString("2 cells")); // a duration run's
        status.runEnded(true, {3, 0, 0, 0, 12});
        QVERIFY2(text->text().startsWith("Finished in 0:0"), qPrintable(text->text()));
        QCOMPARE(bar->value(), 1000);
        QCOMPARE(clockText(-1), QString("–"));
        QCOMPARE(clockText(125.4), QString("2:05"));
    }

    void buttonsFollowTheRun() {
        RunStatus status;
        status.show();
        QVERIFY(QTest::qWaitForWindowExposed(&status));
        auto* run = status.findChild<QPushButton*>("runButton");
        auto* stop = status.findChild<QPushButton*>("stopButton");
        QSignalSpy runs(&status, &RunStatus::runClicked), stops(&status, &RunStatus::stopClicked);
        status.setRunning(false);
        QTest::mouseClick(run, Qt::LeftButton);
        QCOMPARE(runs.count(), 1);
        QVERIFY(!stop->isEnabled());
        status.setRunning(true);
        QVERIFY(!run->isEnabled());
        QTest::mouseClick(stop, Qt::LeftButton);
        QCOMPARE(stops.count(), 1);
        QTest::mouseClick(run, Qt::LeftButton); // disabled while running
        QCOMPARE(runs.count(), 1);
    }
};

QTEST_MAIN(TestRunStatus)
#include "tst_run_status.moc"
