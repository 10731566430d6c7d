// Threads and queue depth in the window: the boxes a person types a count or a list into, and
// the sweeps a list makes (the chart's x axis, the table's columns, the Markdown), run by
// clicking Run.
#include "chart_view.h"
#include "config_panel.h"
#include "results_model.h"
#include "window_fixture.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

class TestThreadsAndDepth : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

    static void type(MainWindow& w, const char* box, const QString& text) {
        auto* field = w.config()->findChild<QComboBox*>(box);
        QVERIFY(field && field->isEditable());
        field->lineEdit()->selectAll();
        QTest::keyClicks(field->lineEdit(), text);
    }

    // Runs the window's plan by clicking Run, as a person does; true when it finished.
    static bool clickRunAndWait(MainWindow& w) {
        auto* run = w.findChild<QPushButton*>("runButton");
        if (!run || !run->isEnabled())
            return false;
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QTest::mouseClick(run, Qt::LeftButton);
        return finished.wait(120000);
    }

    static int rowOf(MainWindow& w, const std::string& strategy, int column, const QString& value) {
        for (int r = 0; r < w.model()->rowCount(); ++r)
            if (w.model()->cellAt(r)->strategy == strategy &&
                w.model()->index(r, column).data().toString() == value)
                return r;
        return -1;
    }

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    void typedCountsReachThePlan_data() {
        QTest::addColumn<QString>("threads");
        QTest::addColumn<QString>("depths");
        QTest::addColumn<QString>("expected"); // threads | counts | depths, or the error
        QTest::newRow("one thread, auto") << "2"
                                          << "auto"
                                          << "2||";
        QTest::newRow("threads sweep") << "1,2,4"
                                       << "auto"
                                       << "1|1,2,4|";
        QTest::newRow("depth sweep") << "1"
                                     << "1,4,16,64"
                                     << "1||1,4,16,64";
        QTest::newRow("most threads") << "256"
                                      << "auto"
                                      << "256||";
        QTest::newRow("too many threads") << "257"
                                          << "auto"
                                          << "Threads: threads 257 is out of range";
        QTest::newRow("depth junk") << "1"
                                    << "deep"
                                    << "Queue depth: queue depth 'deep' is not a whole number";
    }
    void typedCountsReachThePlan() {
        QFETCH(QString, threads);
        QFETCH(QString, depths);
        QFETCH(QString, expected);
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_));
        type(w, "threads", threads);
        type(w, "queueDepth", depths);
        auto plan = w.config()->plan();
        if (!expected.contains('|')) {
            QVERIFY(!plan.ok());
            QVERIFY2(QString::fromStdString(plan.error().message).startsWith(expected),
                     plan.error().message.c_str());
            return;
        }
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
        QStringList counts, queue;
        for (auto t : plan->threadCounts)
            counts << QString::number(t);
        for (auto d : plan->queueDepths)
            queue << QString::number(d);
        QCOMPARE(QString("%1|%2|%3").arg(plan->threads).arg(counts.join(","), queue.join(",")),
                 expected);
        // And back: the plan shows in the boxes as typed.
        w.config()->setPlan(*plan);
        QCOMPARE(w.config()->findChild<QComboBox*>("threads")->currentText(), threads);
        QCOMPARE(w.config()->findChild<QComboBox*>("queueDepth")->currentText(), depths);
    }

    void aTypedListIsNotCompletedToAPreset() {
        // "1,2,4" is the start of the "1,2,4,8" preset: typed with the box focused, as a
        // person types, it must stay "1,2,4", and the hint under the options says what the
        // x axis becomes.
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(testing::openAndWait(w, file_->path()));
        Plan plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 10};
        w.config()->setPlan(plan);
        auto* threads = w.config()->findChild<QComboBox*>("threads");
        auto* hint = w.config()->findChild<QLabel*>("axisHint");
        QVERIFY(threads && hint);
        // No x axis to say yet (only that these few rounds cannot call the comparisons).
        QVERIFY2(!hint->text().contains("x axis"), qPrintable(hint->text()));
        w.activateWindow();
        threads->setFocus();
        QVERIFY(QTest::qWaitFor([&] { return threads->hasFocus(); }));
        threads->lineEdit()->selectAll();
        QTest::keyClicks(threads->lineEdit(), "1,2,4");
        QCOMPARE(threads->currentText(), QString("1,2,4"));
        QCOMPARE(w.config()->plan()->threadCounts, (std::vector<int>{1, 2, 4}));
        QVERIFY(!hint->isHidden());
        QCOMPARE(hint->text(), QString("x axis: threads at 64 KiB ranges."));
        // Several range sizes with it: the hint says what to change before Run refuses.
        auto* sizes = w.config()->findChild<QLineEdit*>("sizes");
        QVERIFY(sizes);
        sizes->setText("64K,1M");
        QVERIFY2(hint->text().startsWith("a threads sweep measures one range size, and 2 were "
                                         "given"),
                 qPrintable(hint->text()));
        // A depth sweep without an io_uring strategy: said before Run, and gone once one is in.
        sizes->setText("64K");
        threads->lineEdit()->selectAll();
        QTest::keyClicks(threads->lineEdit(), "1");
        auto* depth = w.config()->findChild<QComboBox*>("queueDepth");
        depth->setFocus();
        depth->lineEdit()->selectAll();
        QTest::keyClicks(depth->lineEdit(), "1,4");
        QVERIFY2(hint->text().contains("add uring-batch"), qPrintable(hint->text()));
        auto withUring = *w.config()->plan();
        withUring.strategies.push_back("uring-batch");
        w.config()->setPlan(withUring);
        QCOMPARE(hint->text(), QString("x axis: queue depth at 64 KiB ranges."));
    }

    void listsOutliveARestart() {
        // What a person typed is there again the next time the app starts.
        {
            MainWindow w;
            QVERIFY(testing::openAndWait(w, file_->path()));
            w.config()->setPlan(testing::tinyPlan(*file_));
            type(w, "threads", "1,2,4");
            type(w, "queueDepth", "16");
            w.close(); // settings are saved on close
        }
        MainWindow again;
        again.restoreSettings();
        QCOMPARE(again.config()->findChild<QComboBox*>("threads")->currentText(), QString("1,2,4"));
        QCOMPARE(again.config()->findChild<QComboBox*>("queueDepth")->currentText(), QString("16"));
        // And back to one count: no list comes back.
        type(again, "threads", "2");
        type(again, "queueDepth", "auto");
        again.close();
        MainWindow third;
        third.restoreSettings();
        QCOMPARE(third.config()->findChild<QComboBox*>("threads")->currentText(), QString("2"));
        QCOMPARE(third.config()->findChild<QComboBox*>("queueDepth")->currentText(),
                 QString("auto"));
    }

    void threadsSweepPutsThreadsOnTheXAxis() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        Plan plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit", "mmap-touch"};
        w.config()->setPlan(plan);
        type(w, "threads", "1,2");
        QVERIFY(clickRunAndWait(w));
        QCOMPARE(w.model()->rowCount(), 4);
        QCOMPARE(w.chart()->pointCount("pread-uninit"), 2);
        auto* ticker = dynamic_cast<QCPAxisTickerText*>(w.chart()->plot()->xAxis->ticker().data());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QString("1"));
        QCOMPARE(ticker->ticks().value(1), QString("2"));
        QVERIFY2(w.chart()->plot()->xAxis->label().startsWith("threads reading together · 64 KiB"),
                 qPrintable(w.chart()->plot()->xAxis->label()));
        // Each row says how many threads read it; the two-thread cell was read by two.
        const int two = rowOf(w, "pread-uninit", ResultsModel::Threads, "2");
        QVERIFY(two >= 0);
        QCOMPARE(*w.model()->cellAt(two)->pointThreads, 2);
        QVERIFY(rowOf(w, "mmap-touch", ResultsModel::Threads, "1") >= 0);
        QVERIFY(w.exports().markdown().startsWith("| threads |"));
        QVERIFY(w.exports().markdown().contains("1, 2 threads"));
    }

    void depthSweepMeasuresIoUringOnly() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        Plan plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"uring-batch", "pread-uninit"};
        w.config()->setPlan(plan);
        type(w, "queueDepth", "1,4");
        QVERIFY(clickRunAndWait(w));
        const Cell* any = w.model()->rowCount() ? w.model()->cellAt(0) : nullptr;
        QVERIFY(any);
        if (any->strategy == "uring-batch" && any->status == CellStatus::Unavailable)
            QSKIP("io_uring is not available here");
        QCOMPARE(w.chart()->pointCount("uring-batch"), 2);
        QCOMPARE(w.chart()->pointCount("pread-uninit"), 0);
        QVERIFY(w.chart()->plot()->xAxis->label().startsWith("io_uring reads in flight"));
        // The depth asked is the depth io_uring kept, per cell.
        const int four = rowOf(w, "uring-batch", ResultsModel::InFlight, "4");
        QVERIFY(four >= 0);
        QCOMPARE(*w.model()->cellAt(four)->pointQueueDepth, 4u);
        QVERIFY(rowOf(w, "uring-batch", ResultsModel::InFlight, "1") >= 0);
        // A strategy without a queue sits the sweep out, and says why.
        for (int r = 0; r < w.model()->rowCount(); ++r)
            if (w.model()->cellAt(r)->strategy == "pread-uninit") {
                QCOMPARE(int(w.model()->cellAt(r)->status), int(CellStatus::Unavailable));
                QVERIFY(w.model()->cellAt(r)->message.find("io_uring batches only") !=
                        std::string::npos);
            }
    }
};

QTEST_MAIN(TestThreadsAndDepth)
#include "tst_threads_and_depth.moc"
