// The engine's stages, each on its own (runner.cpp only orchestrates them): the scheduler's
// order and caps, the calibrator's floors and refits, the verifier, the cache control and the
// conditions a cell's rounds earn, and their words.
#include "cache_control.h"
#include "calibrator.h"
#include "conditions_found.h"
#include "point_run.h"
#include "scheduler.h"
#include "test_file.h"
#include "verifier.h"
#include "whole_file_sweep.h"

#include "readscope/cell_conditions.h"
#include "readscope/condition_words.h"
#include "readscope/ranges.h"
#include "readscope/run_notes.h"
#include "readscope/strategy.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace readscope;
using namespace readscope::testing;

namespace {

Plan roundsPlan(int warmup, int rounds) {
    Plan plan;
    plan.warmup = warmup;
    plan.rounds = rounds;
    plan.seed = 42;
    return plan;
}

Cell cellWithResidency(std::initializer_list<double> before) {
    Cell cell;
    int r = 0;
    for (double b : before) {
        Sample s;
        s.round = ++r;
        s.seconds = 0.01;
        s.bytes = 1 << 20;
        s.residentBefore = b;
        cell.samples.push_back(s);
    }
    return cell;
}

} // namespace

class TestEngineStages : public QObject {
    Q_OBJECT
private slots:
    // A check a figure rests on that did not happen makes the cell "unverified", never "ok": a
    // cold cell whose eviction nobody could see, a cell whose bytes were never checked (a
    // duration run stopped, or its file changed, before its ranges were verified).
    void aCheckThatDidNotHappenIsNotOk() {
        TestFile file(1 << 20);
        const FileProbe probe = file.probe();
        Plan plan = roundsPlan(0, 6);
        plan.cache = CacheMode::Cold;
        auto finished = [&](Cell cell, Checksum checksum) {
            cell.strategy = "pread-uninit";
            cell.rangeBytes = 64 << 10;
            cell.checksum = checksum;
            finishWithConditions(cell, {plan, probe, probe, nullptr, std::nullopt, false});
            return cell;
        };
        Cell unseen;
        for (int r = 1; r <= 6; ++r) { // rounds with no residency measured
            Sample s;
            s.round = r;
            s.seconds = 0.01;
            s.bytes = 1 << 20;
            unseen.samples.push_back(s);
        }
        QCOMPARE(name(finished(unseen, Checksum::Verified).status), name(CellStatus::Unverified));
        QVERIFY(finished(unseen, Checksum::Verified).measured()); // its figures are still shown
        plan.cache = CacheMode::Warm;
        QCOMPARE(name(finished(unseen, Checksum::Verified).status), name(CellStatus::Ok));
        const Cell stopped = finished(unseen, Checksum::NotCheckedStopped);
        QCOMPARE(name(stopped.status), name(CellStatus::Unverified));
        plan.cache = CacheMode::Cold;
        const Cell seen = finished(cellWithResidency({0, 0, 0, 0, 0, 0}), Checksum::Verified);
        QCOMPARE(name(seen.status), name(CellStatus::Ok));
    }

    // Every round visits every point once; the order is the seed's, and changes between rounds.
    void schedulerVisitsEveryPointEachRound() {
        const Plan plan = roundsPlan(1, 6);
        auto orders = [&] {
            std::vector<std::vector<std::size_t>> rounds(7);
            Scheduler scheduler(plan, 5, Clock::now());
            const auto end = scheduler.planned([&](std::size_t k, int r) {
                rounds.at(std::size_t(r)).push_back(k);
                return RoundEnd::Measured;
            });
            [&] { QCOMPARE(end, RoundEnd::Measured); }();
            return rounds;
        };
        const auto first = orders();
        for (const auto& round : first)
            QCOMPARE(std::set<std::size_t>(round.begin(), round.end()).size(), std::size_t(5));
        QCOMPARE(orders(), first); // seeded
        QVERIFY(std::set<std::vector<std::size_t>>(first.begin(), first.end()).size() > 1);
    }

    // A stopped round ends the rounds at once.
    void schedulerStopsWhenARoundStops() {
        const Plan plan = roundsPlan(0, 5);
        Scheduler scheduler(plan, 3, Clock::now());
        int calls = 0;
        const auto end = scheduler.planned([&](std::size_t, int) {
            return ++calls == 4 ? RoundEnd::Stopped : RoundEnd::Measured;
        });
        QCOMPARE(end, RoundEnd::Stopped);
        QCOMPARE(calls, 4);
    }

    // The time cap: no new round once the cap is passed, but never before the minimum rounds.
    void schedulerTimeCapKeepsTheMinimumRounds() {
        Plan plan = roundsPlan(2, 15);
        plan.timeCapSeconds = 0;
        Scheduler scheduler(plan, 2, Clock::now());
        int measuredRounds = 0;
        scheduler.planned([&](std::size_t k, int r) {
            if (k == 0 && r >= plan.warmup)
                ++measuredRounds;
            return RoundEnd::Measured;
        });
        QCOMPARE(measuredRounds, kMinRoundsBeforeCap);
        QVERIFY(!timeCapped(kMinRoundsBeforeCap - 1, Clock::now() - std::chrono::hours(1), 1, 0));
        QVERIFY(timeCapped(kMinRoundsBeforeCap, Clock::now() - std::chrono::seconds(2), 1, 1));
        QVERIFY(!timeCapped(kMinRoundsBeforeCap, Clock::now(), 1, 60));
    }

    // A duration run's rounds go on past the planned count and the time cap until the measured
    // ones have taken the duration (the warm-up's time not counted), and no longer.
    void schedulerDurationRunsForItsTime() {
        Plan plan = roundsPlan(1, 3);
        plan.timeCapSeconds = 0.001;
        plan.durationSeconds = 0.3;
        Scheduler scheduler(plan, 1, Clock::now());
        int measuredRounds = 0;
        Clock::time_point first{}, last{};
        scheduler.planned([&](std::size_t, int r) {
            std::this_thread::sleep_for(std::chrono::milliseconds(r < plan.warmup ? 200 : 20));
            if (r >= plan.warmup) {
                if (measuredRounds++ == 0)
                    first = Clock::now();
                last = Clock::now();
            }
            return RoundEnd::Measured;
        });
        QVERIFY2(measuredRounds > plan.rounds, qPrintable(QString::number(measuredRounds)));
        const double span = secondsBetween(first, last);
        QVERIFY2(span >= 0.25 && span < 0.3 + 1.0, qPrintable(QString::number(span)));
        QVERIFY(!scheduler.roundLimitNote()); // it ran for its time
    }

    // Rounds too quick for the duration stop at the rounds' limit, and the run says so rather
    // than end early without a word.
    void aDurationRunThatReachesTheRoundLimitSaysSo() {
        Plan plan = roundsPlan(0, 3);
        plan.durationSeconds = 3600;
        Scheduler scheduler(plan, 1, Clock::now());
        int measured = 0;
        scheduler.planned([&](std::size_t, int) {
            ++measured;
            return RoundEnd::Measured;
        });
        QCOMPARE(measured, kRoundsLimit.max);
        const auto note = scheduler.roundLimitNote();
        QVERIFY(note);
        QCOMPARE(note->limit, 10000);
        QCOMPARE(note->duration, 3600.0);
        QVERIFY(note->seconds > 0 && note->seconds < 3600);
        const std::string said = warningText(*note);
        QVERIFY2(said.starts_with("the rounds reached their limit of 10000 after ") &&
                     said.find("before the 3600 s duration") != std::string::npos,
                 said.c_str());
    }

    // A duration run's lanes start spread over the point's ranges and read on round after
    // round, past the end and round again: the next round never rereads the last one's ranges.
    void durationRoundsReadOnThroughTheRanges() {
        PointRun run;
        for (std::uint64_t k = 0; k < 10; ++k)
            run.ranges.push_back({k * 4096, 4096});
        run.prefixes.resize(2);
        run.prefixes[0].count = 4;
        run.prefixes[1].count = 3;
        run.next = {0, 5};
        run.started = run.next;
        run.handed = {0, 0};
        const auto offsets = [](const std::vector<Range>& rs) {
            std::vector<std::uint64_t> out;
            for (const auto& r : rs)
                out.push_back(r.offset / 4096);
            return out;
        };
        using V = std::vector<std::uint64_t>;
        QCOMPARE(offsets(nextRanges(run, 0)), (V{0, 1, 2, 3}));
        QCOMPARE(offsets(nextRanges(run, 0)), (V{4, 5, 6, 7}));
        QCOMPARE(offsets(nextRanges(run, 0)), (V{8, 9, 0, 1}));
        QCOMPARE(offsets(nextRanges(run, 1)), (V{5, 6, 7}));
        QCOMPARE(offsets(nextRanges(run, 1)), (V{8, 9, 0}));
        // What each lane's rounds read, each range once: lane 0 went round, lane 1 read 6.
        QCOMPARE(offsets(rangesRead(run, 0)), (V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
        QCOMPARE(offsets(rangesRead(run, 1)), (V{5, 6, 7, 8, 9, 0}));
    }

    // --precision's rounds visit only the wide points, numbered on after the planned rounds,
    // until none is wide.
    void schedulerRefinesOnlyWidePoints() {
        Plan plan = roundsPlan(1, 3);
        plan.maxTimeSeconds = 600;
        Scheduler scheduler(plan, 3, Clock::now());
        int extraForOne = 0;
        std::vector<int> rounds;
        std::vector<std::size_t> visited;
        const auto end = scheduler.refine([&](std::size_t k, int r) -> std::optional<RoundEnd> {
            visited.push_back(k);
            if (k != 1 || extraForOne == 4)
                return std::nullopt; // nothing wide there (any more)
            ++extraForOne;
            rounds.push_back(r);
            return RoundEnd::Measured;
        });
        QCOMPARE(end, RoundEnd::Measured);
        QCOMPARE(rounds, (std::vector<int>{4, 5, 6, 7})); // warm-up 0, planned 1..3
        QCOMPARE(visited.size(), std::size_t(5 * 3)); // four rounds with a wide point, one without
    }

    // ... and stop at the run's maximum time.
    void schedulerRefineStopsAtTheMaximumTime() {
        Plan plan = roundsPlan(0, 3);
        plan.maxTimeSeconds = 1;
        Scheduler scheduler(plan, 2, Clock::now() - std::chrono::seconds(2));
        int calls = 0;
        scheduler.refine([&](std::size_t, int) -> std::optional<RoundEnd> {
            ++calls;
            return RoundEnd::Measured;
        });
        QCOMPARE(calls, 0);
    }

    // Cold cells whose rounds started cached earn NotCold with the count and the worst; warm
    // ones NotWarm; direct runs neither.
    void cacheConditionsCountTheRounds() {
        const Cell cold = cellWithResidency({0.0, 0.5, 0.005, 1.0});
        const auto c = cacheCondition(cold, CacheMode::Cold);
        QVERIFY(c);
        const auto* notCold = std::get_if<NotCold>(&c->what);
        QVERIFY(notCold);
        QCOMPARE(notCold->rounds, 2);
        QCOMPARE(notCold->of, 4);
        QCOMPARE(notCold->worst, 1.0);
        QVERIFY(!cacheCondition(cellWithResidency({0.0, 0.01}), CacheMode::Cold));

        const auto w = cacheCondition(cellWithResidency({1.0, 0.6, 0.995}), CacheMode::Warm);
        QVERIFY(w);
        QCOMPARE(std::get<NotWarm>(w->what).rounds, 1);
        QCOMPARE(std::get<NotWarm>(w->what).worst, 0.6);
        QVERIFY(!cacheCondition(cold, CacheMode::Direct));
    }

    // The words of a cell's notes: the reason first, each condition after, a later repeat's
    // marked; residency unverified is no warning.
    void conditionsAreWordedOnce() {
        std::vector<CellCondition> conditions{{RoundsCut{3, 15, false}},
                                              {NotCold{2, 4, 1.0, 0.01}, 1}};
        QCOMPARE(cellNotes("", conditions),
                 std::string("time cap reached: 3 of 15 rounds; repeat 2: cache did not go cold: "
                             "2 of 4 rounds started with up to 100.0% of the pages they read "
                             "resident after eviction (threshold 1%): these are not cold "
                             "figures"));
        QCOMPARE(cellNotes("a reason", {{RoundsCut{1, 3, true}}}),
                 std::string("a reason; stopped: 1 of 3 rounds"));
        QVERIFY(!worthWarning({ResidencyUnverified{}}));
        QVERIFY(worthWarning({RoundsCut{1, 3, true}}));
        QCOMPARE(fileChangeText({FileChange::How::Resized, 10, 4, {}}),
                 std::string("its size went from 10 to 4 bytes"));
        QVERIFY(findCondition<NotCold>(conditions));
        QVERIFY(!findCondition<ShallowQueue>(conditions));
    }

    // A strategy's bytes verified against the file's; a wrong reference is a mismatch, and the
    // reference pass grows with the longest prefix asked.
    void verifierChecksEachPrefix() {
        TestFile file(4 << 20);
        const FileProbe probe = file.probe();
        const auto ranges = makeRanges(Pattern::Random, 64 << 10, file.size(), 2 << 20, 7);
        Verifier verifier(probe, ranges);
        const auto ten = verifier.reference(10);
        QVERIFY(ten);
        QCOMPARE(*ten, file.expectedChecksum(std::span(ranges).first(10)));
        const auto all = verifier.reference(ranges.size());
        QVERIFY(all);
        QCOMPARE(*all, file.expectedChecksum(ranges));
        QCOMPARE(*verifier.reference(10), *ten);

        auto reader = openReader(*findStrategy("pread-uninit"), probe, 64 << 10);
        QVERIFY(reader);
        Checksum checksum = Checksum::NotChecked;
        const auto prefix = std::span<const Range>(ranges).first(10);
        QVERIFY(verifyReader(**reader, "pread-uninit", 64 << 10, prefix, *ten, checksum, {}));
        QCOMPARE(checksum, Checksum::Verified);
        const auto wrong =
            verifyReader(**reader, "pread-uninit", 64 << 10, prefix, *ten + 1, checksum, {});
        QVERIFY(!wrong);
        QCOMPARE(checksum, Checksum::Mismatch);
        QVERIFY(wrong.error().message.starts_with("checksum mismatch: pread-uninit"));
    }

    // The fewest ranges a round reads: one whole file; io_uring at least 8 queues per worker;
    // coalescing whole batches. A refit only ever shortens, never below the floor.
    void calibratorFloorsAndRefits() {
        TestFile file(4 << 20);
        const FileProbe probe = file.probe();
        Plan plan = roundsPlan(1, 3);
        plan.roundTimeSeconds = 0.01;
        CacheControl cache(CacheMode::Warm, false, [](const std::string&) {});
        QVERIFY(cache.open(probe));
        std::vector<Lane> lanes;
        Lane pread;
        pread.info = findStrategy("pread-uninit");
        Lane coalesce;
        coalesce.info = findStrategy("pread-coalesce");
        const SweepPoint point{64 << 10};
        Calibrator whole(plan, cache, lanes, true, {});
        QCOMPARE(whole.roundFloor(pread, point, 2), std::size_t(1));
        Calibrator ranges(plan, cache, lanes, false, {});
        QCOMPARE(ranges.roundFloor(pread, point, 1), minRangesPerRound(64 << 10));
        QVERIFY(ranges.roundFloor(coalesce, point, 2) >= 2 * coalesceBatchRanges(64 << 10));

        QCOMPARE(ranges.refit(pread, point, 1000, 0.015, 1), std::size_t(1000)); // under 2x
        const std::size_t shorter = ranges.refit(pread, point, 1000, 0.1, 1);
        QCOMPARE(shorter, std::max<std::size_t>(100, minRangesPerRound(64 << 10)));
        QCOMPARE(ranges.refit(pread, point, 1000, 1e6, 1), minRangesPerRound(64 << 10));

        std::vector<Range> all(4096);
        for (std::size_t k = 0; k < all.size(); ++k)
            all[k] = Range{k * 4096, 4096};
        const std::size_t batches = 2 * coalesceBatchRanges(4 << 10);
        QVERIFY(all.size() > batches);
        const LanePrefix prefix = lanePrefix(coalesce, 4 << 10, all, all.size() - 1, 2);
        QCOMPARE(prefix.count % batches, std::size_t(0));
        QCOMPARE(lanePrefix(coalesce, 4 << 10, all, batches - 1, 2).count, batches - 1);
        QCOMPARE(prefix.parts.size(), std::size_t(2));
    }

    // The cache control evicts before a cold round and warms a warm run's file.
    void cacheControlEvictsAndWarms() {
        TestFile file(8 << 20);
        const FileProbe probe = file.probe();
        if (!probe.residencyVerifiable)
            QSKIP("residency cannot be measured here");
        const auto ranges = makeRanges(Pattern::Sequential, 1 << 20, file.size(), 8 << 20, 1);
        CacheControl warm(CacheMode::Warm, false, [](const std::string&) {});
        QVERIFY(warm.open(probe));
        QVERIFY(warm.warm({}));
        std::vector<Lane> none;
        QCOMPARE(warm.prepare(ranges, none).fraction.value_or(-1), 1.0);
        std::vector<std::string> warnings;
        CacheControl cold(CacheMode::Cold, false,
                          [&](const std::string& m) { warnings.push_back(m); });
        QVERIFY(cold.open(probe));
        const Residency after = cold.prepare(ranges, none);
        QVERIFY2(after.fraction && *after.fraction <= 0.01, after.method.c_str());
        QVERIFY(warnings.empty());
    }

    // A first round slow from first-touch costs is fitted from the fastest of the repeats
    // that follow it, not from the first repeat alone: a lane's fresh heap can stay slow for
    // two reads of a large file, and fitting from the second left its rounds one read long.
    // Here the first two rounds sleep 1 ms a range; a fit from the second would keep the
    // 64-range floor.
    void calibrationFitsFromTheFastestWarmRound() {
        TestFile file(4 << 20);
        const FileProbe probe = file.probe();
        Plan plan = roundsPlan(1, 3);
        plan.strategies = {"pread-uninit"};
        plan.sizes = {4 << 10};
        plan.roundTimeSeconds = 0.02;
        const std::vector<SweepPoint> points{SweepPoint{4 << 10}};
        auto lanes = openLanes(plan, probe, points, false);
        QCOMPARE(lanes.size(), std::size_t(1));
        QVERIFY(lanes[0].unavailable.empty());
        CacheControl cache(CacheMode::Warm, false, [](const std::string&) {});
        QVERIFY(cache.open(probe));
        std::vector<Range> ranges(1024);
        for (std::size_t k = 0; k < ranges.size(); ++k)
            ranges[k] = Range{k * 4096, 4096};
        const std::size_t floor = minRangesPerRound(4 << 10);
        static std::atomic<std::size_t> reads{0};
        reads = 0;
        std::size_t slowReads = 2 * floor;
        setRangeReadHookForTesting(
            [](std::size_t, void* slowReads) {
                if (reads++ < *static_cast<std::size_t*>(slowReads))
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            },
            &slowReads);
        Calibrator calibrator(plan, cache, lanes, false, {});
        const std::size_t count = calibrator.calibrate(lanes[0], points[0], ranges, 1);
        setRangeReadHookForTesting(nullptr, nullptr);
        QVERIFY2(count > floor, std::to_string(count).c_str());
    }

    // A whole-file sweep's point: a copy of the target's first bytes in the sweep's folder,
    // each usable lane given one reader per thread on it, a lane that cannot open failed
    // through `fail`; after the point nothing is open on it and the copy is gone.
    void wholeFileSweepMakesUsesAndDropsEachCopy() {
        TestFile file(1 << 20);
        const FileProbe probe = file.probe();
        WholeFileSweep sweep;
        QVERIFY(sweep.start(probe));
        QVERIFY(QDir(QString::fromStdString(sweep.folder())).exists());
        Plan plan;
        plan.pattern = Pattern::Whole;
        plan.fileSizes = {64 << 10};
        plan.strategies = {"pread-uninit", "read-grow"};
        const std::vector<SweepPoint> points{SweepPoint{64 << 10}};
        auto lanes = openLanes(plan, probe, points, true);
        QCOMPARE(lanes.size(), std::size_t(2));
        std::vector<Cell> cells(lanes.size());
        int failed = 0;
        CacheControl cache(CacheMode::Warm, false, [](const std::string&) {});
        const std::uint64_t size = (64 << 10) + 17;
        QVERIFY(sweep.use(size, lanes, cells, 2, cache, {},
                          [&](Cell&, const std::string&) { ++failed; }));
        QCOMPARE(failed, 0);
        for (const auto& lane : lanes)
            QCOMPARE(lane.readers.size(), std::size_t(2));
        QCOMPARE(cache.reading().size, size);
        const QString copyPath = QString::fromStdString(cache.reading().path);
        QVERIFY(copyPath.startsWith(QString::fromStdString(sweep.folder())));
        QFile copy(copyPath), target(QString::fromStdString(file.path()));
        QVERIFY(copy.open(QIODevice::ReadOnly) && target.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), target.read(qint64(size)));
        QVERIFY(!sweep.elsewhere(probe)); // beside the target, on its filesystem
        sweep.drop(lanes, cache);
        for (const auto& lane : lanes)
            QVERIFY(lane.readers.empty());
        QVERIFY(!QFile::exists(copyPath));
    }
};

QTEST_GUILESS_MAIN(TestEngineStages)
#include "tst_engine_stages.moc"
