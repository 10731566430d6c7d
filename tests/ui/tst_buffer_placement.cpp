// Buffer placement in the window: the field a person types offsets into, the offset sweep's
// chart and table, the lesson "The 16-byte trap" and the verdict it leaves for the teaching
// panel.
#include "chart_view.h"
#include "config_panel.h"
#include "results_model.h"
#include "window_fixture.h"

#include "readscope/finding_text.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QTextBrowser>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

class TestBufferPlacement : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

    static QComboBox* offsetField(MainWindow& w) {
        return w.config()->findChild<QComboBox*>("bufferOffset");
    }

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    void typedOffsetsReachThePlan_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("offsets"); // as the plan holds them; "error" when refused
        QTest::newRow("auto") << "auto"
                              << "";
        QTest::newRow("one") << "16"
                             << "16";
        QTest::newRow("sweep") << "0,16,4096+16"
                               << "0,16,4112";
        QTest::newRow("junk") << "sixteen"
                              << "error";
        QTest::newRow("too far") << "70000"
                                 << "error";
    }
    void typedOffsetsReachThePlan() {
        QFETCH(QString, typed);
        QFETCH(QString, offsets);
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_));
        QComboBox* field = offsetField(w);
        QVERIFY(field && field->isEditable());
        field->lineEdit()->selectAll();
        QTest::keyClicks(field->lineEdit(), typed);
        auto plan = w.config()->plan();
        if (offsets == "error") {
            QVERIFY(!plan.ok());
            QVERIFY2(QString::fromStdString(plan.error().message).contains("Buffer offset"),
                     plan.error().message.c_str());
            return;
        }
        QVERIFY(plan.ok());
        QStringList got;
        for (auto o : plan->bufferOffsets)
            got << QString::number(o);
        QCOMPARE(got.join(","), offsets);
        // And back: a plan's offsets show in the field as a person would type them.
        w.config()->setPlan(*plan);
        QCOMPARE(field->currentText(), typed);
    }

    void offsetSweepDrawsOffsetsAsCategories() {
        MainWindow w;
        w.show();
        Plan plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-reuse", "pread-uninit", "mmap-touch"};
        plan.bufferOffsets = {0, 16, 4112};
        QVERIFY(testing::runToEnd(w, plan));
        QCOMPARE(w.model()->rowCount(), 9);
        // One point per offset, at evenly spaced categories labelled as a person reads them.
        QCOMPARE(w.chart()->pointCount("pread-reuse"), 3);
        QCOMPARE(w.chart()->pointCount("mmap-touch"), 0); // in place: no buffer to place
        auto* ticker = dynamic_cast<QCPAxisTickerText*>(w.chart()->plot()->xAxis->ticker().data());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QString("0"));
        QCOMPARE(ticker->ticks().value(2), QString("4096+16"));
        QVERIFY(w.chart()->plot()->xAxis->label().contains("page offset"));
        // The table says where the buffers were, pinned and seen.
        int row = -1;
        for (int r = 0; r < w.model()->rowCount(); ++r)
            if (w.model()->cellAt(r)->strategy == "pread-uninit" &&
                w.model()->cellAt(r)->bufferOffset == 4112u)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(w.model()->index(row, ResultsModel::Offset).data().toString(), QString("4096+16"));
        QCOMPARE(w.model()->index(row, ResultsModel::Buffers).data().toString(), QString("16"));
        QVERIFY(w.exports().markdown().startsWith("| buffer offset |"));
        // The run judged itself: the log, the Markdown and the teaching panel carry the verdict.
        // Two rounds can call nothing among four comparisons: it says so, and what would.
        QVERIFY2(w.logText().contains("Cannot tell (64 KiB ranges") &&
                     w.logText().contains("8 rounds can call one"),
                 qPrintable(w.logText()));
        const auto verdict = judgeOffsetSweep(w.model()->document());
        QVERIFY(verdict);
        QVERIFY(
            w.logText().contains(QString::fromStdString(offsetVerdictText(*verdict)).chopped(1)));
        QVERIFY2(w.exports().markdown().contains(
                     QString::fromStdString(offsetVerdictText(*verdict)).chopped(1)),
                 qPrintable(w.exports().markdown()));
        QVERIFY(w.findChild<QTextBrowser*>("explanation")
                    ->toPlainText()
                    .contains("this machine's verdict"));
    }

    void autoRunShowsWhereTheAllocatorPutBuffers() {
        MainWindow w;
        Plan plan = testing::tinyPlan(*file_);
        plan.strategies = {"pread-reuse", "mmap-touch"};
        QVERIFY(testing::runToEnd(w, plan));
        for (int r = 0; r < w.model()->rowCount(); ++r) {
            const Cell* c = w.model()->cellAt(r);
            const QString buffers = w.model()->index(r, ResultsModel::Buffers).data().toString();
            QCOMPARE(w.model()->index(r, ResultsModel::Offset).data().toString(), QString("auto"));
            QCOMPARE(buffers, c->strategy == "mmap-touch" ? QString("in place") : QString("0"));
        }
    }

    void teachingPanelPointsAtBuffersInTheSlowBand() {
        // As if "The 16-byte trap" had found 8-32 slow on this machine (the CPU is the one a
        // run here records).
        MainWindow w;
        w.show();
        Plan plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit", "pread-reuse"};
        plan.bufferOffsets = {16};
        QVERIFY(testing::runToEnd(w, plan));
        // The window's chart says where the buffers were pinned, not only exported charts.
        auto* title = qobject_cast<QCPTextElement*>(w.chart()->plot()->plotLayout()->element(0, 0));
        QVERIFY(title && title->text().contains("buffers at page offset 16"));
        {
            QSettings s;
            s.beginGroup("offsetTrap");
            s.setValue("cpu", QString::fromStdString(w.model()->document().system.cpuModel));
            s.setValue("slow", QStringList{"8", "16", "32"});
            s.setValue("fast", QStringList{"0", "64"});
            s.setValue("ratio", 0.2);
        }
        emit w.config()->strategyFocused("pread-uninit");
        const QString text = w.findChild<QTextBrowser*>("explanation")->toPlainText();
        QVERIFY2(text.contains("Where the buffers landed") && text.contains("slow band"),
                 qPrintable(text));
        // Pinned at 64, measured fast: nothing to point at.
        plan.bufferOffsets = {64};
        QVERIFY(testing::runToEnd(w, plan));
        emit w.config()->strategyFocused("pread-uninit");
        QVERIFY(!w.findChild<QTextBrowser*>("explanation")
                     ->toPlainText()
                     .contains("Where the buffers landed"));
    }

    void trapLessonSetsUpTheSweep() {
        MainWindow w;
        QVERIFY(testing::openAndWait(w, file_->path()));
        int lesson = -1;
        const auto lessons = w.findChildren<QAction*>();
        for (QAction* a : lessons)
            if (a->text().contains("16-byte trap"))
                a->trigger(), lesson = 1;
        QVERIFY2(lesson == 1, "no Lessons menu item for the 16-byte trap");
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        QCOMPARE(plan->bufferOffsets, (std::vector<std::uint32_t>{0, 8, 16, 32, 64, 2048, 4112}));
        QCOMPARE(plan->sizes, (std::vector<std::uint64_t>{256 << 10}));
        QCOMPARE(offsetField(w)->currentText(), QString("0,8,16,32,64,2048,4096+16"));
        const QString text = w.lessonText(); // the lesson's own panel
        QVERIFY(text.contains("rep movsb"));
        QVERIFY(text.contains("Press Run"));
        QVERIFY(!text.contains("compares against ."));
        // The lesson plans rounds enough to call its comparisons: nothing said under the
        // options. Nine rounds, as it once planned, are said to call none, before Run.
        auto* rounds = w.findChild<QSpinBox*>("rounds");
        auto* hint = w.config()->findChild<QLabel*>("roundsHint");
        QVERIFY(rounds && hint);
        QCOMPARE(rounds->value(), 12);
        QVERIFY2(hint->isHidden(), qPrintable(hint->text()));
        rounds->setValue(9);
        QVERIFY(!hint->isHidden());
        QVERIFY2(hint->text().startsWith("9 rounds cannot call any of the comparisons of every "
                                         "strategy against one (14 comparisons; p = 0.055 at "
                                         "best after Holm's adjustment); 10 rounds can, if "
                                         "every round agrees.") &&
                     hint->text().contains("9 rounds cannot call any of the offset trap's "
                                           "comparisons of each offset against 0 (18 "
                                           "comparisons; p = 0.070 at best"),
                 qPrintable(hint->text()));
    }
};

QTEST_MAIN(TestBufferPlacement)
#include "tst_buffer_placement.moc"
