// A stopped or interrupted run finished from the window, as the CLI's --resume finishes one:
// Esc half way, then Run ▸ Finish the run (its shortcut, Ctrl+Alt+R) measures the rest, going on
// from the kept rounds; a run closed mid-run is offered at the next start, and the offer's Finish
// button completes it. The counts shown are rounds and partial cells.
#include "recovery_file.h"
#include "recovery_offer.h"
#include "results_model.h"
#include "run_controller.h"
#include "window_fixture.h"

#include "readscope/recovery.h"

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
        QVERIFY(testing::waitForMeasuredRound(w, 60000, 0.5));
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
        // The kept rounds stay (all but one a stop mid-round left in some lanes only, so that
        // every lane goes on numbered alike), and the rounds are numbered 1 to 12 in each.
        for (std::size_t i = 0; i + 1 < before.samples.size(); ++i)
            QCOMPARE(after->samples[i].seconds, before.samples[i].seconds);
        for (const Cell& c : w.model()->document().cells) {
            std::vector<int> numbers;
            for (const Sample& x : c.samples)
                numbers.push_back(x.round);
            std::sort(numbers.begin(), numbers.end());
            for (int r = 1; r <= kRounds; ++r)
                QCOMPARE(numbers[std::size_t(r - 1)], r);
        }
        QVERIFY(!finish->isEnabled()); // a whole run has nothing to finish
    }

    // A stopped A/A run or duration run cannot say what it lacks: Finish is not offered, and
    // resumeRun says why; a recovered one (its cells marked) can be finished.
    void whatCannotBeFinishedIsNotOffered() {
        ResultDocument doc;
        doc.plan = testing::tinyPlan(*file_, kRounds);
        doc.complete = false;
        Cell c;
        c.strategy = "pread-uninit";
        c.rangeBytes = 16 << 10;
        c.samples.resize(3);
        doc.cells.push_back(c);
        QVERIFY(finishable(doc).ok());
        doc.plan.repeats = 2;
        QVERIFY(!finishable(doc).ok());
        QVERIFY(finishable(doc).error().message.find("A/A") != std::string::npos);
        doc.plan.repeats = 1;
        doc.plan.durationSeconds = 10;
        QVERIFY(finishable(doc).error().message.find("duration") != std::string::npos);
        MainWindow w;
        w.model()->setDocument(doc);
        QVERIFY(!w.canFinishRun());
        doc.cells[0].partial = true; // as a recovery file marks them
        QVERIFY(finishable(doc).ok());
    }

    void aRunClosedMidRunIsFinishedAtTheNextStart() {
        QFile::remove(recoveryFilePath());
        {
            MainWindow w;
            w.show();
            QVERIFY(testing::openAndWait(w, file_->path()));
            w.config()->setPlan(testing::tinyPlan(*file_, kRounds));
            QVERIFY(w.startRun());
            QVERIFY(testing::waitForMeasuredRound(w, 60000, 0.5));
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
