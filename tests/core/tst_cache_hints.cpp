// What reads ask of the page cache, measured: pread-dontcache (preadv2 with RWF_DONTCACHE)
// over an evicted file leaves none of it cached, where pread-uninit leaves all it read (the run
// measures that after each round), and a file system that refuses the flag makes the strategy
// unavailable with the reason; random 4 KiB reads through a mapping fetch many times what
// they use with the default advice and about what they use with MADV_RANDOM.
#include "readscope/condition_words.h"
#include "readscope/probe.h"
#include "readscope/runner.h"
#include "readscope/strategy.h"
#include "test_file.h"

#include <QFile>
#include <QTest>

#include <sys/vfs.h>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class NullSink : public RunSink {};

constexpr long kTmpfsMagic = 0x01021994;

// Three cold rounds of `strategies` over `file`, no warm-up.
Plan coldPlan(const TestFile& file, std::vector<std::string> strategies, std::uint64_t size,
              Pattern pattern) {
    Plan plan;
    plan.file = file.path();
    plan.strategies = std::move(strategies);
    plan.sizes = {size};
    plan.pattern = pattern;
    plan.cache = CacheMode::Cold;
    plan.rounds = 3;
    plan.warmup = 0;
    return plan;
}

} // namespace

class TestCacheHints : public QObject {
    Q_OBJECT
private slots:
    // The check: passes of 1 MiB preads over an evicted file, cold, three rounds.
    void dontCacheLeavesAnEvictedFileUncached() {
        TestFile file(16 << 20);
        const FileProbe probe = file.probe();
        if (!probe.residencyVerifiable)
            QSKIP("this file's page-cache state cannot be read here");
        if (!probe.dontcacheSupported)
            QSKIP(probe.dontcacheReason.c_str());
        NullSink sink;
        auto doc = runPlan(
            coldPlan(file, {"pread-dontcache", "pread-uninit"}, 1 << 20, Pattern::Sequential),
            sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QCOMPARE(doc->cells.size(), std::size_t(2));
        for (const Cell& cell : doc->cells) {
            QVERIFY2(cell.measured(), cellNotes(cell).c_str());
            QCOMPARE(cell.checksum, Checksum::Verified);
            QVERIFY2(cell.residentBefore && *cell.residentBefore < 0.05, cell.strategy.c_str());
            QVERIFY2(cell.residentAfter, cell.strategy.c_str());
            for (const Sample& s : cell.samples)
                QVERIFY(s.residentAfter.has_value());
        }
        const double uncached = *doc->cells[0].residentAfter, cached = *doc->cells[1].residentAfter;
        QVERIFY2(doc->cells[0].strategy == "pread-dontcache" && uncached < 0.05,
                 qPrintable(QString("pread-dontcache left %1 % cached").arg(uncached * 100)));
        QVERIFY2(cached > 0.95,
                 qPrintable(QString("pread-uninit left %1 % cached").arg(cached * 100)));
    }

    // A warm run's pages were cached before the round: they stay (the flag drops only what the
    // read itself brought in).
    void dontCacheKeepsWhatWasCached() {
        TestFile file(8 << 20);
        const FileProbe probe = file.probe();
        if (!probe.residencyVerifiable || !probe.dontcacheSupported)
            QSKIP("RWF_DONTCACHE or page-cache state is not available here");
        Plan plan;
        plan.file = file.path();
        plan.strategies = {"pread-dontcache"};
        plan.sizes = {1 << 20};
        plan.cache = CacheMode::Warm;
        plan.rounds = 3;
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell& cell = doc->cells.at(0);
        QVERIFY(cell.residentAfter && *cell.residentAfter > 0.95);
    }

    // The read-ahead a fault starts, counted in bytes fetched from storage: mmap-touch
    // (MADV_NORMAL) reads around every fault (48x here on a 64 MiB file, 5x on a 32 MiB one,
    // where a round's faults land in pages an earlier fault read ahead), mmap-random reads
    // the page.
    void madvRandomFetchesWhatIsUsed() {
        TestFile file(64 << 20); // the fewer of its pages a round reads, the plainer the read-ahead
        const FileProbe probe = file.probe();
        if (!probe.residencyVerifiable)
            QSKIP("this file's page-cache state cannot be read here");
        NullSink sink;
        auto doc =
            runPlan(coldPlan(file, {"mmap-touch", "mmap-random"}, 4096, Pattern::Random), sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        const Cell &normal = doc->cells.at(0), &random = doc->cells.at(1);
        QCOMPARE(random.strategy, std::string("mmap-random"));
        if (!normal.fetchedPerWanted || !random.fetchedPerWanted)
            QSKIP("bytes fetched from storage are not counted here");
        const QString figures = QString("fetched per wanted: mmap-touch %1, mmap-random %2")
                                    .arg(*normal.fetchedPerWanted)
                                    .arg(*random.fetchedPerWanted);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(*normal.fetchedPerWanted > 2, qPrintable(figures));
        QVERIFY2(*random.fetchedPerWanted < 1.5, qPrintable(figures));
    }

    // tmpfs refuses the flag (EOPNOTSUPP on this kernel): the strategy says why it cannot run.
    void aRefusingFileSystemMakesItUnavailable() {
        struct statfs fs {};
        if (::statfs("/dev/shm", &fs) != 0 || fs.f_type != kTmpfsMagic)
            QSKIP("no tmpfs at /dev/shm to try");
        const QString path =
            QString("/dev/shm/readscope-dontcache-%1").arg(QCoreApplication::applicationPid());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
        f.close();
        auto probe = probeFile(path.toStdString());
        QFile::remove(path);
        QVERIFY(probe.ok());
        if (probe->dontcacheSupported)
            QSKIP("this kernel's tmpfs takes RWF_DONTCACHE");
        const auto a = availability(*findStrategy("pread-dontcache"), *probe);
        QVERIFY(!a.available);
        QVERIFY2(a.reason.find("RWF_DONTCACHE") != std::string::npos, a.reason.c_str());
        QVERIFY2(a.reason.find("tmpfs") != std::string::npos ||
                     a.reason.find("kernel too old") != std::string::npos,
                 a.reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCacheHints)
#include "tst_cache_hints.moc"
