// The GUI thread never runs the engine's readers: every reader a run makes, every range it
// reads and every reader it closes is recorded with its thread, and none may be the window's.
// Beside it, a printed benchmark figure (not a test): the longest gap between 10 ms heartbeat
// ticks during the run (target: under 50 ms).
#include "main_window.h"
#include "window_fixture.h"

#include "readscope/reader.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <thread>

using namespace readscope;
using namespace readscope::ui;

class TestGuiHeartbeat : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }

    void guiThreadNeverStalls() {
        testing::TestFile file(64 << 20);
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file.path()));
        auto plan = testing::tinyPlan(file, 5);
        plan.sizes = {4 << 10, 64 << 10, 1 << 20, 8 << 20};
        plan.strategies = {"pread-zerofill", "pread-uninit", "mmap-touch", "uring-batch"};
        w.config()->setPlan(plan);
        QElapsedTimer clock;
        qint64 last = 0, longest = 0, ticks = 0;
        QTimer heartbeat;
        heartbeat.setTimerType(Qt::PreciseTimer);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            longest = std::max(longest, now - last);
            last = now;
            ++ticks;
        });
        struct Calls {
            std::thread::id gui = std::this_thread::get_id();
            std::atomic<int> all{0}, onGui{0}, opens{0}, reads{0}, closes{0};
        } calls;
        setReaderCallHookForTesting(
            [](ReaderCall call, void* context) {
                auto& c = *static_cast<Calls*>(context);
                ++c.all;
                (call == ReaderCall::Open   ? c.opens
                 : call == ReaderCall::Read ? c.reads
                                            : c.closes)++;
                if (std::this_thread::get_id() == c.gui)
                    ++c.onGui;
            },
            &calls);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        clock.start();
        heartbeat.start(10);
        QVERIFY(w.startRun());
        QVERIFY(finished.wait(300000));
        heartbeat.stop();
        setReaderCallHookForTesting(nullptr, nullptr);
        qInfo("GUI heartbeat during a %lld ms run: %lld ticks, longest gap %lld ms (target < 50; "
              "a benchmark figure, not checked)",
              clock.elapsed(), ticks, longest);
        qInfo("reader calls: %d opens, %d range reads, %d closes; %d on the GUI thread",
              calls.opens.load(), calls.reads.load(), calls.closes.load(), calls.onGui.load());
        QVERIFY(calls.opens > 0 && calls.reads > 0 && calls.closes > 0);
        QCOMPARE(calls.onGui.load(), 0);
    }
};

QTEST_MAIN(TestGuiHeartbeat)
#include "tst_gui_heartbeat.moc"
