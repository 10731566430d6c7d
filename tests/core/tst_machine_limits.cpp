// The machine's own limits, measured untimed before a sweep: what they time and what not.
#include "buffers.h"
#include "machine_limits.h"
#include "platform.h"
#include "priced_file.h"
#include "unit_costs.h"

#include "readscope/consume.h"
#include "readscope/plan.h"
#include "readscope/result_document.h"
#include "readscope/stats.h"

#include <QTemporaryFile>
#include <QTest>

#include <chrono>
#include <thread>

using namespace readscope;
using readscope::testing::fillMiB;
using readscope::testing::pricedMiB;

namespace {
platform::MappedRates mappedRatesForTest(int fd) {
    return platform::mappedRates(fd, 1 << 20, 64 << 10, 3);
}
} // namespace

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

    // The unit costs a run records at its start: on Linux each is measured, and a fault costs
    // more than a system call that does nothing (it enters the kernel too); elsewhere they are
    // left unmeasured rather than guessed.
    void unitCostsAreMeasuredOrLeftOut() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        measureUnitCosts(doc, file.handle(), 1 << 20);
        QVERIFY(doc.lseekSeconds && *doc.lseekSeconds > 0);
        const auto& u = doc.unitCosts;
#ifdef __linux__
        QVERIFY(u.nullSyscall && *u.nullSyscall > 0 && *u.nullSyscall < 1e-4);
        QVERIFY(u.anonymousFault && *u.anonymousFault > *u.nullSyscall);
        QVERIFY(u.fileFault && *u.fileFault > *u.nullSyscall);
        // A cached page costs the read path something, far less than a fault's whole page.
        QVERIFY(u.cachedPage && *u.cachedPage >= 0 && *u.cachedPage < *u.anonymousFault);
        qInfo("null system call %.3f us, anonymous fault %.3f us, file fault %.3f us, cached "
              "page %.3f us",
              *u.nullSyscall * 1e6, *u.anonymousFault * 1e6, *u.fileFault * 1e6,
              *u.cachedPage * 1e6);
        // A file under one 64 KiB read has no cached-page cost to measure.
        QVERIFY(!cachedPageSeconds(file.handle(), 32 << 10, u.nullSyscall));
        // The kernel's copy: a rate per timed pass, none without the costs it takes out.
        const auto rates = kernelCopyRates(file.handle(), 1 << 20, 64 << 10, doc, 3);
        QCOMPARE(rates.size(), std::size_t(3));
        for (double r : rates)
            QVERIFY(r > 0);
        QVERIFY(kernelCopyRates(file.handle(), 1 << 20, 64 << 10, ResultDocument{}, 3).empty());
        qInfo("kernel copy at 64 KiB: %.1f GB/s", rates[1]);
        // Unmapping a page tears down one page-table entry: far less than the fault that made it
        // (which maps up to 16 at once).
        QVERIFY(u.unmapPage && *u.unmapPage > 0 && *u.unmapPage < *u.fileFault);
        // A mapping's fold and copy of the file in place: a rate per timed pass of each.
        const auto mapped = mappedRatesForTest(file.handle());
        QCOMPARE(mapped.fold.size(), std::size_t(3));
        QCOMPARE(mapped.copy.size(), std::size_t(3));
        for (double r : mapped.fold)
            QVERIFY(r > 0);
        for (double r : mapped.copy)
            QVERIFY(r > 0);
        qInfo("unmapped page %.3f us; in place at 64 KiB: fold %.1f GB/s, memcpy %.1f GB/s",
              *u.unmapPage * 1e6, mapped.fold[1], mapped.copy[1]);
        // Faulting the file's pages in through a fresh mapping and unmapping them: a price
        // per pass of each, a fault costing more than a call that does nothing.
        const auto faults = platform::mappedFaultCosts(file.handle(), 1 << 20, 3);
        QCOMPARE(faults.fault.size(), std::size_t(3));
        QCOMPARE(faults.unmapPage.size(), std::size_t(3));
        for (std::size_t pass = 0; pass < 3; ++pass)
            QVERIFY(faults.fault[pass] > *u.nullSyscall && faults.unmapPage[pass] > 0);
        QVERIFY(platform::mappedFaultCosts(file.handle(), 32 << 10, 3).fault.empty());
        qInfo("mapped fault over the first MiB %.3f us, unmapped page %.3f us",
              faults.fault[0] * 1e6, faults.unmapPage[0] * 1e6);
#elif defined(_WIN32)
        QVERIFY(!u.nullSyscall && !u.anonymousFault && !u.fileFault && !u.cachedPage &&
                !u.unmapPage);
        QVERIFY(mappedRatesForTest(file.handle()).fold.empty());
#endif
    }

    // memset alone per range size: a rate, slower past the caches than inside them.
    void memsetIsMeasured() {
        const double small = memsetGbps(16 << 10);
        const double large = memsetGbps(64ull << 20);
        QVERIFY(small > 0 && large > 0);
        qInfo("memset %.1f GB/s at 16 KiB, %.1f GB/s at 64 MiB", small, large);
    }

    // A stop request ends the price passes: none starts after it, so a run stopped while it
    // takes its prices ends at once instead of after seconds of copying.
    void aStopEndsThePricePasses() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        std::stop_source stopped;
        stopped.request_stop();
        measureUnitCosts(doc, file.handle(), 1 << 20, stopped.get_token());
        QVERIFY(!doc.lseekSeconds && !doc.unitCosts.nullSyscall && !doc.unitCosts.cachedPage);
        measureUnitCosts(doc, file.handle(), 1 << 20);
        CopyLimit limit(1 << 20);
        QCOMPARE(limit.gbps(64 << 10, 2, std::nullopt, 3, stopped.get_token()), 0.0);
        QVERIFY(limit.lastRates().empty());
        QVERIFY(
            kernelCopyRates(file.handle(), 1 << 20, 64 << 10, doc, 3, stopped.get_token()).empty());
        QVERIFY(platform::mappedRates(file.handle(), 1 << 20, 64 << 10, 3, stopped.get_token())
                    .fold.empty());
        QVERIFY(platform::mappedFaultCosts(file.handle(), 1 << 20, 3, stopped.get_token())
                    .fault.empty());
        PointPrices prices;
        std::vector<Cell> cells(2);
        cells[0].strategy = "pread-uninit";
        cells[1].strategy = "mmap-copy";
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells,
                    stopped.get_token());
        QVERIFY(prices.memcpy.empty() && prices.kernelCopy.empty() && prices.mappedFold.empty() &&
                prices.mappedFault.empty());
        QVERIFY(!cells[0].copyLimitGbps && !cells[0].kernelCopyGbps && !cells[1].mappedFoldGbps);
        // Not stopped, the same sampling prices both cells.
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells);
        QVERIFY(cells[0].copyLimitGbps && cells[0].kernelCopyGbps);
        QVERIFY(!cells[0].mappedFaultSeconds); // a read maps nothing
#ifdef __linux__
        QVERIFY(cells[1].mappedFoldGbps);
        QVERIFY(cells[1].mappedFaultSeconds && cells[1].mappedUnmapSeconds);
        QCOMPARE(*cells[1].mappedFaultSeconds, median(prices.mappedFault));
#endif
    }

    // A copy is priced into a buffer where the cell's own buffers started: the kernel's copy
    // into page offset 16 ran at half the speed of one into offset 0 here. Before its rounds a
    // cell is priced at malloc's placement; after them at its most common offsets, weighted
    // by how many buffers started at each; on a pinned point, at the pinned offset.
    void copiesArePricedAtTheCellsOwnBufferOffsets() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        if (!pricedMiB(file, doc))
            QSKIP("no cached-page cost here: the kernel's copy is not priced");
        CopyLimit limit(1 << 20);
        PointPrices prices;
        std::vector<Cell> cells(2);
        cells[0].strategy = "pread-uninit";
        cells[1].strategy = "read-prealloc";
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells);
        QCOMPARE(prices.kernelCopy.size(), std::size_t(1));
        QVERIFY(prices.kernelCopy.contains(std::nullopt));
        QCOMPARE(*cells[0].kernelCopyGbps, median(prices.kernelCopy[std::nullopt]));
        // Rounds put the first cell's buffers at 16 and 336, the second's at 0 (and a few
        // past the offsets a tally keeps, which are priced at none).
        cells[0].bufferPageOffsets = {{16, 30}, {336, 10}};
        cells[1].bufferPageOffsets = {{0, 5}, {kOtherOffsets, 7}};
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells);
        for (std::uint32_t offset : {0u, 16u, 336u})
            if (!prices.kernelCopy.contains(offset))
                QSKIP("a copy at one offset took no longer than the read's other costs here "
                      "(a busy machine): no rate to weigh");
        QCOMPARE(prices.kernelCopy.size(), std::size_t(4));
        const double at16 = median(prices.kernelCopy[16]), at336 = median(prices.kernelCopy[336]);
        QCOMPARE(*cells[0].kernelCopyGbps, 40 / (30 / at16 + 10 / at336));
        QCOMPARE(*cells[1].kernelCopyGbps, median(prices.kernelCopy[0]));
        qInfo("kernel copy at 64 KiB into offset 0: %.1f GB/s, 16: %.1f, 336: %.1f",
              median(prices.kernelCopy[0]), at16, at336);
        // A pinned point prices every cell at its offset, whatever the rounds found.
        PointPrices pinned;
        pinned.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10, 2048}, 1, doc, cells);
        QCOMPARE(pinned.kernelCopy.size(), std::size_t(1));
        QCOMPARE(*cells[1].kernelCopyGbps, median(pinned.kernelCopy[2048]));
    }

    // The fold's and memset's rates a point was set up with are sampled again with the
    // closing prices, and every cell that has them is priced at the median of the samples.
    void foldAndMemsetAreSampledAgainAfterTheRounds() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        doc.plan.consume = Consume::All;
        CopyLimit limit(1 << 20);
        PointPrices prices;
        std::vector<Cell> cells(2);
        cells[0].strategy = "pread-uninit";
        cells[1].strategy = "mmap-touch";
        for (auto& c : cells) {
            c.foldGbps = 0.001; // what setUpPoint measured: far below any real fold
            c.memsetGbps = 0.002;
        }
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells);
        QCOMPARE(*cells[0].foldGbps, 0.001); // before the rounds: as set up
        QCOMPARE(prices.foldRates, std::vector<double>{0.001});
        cells[0].samples = cells[1].samples = {Sample{}, Sample{}, Sample{}};
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{64 << 10}, 1, doc, cells);
        QCOMPARE(prices.foldRates.size(), std::size_t(3));
        QCOMPARE(prices.memsetRates.size(), std::size_t(3));
        // Three samples: the setup's slow one is left out.
        QVERIFY(prices.foldRates[1] > 0.001 && prices.foldRates[2] > 0.001);
        QVERIFY(median(prices.foldRates) > 0.001);
        for (const auto& c : cells) {
            QCOMPARE(*c.foldGbps, median(prices.foldRates));
            QCOMPARE(*c.memsetGbps, median(prices.memsetRates));
        }
    }

    // A price pass's destination starts where it is asked to within its page, or where malloc
    // puts it; either way touched, so no fault is left for the timed copies.
    void aPricedDestinationStartsAtItsOffset() {
        const std::size_t page = platform::pageSize();
        for (std::uint32_t offset : {0u, 16u, 336u, 4080u}) {
            PricedDestination at(64 << 10, offset, page);
            QCOMPARE(reinterpret_cast<std::uintptr_t>(at.data()) % page, std::uintptr_t(offset));
            QCOMPARE(at.data()[(64 << 10) - 1], std::byte{0});
        }
        PricedDestination heap(64 << 10, std::nullopt, page);
        QCOMPARE(heap.data()[0], std::byte{1});
    }

    // One thread has no thread to start: the limit is the copy alone.
    void oneWorkerCopies() {
        CopyLimit limit(4 << 20);
        QVERIFY(limit.gbps(64 << 10, 1) > 0);
    }
};

QTEST_GUILESS_MAIN(TestMachineLimits)
#include "tst_machine_limits.moc"
