// A stopped or interrupted run finished from the window, as the CLI's --resume finishes one:
// Esc half way, then Run ▸ Finish the run (its shortcut, Ctrl+Alt+R) measures the rest, going on
// from the kept rounds; a run closed mid-run is offered at the next start, and the offer's Finish
// button completes it. The counts shown are rounds and partial cells.
#include "recovery_file.h"
#include "recovery_offer.h"
#include "results_model.h"
#include "run_controller.h"
#include "window_fixture.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

namespace {

constexpr int kRounds = 12;

// Waits until the run has measured at least `share` of its steps.
bool waitForShare(MainWindow& w, double share) {
    auto* controller = w.findChild<RunController*>();
    bool there = false;
    QObject context;
    QObject::connect(controller, &RunController::progressed, &context, [&](const Progress& p) {
        there |= p.total > 0 && p.at.phase == RunPhase::Round &&
                 double(p.step) >= share * double(p.total);
    });
    return QTest::qWaitFor([&] { return there; }, 60000);
}

// Every cell of the plan measured with every planned round.
void verifyWhole(const ResultDocument& doc) {
    QVERIFY(doc.complete);
    QCOMPARE(doc.cells.size(), std::size_t(6));
    for (const Cell& c : doc.cells)
        QVERIFY2(c.samples.size() == std::size_t(kRounds),
                 qPrintable(QString("%1 at %2: %3 rounds")
                                .arg(QString::fromStdString(c.strategy))
                                .arg(c.rangeBytes)
                                .arg(c.samples.size())));
}

} // namespace

class TestFinishRun : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    // Finish's shortcut once clashed with Export report's, and Qt then triggers neither: no two
    // of the window's actions may share one.
    void noTwoActionsShareAShortcut() {
        MainWindow w;
        QMap<QString, QString> seen;
        for (QAction* a : w.findChildren<QAction*>())
            for (const QKeySequence& key : a->shortcuts()) {
                const QString k = key.toString();
                QVERIFY2(!seen.contains(k),
                         qPrintable(QString("%1: %2 and %3").arg(k, seen.value(k), a->text())));
                seen.insert(k, a->text());
            }
        QVERIFY(seen.contains("Ctrl+Alt+R"));
    }

    void escThenFinishCompletesTheRun() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_, kRounds));
        auto* finish = w.findChild<QAction*>("finishAction");
        QVERIFY(finish);
        QVERIFY(!finish->isEnabled()); // nothing to finish yet
        QSignalSpy ended(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(waitForShare(w, 0.5));
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(ended.wait(30000));
        const ResultDocument stopped = w.model()->document();
        QVERIFY(!stopped.complete);
        const KeptCells kept = keptCells(stopped);
        QVERIFY2(kept.partial > 0, "a stop half way left no cell short of its rounds");
        QVERIFY(finish->isEnabled());
        // The rounds kept stay as they were: the finished cells go on from them.
        const Cell before = *std::max_element(
            stopped.cells.begin(), stopped.cells.end(),
            [](const Cell& a, const Cell& b) { return a.samples.size() < b.samples.size(); });

        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier | Qt::AltModifier);
        QVERIFY(w.isRunning());
        QVERIFY(ended.wait(60000));
        verifyWhole(w.model()->document());
        const Cell* after = w.model()->document().find(before.strategy, before.point());
        QVERIFY(after);
        for (std::size_t i = 0; i < before.samples.size(); ++i)
            QCOMPARE(after->samples[i].seconds, before.samples[i].seconds);
        QVERIFY(!finish->isEnabled()); // a whole run has nothing to finish
    }

    void aRunClosedMidRunIsFinishedAtTheNextStart() {
        QFile::remove(recoveryFilePath());
        {
            MainWindow w;
            w.show();
            QVERIFY(testing::openAndWait(w, file_->path()));
            w.config()->setPlan(testing::tinyPlan(*file_, kRounds));
            QVERIFY(w.startRun());
            QVERIFY(waitForShare(w, 0.5));
            auto* controller = w.findChild<RunController*>();
            QVERIFY(controller->stopKeepingRecovery(30000)); // what Stop and close does
        }
        QVERIFY(recoveryFileExists());
        MainWindow next;
        next.show();
        QSignalSpy ended(&next, &MainWindow::runFinished);
        QString asked;
        QTimer::singleShot(200, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            asked = box->text();
            QTest::mouseClick(box->findChild<QPushButton*>("finishRecovered"), Qt::LeftButton);
        });
        offerRecovery(next);
        QVERIFY2(asked.contains("did not finish") && !asked.contains("crash"), qPrintable(asked));
        QVERIFY2(asked.contains("partial") || asked.contains("round"), qPrintable(asked));
        QVERIFY(ended.wait(60000));
        verifyWhole(next.model()->document());
        QVERIFY(!recoveryFileExists());
    }
};

QTEST_MAIN(TestFinishRun)
#include "tst_finish_run.moc"
