// The lesson panel above the results: it closes with its × and comes back from View ▸ Lesson
// (Ctrl+3), and it leaves by itself when results that are not the lesson's are shown, so a
// cold lesson's verdict never sits above a warm chart.
#include "chart_view.h"
#include "lesson_panel.h"
#include "results_model.h"
#include "window_fixture.h"

#include "readscope/documents.h"
#include "readscope/units.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

class TestLessonPanel : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

    static QAction* action(MainWindow& w, const QString& textOrName) {
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == textOrName || a->objectName() == textOrName)
                return a;
        return nullptr;
    }
    static constexpr auto kColdLesson = "mmap with and without advice on a cold cache";

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    // The panel on its own, without the main window: it shows a lesson, hides for another
    // plan's results, hands the lesson's reference over once, judges only the lesson's own
    // finished run, and closes with its button.
    void panelWithoutAWindow() {
        const auto lessons = loadLessons();
        const auto withReference =
            std::find_if(lessons.begin(), lessons.end(),
                         [](const Lesson& l) { return !l.reference.isEmpty() && l.finding; });
        QVERIFY(withReference != lessons.end());
        const Lesson& lesson = *withReference;
        LessonPanel panel;
        panel.resize(600, 200);
        QVERIFY(!panel.hasLesson());
        panel.showLesson(lesson);
        QVERIFY(panel.text().contains(lesson.title));
        QVERIFY(panel.text().contains("then open the Compare tab, which compares against " +
                                      lesson.reference));
        // The list orders the strategies by family: the same set is the lesson's plan.
        Plan reordered = lesson.plan;
        std::reverse(reordered.strategies.begin(), reordered.strategies.end());
        QVERIFY(panel.isLessonPlan(reordered));
        Plan other = lesson.plan;
        other.strategies = {"pread-uninit"};
        QVERIFY(!panel.isLessonPlan(other));
        panel.showFor(other);
        QVERIFY(panel.text().isEmpty()); // hidden above other results
        panel.showFor(lesson.plan);
        QVERIFY(!panel.text().isEmpty());
        ResultDocument doc;
        doc.plan = other;
        doc.complete = true;
        QVERIFY(panel.judge(doc).isEmpty()); // not the lesson's run
        doc.plan = lesson.plan;
        doc.complete = false;
        QVERIFY(panel.judge(doc).isEmpty()); // not finished
        doc.complete = true;
        const QString verdict = panel.judge(doc); // no cells: neither side measured
        QCOMPARE(verdict, QString("This run measured neither side of the finding."));
        QVERIFY(panel.text().contains("This machine: " + verdict));
        QCOMPARE(panel.takeReference(), lesson.reference);
        QVERIFY(panel.takeReference().isEmpty()); // once
        auto* close = panel.findChild<QToolButton*>("closeLesson");
        QVERIFY(close);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(panel.text().isEmpty());
        panel.toggle();
        QVERIFY(!panel.text().isEmpty());
    }

    // A lesson opened is a clean slate: the results shown before leave (with a line in the
    // Log), and a lesson that needs a larger file than the one chosen says so and offers a
    // button that opens Generate at the size it needs.
    void aLessonStartsCleanAndAsksForTheFileItNeeds() {
        MainWindow w;
        w.show();
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QVERIFY(!w.model()->isEmpty());
        const auto lessons = loadLessons();
        const auto large = std::find_if(lessons.begin(), lessons.end(),
                                        [](const Lesson& l) { return l.minFileBytes > 0; });
        QVERIFY(large != lessons.end());
        QCOMPARE(large->minFileBytes, std::uint64_t(1) << 30);
        w.applyLesson(int(large - lessons.begin()));
        QVERIFY(w.model()->isEmpty());
        // The empty chart's axis is the lesson's sizes (4 KiB), not the run before's.
        QCOMPARE(w.model()->document().plan.sizes, large->plan.sizes);
        // Notes go to the status line the window has: no status bar row appears to shift it.
        w.flash("Wrote somewhere", 1000);
        QCOMPARE(w.statusText(), QString("Wrote somewhere"));
        QVERIFY(!w.findChild<QStatusBar*>());
        QVERIFY(w.lessonText().contains("It needs a file of 1 GiB or more, and this one is 8 MiB"));
        auto* generate = w.findChild<QPushButton*>("lessonGenerate");
        QVERIFY(generate && generate->isVisible());
        QCOMPARE(generate->text(), QString("Generate a 1 GiB file…"));
        QSignalSpy asked(w.lessons(), &LessonPanel::generateRequested);
        QString sizeShown;
        QTimer::singleShot(200, [&sizeShown] {
            QWidget* dialog = QApplication::activeModalWidget();
            if (!dialog)
                return;
            if (auto* size = dialog->findChild<QLineEdit*>())
                sizeShown = size->text();
            dialog->close();
        });
        QTest::mouseClick(generate, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).value<std::uint64_t>(), std::uint64_t(1) << 30);
        QCOMPARE(sizeShown, QString("1G"));
        // A lesson that needs no more than any file offers nothing.
        w.applyLesson(0);
        QVERIFY(!generate->isVisible());
        QVERIFY(!w.lessonText().contains("It needs a file"));
    }

    void closesAndComesBack() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(testing::openAndWait(w, file_->path()));
        QAction* toggle = action(w, "toggleLesson");
        QVERIFY(toggle);
        toggle->trigger(); // no lesson chosen yet: nothing to show
        QVERIFY(w.lessonText().isEmpty());
        action(w, kColdLesson)->trigger();
        QVERIFY2(w.lessonText().contains("Lesson: mmap with"), qPrintable(w.lessonText()));
        auto* close = w.findChild<QToolButton*>("closeLesson");
        QVERIFY(close && close->isVisible());
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(w.lessonText().isEmpty());
        toggle->trigger(); // View ▸ Lesson
        QVERIFY(w.lessonText().contains("Lesson: mmap with"));
        QVERIFY(toggle->isChecked());
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QVERIFY2(w.lessonText().isEmpty(), "Ctrl+3 hides the lesson");
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QVERIFY2(!w.lessonText().isEmpty(), "and shows it again");
    }

    void leavesWhenOtherResultsAreShown() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        action(w, kColdLesson)->trigger();
        QVERIFY(!w.lessonText().isEmpty());
        // A warm run of other strategies is not the lesson's: the panel goes as it starts.
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QVERIFY2(w.lessonText().isEmpty(), qPrintable(w.lessonText()));
        QTemporaryDir dir;
        const QString warm = dir.filePath("warm.json");
        QVERIFY(w.exports().saveResults(warm).isEmpty());

        // Opening those warm results under the chosen lesson hides it as well.
        action(w, kColdLesson)->trigger();
        QVERIFY(!w.lessonText().isEmpty());
        QVERIFY(w.openResults(warm).isEmpty());
        QVERIFY2(w.lessonText().isEmpty(), qPrintable(w.lessonText()));

        // The lesson's own results bring it back, judged.
        action(w, kColdLesson)->trigger();
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        plan->sizes = {64 << 10};
        plan->rounds = 3;
        plan->roundTimeSeconds = 0;
        plan->budget = 1 << 20;
        QVERIFY(testing::runToEnd(w, *plan));
        QVERIFY2(w.lessonText().contains("This machine:"), qPrintable(w.lessonText()));
        const QString lessonRun = dir.filePath("lesson.json");
        QVERIFY(w.exports().saveResults(lessonRun).isEmpty());
        QVERIFY(w.openResults(warm).isEmpty());
        QVERIFY(w.lessonText().isEmpty());
        QVERIFY(w.openResults(lessonRun).isEmpty());
        QVERIFY2(w.lessonText().contains("This machine:"), qPrintable(w.lessonText()));
    }

    // "Why zero-filling costs what it costs", chosen from the Lessons menu and run (shortened
    // to two sizes on either side of this machine's L2, where it has one): its verdict gives
    // the published gap, zeroing's share of pread-zerofill's time per size and whether it
    // accounts for pread-uninit's gain, and what crossing the L2 changed.
    void theZeroingLessonSaysWhereTheTimeWent() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        QAction* lesson = action(w, "Why zero-filling costs what it costs");
        QVERIFY(lesson);
        lesson->trigger();
        QVERIFY2(w.lessonText().contains("s / (1 - s)"), qPrintable(w.lessonText()));
        // Its chart is where the time goes, as its text says: the Show box says so too.
        auto* show = w.findChild<QComboBox*>("chartMode");
        auto* split = w.findChild<QComboBox*>("chartSplit");
        QVERIFY(show && split);
        QCOMPARE(w.chart()->mode(), ChartMode::TimeSplit);
        QVERIFY(show->currentText().startsWith("Where the time goes"));
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        QCOMPARE(plan->strategies.size(), std::size_t(3));
        plan->sizes = {64 << 10, 4 << 20};
        plan->rounds = 7;
        plan->budget = 8 << 20;
        plan->roundTimeSeconds = 0;
        QVERIFY(testing::runToEnd(w, *plan));
        // ... and once its cells are in, pread-zerofill's parts per size, not the first size,
        // in front (its verdict is in the panel above; the Compare tab has its reference).
        QVERIFY(split->isVisible());
        QCOMPARE(split->currentText(), QString("pread-zerofill, per size"));
        const QString text = w.lessonText();
        QVERIFY2(text.contains("This machine: pread-uninit against pread-zerofill at 64 KiB"),
                 qPrintable(text));
        QVERIFY2(text.contains("Zeroing's share of pread-zerofill's time, at this run's memset "
                               "rate: 64 KiB "),
                 qPrintable(text));
        QVERIFY2(text.contains("pread-calloc's: 64 KiB"), qPrintable(text));
        QVERIFY2(text.contains("If zeroing were the whole difference"), qPrintable(text));
        const auto l2 = w.model()->document().system.caches.l2;
        if (l2 == 0)
            QVERIFY(text.contains("did not say how large its L2 cache is"));
        else if (l2 >= (64u << 10) && l2 < (4u << 20))
            QVERIFY2(text.contains(QString("Past the %1 L2 cache (4 MiB)")
                                       .arg(QString::fromStdString(formatSize(l2)))),
                     qPrintable(text));
        // The window looks at the file again after every run: the verdict stays when that look
        // ends (the same file, the same size).
        QTRY_VERIFY(!w.isInspectingFile());
        QTest::qWait(200);
        QVERIFY2(w.lessonText().contains("This machine:"), qPrintable(w.lessonText()));
    }
};

QTEST_MAIN(TestLessonPanel)
#include "tst_lesson_panel.moc"
