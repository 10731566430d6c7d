// The machine's own limits, measured untimed before a sweep: what they time and what not.
#include "machine_limits.h"

#include <QTest>

#include <chrono>
#include <thread>

using namespace readscope;

class TestMachineLimits : public QObject {
    Q_OBJECT
private slots:
    // Copying threads are started before the clock, as a round's workers are: a thread that
    // takes 100 ms to start (thread creation on a loaded machine, made long here) must not
    // show in the limit. Before the gate, every pass took those 100 ms: 128 MiB at four
    // threads read 1.27 GB/s beside a 14.9 GB/s limit.
    void threadStartIsNotTimed() {
        constexpr std::uint64_t source = CopyLimit::kMaxSource; // passes of a few ms
        CopyLimit plain(source);
        CopyLimit slowStart(source,
                            [] { std::this_thread::sleep_for(std::chrono::milliseconds(100)); });
        const double fast = plain.gbps(1 << 20, 4);
        const double slow = slowStart.gbps(1 << 20, 4);
        qInfo("memcpy limit, 4 threads: %.2f GB/s; with 100 ms thread starts: %.2f GB/s", fast,
              slow);
        QVERIFY(fast > 0);
        // 128 MiB in 100 ms is 1.34 GB/s: a limit that timed the start stays under it.
        QVERIFY2(slow > 0.4 * fast, qPrintable(QString::number(slow)));
    }

    // One thread has no thread to start: the limit is the copy alone.
    void oneWorkerCopies() {
        CopyLimit limit(4 << 20);
        QVERIFY(limit.gbps(64 << 10, 1) > 0);
    }
};

QTEST_GUILESS_MAIN(TestMachineLimits)
#include "tst_machine_limits.moc"
