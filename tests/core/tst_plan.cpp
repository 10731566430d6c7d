// Plans and files are checked up front; every bad one is named with what to do about it.
#include "as_nobody.h"
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/ranges.h"
#include "test_file.h"

#include "readscope/residency.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <sys/stat.h>
#include <unistd.h>

using namespace readscope;
using readscope::testing::TestFile;

namespace {
QString messageOf(const Status& s) {
    return s.ok() ? QString() : QString::fromStdString(s.error().message);
}
} // namespace

class TestPlan : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void initTestCase() { file_ = std::make_unique<TestFile>(1 << 20); }

    void probeGoodFile() {
        auto p = probeFile(file_->path());
        QVERIFY(p.ok());
        QCOMPARE(p->size, std::uint64_t(1 << 20));
        QVERIFY(!p->filesystem.empty());
        QVERIFY(p->pageSize >= 4096);
    }

    void probeBadFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("missing") << file_->dir() + "/nope.bin"
                                 << "does not exist";
        QTest::newRow("directory") << file_->dir() << "a directory";
        QTest::newRow("device") << "/dev/null"
                                << "a character device";
        QTest::newRow("empty path") << ""
                                    << "no file given";
    }
    void probeBadFiles() {
        QFETCH(QString, path);
        QFETCH(QString, mentions);
        auto p = probeFile(path.toStdString());
        QVERIFY(!p.ok());
        const auto msg = QString::fromStdString(p.error().message);
        QVERIFY2(msg.contains(mentions), qPrintable(msg));
        if (!path.isEmpty())
            QVERIFY2(msg.contains(path), qPrintable(msg));
    }

    void probeFifoDoesNotBlock() {
        const auto fifo = (file_->dir() + "/fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto p = probeFile(fifo);
        QVERIFY(!p.ok());
        QVERIFY(QString::fromStdString(p.error().message).contains("a FIFO"));
    }

    void probeEmptyFile() {
        const auto path = file_->dir() + "/empty.bin";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto p = probeFile(path.toStdString());
        QVERIFY(!p.ok());
        QVERIFY(QString::fromStdString(p.error().message).contains("is empty"));
    }

    void probeUnreadable() {
        READSCOPE_AS_NOBODY("probeUnreadable"); // root reads files without read permission
        const auto path = file_->dir() + "/secret.bin";
        TestFile secret(4096);
        QVERIFY(QFile::copy(QString::fromStdString(secret.path()), path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
        auto p = probeFile(path.toStdString());
        QVERIFY(!p.ok());
        QVERIFY(QString::fromStdString(p.error().message).contains("cannot open"));
    }

    void validation_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no strategies") << "strategies="
                                       << "no strategies";
        QTest::newRow("unknown strategy") << "strategy=bogus"
                                          << "unknown strategy 'bogus'";
        QTest::newRow("twice") << "strategy=pread-uninit"
                               << "named twice";
        QTest::newRow("size larger than file") << "size=2M"
                                               << "larger than the file";
        QTest::newRow("size zero") << "size=0"
                                   << "range size 0";
        QTest::newRow("no sizes") << "sizes="
                                  << "no range sizes";
        QTest::newRow("threads") << "threads=0"
                                 << "threads 0";
        QTest::newRow("rounds") << "rounds=0"
                                << "rounds 0";
        QTest::newRow("warmup") << "warmup=-1"
                                << "warm-up rounds -1";
        QTest::newRow("budget") << "budget=100"
                                << "budget";
        QTest::newRow("file sizes without whole") << "fileSizes=8K"
                                                  << "file sizes are for the whole pattern";
        QTest::newRow("file size zero") << "whole,fileSizes=0"
                                        << "file size 0";
        QTest::newRow("file size twice") << "whole,fileSizes=8K,8K"
                                         << "file size 8 KiB is named twice";
        QTest::newRow("every file size too large") << "whole,fileSizes=2M"
                                                   << "every file size is larger";
        QTest::newRow("file sizes and an offset sweep") << "whole,offsets,fileSizes=8K"
                                                        << "buffer offsets would make that the "
                                                           "sweep's axis too";
        QTest::newRow("file sizes and a threads sweep") << "whole,threads=1,2,fileSizes=8K"
                                                        << "a list of thread counts";
        QTest::newRow("threads sweep, two sizes") << "threads=1,2,sizes=2"
                                                  << "a threads sweep measures one range size";
        QTest::newRow("two sweep axes") << "threads=1,2,depths=1,4"
                                        << "sweeps one thing at a time";
        QTest::newRow("thread count out of range") << "threads=1,300"
                                                   << "threads 300 is out of range";
        QTest::newRow("thread count twice") << "threads=2,2"
                                            << "thread count is named twice";
        QTest::newRow("depth zero") << "uring,depths=0"
                                    << "queue depth 0 is out of range";
        QTest::newRow("depth sweep without io_uring") << "depths=1,4"
                                                      << "add uring-batch";
        QTest::newRow("one depth without io_uring") << "depths=16"
                                                    << "applies to io_uring strategies";
    }
    void validation() {
        QFETCH(QString, field);
        QFETCH(QString, mentions);
        Plan plan;
        plan.file = file_->path();
        plan.strategies = {"pread-uninit"};
        plan.sizes = {64 << 10};
        if (field == "strategies=")
            plan.strategies.clear();
        if (field == "strategy=bogus")
            plan.strategies.push_back("bogus");
        if (field == "strategy=pread-uninit")
            plan.strategies.push_back("pread-uninit");
        if (field == "size=2M")
            plan.sizes = {2 << 20};
        if (field == "size=0")
            plan.sizes = {0};
        if (field == "sizes=")
            plan.sizes.clear();
        if (field == "threads=0")
            plan.threads = 0;
        if (field == "rounds=0")
            plan.rounds = 0;
        if (field == "warmup=-1")
            plan.warmup = -1;
        if (field == "budget=100")
            plan.budget = 100;
        if (field.startsWith("whole,"))
            plan.pattern = Pattern::Whole;
        if (field.contains(",offsets,"))
            plan.bufferOffsets = {0, 64};
        if (field.endsWith("fileSizes=8K"))
            plan.fileSizes = {8 << 10};
        if (field.endsWith("fileSizes=0"))
            plan.fileSizes = {0};
        if (field.endsWith("fileSizes=8K,8K"))
            plan.fileSizes = {8 << 10, 8 << 10};
        if (field.endsWith("fileSizes=2M"))
            plan.fileSizes = {2 << 20};
        if (field.contains("threads=1,2"))
            plan.threadCounts = {1, 2};
        if (field.contains("threads=1,300"))
            plan.threadCounts = {1, 300};
        if (field.contains("threads=2,2"))
            plan.threadCounts = {2, 2};
        if (field.contains("sizes=2"))
            plan.sizes = {64 << 10, 128 << 10};
        if (field.contains("depths=1,4"))
            plan.queueDepths = {1, 4};
        if (field.contains("depths=0"))
            plan.queueDepths = {0};
        if (field.contains("depths=16"))
            plan.queueDepths = {16};
        if (field.startsWith("uring,"))
            plan.strategies = {"uring-batch"};
        const auto msg = messageOf(validatePlan(plan, file_->probe()));
        QVERIFY2(msg.contains(mentions), qPrintable(msg));
    }

    void aChosenQueueDepthKeepsItsPoolBounded() {
        // depth x range size x workers of buffers: 64 x 8 MiB x 2 is refused, 32 x 8 MiB x 2
        // is not. A sparse file: only its size matters to validatePlan.
        QTemporaryDir dir;
        const FileProbe probe = testing::sparseFileProbe(dir, 1ull << 30);
        Plan plan;
        plan.file = probe.path;
        plan.strategies = {"uring-batch"};
        plan.sizes = {8 << 20};
        plan.queueDepths = {64};
        plan.threadCounts = {1, 2};
        const auto msg = messageOf(validatePlan(plan, probe));
        QVERIFY2(msg.contains("queue depth 64 at 8 MiB with 2 threads would keep 1 GiB"),
                 qPrintable(msg));
        plan.queueDepths = {32};
        QVERIFY(validatePlan(plan, probe).ok());
    }

    // A memory limit too small for readscope itself is refused before anything runs.
    void aDurationIsCheckedAndNeedsRanges() {
        Plan plan;
        plan.file = file_->path();
        plan.strategies = {"pread-uninit"};
        plan.sizes = {64 << 10};
        plan.durationSeconds = 30;
        QCOMPARE(messageOf(validatePlan(plan, file_->probe())), QString());
        plan.durationSeconds = kMaxDurationSeconds + 1;
        QVERIFY(messageOf(validatePlan(plan, file_->probe())).contains("the duration must be"));
        plan.durationSeconds = -1;
        QVERIFY(messageOf(validatePlan(plan, file_->probe())).contains("the duration must be"));
        plan.durationSeconds = 30;
        plan.pattern = Pattern::Whole;
        plan.sizes.clear();
        QVERIFY(
            messageOf(validatePlan(plan, file_->probe())).contains("the whole pattern has none"));
        // Rounds for a time and rounds until a precision cannot both end the run.
        plan.pattern = Pattern::Random;
        plan.sizes = {64 << 10};
        plan.precision = 0.02;
        QVERIFY(messageOf(validatePlan(plan, file_->probe())).contains("use one or the other"));
    }

    void aMemoryLimitLeavesRoomForReadscope() {
        Plan plan;
        plan.file = file_->path();
        plan.strategies = {"pread-uninit"};
        plan.sizes = {64 << 10};
        plan.memoryLimit = kMinMemoryLimit - 1;
        const auto msg = messageOf(validatePlan(plan, file_->probe()));
        QVERIFY2(msg.contains("leaves readscope no room") && msg.contains("at least 32 MiB"),
                 qPrintable(msg));
        plan.memoryLimit = kMinMemoryLimit;
        QCOMPARE(messageOf(validatePlan(plan, file_->probe())), QString());
        // The reads' own buffers may take at most half: 4 threads x 2 x 8 MiB of a 64 MiB
        // limit is too much, of 128 MiB it is not. A sparse file: only its size matters.
        QTemporaryDir dir;
        const FileProbe big = testing::sparseFileProbe(dir, 256ull << 20);
        plan.file = big.path;
        plan.sizes = {8 << 20};
        plan.threads = 4;
        plan.memoryLimit = 64ull << 20;
        const auto tooSmall = messageOf(validatePlan(plan, big));
        QVERIFY2(tooSmall.contains("would take more than half of the 64 MiB memory limit") &&
                     tooSmall.contains("at least 128 MiB"),
                 qPrintable(tooSmall));
        plan.memoryLimit = 128ull << 20;
        QCOMPARE(messageOf(validatePlan(plan, big)), QString());
        // The lists of ranges count too: 512-byte ranges over a 4 GiB budget are 8 M ranges,
        // 128 MiB of list, more than a quarter of a 256 MiB limit.
        const FileProbe huge = testing::sparseFileProbe(dir, 4ull << 30);
        plan.file = huge.path;
        plan.threads = 1;
        plan.sizes = {512};
        plan.durationSeconds = 30; // its default budget: the whole file, up to 4 GiB
        plan.memoryLimit = 256ull << 20;
        const auto lists = messageOf(validatePlan(plan, huge));
        QVERIFY2(lists.contains("the lists of ranges to read (128 MiB)"), qPrintable(lists));
        plan.budget = 256ull << 20;
        QCOMPARE(messageOf(validatePlan(plan, huge)), QString());
    }

    void sweepPointsOfThreadsAndDepths() {
        Plan plan;
        plan.sizes = {64 << 10};
        plan.bufferOffsets = {16};
        plan.threadCounts = {1, 2, 4};
        QCOMPARE(int(sweepAxis(plan)), int(SweepAxis::Threads));
        auto points = sweepPoints(plan, 1 << 20);
        QCOMPARE(points.size(), std::size_t(3));
        QCOMPARE(*points[2].threads, 4);
        QCOMPARE(*points[2].bufferOffset, 16u); // a pinned offset stays with every point
        QCOMPARE(threadsAt(plan, points[1]), 2);
        QCOMPARE(QString::fromStdString(pointText(points[1])), QString("64 KiB @ +16 x 2 threads"));
        QCOMPARE(QString::fromStdString(threadsText(plan)), QString("1, 2, 4 threads"));
        QCOMPARE(QString::fromStdString(std::string(axisName(plan))), QString("threads"));

        plan.threadCounts.clear();
        plan.bufferOffsets.clear();
        plan.threads = 2;
        plan.queueDepths = {1, 4, 16, 64};
        QCOMPARE(int(sweepAxis(plan)), int(SweepAxis::QueueDepth));
        points = sweepPoints(plan, 1 << 20);
        QCOMPARE(points.size(), std::size_t(4));
        QCOMPARE(*queueDepthAt(plan, points[3]), 64u);
        QCOMPARE(threadsAt(plan, points[3]), 2);
        QCOMPARE(QString::fromStdString(pointText(points[0])), QString("64 KiB, 1 in flight"));
        // One depth is no sweep: it applies to every io_uring cell of a size sweep.
        plan.queueDepths = {8};
        QCOMPARE(int(sweepAxis(plan)), int(SweepAxis::RangeSize));
        QCOMPARE(*queueDepthAt(plan, sweepPoints(plan, 1 << 20)[0]), 8u);
    }

    void threadsAndDepthsAsTyped() {
        // What the CLI's --threads / --queue-depth and the app's boxes both read.
        Plan plan;
        QVERIFY(setThreads(plan, "4").ok());
        QCOMPARE(plan.threads, 4);
        QVERIFY(plan.threadCounts.empty());
        QVERIFY(setThreads(plan, "1, 2,4").ok());
        QCOMPARE(plan.threadCounts, (std::vector<int>{1, 2, 4}));
        QCOMPARE(QString::fromStdString(threadsListText(plan)), QString("1,2,4"));
        QVERIFY(setThreads(plan, "3").ok()); // back to one count: the list goes
        QVERIFY(plan.threadCounts.empty());
        QCOMPARE(messageOf(setThreads(plan, "1,x")), QString("threads 'x' is not a whole number"));
        QCOMPARE(messageOf(setThreads(plan, "0")),
                 QString("threads 0 is out of range: use 1 to 256"));
        QCOMPARE(messageOf(setThreads(plan, "2,2")), QString("threads 2 is named twice"));
        QCOMPARE(messageOf(setThreads(plan, "")), QString("threads '' is not a whole number"));
        QVERIFY(setQueueDepths(plan, "1,4,16,64").ok());
        QCOMPARE(plan.queueDepths, (std::vector<unsigned>{1, 4, 16, 64}));
        QVERIFY(setQueueDepths(plan, "auto").ok());
        QVERIFY(plan.queueDepths.empty());
        QCOMPARE(QString::fromStdString(queueDepthsText(plan)), QString("auto"));
        QCOMPARE(messageOf(setQueueDepths(plan, "257")),
                 QString("queue depth 257 is out of range: use 1 to 256"));
    }

    void validPlanPasses() {
        Plan plan;
        plan.file = file_->path();
        plan.strategies = {"pread-uninit", "mmap-touch"};
        plan.sizes = {4096, 1 << 20};
        QVERIFY(validatePlan(plan, file_->probe()).ok());
        plan.pattern = Pattern::Whole; // sizes do not matter for the whole file
        plan.sizes = {64 << 20};
        QVERIFY(validatePlan(plan, file_->probe()).ok());
        QCOMPARE(effectiveSizes(plan, 1 << 20), std::vector<std::uint64_t>{1 << 20});
        // File sizes below a page are whole files too; those over the target are skipped.
        plan.fileSizes = {128, 1 << 10, 4 << 20};
        QVERIFY(validatePlan(plan, file_->probe()).ok());
        QCOMPARE(effectiveSizes(plan, 1 << 20), (std::vector<std::uint64_t>{128, 1 << 10}));
        QCOMPARE(skippedFileSizes(plan, 1 << 20), std::vector<std::uint64_t>{4 << 20});
    }

    void enumsParse() {
        QCOMPARE(testing::name(*parsePattern("random")), testing::name(Pattern::Random));
        QCOMPARE(testing::name(*parseCacheMode("cold")), testing::name(CacheMode::Cold));
        QCOMPARE(testing::name(*parseConsume("all")), testing::name(Consume::All));
        QVERIFY(!parsePattern("zigzag").ok());
        QVERIFY(!parseCacheMode("hot").ok());
    }

    void ranges() {
        const auto seq = makeRanges(Pattern::Sequential, 4096, 10000, 1 << 20, 1);
        QCOMPARE(seq.size(), std::size_t(3)); // 0, 4096, 8192 (the last runs past EOF)
        QCOMPARE(seq[2].offset, std::uint64_t(8192));
        const auto budgeted = makeRanges(Pattern::Sequential, 4096, 1 << 20, 16384, 1);
        QCOMPARE(budgeted.size(), std::size_t(4));
        const auto a = makeRanges(Pattern::Random, 4096, 1 << 20, 1 << 16, 7);
        const auto b = makeRanges(Pattern::Random, 4096, 1 << 20, 1 << 16, 7);
        const auto c = makeRanges(Pattern::Random, 4096, 1 << 20, 1 << 16, 8);
        QCOMPARE(a.size(), std::size_t(16));
        bool same = true, differs = false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            same &= a[i].offset == b[i].offset;
            differs |= a[i].offset != c[i].offset;
            QVERIFY(a[i].offset % 4096 == 0 && a[i].offset + 4096 <= (1 << 20));
        }
        QVERIFY(same);
        QVERIFY(differs);
        const auto whole = makeRanges(Pattern::Whole, 4096, 12345, 1 << 20, 1);
        QCOMPARE(whole.size(), std::size_t(1));
        QCOMPARE(whole[0].length, std::uint64_t(12345));
        const auto parts = splitRanges(seq, 2);
        QCOMPARE(parts[0].size() + parts[1].size(), seq.size());
        QCOMPARE(parts[0].size(), std::size_t(2));
    }

    // Random ranges are drawn without replacement: no two ranges of a round share a page until
    // the round has more ranges than the file has slots (8 MiB ranges from a 256 MiB file used
    // to overlap, and a cold round read some of its own pages from the cache).
    void randomRangesAreDisjoint_data() {
        QTest::addColumn<quint64>("rangeSize");
        QTest::addColumn<quint64>("fileSize");
        QTest::addColumn<quint64>("budget");
        QTest::newRow("8 MiB of 256 MiB, the whole file")
            << quint64(8 << 20) << quint64(256 << 20) << quint64(256 << 20);
        QTest::newRow("8 MiB of 256 MiB, 64 MiB")
            << quint64(8 << 20) << quint64(256 << 20) << quint64(64 << 20);
        QTest::newRow("4 KiB of 1 MiB, all 256 slots")
            << quint64(4096) << quint64(1 << 20) << quint64(1 << 20);
        QTest::newRow("6000 B of 1 MiB (odd size)")
            << quint64(6000) << quint64(1 << 20) << quint64(500000);
        QTest::newRow("1 MiB of a 1.5 MiB file")
            << quint64(1 << 20) << quint64(3 << 19) << quint64(1 << 20);
    }
    void randomRangesAreDisjoint() {
        QFETCH(quint64, rangeSize);
        QFETCH(quint64, fileSize);
        QFETCH(quint64, budget);
        for (std::uint64_t seed : {1ull, 2ull, 12345ull}) {
            auto r = makeRanges(Pattern::Random, rangeSize, fileSize, budget, seed);
            QCOMPARE(r.size(), std::size_t(std::max<quint64>(1, budget / rangeSize)));
            std::sort(r.begin(), r.end(),
                      [](const Range& a, const Range& b) { return a.offset < b.offset; });
            for (std::size_t i = 0; i < r.size(); ++i) {
                QVERIFY(r[i].offset % 4096 == 0);
                QVERIFY(r[i].offset + r[i].length <= fileSize);
                if (i > 0)
                    QVERIFY2(r[i - 1].offset + r[i - 1].length <= r[i].offset,
                             qPrintable(QString("ranges at %1 and %2 overlap")
                                            .arg(r[i - 1].offset)
                                            .arg(r[i].offset)));
            }
        }
    }

    // A budget over the file's slots starts a second pass: each pass is a permutation of the
    // slots, so every slot is read once per pass and the seeded order differs between passes.
    void randomRangesTakeEverySlotOncePerPass() {
        const auto r = makeRanges(Pattern::Random, 4096, 64 << 10, 3 * (64 << 10), 3); // 16 slots
        QCOMPARE(r.size(), std::size_t(48));
        for (int pass = 0; pass < 3; ++pass) {
            std::vector<std::uint64_t> offsets;
            for (int i = 0; i < 16; ++i)
                offsets.push_back(r[std::size_t(pass * 16 + i)].offset);
            std::sort(offsets.begin(), offsets.end());
            for (int i = 0; i < 16; ++i)
                QCOMPARE(offsets[std::size_t(i)], std::uint64_t(i) * 4096);
        }
        bool reordered = false;
        for (int i = 0; i < 16; ++i)
            reordered |= r[std::size_t(i)].offset != r[std::size_t(16 + i)].offset;
        QVERIFY(reordered);
    }

    // A time-sized round's floor: 64 small ranges, but no more than 8 MiB of large ones, and
    // never fewer than 4.
    void roundFloorByRangeSize() {
        QCOMPARE(minRangesPerRound(4 << 10), std::size_t(64));
        QCOMPARE(minRangesPerRound(128 << 10), std::size_t(64));
        QCOMPARE(minRangesPerRound(256 << 10), std::size_t(32));
        QCOMPARE(minRangesPerRound(1 << 20), std::size_t(8));
        QCOMPARE(minRangesPerRound(8 << 20), std::size_t(4));
        QCOMPARE(minRangesPerRound(1ull << 30), std::size_t(4));
        QCOMPARE(minRangesPerRound(0), std::size_t(64));
    }

    void residencyRule() {
        QVERIFY(residencyVerifiable(1000, 1000, false)); // owner
        QVERIFY(residencyVerifiable(0, 1000, true));     // may write
        QVERIFY(residencyVerifiable(1000, 0, false));    // root
        QVERIFY(!residencyVerifiable(0, 1000, false));   // someone else's read-only file
    }
};

QTEST_GUILESS_MAIN(TestPlan)
#include "tst_plan.moc"
