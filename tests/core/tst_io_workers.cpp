// io_uring hands reads it cannot do at once to kernel worker threads (iou-wrk) of the process.
// RUSAGE_THREAD of the submitting thread does not see their CPU time; the round adds it from
// platform::ioWorkerSeconds(), which this checks against the process's own CPU count.
#include "platform.h" // the core's platform layer: ioWorkerSeconds()
#include "test_file.h"

#include <QTest>

#include <liburing.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <vector>

using namespace readscope;

namespace {
double cpuSeconds(int who) {
    rusage r{};
    getrusage(who, &r);
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}
} // namespace

class TestIoWorkers : public QObject {
    Q_OBJECT
private slots:
    // Reads forced onto io_uring's workers (IOSQE_ASYNC) keep them busy: ioWorkerSeconds
    // grows by the CPU time the process used beyond the submitting thread's own.
    void workerTimeIsSeen() {
        testing::TestFile file(8 << 20);
        const int fd = ::open(file.path().c_str(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        io_uring ring{};
        if (io_uring_queue_init(16, &ring, 0) != 0) {
            ::close(fd);
            QSKIP("io_uring is not available here");
        }
        constexpr unsigned kBlock = 1 << 20;
        std::vector<char> buffers(16ull * kBlock);
        const double workersBefore = platform::ioWorkerSeconds();
        const double processBefore = cpuSeconds(RUSAGE_SELF);
        const double threadBefore = cpuSeconds(RUSAGE_THREAD);
        for (int pass = 0; pass < 200; ++pass) {
            for (unsigned i = 0; i < 16; ++i) {
                io_uring_sqe* sqe = io_uring_get_sqe(&ring);
                io_uring_prep_read(sqe, fd, buffers.data() + i * std::size_t(kBlock), kBlock,
                                   (i % 8) * std::uint64_t(kBlock));
                io_uring_sqe_set_flags(sqe, IOSQE_ASYNC); // done by a worker, never inline
            }
            io_uring_submit_and_wait(&ring, 16);
            io_uring_cqe* cqe = nullptr;
            for (unsigned i = 0; i < 16; ++i) {
                QCOMPARE(io_uring_wait_cqe(&ring, &cqe), 0);
                QCOMPARE(cqe->res, int(kBlock));
                io_uring_cqe_seen(&ring, cqe);
            }
        }
        const double workers = platform::ioWorkerSeconds() - workersBefore;
        const double others =
            (cpuSeconds(RUSAGE_SELF) - processBefore) - (cpuSeconds(RUSAGE_THREAD) - threadBefore);
        io_uring_queue_exit(&ring);
        ::close(fd);
        qInfo("3.2 GB read by io_uring workers: %.3f s of their CPU seen, %.3f s of the process "
              "beyond the submitting thread",
              workers, others);
        QVERIFY(others > 0.01); // copying 3.2 GB takes well over 10 ms of someone's CPU
        // getrusage counts in ticks of the scheduler; schedstat in nanoseconds: allow both
        // their granularity and the exited workers' time, which no live task shows any more.
        QVERIFY2(workers >= 0.5 * others, qPrintable(QString::number(workers)));
    }
};

QTEST_GUILESS_MAIN(TestIoWorkers)
#include "tst_io_workers.moc"
