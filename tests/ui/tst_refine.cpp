// Precision a person can ask for in the window: the Precision field reaches the plan, and
// Run ▸ Refine noisy cells adds rounds to a finished run's noisy cells, live, without clearing
// the table or measuring the quiet cells again.
#include "config_panel.h"
#include "results_model.h"
#include "run_controller.h"
#include "window_fixture.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

class TestRefine : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

    static void typeInto(QAbstractSpinBox* box, const QString& text) {
        box->setFocus();
        box->findChild<QLineEdit*>()->selectAll();
        QTest::keyClicks(box, text);
        QTest::keyClick(box, Qt::Key_Return);
    }

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    void precisionFieldReachesThePlan() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_));
        auto* precision = w.config()->findChild<QDoubleSpinBox*>("precision");
        auto* maxTime = w.config()->findChild<QSpinBox*>("maxTime");
        QVERIFY(precision && maxTime);
        QCOMPARE(precision->text(), QString("off"));
        QVERIFY(!maxTime->isEnabled()); // nothing to bound without a precision
        QCOMPARE(w.config()->plan()->precision, 0.0);
        typeInto(precision, "2");
        QVERIFY(maxTime->isEnabled());
        typeInto(maxTime, "45");
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        QCOMPARE(plan->precision, 0.02);
        QCOMPARE(plan->maxTimeSeconds, 45.0);
        // And back from a plan (opened results, settings).
        plan->precision = 0.035;
        plan->maxTimeSeconds = 90;
        w.config()->setPlan(*plan);
        QCOMPARE(precision->value(), 3.5);
        QCOMPARE(maxTime->value(), 90);
    }

    void refineMeasuresTheNoisyCellsLive() {
        MainWindow w;
        w.show();
        auto plan = testing::tinyPlan(*file_, 8);
        plan.sizes = {16 << 10, 64 << 10};
        QVERIFY(testing::runToEnd(w, plan));
        // One noisy cell (pread-uninit at 16 KiB: every other round 3x slower), every other
        // cell made exact, so that only the one has anything to refine.
        ResultDocument doc = w.model()->document();
        for (auto& c : doc.cells) {
            for (std::size_t r = 0; r < c.samples.size(); ++r) {
                c.samples[r].seconds = c.samples[0].seconds;
                if (c.rangeBytes == (16 << 10) && c.strategy == "pread-uninit" && r % 2)
                    c.samples[r].seconds *= 3;
            }
            c.summarize();
        }
        w.model()->setDocument(doc);
        const int rows = w.model()->rowCount();
        auto* precision = w.config()->findChild<QDoubleSpinBox*>("precision");
        precision->setValue(5);
        w.config()->findChild<QSpinBox*>("maxTime")->setValue(5);

        auto* controller = w.findChild<RunController*>();
        QSignalSpy live(controller, &RunController::cellMeasured);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QAction* refine = w.findChild<QAction*>("refineAction");
        QVERIFY(refine && refine->isEnabled());
        refine->trigger(); // Run > Refine noisy cells
        QVERIFY(w.isRunning());
        QCOMPARE(w.model()->rowCount(), rows); // the table stays while it refines
        QVERIFY(finished.wait(60000));
        QVERIFY2(!live.isEmpty(), "the refined rounds reach the window as they are measured");
        for (const auto& args : live) {
            const auto cell = args.at(0).value<Cell>();
            QCOMPARE(cell.strategy, std::string("pread-uninit"));
            QCOMPARE(cell.rangeBytes, std::uint64_t(16 << 10));
        }
        QCOMPARE(w.model()->rowCount(), rows);
        const ResultDocument& after = w.model()->document();
        for (const auto& was : doc.cells) {
            const Cell* now = after.find(was.strategy, was.point());
            QVERIFY(now);
            if (was.strategy == "pread-uninit" && was.rangeBytes == (16 << 10))
                QVERIFY(now->samples.size() > was.samples.size());
            else
                QCOMPARE(now->samples.size(), was.samples.size());
        }
        QVERIFY2(w.logText().contains("refined toward ±5%: 1 cells got more rounds"),
                 qPrintable(w.logText()));

        // Stopped while refining: the run keeps every round and stays the finished run it was.
        precision->setValue(0.1); // out of reach: rounds would go on until Max time
        w.config()->findChild<QSpinBox*>("maxTime")->setValue(60);
        QSignalSpy more(controller, &RunController::cellMeasured);
        QVERIFY(w.refineRun());
        QVERIFY(more.wait(30000));
        // No ETA while refining (it ends when the cells are sure): the bound it has.
        auto* progress = w.findChild<QLabel*>("progressText");
        QTRY_VERIFY2(progress->text().contains("at most"), qPrintable(progress->text()));
        QVERIFY(!progress->text().contains("ETA"));
        w.stopRun();
        QVERIFY(finished.wait(30000));
        QVERIFY(w.model()->document().complete);
        QVERIFY2(w.logText().contains("refined toward ±0.1% (stopped)"), qPrintable(w.logText()));

        // Nothing left wider than ±50%: refining says so and measures nothing.
        precision->setValue(50);
        QVERIFY(!w.refineRun());
        QVERIFY2(w.statusText().contains("nothing to refine"), qPrintable(w.statusText()));
    }
};

QTEST_MAIN(TestRefine)
#include "tst_refine.moc"
