// The runner end to end on small files: interleaving, verification, cache modes, threads, and
// a stop that is honoured promptly while keeping finished cells.
#include "readscope/compare.h"
#include "readscope/condition_words.h"
#include "readscope/document_words.h"
#include "readscope/finding_text.h"
#include "readscope/reader.h"
#include "readscope/recovery.h"
#include "readscope/run_notes.h"
#include "readscope/runner.h"
#include "readscope/state_words.h"
#include "readscope/strategy.h"
#include "test_file.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <semaphore>
#include <set>
#include <thread>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class RecordingSink : public RunSink {
public:
    void onStarted(const ResultDocument&) override { started = true; }
    void onProgress(const Progress& p) override {
        std::lock_guard lock(mutex);
        progress.push_back(p);
    }
    void onCellFinished(const Cell& c) override {
        std::lock_guard lock(mutex);
        cells.push_back(c);
        if (onCell)
            onCell(c);
    }
    void onWarning(const RunWarning& w) override {
        std::lock_guard lock(mutex);
        warnings.push_back(warningText(w));
        said.push_back(w);
    }
    std::mutex mutex;
    bool started = false;
    std::vector<Progress> progress;
    std::vector<Cell> cells;
    std::vector<std::string> warnings; // in words
    std::vector<RunWarning> said;      // as values
    std::function<void(const Cell&)> onCell;
};

Plan smallPlan(const TestFile& f) {
    Plan p;
    p.file = f.path();
    p.strategies = {"pread-zerofill", "pread-uninit", "mmap-touch"};
    p.sizes = {16 << 10, 256 << 10};
    p.rounds = 3;
    p.warmup = 1;
    // Every round reads the whole budget, so that byte counts are known however slow the
    // build (TSan's is 5-15x slower, and time-sized rounds would read a prefix there);
    // roundsAreSizedByTime sets its own round time.
    p.roundTimeSeconds = 0;
    return p;
}

// One cell, pread-uninit at random 4 KiB ranges, measured for `seconds`.
Plan oneDurationCell(const TestFile& f, double seconds) {
    auto plan = smallPlan(f);
    plan.sizes = {4 << 10};
    plan.pattern = Pattern::Random;
    plan.strategies = {"pread-uninit"};
    plan.durationSeconds = seconds;
    return plan;
}

} // namespace

class TestRunner : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void initTestCase() { file_ = std::make_unique<TestFile>(8 << 20); }

    void tinyRunInterleaves() {
        RecordingSink sink;
        auto doc = runPlan(smallPlan(*file_), sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(sink.started);
        QVERIFY(doc->complete);
        QVERIFY(doc->lseekSeconds && *doc->lseekSeconds > 0); // what the cost model checks
        QCOMPARE(doc->cells.size(), std::size_t(6));
        QCOMPARE(sink.cells.size(), std::size_t(6));
        for (const auto& c : doc->cells) {
            QVERIFY2(c.measured() && c.status != CellStatus::NotCold, c.message.c_str());
            QCOMPARE(c.checksum, Checksum::Verified);
            QCOMPARE(c.samples.size(), std::size_t(3));
            QVERIFY(c.summary.median > 0);
            // Warm: memcpy's speed for this range size, measured before the cell.
            QVERIFY(c.copyLimitGbps && *c.copyLimitGbps > 0);
            for (const auto& s : c.samples) {
                QCOMPARE(s.bytes, std::uint64_t(8 << 20)); // budget = file size
                QVERIFY(s.latencyP50 > 0 && s.latencyP99 >= s.latencyP50);
                QVERIFY(s.syscalls > 0);
                if (s.residentBefore)
                    QVERIFY2(*s.residentBefore > 0.99, "warm mode must find the file cached");
            }
        }
        // Interleaved, each round starting one strategy later: after the warm-up round (A B C),
        // B C A, C A B, A B C.
        const auto ids = smallPlan(*file_).strategies;
        std::vector<std::string> order;
        for (const auto& p : sink.progress)
            if (p.at.phase == RunPhase::Round && p.rangeBytes == (16 << 10) &&
                !p.strategy.empty()) // a step's, not the one saying where a round begins
                order.push_back(p.strategy);
        QCOMPARE(order.size(), std::size_t(9));
        for (std::size_t i = 0; i < order.size(); ++i)
            QCOMPARE(order[i], ids[(1 + i / 3 + i % 3) % 3]);
        // So every strategy ran once first, once second and once last.
        for (const auto& c : doc->cells) {
            std::vector<int> positions;
            for (const auto& s : c.samples)
                positions.push_back(s.position);
            std::sort(positions.begin(), positions.end());
            QCOMPARE(positions, (std::vector<int>{0, 1, 2}));
        }
        QCOMPARE(sink.progress.back().step, sink.progress.back().total);
        // The copy prices are taken before any round and after the last, never between rounds
        // (a pass there slows the reads after it): once per point before, and after in sweeps
        // over the points, so that no price's passes all fall in one slow second.
        std::size_t firstRound = sink.progress.size(), lastRound = 0;
        for (std::size_t i = 0; i < sink.progress.size(); ++i)
            if (sink.progress[i].at.phase == RunPhase::Round ||
                sink.progress[i].at.phase == RunPhase::WarmUp) {
                firstRound = std::min(firstRound, i);
                lastRound = i;
            }
        std::map<std::string, int> opening, closing;
        std::vector<std::uint64_t> closingOrder;
        for (std::size_t i = 0; i < sink.progress.size(); ++i) {
            const auto& p = sink.progress[i];
            const auto size = std::to_string(p.rangeBytes);
            if (p.at.phase == RunPhase::OpeningPrices) {
                QVERIFY2(i < firstRound, qPrintable(QString::number(i)));
                ++opening[size];
            } else if (p.at.phase == RunPhase::ClosingPrices) {
                QVERIFY2(i > lastRound, qPrintable(QString::number(i)));
                ++closing[size];
                closingOrder.push_back(p.rangeBytes);
            }
        }
        const std::map<std::string, int> once{{std::to_string(16 << 10), 1},
                                              {std::to_string(256 << 10), 1}};
        QCOMPARE(opening, once);
        const int sweeps = 3; // the engine's PointPrices::kClosingSweeps
        const std::map<std::string, int> swept{{std::to_string(16 << 10), sweeps},
                                               {std::to_string(256 << 10), sweeps}};
        QCOMPARE(closing, swept);
        // Point after point in each sweep, not one point's sweeps back to back.
        for (std::size_t k = 1; k < closingOrder.size(); ++k)
            QVERIFY2(closingOrder[k] != closingOrder[k - 1], qPrintable(QString::number(k)));
        // Each cell carries the prices of what it does: a read the kernel's copy, a mapping
        // its in-place fold and copy of the file's pages (measured on Linux).
        for (const auto& c : doc->cells) {
            const bool maps = c.strategy == "mmap-touch";
            QVERIFY2(c.kernelCopyGbps.has_value() == !maps, c.strategy.c_str());
#ifdef __linux__
            QVERIFY2(c.mappedFoldGbps.has_value() == maps && c.mappedCopyGbps.has_value() == maps,
                     c.strategy.c_str());
#endif
        }
        // A run without a read through the kernel carries no kernel-copy price.
        auto mapOnly = smallPlan(*file_);
        mapOnly.strategies = {"mmap-touch"};
        mapOnly.sizes = {64 << 10};
        RecordingSink quiet;
        const auto mapped = runPlan(mapOnly, quiet);
        QVERIFY(mapped.ok());
        QVERIFY(!mapped->cells.front().kernelCopyGbps);
    }

    void seekReadCountsOneSeekPerRange() {
        auto plan = smallPlan(*file_);
        plan.strategies = {"seek-read", "pread-uninit"};
        plan.sizes = {64 << 10};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell* seek = doc->find("seek-read", 64 << 10);
        const Cell* pread = doc->find("pread-uninit", 64 << 10);
        QCOMPARE(seek->rangesPerRound, std::uint64_t(128)); // 8 MiB / 64 KiB
        for (const auto& s : seek->samples) {
            QCOMPARE(s.seeks, std::uint64_t(128));
            QCOMPARE(s.syscalls, std::uint64_t(256)); // + one read per range
        }
        for (const auto& s : pread->samples) {
            QCOMPARE(s.seeks, std::uint64_t(0));
            QCOMPARE(s.syscalls, std::uint64_t(128));
        }
    }

    // A strategy whose warm-up round, among its neighbours, takes far longer than its
    // calibration promised (a kept mapping on the development VM: 10-20x) reads the shorter
    // prefix that fits the round time, fixed before its measured rounds. Every range is made
    // to take at least 1 ms once verification is done, so with 10 ms rounds the refit count
    // is the 64-range floor.
    void aSlowWarmupRefitsTheRoundBeforeMeasuring() {
        auto plan = smallPlan(*file_);
        plan.sizes = {4 << 10}; // 2048 ranges, calibrated at a few us each
        plan.strategies = {"pread-uninit"};
        plan.roundTimeSeconds = 0.01;
        plan.warmup = 1;
        static std::atomic<bool> slow{false};
        slow = false;
        setRangeReadHookForTesting(
            [](std::size_t, void*) {
                if (slow.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            },
            nullptr);
        struct SlowingSink : RecordingSink {
            void onProgress(const Progress& p) override {
                if (p.at.phase == RunPhase::Verifying)
                    slow = true; // from the warm-up on
            }
        } sink;
        auto doc = runPlan(plan, sink);
        setRangeReadHookForTesting(nullptr, nullptr);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(1));
        const Cell& c = doc->cells.front();
        QCOMPARE(c.checksum, Checksum::Verified);
        // Any calibrated count (at least the 64-range floor) took 64 ms or more in the warm-up,
        // over twice the 10 ms round time: refit to at most 10 ranges, so to the floor.
        QCOMPARE(c.rangesPerRound, std::uint64_t(minRangesPerRound(4 << 10)));
        QCOMPARE(c.samples.size(), std::size_t(plan.rounds));
        for (const auto& s : c.samples)
            QCOMPARE(s.bytes, c.rangesPerRound * (4 << 10));
    }

    // The time left comes from the rounds' pace, never from the set-up's (a few slow
    // calibration and verification steps said 5:08 for a sweep that took 0:31): unknown until
    // a round step is done. A duration run's is its duration until its measuring begins.
    void theTimeLeftIsTheRoundsPace() {
        RecordingSink sink;
        QVERIFY(runPlan(smallPlan(*file_), sink).ok());
        const auto firstRound =
            std::find_if(sink.progress.begin(), sink.progress.end(), [](const Progress& p) {
                return p.at.phase == RunPhase::WarmUp || p.at.phase == RunPhase::Round;
            });
        QVERIFY(firstRound != sink.progress.begin() && firstRound != sink.progress.end());
        for (auto p = sink.progress.begin(); p != firstRound; ++p)
            QVERIFY2(p->etaSeconds < 0, phaseText(*p).c_str());
        QVERIFY(std::any_of(firstRound, sink.progress.end(), [](const Progress& p) {
            return p.at.phase == RunPhase::Round && p.etaSeconds >= 0;
        }));

        RecordingSink timed;
        QVERIFY(runPlan(oneDurationCell(*file_, 0.3), timed).ok());
        const auto measuring =
            std::find_if(timed.progress.begin(), timed.progress.end(),
                         [](const Progress& p) { return p.at.phase == RunPhase::TimedRound; });
        QVERIFY(measuring != timed.progress.end());
        for (auto p = timed.progress.begin(); p != measuring; ++p)
            QCOMPARE(p->etaSeconds, 0.3);
        QVERIFY(std::all_of(measuring, timed.progress.end(),
                            [](const Progress& p) { return p.etaSeconds <= 0.3; }));
    }

    // A reader that sleeps in every other round: its cell's rounds fall in two groups. It is
    // named as such with both groups' round counts, in its status and in the run's findings,
    // and a comparison with it cannot tell rather than quote one median.
    void aReaderThatSleepsEveryOtherRoundHasTwoSpeeds() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit", "seek-read"};
        plan.rounds = 8;
        plan.budget = 1 << 20; // 16 ranges a round
        // A slow round sleeps 300 ms once, at its first range; a fast one not at all. Two
        // groups need a gap in log GB/s at least twice either group's own spread: the fast
        // rounds' time is the machine's (ASan beside another suite on 2 cores made it vary by
        // 4x, and sleeping 0.1 ms a range still varied past what a 20x ratio could absorb),
        // so the slow ones are made about 100 times slower, a spread of 10x still leaves the
        // gap standing.
        static std::atomic<bool> sleepy{false};
        sleepy = false;
        setRangeReadHookForTesting(
            [](std::size_t index, void*) {
                if (index == 0 && sleepy.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(300));
            },
            nullptr);
        struct RoundSink : RecordingSink {
            void onProgress(const Progress& p) override {
                // "round 3/8": the even rounds sleep, the odd ones and the rest do not.
                sleepy = p.at.phase == RunPhase::Round && p.at.round % 2 == 0;
            }
        } sink;
        auto doc = runPlan(plan, sink);
        setRangeReadHookForTesting(nullptr, nullptr);
        QVERIFY(doc.ok());
        const Cell* cell = doc->find("pread-uninit", 64 << 10);
        QVERIFY(cell && cell->samples.size() == 8);
        const auto speeds = twoSpeeds(cell->roundRates());
        QVERIFY2(speeds, statusText(*cell).c_str());
        QCOMPARE(speeds->fastRounds, std::size_t(4));
        QCOMPARE(speeds->slowRounds, std::size_t(4));
        QVERIFY2(statusText(*cell).starts_with("two speeds: 4 at "), statusText(*cell).c_str());
        const auto findings = runFindings(*doc);
        const auto two = std::find_if(findings.begin(), findings.end(), [](const RunFinding& f) {
            return f.kind() == FindingKind::TwoSpeeds;
        });
        QVERIFY(two != findings.end());
        const auto& split = std::get<TwoSpeedsFinding>(two->value);
        QCOMPARE(&doc->cells.at(split.cell), cell);
        QCOMPARE(split.split.speeds.slowRounds, std::size_t(4));
        QVERIFY(two->serious());
        const auto words = findingText(*two, *doc, "--rounds");
        QVERIFY2(words.starts_with("pread-uninit at 64 KiB ran at two speeds, 4 rounds at about "),
                 words.c_str());
        const auto c = compareToReference(*doc, "seek-read");
        QCOMPARE(int(c.cells.at(0).verdict.cause), int(Undecided::TwoSpeeds));
    }

    // A threads sweep reads each point with that many workers at once, on the lane's own
    // threads (not the runner's), and each cell says its threads; the memcpy limit is measured with
    // as many.
    void threadsSweepReadsWithEachPointsThreads() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit"};
        plan.threadCounts = {1, 3};
        struct Seen {
            std::mutex mutex;
            int threads = 0; // the point under way, from progress (runner thread)
            std::thread::id runner = std::this_thread::get_id();
            std::map<int, std::set<std::thread::id>> ids;
            std::map<int, bool> onRunner;
        } seen;
        setRangeReadHookForTesting(
            [](std::size_t, void* context) {
                auto& s = *static_cast<Seen*>(context);
                std::lock_guard lock(s.mutex);
                s.ids[s.threads].insert(std::this_thread::get_id());
                s.onRunner[s.threads] |= std::this_thread::get_id() == s.runner;
            },
            &seen);
        struct PointSink : RecordingSink {
            Seen* seen = nullptr;
            void onProgress(const Progress& p) override {
                std::lock_guard lock(seen->mutex);
                seen->threads = p.threads.value_or(0);
            }
        } sink;
        sink.seen = &seen;
        auto doc = runPlan(plan, sink);
        setRangeReadHookForTesting(nullptr, nullptr);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QCOMPARE(doc->cells.size(), std::size_t(2));
        QCOMPARE(*doc->cells[0].pointThreads, 1);
        QCOMPARE(*doc->cells[1].pointThreads, 3);
        QCOMPARE(doc->cells[1].checksum, Checksum::Verified);
        // The verification reads run on the runner thread; the timed ones on the lane's own
        // threads, the same ones round after round: one at the 1-thread point, three at the
        // 3-thread point, its first the 1-thread point's.
        QVERIFY(seen.onRunner[1]);
        seen.ids[1].erase(seen.runner);
        seen.ids[3].erase(seen.runner);
        QCOMPARE(seen.ids[1].size(), std::size_t(1));
        QCOMPARE(seen.ids[3].size(), std::size_t(3));
        QVERIFY(seen.ids[3].count(*seen.ids[1].begin()));
    }

    // A queue-depth sweep keeps as many io_uring reads in flight as each point asks, and
    // strategies that read one range at a time sit it out with the reason.
    void queueDepthSweepKeepsEachPointsDepth() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"uring-batch", "pread-uninit"};
        plan.queueDepths = {1, 8};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QCOMPARE(doc->cells.size(), std::size_t(4));
        if (doc->find("uring-batch", SweepPoint{64 << 10, {}, {}, 1u})->status ==
            CellStatus::Unavailable)
            QSKIP("io_uring is not available here");
        for (const auto& c : doc->cells) {
            QVERIFY(c.pointQueueDepth);
            if (c.strategy == "pread-uninit") {
                QCOMPARE(testing::name(c.status), testing::name(CellStatus::Unavailable));
                QVERIFY(c.message.find("io_uring batches only") != std::string::npos);
            } else {
                QCOMPARE(c.checksum, Checksum::Verified);
                // The most reads that were in flight at once: what was asked, with 128 ranges.
                QCOMPARE(*c.queueDepth, *c.pointQueueDepth);
                QVERIFY2(!findCondition<ShallowQueue>(c.conditions), cellNotes(c).c_str());
            }
        }
        // 8 ranges of 1 MiB cannot keep 16 reads in flight: the cell says how many it kept.
        plan.sizes = {1 << 20};
        plan.strategies = {"uring-batch"};
        plan.queueDepths = {4, 16};
        doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell* four = doc->find("uring-batch", SweepPoint{1 << 20, {}, {}, 4u});
        const Cell* sixteen = doc->find("uring-batch", SweepPoint{1 << 20, {}, {}, 16u});
        QVERIFY(four && sixteen);
        QCOMPARE(*four->queueDepth, 4u);
        QCOMPARE(*sixteen->queueDepth, 8u);
        const auto* shallow = findCondition<ShallowQueue>(sixteen->conditions);
        QVERIFY2(shallow && shallow->reached == 8 && shallow->asked == 16,
                 cellNotes(*sixteen).c_str());
        QVERIFY(!findCondition<ShallowQueue>(four->conditions));
    }

    // pread-coalesce's rounds read whole batches (what merges depends on how many ranges a
    // batch holds), verified like any other; each round says how many bytes it read for the
    // bytes it wanted, and the cell the median of that.
    void coalescingRoundsReadWholeBatches() {
        auto plan = smallPlan(*file_);
        plan.sizes = {4 << 10}; // 2048 ranges of the 8 MiB file
        plan.pattern = Pattern::Random;
        plan.strategies = {"pread-coalesce", "pread-uninit"};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        const Cell* c = doc->find("pread-coalesce", std::uint64_t(4 << 10));
        QVERIFY(c);
        QCOMPARE(c->checksum, Checksum::Verified);
        QCOMPARE(c->rangesPerRound % kCoalesceBatch, std::uint64_t(0));
        QVERIFY(c->readAmplification);
        // Sized by time, with two workers and a budget that is no whole number of batches:
        // each worker reads whole batches, and the prefix verified is the one read.
        plan.sizes = {1 << 10};
        plan.threads = 2;
        plan.budget = (7 << 20) + (512 << 10); // 7680 ranges
        plan.roundTimeSeconds = 0.015;
        plan.strategies = {"pread-coalesce"};
        auto timed = runPlan(plan, sink);
        QVERIFY(timed.ok());
        const Cell& t = timed->cells.front();
        QCOMPARE(t.checksum, Checksum::Verified);
        QCOMPARE(t.rangesPerRound % (2 * coalesceBatchRanges(1 << 10)), std::uint64_t(0));
        for (const auto& s : c->samples)
            QVERIFY(s.bytesRead > 0);
        // 1024 random 4 KiB ranges over 8 MiB lie a few KiB apart: a batch merges into spans
        // that read more than they want.
        QVERIFY2(*c->readAmplification > 1, std::to_string(*c->readAmplification).c_str());
        QVERIFY(!doc->find("pread-uninit", std::uint64_t(4 << 10))->readAmplification);
        QVERIFY(readAmplificationLine(*doc).starts_with("pread-coalesce read "));
    }

    // Rounds sized by time: each strategy reads a prefix of the cell's one sequence, fixed
    // before its measured rounds, at least 64 ranges, recorded per cell; with no round time,
    // every round reads the whole budget.
    void roundsAreSizedByTime() {
        auto plan = smallPlan(*file_);
        plan.sizes = {4 << 10}; // 2048 ranges of the 8 MiB file
        plan.strategies = {"pread-uninit", "mmap-copy"};
        // 100 ns: less than any 64 reads take on any machine, so the fit is always under the
        // floor (0.1 ms was not: a fast warm read of 64 pages fitted 65 ranges in CI).
        plan.roundTimeSeconds = 1e-7;
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QVERIFY(doc->fileGenerated); // readscope-cli generate's bytes: a rerun can make them
        const std::uint64_t all = file_->size() / (4 << 10);
        for (const auto& c : doc->cells) {
            QCOMPARE(c.checksum, Checksum::Verified); // over the prefix it reads
            QCOMPARE(c.rangesPerRound, std::uint64_t(minRangesPerRound(4 << 10))); // the floor
            QVERIFY(c.rangesPerRound < all);
            for (const auto& s : c.samples)
                QCOMPARE(s.bytes, c.rangesPerRound * (4 << 10)); // the same every round
        }
        plan.roundTimeSeconds = 0;
        auto whole = runPlan(plan, sink);
        QVERIFY(whole.ok());
        // Someone's own file is not mistaken for a generated one.
        QTemporaryDir dir;
        QFile own(dir.filePath("own.bin"));
        QVERIFY(own.open(QIODevice::WriteOnly));
        own.write(QByteArray(1 << 20, 'x'));
        own.close();
        auto ownPlan = plan;
        ownPlan.file = own.fileName().toStdString();
        ownPlan.sizes = {64 << 10};
        auto ownDoc = runPlan(ownPlan, sink);
        QVERIFY(ownDoc.ok());
        QVERIFY(!ownDoc->fileGenerated);
        for (const auto& c : whole->cells)
            QCOMPARE(c.rangesPerRound, all);
    }

    // A duration run measures for its time, not its round count, and places each round's
    // figure in time with the whole file's residency after it; nothing says its rounds were cut.
    void aDurationRunMeasuresForItsTime() {
        auto plan = smallPlan(*file_);
        plan.sizes = {4 << 10};
        plan.pattern = Pattern::Random;
        plan.strategies = {"pread-uninit", "mmap-copy"};
        plan.rounds = 2;
        plan.durationSeconds = 0.5;
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        // The run's measured window: from the first round's start to the last round's end, over
        // both cells. The scheduler starts a round only while the duration has not run out, and
        // stops at the first check after it has; only the untimed work around a round lies
        // outside the samples' own times (tenths of a second at most, under a sanitizer).
        double firstStart = 1e300, lastEnd = 0;
        for (const auto& c : doc->cells) {
            QVERIFY2(c.samples.size() > std::size_t(plan.rounds),
                     qPrintable(QString::number(c.samples.size())));
            QVERIFY2(!findCondition<RoundsCut>(c.conditions), cellNotes(c).c_str());
            double previous = 0;
            for (const auto& s : c.samples) {
                QVERIFY(s.startedAt && *s.startedAt >= previous);
                previous = *s.startedAt;
                firstStart = std::min(firstStart, *s.startedAt);
                lastEnd = std::max(lastEnd, *s.startedAt + s.seconds);
                if (c.residencyMethod.find("unverified") == std::string::npos)
                    QVERIFY(s.fileResidentAfter && *s.fileResidentAfter > 0.9); // warm, no limit
            }
        }
        // Its rounds read on past the prefix checked before them (the second strategy's from
        // the middle of the ranges): every range they read is checked after them, once.
        for (const auto& c : doc->cells) {
            QCOMPARE(c.checksum, Checksum::Verified);
            std::size_t lastRound = 0, verifyAfter = 0;
            for (std::size_t k = 0; k < sink.progress.size(); ++k) {
                const Progress& p = sink.progress[k];
                if (p.strategy != c.strategy)
                    continue;
                if (p.at.phase == RunPhase::Round || p.at.phase == RunPhase::TimedRound)
                    lastRound = k;
                else if (p.at.phase == RunPhase::Verifying && lastRound > 0)
                    verifyAfter = k;
            }
            QVERIFY2(verifyAfter > lastRound, c.strategy.c_str());
        }
        const double window = lastEnd - firstStart;
        qInfo("measured window %.3f s of a 0.5 s run", window);
        QVERIFY2(window > 0.5 - 0.15 && window < 0.5 + 2.0, qPrintable(QString::number(window)));
    }

    void coldRoundsStartCold() {
        auto plan = smallPlan(*file_);
        plan.cache = CacheMode::Cold;
        plan.sizes = {64 << 10};
        // mmap-copy-kept keeps its mapping across rounds: the runner must have it let go of
        // the file's pages around every eviction, or its rounds would start warm.
        plan.strategies = {"pread-uninit", "mmap-touch", "mmap-copy-kept"};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(3));
        for (const auto& c : doc->cells) {
            QVERIFY2(c.status != CellStatus::NotCold, c.message.c_str());
            QCOMPARE(c.checksum, Checksum::Verified);
            QVERIFY(c.residentBefore.has_value());
            qInfo("%s cold: %.3f%% resident before its rounds (%s)", c.strategy.c_str(),
                  *c.residentBefore * 100, c.residencyMethod.c_str());
            QVERIFY2(*c.residentBefore < 0.01, c.message.c_str());
            QVERIFY(!c.copyLimitGbps); // memory's ceiling says nothing about a device's
        }
    }

    // A cold random round reads each page of its ranges from storage once: its ranges are
    // disjoint, so the bytes the device fetched match the bytes wanted (ranges drawn with
    // replacement read about a quarter of a whole-file round from the page cache: 0.73x).
    void coldRandomRoundsFetchWhatTheyWant() {
        auto plan = smallPlan(*file_);
        plan.cache = CacheMode::Cold;
        plan.pattern = Pattern::Random;
        plan.sizes = {64 << 10};
        plan.budget = file_->size(); // every slot once a round
        plan.strategies = {"pread-uninit", "mmap-populate"};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        for (const auto& c : doc->cells) {
            QVERIFY2(c.measured() && c.status != CellStatus::NotCold, c.message.c_str());
            if (!c.fetchedPerWanted)
                QSKIP("this platform does not count the bytes a process read from storage");
            if (*c.deviceBytesRead == 0)
                QSKIP("the test file's filesystem reads from no device (tmpfs?)");
            qInfo("%s cold random 64 KiB: fetched %.3fx the bytes wanted", c.strategy.c_str(),
                  *c.fetchedPerWanted);
            for (const auto& s : c.samples) {
                QVERIFY(s.deviceBytes);
                const double ratio = *s.deviceBytes / double(s.bytes);
                QVERIFY2(ratio > 0.97 && ratio < 1.05, qPrintable(QString::number(ratio)));
            }
        }
        // mmap-populate populates from its lowest range to its highest: the whole file here,
        // recorded as bytes read.
        const Cell* populate = doc->find("mmap-populate", 64 << 10);
        QVERIFY(populate && populate->readAmplification);
        QVERIFY2(*populate->readAmplification >= 1.0 && *populate->readAmplification < 1.01,
                 qPrintable(QString::number(*populate->readAmplification)));
    }

    // A prefix of random ranges populates the span between them: mmap-populate's bytes read
    // exceed the bytes wanted.
    void populateRecordsTheSpanItPopulated() {
        auto plan = smallPlan(*file_);
        plan.pattern = Pattern::Random;
        plan.sizes = {64 << 10};
        plan.budget = 4 * (64 << 10); // 4 ranges of 128 slots, far apart
        plan.strategies = {"mmap-populate"};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell* c = doc->find("mmap-populate", 64 << 10);
        QVERIFY(c && c->measured());
        QVERIFY(c->readAmplification);
        qInfo("mmap-populate, 4 random 64 KiB ranges of 8 MiB: populated %.2fx the bytes wanted",
              *c->readAmplification);
        QVERIFY(*c->readAmplification > 2);
        QVERIFY(readAmplificationLine(*doc).find("mmap-populate read") != std::string::npos);
    }

    void directModeRunsOnlyDirect() {
        auto plan = smallPlan(*file_);
        plan.cache = CacheMode::Direct;
        plan.strategies = {"pread-uninit", "direct-pread"};
        plan.sizes = {64 << 10};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell* buffered = doc->find("pread-uninit", 64 << 10);
        QVERIFY(buffered);
        QCOMPARE(testing::name(buffered->status), testing::name(CellStatus::Unavailable));
        QVERIFY(buffered->message.find("direct") != std::string::npos);
        const Cell* direct = doc->find("direct-pread", 64 << 10);
        QVERIFY(direct);
        if (direct->status == CellStatus::Unavailable)
            QSKIP("O_DIRECT is refused on the test file's filesystem");
        QCOMPARE(direct->checksum, Checksum::Verified);
        // Its rounds start from an evicted file (the verification's reference pass read it
        // through the page cache just before).
        if (file_->probe().residencyVerifiable) {
            QVERIFY(direct->residentBefore);
            QVERIFY2(*direct->residentBefore < 0.01, direct->residencyMethod.c_str());
        }
    }

    // Two workers read half the ranges each: every range a worker reads is one of its own
    // share's 64 (indices 0-63 of its part), read on a thread of its own.
    void threadsSplitTheBudget() {
        auto plan = smallPlan(*file_);
        plan.threads = 2;
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit", "seek-read", "uring-batch"};
        struct Seen {
            std::mutex mutex;
            std::map<std::thread::id, std::set<std::size_t>> indices;
        } seen;
        setRangeReadHookForTesting(
            [](std::size_t index, void* context) {
                auto& s = *static_cast<Seen*>(context);
                std::lock_guard lock(s.mutex);
                s.indices[std::this_thread::get_id()].insert(index);
            },
            &seen);
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        setRangeReadHookForTesting(nullptr, nullptr);
        QVERIFY(doc.ok());
        for (const auto& c : doc->cells) {
            if (c.status == CellStatus::Unavailable)
                continue;
            QCOMPARE(c.checksum, Checksum::Verified);
            for (const auto& s : c.samples)
                QCOMPARE(s.bytes, std::uint64_t(8 << 20));
        }
        // 128 ranges of 64 KiB a round, 64 a worker; a thread that read them all would have
        // read indices up to 127. (The verification reads on the runner's own thread.)
        const auto runner = std::this_thread::get_id();
        std::size_t workers = 0;
        for (const auto& [thread, indices] : seen.indices) {
            if (thread == runner)
                continue;
            ++workers;
            QVERIFY2(
                *indices.rbegin() < 64,
                qPrintable(QString("a worker read range %1 of its part").arg(*indices.rbegin())));
        }
        QVERIFY(workers >= 2);
    }

    void wholeFilePattern() {
        auto plan = smallPlan(*file_);
        plan.pattern = Pattern::Whole;
        plan.strategies = {"read-grow", "read-prealloc"};
        plan.consume = Consume::All;
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(2));
        QCOMPARE(doc->cells[0].rangeBytes, file_->size());
        QCOMPARE(doc->cells[0].rangesPerRound, std::uint64_t(1));
        // Growing from 8 KiB to 8 MiB takes many more reads than one preallocated read.
        QVERIFY(doc->cells[0].samples[0].syscalls > doc->cells[1].samples[0].syscalls);
    }

    void resumingAFinishedWholeFileRunMeasuresNothingAgain() {
        // A whole-file run killed after its last cell reached the recovery file: every cell is
        // there, so resuming must finish without measuring (or listing) anything twice.
        auto plan = smallPlan(*file_);
        plan.pattern = Pattern::Whole;
        plan.strategies = {"read-grow", "read-prealloc"};
        RecordingSink sink;
        auto full = runPlan(plan, sink);
        QVERIFY(full.ok());
        ResultDocument recovered = *full;
        recovered.complete = false;
        RecordingSink again;
        auto resumed = resumeRun(recovered, again);
        QVERIFY(resumed.ok());
        QVERIFY(resumed->complete);
        QCOMPARE(resumed->cells.size(), std::size_t(2));
        QVERIFY(!again.started); // nothing was measured again
        // With one cell missing, only that one is measured.
        recovered.cells.pop_back();
        auto finished = resumeRun(recovered, again);
        QVERIFY(finished.ok());
        QCOMPARE(finished->cells.size(), std::size_t(2));
        QVERIFY(finished->find("read-prealloc", file_->size()));
    }

    // Killed between rounds: the recovery file holds every cell as its last round left it
    // (partial), and resuming goes on from those rounds to the plan's, with the same ranges
    // per round, instead of measuring the cells again.
    void aRunKilledBetweenRoundsResumesFromThem() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10, 1 << 20};
        plan.rounds = 4;
        plan.strategies = {"pread-uninit", "seek-read"};
        QTemporaryDir dir;
        const std::string path = dir.filePath("recovery.jsonl").toStdString();
        const std::string crash = dir.filePath("at-the-crash.jsonl").toStdString();
        // What a kill -9 would leave: the recovery file as it stood after the 5th round of a
        // point (every point has 2 rounds, one of them 3).
        struct CrashImage : RecordingSink {
            std::string from, to;
            int rounds = 0;
            void onRoundMeasured(const Cell&) override {
                if (++rounds == 2 * 5) // two strategies a point's round
                    std::filesystem::copy_file(from, to);
            }
        } inner;
        inner.from = path;
        inner.to = crash;
        RecoverySink recovery(inner, path);
        auto full = runPlan(plan, recovery);
        QVERIFY(full.ok());
        auto recovered = readRecovery(crash);
        QVERIFY2(recovered.ok(), recovered.ok() ? "" : recovered.error().message.c_str());
        QCOMPARE(recovered->cells.size(), std::size_t(4));
        std::size_t rounds = 0;
        for (const auto& c : recovered->cells) {
            QVERIFY(c.partial);
            rounds += c.samples.size();
        }
        QCOMPARE(rounds, std::size_t(2 * 5));
        QVERIFY2(recovered->note.find("4 cut short between rounds") != std::string::npos,
                 recovered->note.c_str());
        RecordingSink again;
        auto resumed = resumeRun(*recovered, again);
        QVERIFY(resumed.ok());
        QVERIFY(resumed->complete);
        QCOMPARE(resumed->cells.size(), std::size_t(4));
        for (const auto& c : resumed->cells) {
            const Cell* before = recovered->find(c.strategy, c.point());
            QVERIFY(before);
            QVERIFY(!c.partial);
            QCOMPARE(c.samples.size(), std::size_t(4));
            QCOMPARE(c.rangesPerRound, before->rangesPerRound);
            for (std::size_t r = 0; r < before->samples.size(); ++r) { // kept as they were
                QCOMPARE(c.samples[r].round, before->samples[r].round);
                QCOMPARE(c.samples[r].seconds, before->samples[r].seconds);
            }
            for (std::size_t r = 0; r < c.samples.size(); ++r) // numbered on from them
                QCOMPARE(c.samples[r].round, int(r) + 1);
        }
    }

    // --repeat 2: the whole run twice, from its own set-up each time; the document pools the
    // rounds, numbered on, each saying its repeat.
    void repeatsPoolTheirRounds() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit", "seek-read"};
        plan.rounds = 3;
        plan.repeats = 2;
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QVERIFY(doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(2));
        for (const auto& c : doc->cells) {
            QCOMPARE(c.samples.size(), std::size_t(6));
            for (std::size_t r = 0; r < 6; ++r) {
                QCOMPARE(c.samples[r].round, int(r) + 1);
                QCOMPARE(c.samples[r].repeat, r < 3 ? 0 : 1);
            }
        }
        QVERIFY(std::any_of(sink.progress.begin(), sink.progress.end(), [](const Progress& p) {
            return p.repeat == 2 && p.repeats == 2 && phaseText(p).starts_with("repeat 2/2: ");
        }));
        // The second repeat's cells reach the sink pooled with the first's rounds.
        QCOMPARE(sink.cells.back().samples.size(), std::size_t(6));
    }

    // Each round records what else ran on the machine: with another process holding a core,
    // the run's rounds say others kept the CPUs busy.
    void roundsRecordWhatElseRan() {
        if (!QFile::exists("/proc/stat"))
            QSKIP("this platform has no /proc/stat to read the machine's CPU time from");
#if defined(__SANITIZE_THREAD__)
        // The busy process is forked from this threaded one, after which the run starts its
        // threads: ThreadSanitizer refuses that. The dev and ASan builds run this test.
        QSKIP("not in this build: ThreadSanitizer does not allow threads started after a fork");
#endif
        QProcess busy;
        busy.start("sh", {"-c", "while :; do :; done"});
        QVERIFY(busy.waitForStarted());
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit"};
        // Rounds that read the whole 128 MiB budget (random ranges: passes over the file), 10 ms
        // or more each even at 12 GB/s, 100 of them: over a second, 100 of /proc/stat's ticks.
        plan.pattern = Pattern::Random;
        plan.budget = 128 << 20;
        plan.roundTimeSeconds = 0;
        plan.rounds = 100;
        plan.warmup = 0;
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        busy.kill();
        busy.waitForFinished();
        QVERIFY(doc.ok());
        for (const auto& s : doc->cells[0].samples) {
            QVERIFY(s.stolenSeconds && *s.stolenSeconds >= 0);
            QVERIFY(s.otherCpuSeconds && *s.otherCpuSeconds >= 0);
        }
        const Disturbance d = runDisturbance(*doc);
        qInfo("with a shell loop on one core: others %.0f%%, steal %.0f%%, preempted in %d of "
              "%d rounds: %s",
              d.otherShare * 100, d.stolenShare * 100, d.preemptedRounds, d.rounds,
              disturbanceText(d).c_str());
        QVERIFY(d.measured);
        // One of the machine's cores kept busy for the whole run: its share of all the CPUs'
        // time (48-51% of two here), whatever else was running (only more); half of it allows
        // for the ticks and for the loop losing its core to the run now and then.
        QVERIFY2(d.otherShare > 0.5 / std::max(1, doc->system.logicalCores),
                 qPrintable(QString::number(d.otherShare)));
    }

    // --precision: rounds go on for the cells still wider than asked, and only for those,
    // until the run's maximum time; a cell that did not get there says so.
    void precisionAddsRoundsToWideCells() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 10, 1 << 20};
        plan.strategies = {"pread-uninit", "seek-read"};
        plan.rounds = 5;
        plan.precision = kMinPrecision; // ±0.1%: out of reach in two seconds
        plan.maxTimeSeconds = 2;
        // When the planned rounds were over (the run's clock starts after this one's).
        struct TimedSink : RecordingSink {
            QElapsedTimer clock;
            qint64 plannedDoneMs = -1;
            std::size_t longest = 0;
            void onRoundMeasured(const Cell& c) override {
                if (c.samples.size() == 5)
                    plannedDoneMs = clock.elapsed();
                longest = std::max(longest, c.samples.size());
            }
        } sink;
        sink.clock.start();
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QVERIFY(doc->complete);
        QVERIFY2(sink.clock.elapsed() < 30000, "the maximum time bounds the extra rounds");
        for (const auto& c : doc->cells) {
            for (std::size_t r = 0; r < c.samples.size(); ++r)
                QCOMPARE(c.samples[r].round, int(r) + 1);
            if (c.summary.uncertainty() > plan.precision) {
                const auto* missed = findCondition<PrecisionNotMet>(c.conditions);
                QVERIFY2(missed, cellNotes(c).c_str());
                QCOMPARE(missed->asked, plan.precision);
                QCOMPARE(missed->rounds, int(c.samples.size()));
            }
        }
        qInfo("planned rounds done after %lld ms; up to %zu rounds a cell", sink.plannedDoneMs,
              sink.longest);
        if (sink.plannedDoneMs >= 0 && sink.plannedDoneMs < 1500) // time was left: used
            QVERIFY(sink.longest > 5);
        // Asked for what the rounds already give: nothing more is measured (12 rounds: an
        // interval from the 3rd to the 10th, which a loaded machine's one or two wild rounds
        // do not widen past ±50%). A cell whose planned rounds did not give it (three wild
        // rounds in twelve, as a sanitized build on a busy VM saw) rightly got more: judged
        // by its planned rounds, not assumed.
        plan.precision = kMaxPrecision;
        plan.rounds = 12;
        auto easy = runPlan(plan, sink);
        QVERIFY(easy.ok());
        int judged = 0;
        for (const auto& c : easy->cells) {
            QVERIFY(c.samples.size() >= 12);
            Cell planned = c;
            planned.samples.resize(12);
            if (!meetsPrecision(planned, plan.precision)) {
                qInfo("%s: its 12 rounds did not give ±50%%, so it was refined",
                      c.strategy.c_str());
                continue;
            }
            ++judged;
            QCOMPARE(c.samples.size(), std::size_t(12));
            QVERIFY2(!findCondition<PrecisionNotMet>(c.conditions), cellNotes(c).c_str());
        }
        QVERIFY2(judged > 0, "every cell's planned rounds were wider than ±50%");
    }

    // Refine: a finished run's noisy cells get more rounds; the quiet ones, and every cell of
    // a point without a noisy one, are not measured again.
    void refineMeasuresOnlyTheNoisyCells() {
        auto plan = smallPlan(*file_);
        plan.strategies = {"pread-uninit", "seek-read"};
        plan.rounds = 8;
        RecordingSink sink;
        auto done = runPlan(plan, sink);
        QVERIFY(done.ok());
        QCOMPARE(done->cells.size(), std::size_t(4));
        // At 16 KiB: pread-uninit made wide (every other round 3x slower), seek-read made
        // exact (every round alike). At 256 KiB: both made exact.
        for (auto& c : done->cells) {
            for (std::size_t r = 0; r < c.samples.size(); ++r) {
                c.samples[r].seconds = c.samples[0].seconds;
                if (c.rangeBytes == (16 << 10) && c.strategy == "pread-uninit" && r % 2)
                    c.samples[r].seconds *= 3;
            }
            c.summarize();
        }
        // A quiet cell keeps what it recorded (its notes too), and, cut to 6 rounds (as the
        // time cap cuts), gets no planned rounds it missed.
        for (auto& c : done->cells) {
            if (c.strategy == "seek-read" && c.rangeBytes == (16 << 10)) {
                c.message = "a note of the run";
                c.samples.resize(6); // beside the noisy cell, at the point that is refined
                c.summarize();
            }
        }
        const ResultDocument before = *done;
        auto refined = refineRun(before, 0.05, 2, sink);
        QVERIFY2(refined.ok(), refined.ok() ? "" : refined.error().message.c_str());
        QCOMPARE(refined->cells.size(), before.cells.size());
        for (std::size_t i = 0; i < before.cells.size(); ++i) {
            const Cell& was = before.cells[i];
            const Cell& now = refined->cells[i];
            QCOMPARE(now.strategy, was.strategy);
            if (was.rangeBytes == (16 << 10) && was.strategy == "pread-uninit") {
                QVERIFY2(now.samples.size() > was.samples.size(), "the noisy cell got rounds");
                for (std::size_t r = 0; r < now.samples.size(); ++r)
                    QCOMPARE(now.samples[r].round, int(r) + 1); // numbered on
                for (std::size_t r = 0; r < was.samples.size(); ++r)
                    QCOMPARE(now.samples[r].seconds, was.samples[r].seconds); // kept
                QCOMPARE(now.rangesPerRound, was.rangesPerRound);
            } else {
                QCOMPARE(now.samples.size(), was.samples.size()); // not measured again
                QCOMPARE(now.samples.back().seconds, was.samples.back().seconds);
                QCOMPARE(now.message, was.message);
            }
        }
        // What the refinement says replaces the run's notes (once, however often it ran).
        QCOMPARE(refined->notes.size(), std::size_t(1));
        QVERIFY(refined->note.empty());
        const auto* outcome = refined->notes.back().as<Refined>();
        QVERIFY(outcome);
        QCOMPARE(outcome->gained, std::size_t(1));
        QVERIFY(!outcome->stopped);
        QVERIFY2(documentNote(*refined).find("refined toward ±5%: 1 cells got more rounds") !=
                     std::string::npos,
                 documentNote(*refined).c_str());
        // Nothing noisy: nothing measured, and it says so.
        auto again = refineRun(before, 5.0, 2, sink);
        QVERIFY(again.ok());
        QVERIFY(again->notes.back().as<NothingToRefine>());
        QVERIFY2(documentNote(*again).find("nothing to refine") != std::string::npos,
                 documentNote(*again).c_str());
        // Results of another machine, or of a file that changed, are not refined here.
        ResultDocument elsewhere = before;
        elsewhere.system.cpuModel = "Another CPU";
        auto mixed = refineRun(elsewhere, 0.05, 2, sink);
        QVERIFY(!mixed.ok());
        QVERIFY2(mixed.error().message.find("measured on Another CPU") != std::string::npos,
                 mixed.error().message.c_str());
        ResultDocument resized = before;
        resized.fileSize += 4096;
        QVERIFY(!refineRun(resized, 0.05, 2, sink).ok());
        // A whole-file sweep's copies are gone: refused with the reason.
        ResultDocument whole = before;
        whole.plan.pattern = Pattern::Whole;
        whole.plan.fileSizes = {4096};
        auto refused = refineRun(whole, 0.05, 2, sink);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("whole-file") != std::string::npos);
    }

    void stopMidCellIsPromptAndKeepsTheRecordedRounds() {
        auto plan = smallPlan(*file_);
        plan.sizes = {256 << 10, 4 << 10};
        plan.rounds = 10000; // minutes of rounds: the stop always lands mid-cell
        plan.timeCapSeconds = 600;
        plan.warmup = 0;
        // The stop comes from another thread, as a front end's does, once the first size's
        // round 3 is under way; the runner's progress callback says when that is.
        struct SignallingSink : RecordingSink {
            std::binary_semaphore round3{0};
            bool signalled = false;
            void onProgress(const Progress& p) override {
                if (!signalled && p.at.phase == RunPhase::Round && p.at.round == 3) {
                    signalled = true;
                    round3.release();
                }
            }
        } sink;
        std::stop_source stop;
        QElapsedTimer sinceStop;
        std::jthread stopper([&] {
            sink.round3.acquire();
            sinceStop.start();
            stop.request_stop();
        });
        auto doc = runPlan(plan, sink, stop.get_token());
        const bool signalled = sink.signalled;
        if (!signalled)
            sink.round3.release(); // the run ended early: let the stopper go, then fail
        stopper.join();
        const qint64 ms = sinceStop.elapsed();
        QVERIFY2(signalled, "the run never reached round 3");
        QVERIFY(doc.ok());
        QVERIFY(!doc->complete);
        // The rounds recorded before the stop are kept, and each cell says it was stopped.
        QVERIFY(!doc->cells.empty());
        for (const auto& c : doc->cells) {
            QVERIFY(!c.samples.empty() && c.samples.size() < 10);
            const auto* cut = findCondition<RoundsCut>(c.conditions);
            QVERIFY2(cut && cut->stopped, cellNotes(c).c_str());
        }
        qInfo("stop honoured %lld ms after it was requested", ms);
        // Time is the thing tested here: the stop is checked before every range, so the run
        // ends within one 256 KiB read plus the round's bookkeeping (well under 10 ms). 2 s
        // is far beyond that on any machine, loaded or sanitized, and far below the minutes
        // the run would take if the stop were ignored.
        QVERIFY2(ms < 2000, "the run must end promptly after a stop");
    }

    // A stop while a warm run takes its opening prices (untimed passes of memcpy and of the
    // kernel's copy over up to 128 MiB, seconds under a sanitizer) ends the run there: no
    // strategy is calibrated or verified after it. Before, the passes and the first
    // strategy's calibration ran on, and an interrupted CLI took seconds to exit.
    void aStopDuringTheOpeningPricesEndsTheRunThere() {
        auto plan = smallPlan(*file_);
        plan.cache = CacheMode::Warm;
        struct StopSink : RecordingSink {
            std::stop_source stop;
            std::vector<std::string> after;
            void onProgress(const Progress& p) override {
                if (stop.stop_requested())
                    after.push_back(phaseText(p));
                else if (p.at.phase == RunPhase::OpeningPrices)
                    stop.request_stop();
            }
        } sink;
        auto doc = runPlan(plan, sink, sink.stop.get_token());
        QVERIFY(sink.stop.stop_requested()); // the prices were reached
        QVERIFY(doc.ok());
        QVERIFY(!doc->complete);
        QVERIFY(doc->cells.empty());
        QVERIFY2(sink.after.empty(), sink.after.empty() ? "" : sink.after.front().c_str());
    }

    // A stop after the first recorded round keeps that round's cells, each with its one
    // round, and leaves out the cells the run had not yet reached.
    void stopAfterARoundKeepsIt() {
        auto plan = smallPlan(*file_);
        plan.sizes = {1 << 20, 4 << 10};
        plan.rounds = 3;
        plan.strategies = {"pread-uninit"};
        struct StopSink : RecordingSink {
            std::stop_source stop;
            std::vector<Cell> rounds;
            void onRoundMeasured(const Cell& c) override {
                rounds.push_back(c);
                stop.request_stop();
            }
        } sink;
        auto doc = runPlan(plan, sink, sink.stop.get_token());
        QVERIFY(doc.ok());
        QVERIFY(!doc->complete);
        QCOMPARE(sink.rounds.size(), std::size_t(1));
        QCOMPARE(doc->cells.size(), std::size_t(1));
        QCOMPARE(doc->cells[0].rangeBytes, sink.rounds[0].rangeBytes);
        QCOMPARE(doc->cells[0].samples.size(), std::size_t(1));
        QCOMPARE(doc->cells[0].conditions.at(0), (CellCondition{RoundsCut{1, 3, true}}));
    }

    // A duration run stopped in its rounds has not checked the ranges they read: its cells
    // say so rather than "verified".
    void aStoppedDurationRunSaysItsRangesWentUnchecked() {
        const auto plan = oneDurationCell(*file_, 30);
        struct StopSink : RecordingSink {
            std::stop_source stop;
            void onRoundMeasured(const Cell&) override { stop.request_stop(); }
        } sink;
        auto doc = runPlan(plan, sink, sink.stop.get_token());
        QVERIFY(doc.ok());
        QVERIFY(!doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(1));
        QCOMPARE(doc->cells[0].checksum, Checksum::NotCheckedStopped);
    }

    // A duration run whose file changed while it ran cannot check its rounds' ranges against
    // the file as it now is: its cells say so, keep their figures, and do not fail as if the
    // strategy had returned wrong bytes.
    void aDurationRunOverAChangedFileSaysItsRangesWentUnchecked() {
        TestFile own(4 << 20);
        const auto plan = oneDurationCell(own, 0.3);
        struct TouchSink : RecordingSink {
            std::string path;
            bool touched = false;
            void onRoundMeasured(const Cell&) override {
                if (!touched) { // a new modification time, the bytes as they were
                    const timespec times[2] = {{0, UTIME_OMIT}, {12345, 0}};
                    touched = ::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0;
                }
            }
        } sink;
        sink.path = own.path();
        auto doc = runPlan(plan, sink);
        QVERIFY(sink.touched);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(1));
        const Cell& c = doc->cells[0];
        QVERIFY2(c.status != CellStatus::Failed, c.message.c_str());
        QCOMPARE(c.checksum, Checksum::NotCheckedFileChanged);
        // Said once, as a value: which file, from which range size; its words are the
        // documents'.
        std::vector<FileChangedDuringRun> changes;
        for (const RunWarning& w : sink.said)
            if (const auto* change = w.as<FileChangedDuringRun>())
                changes.push_back(*change);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].path, own.path());
        QCOMPARE(changes[0].fromRangeBytes, c.rangeBytes);
        QCOMPARE(changes[0].change.how, FileChange::How::Modified);
        const auto said = std::find_if(sink.said.begin(), sink.said.end(), [](const auto& w) {
            return w.template as<FileChangedDuringRun>();
        });
        const std::string words = warningText(*said);
        QVERIFY2(words.starts_with("'" + own.path() + "' changed during the run ("), words.c_str());
    }

    // Every cell's rounds are spread over the run: each round visits every point (in a seeded
    // order of its own) before any point has its next round, and each recorded round reaches
    // the sink as it ends.
    void roundsVisitEveryPointInTurn() {
        auto plan = smallPlan(*file_);
        plan.sizes = {4 << 10, 64 << 10, 1 << 20};
        plan.rounds = 4;
        plan.strategies = {"pread-uninit", "seek-read"};
        struct RoundSink : RecordingSink {
            std::vector<Cell> rounds;
            void onRoundMeasured(const Cell& c) override { rounds.push_back(c); }
        } sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(sink.rounds.size(), std::size_t(3 * 4 * 2)); // points x rounds x strategies
        std::vector<std::uint64_t> order; // the point of each (point, round) in turn
        for (std::size_t i = 0; i < sink.rounds.size(); i += 2) {
            QCOMPARE(sink.rounds[i].rangeBytes, sink.rounds[i + 1].rangeBytes);
            QCOMPARE(sink.rounds[i].samples.size(), sink.rounds[i + 1].samples.size());
            order.push_back(sink.rounds[i].rangeBytes);
        }
        bool reordered = false;
        for (std::size_t r = 0; r < 4; ++r) {
            std::vector<std::uint64_t> round(order.begin() + std::ptrdiff_t(3 * r),
                                             order.begin() + std::ptrdiff_t(3 * r + 3));
            for (std::size_t k = 0; k < 3; ++k)
                QCOMPARE(sink.rounds[2 * (3 * r + k)].samples.size(), r + 1);
            reordered |=
                r > 0 && round != std::vector<std::uint64_t>(order.begin(), order.begin() + 3);
            std::sort(round.begin(), round.end());
            QCOMPARE(round, (std::vector<std::uint64_t>{4 << 10, 64 << 10, 1 << 20}));
        }
        QVERIFY(reordered); // the order is drawn anew each round
        for (const auto& c : doc->cells)
            QCOMPARE(c.samples.size(), std::size_t(4));
    }

    void badPlanIsAnError() {
        auto plan = smallPlan(*file_);
        plan.sizes = {64 << 20};
        RecordingSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(!doc.ok());
        QVERIFY(!sink.started);
    }

    void targetIsNeverWritten() {
        const auto before = testing::fileFingerprint(file_->path());
        for (auto cache : {CacheMode::Warm, CacheMode::Cold, CacheMode::Direct}) {
            Plan plan = smallPlan(*file_);
            plan.cache = cache;
            plan.rounds = 1;
            plan.warmup = 0;
            plan.sizes = {64 << 10};
            plan.strategies.clear();
            for (const auto& s : strategies())
                plan.strategies.emplace_back(s.id);
            RecordingSink sink;
            QVERIFY(runPlan(plan, sink).ok());
        }
        QCOMPARE(testing::fileFingerprint(file_->path()), before);
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "tst_runner.moc"
