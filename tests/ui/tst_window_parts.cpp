// The main window's parts on their own, without a window: the baseline, the recovery file,
// the file to measure and whether a run may start on it, the side panels, the result tabs'
// log, and the lesson panel's next step.
#include "banner.h"
#include "baseline.h"
#include "config_panel.h"
#include "recovery_file.h"
#include "result_tabs.h"
#include "results_model.h"
#include "side_panels.h"
#include "target_file.h"

#include "window_fixture.h"

#include "readscope/recovery.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;

class TestWindowParts : public QObject {
    Q_OBJECT
    const QString golden_ = READSCOPE_GOLDEN_DIR;

private slots:
    void initTestCase() { testing::isolateSettings(); }

    void baselineLoadsKeepsAndClears() {
        Baseline baseline;
        QSignalSpy changed(&baseline, &Baseline::changed);
        QVERIFY(!baseline.document());
        QCOMPARE(baseline.load(golden_ + "/input/warm-baseline.json"), QString());
        QCOMPARE(changed.count(), 1);
        QVERIFY(baseline.document());
        const auto cells = baseline.document()->cells.size();
        QVERIFY(cells > 0);
        // A file that is no result leaves the loaded baseline as it was, and says why.
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.json");
        QVERIFY(QFile(bad).open(QIODevice::WriteOnly));
        const QString error = baseline.load(bad);
        QVERIFY(!error.isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(baseline.document()->cells.size(), cells);
        QVERIFY(!baseline.load(dir.filePath("missing.json")).isEmpty());
        baseline.clear();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.last().at(0).value<const ResultDocument*>(), nullptr);
        QVERIFY(!baseline.document());
        baseline.clear(); // nothing to clear: nothing changes
        QCOMPARE(changed.count(), 2);
    }

    void recoveryFileHoldsTheFinishedCellsUntilRemoved() {
        removeRecoveryFile();
        QVERIFY(!recoveryFileExists());
        QVERIFY(!readRecoveryFile());
        testing::TestFile file(1 << 20);
        {
            struct Quiet : RunSink {
            } quiet;
            RecoverySink sink(quiet, recoveryFilePath().toStdString());
            ResultDocument header;
            header.plan = testing::tinyPlan(file);
            sink.onStarted(header);
            Cell c;
            c.strategy = "pread-uninit";
            c.rangeBytes = 64 << 10;
            c.summary.median = 3.5;
            sink.onCellFinished(c);
        } // no discard(): as after a crash
        QVERIFY(recoveryFileExists());
        auto doc = readRecoveryFile();
        QVERIFY(doc);
        QCOMPARE(doc->cells.size(), std::size_t(1));
        QCOMPARE(doc->cells.front().strategy, std::string("pread-uninit"));
        QVERIFY(recoveryFileExists()); // reading it keeps it: it goes once shown or declined
        removeRecoveryFile();
        QVERIFY(!recoveryFileExists());
    }

    void aRunWaitsForALookAtTheFileTheFieldNames() {
        ConfigPanel config;
        TargetFile target(&config);
        QSignalSpy inspected(&target, &TargetFile::inspected);
        QVERIFY(target.readiness().startsWith("Choose a file to read first"));
        testing::TestFile file(1 << 20);
        target.open(QString::fromStdString(file.path()));
        QCOMPARE(config.filePath(), QString::fromStdString(file.path()));
        QVERIFY(target.busy());
        QVERIFY(target.readiness().startsWith("Still looking at the file"));
        QVERIFY(inspected.wait(10000));
        QCOMPARE(inspected.last().at(0).toBool(), true);
        QCOMPARE(target.readiness(), QString());
        // A name typed without Return was never looked at: Run starts the look and waits.
        QTemporaryDir dir;
        config.setFilePath(dir.filePath("missing.bin"));
        QVERIFY(target.readiness().startsWith("Still looking at the file"));
        QVERIFY(inspected.wait(10000));
        QCOMPARE(inspected.last().at(0).toBool(), false);
        const QString why = inspected.last().at(1).toString();
        QVERIFY(!why.isEmpty());
        QCOMPARE(target.readiness(), why);
    }

    // The memory-limit field, typed into as a person would: off by default, MiB into the plan,
    // back from a plan, and a limit too small for readscope named as the plan's problem.
    void theMemoryLimitFieldReachesThePlan() {
        ConfigPanel config;
        TargetFile target(&config);
        QSignalSpy inspected(&target, &TargetFile::inspected);
        testing::TestFile file(1 << 20);
        target.open(QString::fromStdString(file.path()));
        QVERIFY(inspected.wait(10000));
        config.setPlan(testing::tinyPlan(file));
        auto* limit = config.findChild<QSpinBox*>("memoryLimit");
        QVERIFY(limit);
        QCOMPARE(limit->text(), QString("off"));
        QCOMPARE(config.plan()->memoryLimit, std::uint64_t(0));
        auto type = [&](const QString& text) {
            limit->setFocus();
            limit->findChild<QLineEdit*>()->selectAll();
            QTest::keyClicks(limit, text);
            QTest::keyClick(limit, Qt::Key_Return);
        };
        type("256");
        QCOMPARE(config.plan()->memoryLimit, std::uint64_t(256) << 20);
        QCOMPARE(config.planProblem(), QString());
        type("16");
        QVERIFY2(config.planProblem().contains("leaves readscope no room"),
                 qPrintable(config.planProblem()));
        Plan back = *config.plan();
        back.memoryLimit = 64ull << 20;
        config.setPlan(back);
        QCOMPARE(limit->value(), 64);
    }

    void sidePanelsGiveTheirRoomToTheResults() {
        SidePanels panels(new QWidget, new QWidget, new QWidget);
        panels.resize(1400, 600);
        panels.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panels));
        panels.fitTo(1400);
        QVERIFY(panels.isShown(SidePanels::Config));
        QVERIFY(panels.isShown(SidePanels::Teaching));
        const int results = panels.sizes().at(1);
        QCOMPARE(panels.toggle(SidePanels::Teaching), false);
        QVERIFY(!panels.isShown(SidePanels::Teaching));
        QVERIFY(panels.sizes().at(1) > results);
        QCOMPARE(panels.toggle(SidePanels::Teaching), true);
        QCOMPARE(panels.sizes().at(2), SidePanels::kTeachingWidth);
        // A narrow window starts with the teaching panel shut.
        panels.fitTo(1000);
        QVERIFY(!panels.isShown(SidePanels::Teaching));
    }

    void theLogCountsItsWarningsInItsTab() {
        ResultsModel model;
        ResultTabs tabs(&model);
        tabs.log("run started");
        tabs.log("cells were not cold", true);
        tabs.log("memcpy limit", true);
        QCOMPARE(tabs.tabText(tabs.count() - 1), QString("Log (2)"));
        QVERIFY(tabs.logText().contains("warning: cells were not cold"));
        QVERIFY(!tabs.logText().contains("warning: run started"));
        tabs.clearWarningCount();
        QCOMPARE(tabs.tabText(tabs.count() - 1), QString("Log"));
        tabs.step(-1); // round the start to the last tab
        QCOMPARE(tabs.currentIndex(), tabs.count() - 1);
        tabs.step(1);
        QCOMPARE(tabs.currentIndex(), 0);
    }

    void aBannerAboutTheInputIsMarkedSo() {
        Banner banner;
        banner.say("Sizes: '12Q' is not a size", true);
        QVERIFY(banner.isAboutInput());
        QCOMPARE(banner.shown(), QString("Sizes: '12Q' is not a size"));
        banner.say("the file is gone");
        QVERIFY(!banner.isAboutInput());
        banner.say({}, true); // hidden: about nothing
        QVERIFY(!banner.isAboutInput());
        QCOMPARE(banner.shown(), QString());
    }
};

QTEST_MAIN(TestWindowParts)
#include "tst_window_parts.moc"
