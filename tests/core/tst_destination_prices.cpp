// The closing prices that depend on how a cell's rounds ran: where its reads landed and the
// pause before each round.
#include "machine_limits.h"
#include "platform.h"
#include "priced_file.h"

#include "readscope/consume.h"
#include "readscope/plan.h"
#include "readscope/result_document.h"
#include "readscope/stats.h"

#include <QTemporaryFile>
#include <QTest>

#include <stop_token>

using namespace readscope;
using readscope::testing::fillMiB;
using readscope::testing::pricedMiB;

namespace {
// A round of `bytes` that started at `at` seconds and took `seconds`.
Sample roundAt(int round, double at, double seconds, std::uint64_t bytes, int repeat = 0) {
    Sample x;
    x.round = round;
    x.repeat = repeat;
    x.startedAt = at;
    x.seconds = seconds;
    x.bytes = bytes;
    return x;
}
} // namespace

class TestDestinationPrices : public QObject {
    Q_OBJECT
private slots:
    // Where a cell's reads land: a coalescing cell's spans, an io_uring cell's buffer per read
    // in flight (no more of them than kMaxPricedDestinations bytes hold); one buffer of the
    // priced size for the rest, and for any cell before its rounds.
    void aCellsDestinationsAreItsSpansOrItsQueue() {
        Sample merged;
        merged.syscalls = 4; // four spans of 256 KiB a round
        merged.bytesRead = 1 << 20;
        Cell coalesce, uring, shallow, pread;
        coalesce.strategy = "pread-coalesce";
        uring.strategy = shallow.strategy = "uring-batch";
        pread.strategy = "pread-uninit";
        uring.queueDepth = 32;
        shallow.queueDepth = 1;
        QVERIFY(!cellDestinations(uring, 16 << 10)); // no rounds yet
        for (Cell* c : {&coalesce, &uring, &shallow, &pread})
            c->samples = {merged, merged, merged};
        QVERIFY((cellDestinations(coalesce, 16 << 10) == Destinations{256 << 10, 1}));
        QVERIFY(!cellDestinations(coalesce, 256 << 10)); // its spans are its ranges
        QVERIFY((cellDestinations(uring, 16 << 10) == Destinations{16 << 10, 32}));
        QVERIFY((cellDestinations(uring, 64ull << 20) == Destinations{64ull << 20, 4}));
        QVERIFY(!cellDestinations(shallow, 16 << 10));
        QVERIFY(!cellDestinations(pread, 16 << 10));
    }

    // The closing prices copy and fold at those destinations: a 256 KiB span, four 16 KiB slot
    // buffers in turn; the others at the range's size into one buffer.
    void aCellIsPricedAtItsOwnDestinations() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        doc.plan.consume = Consume::All;
        if (!pricedMiB(file, doc))
            QSKIP("no cached-page cost here: the kernel's copy is not priced");
        CopyLimit limit(1 << 20);
        PointPrices prices;
        std::vector<Cell> cells(4);
        for (auto& c : cells)
            c.rangeBytes = 16 << 10;
        cells[0].strategy = "pread-coalesce";
        cells[1].strategy = "pread-uninit";
        cells[2].strategy = "pread-coalesce"; // its spans are its ranges: nothing merged
        cells[3].strategy = "uring-batch";
        cells[3].queueDepth = 4;
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{16 << 10}, 1, doc, cells);
        QVERIFY(prices.destinationCopy.empty()); // no rounds yet
        Sample merged, alone;
        merged.syscalls = 4; // four spans of 256 KiB a round
        merged.bytesRead = 1 << 20;
        alone.syscalls = 64;
        alone.bytesRead = 1 << 20;
        cells[0].samples = {merged, merged, merged};
        cells[2].samples = {alone, alone, alone};
        cells[3].samples = {alone, alone, alone};
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{16 << 10}, 1, doc, cells);
        if (prices.kernelCopy.empty())
            QSKIP("a copy took no longer than the read's other costs here (a busy machine): "
                  "no rate");
        // A 256 KiB copy is 16 times a 16 KiB one: where that had a rate, so has this.
        const Destinations merged256K{256 << 10, 1}, fourSlots{16 << 10, 4};
        QVERIFY(prices.destinationCopy.contains(merged256K));
        if (!prices.destinationCopy.contains(fourSlots))
            QSKIP("four 16 KiB copies took no longer than their reads' other costs here (a busy "
                  "machine): no rate for the slots");
        QCOMPARE(prices.destinationCopy.size(), std::size_t(2));
        QCOMPARE(*cells[0].kernelCopyGbps, median(prices.destinationCopy[merged256K]));
        QCOMPARE(*cells[0].foldGbps, median(prices.destinationFold[merged256K]));
        QCOMPARE(*cells[1].kernelCopyGbps, median(prices.kernelCopy[std::nullopt]));
        QCOMPARE(*cells[2].kernelCopyGbps, median(prices.kernelCopy[std::nullopt]));
        QCOMPARE(*cells[3].kernelCopyGbps, median(prices.destinationCopy[fourSlots]));
        QCOMPARE(*cells[3].foldGbps, median(prices.destinationFold[fourSlots]));
    }

    // A cell's rhythm: the median pause between the end of one of its rounds and the start of
    // the next (in the order they ran, never across repeats), and its median round's bytes
    // per worker. None without start times, with one round, or for pauses under 5 ms.
    void aCellsRhythmIsThePauseBetweenItsRounds() {
        Cell cell;
        QVERIFY(!roundRhythm(cell, 1));
        // Out of order in the document, and a second repeat that starts an hour later.
        cell.samples = {roundAt(2, 10.2, 0.02, 30 << 20), roundAt(0, 10.0, 0.02, 10 << 20),
                        roundAt(1, 10.1, 0.03, 20 << 20), roundAt(0, 3610.0, 0.02, 40 << 20, 1),
                        roundAt(1, 3610.1, 0.02, 50 << 20, 1)};
        const auto rhythm = roundRhythm(cell, 2);
        QVERIFY(rhythm);
        // Pauses 0.08, 0.07 and 0.08 (the hour between the repeats is not one).
        QVERIFY(std::abs(rhythm->gapSeconds - 0.08) < 1e-9);
        QCOMPARE(rhythm->passBytes, std::uint64_t(30 << 20) / 2);
        Cell back; // rounds back to back: no pause worth pricing
        back.samples = {roundAt(0, 1.0, 0.02, 1 << 20), roundAt(1, 1.021, 0.02, 1 << 20)};
        QVERIFY(!roundRhythm(back, 1));
        Cell undated;
        undated.samples = {Sample{}, Sample{}, Sample{}};
        QVERIFY(!roundRhythm(undated, 1));
    }

    // The closing prices take a cell's kernel copy in its rhythm when its destinations are as
    // large as L2 or more and its rounds paused: a pause, then one round's reads, per pass;
    // cells with the same destinations share that price and say the pause it came after. A
    // mapping made each round is priced so when a round maps more than L2. Not for a cell
    // under L2, nor one whose rounds ran back to back, nor where L2 is not known.
    // The closing prices are taken in sweeps over a run's points: each sweep adds its share of
    // every price's passes to the ones before it, and a cell is priced at the median of all.
    void aClosingSweepAddsItsPassesToEachPrice() {
        const PriceShare first{0, 3}, last{2, 3};
        const PriceShare middle{1, 3};
        QCOMPARE(first.spread(kRhythmPasses) + middle.spread(kRhythmPasses) +
                     last.spread(kRhythmPasses),
                 kRhythmPasses);
        QCOMPARE(last.spread(2), 0); // two samples over three sweeps: none left for the last
        // Back to back each sweep warms again: one timed pass a sweep, the same passes in all
        // as one sampling's five and its warming one.
        QCOMPARE(first.backToBack(CopyLimit::kPasses), 1);
        const PriceShare whole;
        QCOMPARE(whole.backToBack(CopyLimit::kPasses), CopyLimit::kPasses);
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        if (!pricedMiB(file, doc))
            QSKIP("no cached-page cost here: the kernel's copy is not priced");
        doc.system.caches.l2 = 256 << 10;
        doc.plan.consume = Consume::All;
        CopyLimit limit(1 << 20);
        std::vector<Cell> cells(2);
        cells[0].strategy = "pread-uninit";
        cells[1].strategy = "seek-read"; // the same destinations: the same price
        PointPrices prices;
        // The opening, as a run's: the rates the point was set up with, then passes taken
        // before any round (no rhythm yet).
        for (auto& c : cells) {
            c.foldGbps = foldGbps(256 << 10);
            c.memsetGbps = memsetGbps(256 << 10);
        }
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{256 << 10}, 1, doc, cells);
        QVERIFY(prices.rhythmCopy.empty());
        // Rounds of 1 MiB, 10 ms apart: priced in that rhythm by the closing sweeps.
        for (auto& c : cells)
            c.samples = {roundAt(0, 1.0, 0.01, 1 << 20), roundAt(1, 1.02, 0.01, 1 << 20),
                         roundAt(2, 1.04, 0.01, 1 << 20)};
        const auto key = std::pair(Destinations{256 << 10, 1}, PointPrices::Offset{});
        std::size_t before = 0;
        const auto pricedAsTaken = [&] {
            const auto& paused = prices.rhythmCopy[key];
            for (const auto& c : cells) {
                QCOMPARE(*c.kernelCopyGbps, median(paused.copy));
                // Each sweep puts the warm fold back first (sampleWarmRates); the paused
                // one is the cell's once the sweep is done.
                QCOMPARE(*c.foldGbps, median(paused.fold));
                QCOMPARE(*c.copyPauseSeconds, 0.01);
            }
        };
        for (int sweep = 0; sweep < 2; ++sweep) {
            prices.take(limit, file.handle(), 1 << 20, SweepPoint{256 << 10}, 1, doc, cells, {},
                        {sweep, 3});
            if (!prices.rhythmCopy.contains(key))
                QSKIP("a copy took no longer than the read's other costs here (a busy "
                      "machine): no rate");
            const auto& copy = prices.rhythmCopy[key].copy;
            // One pass a sweep, taken once for both cells; never more than a pass added.
            QVERIFY2(copy.size() <= before + 1, qPrintable(QString::number(copy.size())));
            before = copy.size();
            pricedAsTaken();
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY2(before == 2, qPrintable(QString::number(before)));
        // A stop before the last sweep: nothing more is measured, and every cell keeps the
        // prices the sweeps before it took, paused ones included.
        std::stop_source stopped;
        stopped.request_stop();
        const auto backToBack = prices.kernelCopy[std::nullopt].size();
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{256 << 10}, 1, doc, cells,
                    stopped.get_token(), {2, 3});
        QCOMPARE(prices.rhythmCopy[key].copy.size(), before);
        QCOMPARE(prices.kernelCopy[std::nullopt].size(), backToBack);
        pricedAsTaken();
    }

    void aCopyPastL2IsPricedInItsRoundsRhythm() {
        QTemporaryFile file;
        QVERIFY(fillMiB(file));
        ResultDocument doc;
        if (!pricedMiB(file, doc))
            QSKIP("no cached-page cost here: the kernel's copy is not priced");
        doc.system.caches.l2 = 256 << 10; // as large as one range: it does not stay in L2
        doc.plan.consume = Consume::All;
        CopyLimit limit(1 << 20);
        // Rounds of 1 MiB, 10 ms apart (20 ms for the third and fourth cells).
        const auto rounds = [](double gap) {
            return std::vector{roundAt(0, 1.0, 0.01, 1 << 20),
                               roundAt(1, 1.01 + gap, 0.01, 1 << 20),
                               roundAt(2, 1.02 + 2 * gap, 0.01, 1 << 20)};
        };
        std::vector<Cell> cells(5);
        cells[0].strategy = "pread-uninit";
        cells[0].samples = rounds(0.01);
        cells[1].strategy = "seek-read"; // back to back
        cells[1].samples = {roundAt(0, 1.0, 0.01, 1 << 20), roundAt(1, 1.0101, 0.01, 1 << 20)};
        cells[2].strategy = "mmap-copy"; // memcpy out of a mapping made each round
        cells[2].samples = rounds(0.02);
        cells[3].strategy = "pread-reuse"; // the first cell's destinations: its price
        cells[3].samples = rounds(0.02);
        cells[4].strategy = "pread-zerofill"; // the same, but each buffer zeroed first
        cells[4].samples = rounds(0.02);
        PointPrices prices;
        prices.take(limit, file.handle(), 1 << 20, SweepPoint{256 << 10}, 1, doc, cells);
        if (prices.kernelCopy.empty())
            QSKIP("a copy took no longer than the read's other costs here (a busy machine): "
                  "no rate");
        // After a pause a copy is slower, never faster: where back to back had a rate, so has
        // this (a pass whose copy took no longer than its calls leaves no rate).
        QCOMPARE(prices.rhythmCopy.size(), std::size_t(1));
        const auto key = std::pair(Destinations{256 << 10, 1}, PointPrices::Offset{});
        QVERIFY(prices.rhythmCopy.contains(key));
        const auto& paused = prices.rhythmCopy[key];
        QVERIFY(!paused.copy.empty() && paused.copy.size() <= std::size_t(kRhythmPasses));
        QCOMPARE(paused.pauseSeconds, 0.01);
        QCOMPARE(*cells[0].kernelCopyGbps, median(paused.copy));
        // The fold reads what the copies just wrote: in the same passes, timed apart.
        QVERIFY(!paused.fold.empty() && paused.fold.size() <= std::size_t(kRhythmPasses));
        QCOMPARE(*cells[0].foldGbps, median(paused.fold));
        QCOMPARE(*cells[0].copyPauseSeconds, 0.01);
        QCOMPARE(*cells[1].kernelCopyGbps, median(prices.kernelCopy[std::nullopt]));
        QVERIFY(!cells[1].copyPauseSeconds);
        // The shared price, and the pause it came after, not the cell's own 20 ms.
        QCOMPARE(*cells[3].kernelCopyGbps, median(paused.copy));
        QCOMPARE(*cells[3].copyPauseSeconds, 0.01);
        QVERIFY(!cells[2].kernelCopyGbps);
        // A buffer zeroed before each read: its own price, the memset timed in the same passes
        // (the copy into lines the memset just wrote is not the copy into untouched ones).
        QCOMPARE(prices.rhythmZeroedCopy.size(), std::size_t(1));
        QVERIFY(prices.rhythmZeroedCopy.contains(key));
        const auto& zeroed = prices.rhythmZeroedCopy[key];
        QVERIFY(!zeroed.zero.empty() && zeroed.zero.size() <= std::size_t(kRhythmPasses));
        QCOMPARE(*cells[4].kernelCopyGbps, median(zeroed.copy));
        QCOMPARE(*cells[4].memsetGbps, median(zeroed.zero));
        QCOMPARE(*cells[4].foldGbps, median(zeroed.fold));
        QCOMPARE(*cells[4].copyPauseSeconds, 0.02);
        QVERIFY(paused.zero.empty() && !cells[0].memsetGbps);
        if (!prices.mappedFold.empty()) { // where mapping the file is measured (not Windows)
            // A mapping's round maps 1 MiB, past L2: its copy and its faults after its pause.
            QCOMPARE(prices.rhythmMappedCopy.size(), std::size_t(1));
            QVERIFY(prices.rhythmMappedCopy.contains(key));
            QCOMPARE(*cells[2].mappedCopyGbps, median(prices.rhythmMappedCopy[key].copy));
            // Its buffer of 256 KiB is as large as L2: folded after each copy in the passes.
            QVERIFY(!prices.rhythmMappedCopy[key].fold.empty());
            QCOMPARE(*cells[2].foldGbps, median(prices.rhythmMappedCopy[key].fold));
            QVERIFY(!prices.rhythmMappedFault.fault.empty());
            QCOMPARE(*cells[2].mappedFaultSeconds, median(prices.rhythmMappedFault.fault));
            QCOMPARE(*cells[2].copyPauseSeconds, 0.02);
        }
        qInfo("kernel copy at 256 KiB: %.1f GB/s back to back, %.1f after 10 ms pauses",
              median(prices.kernelCopy[std::nullopt]), median(paused.copy));
        // Under L2 (a round's 1 MiB mapped is no more than it), and where L2 is not known:
        // back to back, and no pause said.
        for (std::uint64_t l2 : {std::uint64_t(1) << 20, std::uint64_t(0)}) {
            doc.system.caches.l2 = l2;
            PointPrices under;
            under.take(limit, file.handle(), 1 << 20, SweepPoint{256 << 10}, 1, doc, cells);
            QVERIFY(under.rhythmCopy.empty() && under.rhythmZeroedCopy.empty());
            QVERIFY(under.rhythmMappedCopy.empty());
            QCOMPARE(*cells[0].kernelCopyGbps, median(under.kernelCopy[std::nullopt]));
            for (const auto& c : cells)
                QVERIFY(!c.copyPauseSeconds);
        }
    }
};

QTEST_GUILESS_MAIN(TestDestinationPrices)
#include "tst_destination_prices.moc"
