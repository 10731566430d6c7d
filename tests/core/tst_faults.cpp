// Faults the engine must survive: a file truncated under a mapping (SIGBUS), a file changed
// between cells, and the target file never being written.
#include "readscope/condition_words.h"
#include "readscope/generator.h"
#include "readscope/reader.h"
#include "readscope/residency.h"
#include "readscope/run_notes.h"
#include "readscope/runner.h"
#include "readscope/strategy.h"
#include "test_file.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <memory>
#include <optional>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#endif

using namespace readscope;
using readscope::testing::TestFile;

namespace {

// Passes over the whole file in 64 KiB ranges.
std::vector<Range> manyPasses(std::uint64_t size, int passes) {
    std::vector<Range> ranges;
    for (int p = 0; p < passes; ++p)
        for (std::uint64_t off = 0; off < size; off += 64 << 10)
            ranges.push_back({off, 64 << 10});
    return ranges;
}

class NullSink : public RunSink {};

// Writes to the disk under dir go at 20 MB/s from this thread while it lives, where a cgroup
// v1 blkio controller lets a root process say so: a slow disk, on which writeback takes long
// enough to matter. Elsewhere nothing changes, and why() says so.
class SlowWritesHere {
public:
    explicit SlowWritesHere(const QString& dir) {
#ifndef __linux__
        (void)dir;
        why_ = "no cgroup v1 blkio controller off Linux";
#else
        const QString blkio = "/sys/fs/cgroup/blkio";
        struct stat st {};
        const QString from = ownGroup();
        if (::geteuid() != 0 || from.isNull() || !QFile::exists(blkio + "/tasks") ||
            ::stat(dir.toLocal8Bit().constData(), &st) != 0) {
            why_ = "no cgroup v1 blkio controller this process may use";
            return;
        }
        // The throttle names a whole disk: a partition's is its parent's.
        const QString sys =
            QString("/sys/dev/block/%1:%2").arg(major(st.st_dev)).arg(minor(st.st_dev));
        QFile dev(QFile::exists(sys + "/partition") ? sys + "/../dev" : sys + "/dev");
        if (!dev.open(QIODevice::ReadOnly)) {
            why_ = "the folder's disk is not a block device (" + sys + ")";
            return;
        }
        const QByteArray disk = dev.readAll().trimmed();
        group_ = QString("%1/readscope-test-%2").arg(blkio).arg(::getpid());
        back_ = blkio + from + "/tasks";
        if (!QDir().mkpath(group_) ||
            !write(group_ + "/blkio.throttle.write_bps_device", disk + " 20971520") ||
            !write(group_ + "/tasks", thread())) {
            why_ = "could not make a throttled blkio group";
            QDir().rmdir(group_);
            group_.clear();
        }
#endif
    }
    ~SlowWritesHere() {
        if (group_.isEmpty())
            return;
        write(back_, thread()); // back to the group it came from
        QDir().rmdir(group_);
    }
    SlowWritesHere(const SlowWritesHere&) = delete;
    SlowWritesHere& operator=(const SlowWritesHere&) = delete;
    bool slow() const { return !group_.isEmpty(); }
    QString why() const { return why_; }

private:
#ifdef __linux__
    static QByteArray thread() { return QByteArray::number(qint64(::syscall(SYS_gettid))); }
    // This thread's blkio group below the controller's root ("" for the root itself), from
    // its "N:blkio:/path" line; null where it has none.
    static QString ownGroup() {
        QFile f("/proc/thread-self/cgroup");
        if (!f.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray& line : f.readAll().split('\n')) {
            const auto parts = line.split(':');
            if (parts.size() == 3 && parts[1].split(',').contains("blkio"))
                return parts[2] == "/" ? QString("") : QString::fromUtf8(parts[2]);
        }
        return {};
    }
#else
    static QByteArray thread() { return {}; }
#endif
    static bool write(const QString& path, const QByteArray& text) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush();
    }
    QString group_, back_, why_;
};

} // namespace

class TestFaults : public QObject {
    Q_OBJECT
private slots:
    void truncatedUnderMapping_data() {
        QTest::addColumn<QString>("strategy");
        for (const char* id : {"mmap-touch", "mmap-copy", "mmap-copy-kept", "mmap-willneed",
                               "mmap-populate", "mmap-prefetch"})
            QTest::newRow(id) << id;
    }
    void truncatedUnderMapping() {
        QFETCH(QString, strategy);
        TestFile file(16 << 20);
        auto probe = file.probe();
        auto reader = openReader(*findStrategy(strategy.toStdString()), probe, 64 << 10);
        QVERIFY(reader.ok());
        // The file shrinks to one page right after the reader obtained its third range: the
        // fourth range lies past the new end, so the read fails there whatever the speed.
        struct Truncation {
            std::string path;
            int calls = 0;
            int result = -1;
        } truncation{file.path()};
        setRangeReadHookForTesting(
            [](std::size_t index, void* context) {
                auto* t = static_cast<Truncation*>(context);
                if (index == 2 && t->calls++ == 0)
                    t->result = ::truncate(t->path.c_str(), 4096);
            },
            &truncation);
        auto out = (*reader)->read(manyPasses(file.size(), 1), ConsumeMode::All, true, {});
        setRangeReadHookForTesting(nullptr, nullptr);
        QCOMPARE(truncation.calls, 1);
        QCOMPARE(truncation.result, 0);
        QVERIFY2(!out.ok(), "a read past the truncated end succeeded");
        const QString msg = QString::fromStdString(out.error().message);
        QVERIFY2(msg.contains("shrank") && msg.contains("SIGBUS"), qPrintable(msg));
        // In the first page of the fourth range: the fold may touch a word a few bytes into it
        // first (under ASan its memcpy loads the second half of a 16-byte lane first).
        const auto at = msg.indexOf("at offset ");
        QVERIFY2(at >= 0, qPrintable(msg));
        const qint64 offset = msg.mid(at + 10).section(' ', 0, 0).toLongLong();
        QVERIFY2(offset >= 3 * (64 << 10) && offset < 3 * (64 << 10) + 4096, qPrintable(msg));
        // The process goes on, and so does reading what is left of the file.
        auto again = (*reader)->read(std::vector<Range>{{0, 4096}}, ConsumeMode::Verify, false, {});
        QVERIFY(again.ok());
        QCOMPARE(again->bytes, std::uint64_t(4096));
    }

    void runnerFailsTheCellAndGoesOn() {
        TestFile file(16 << 20);
        Plan plan;
        plan.file = file.path();
        plan.strategies = {"mmap-touch", "pread-uninit"};
        plan.sizes = {64 << 10, 1 << 20};
        plan.rounds = 5;
        plan.warmup = 0;
        // The file is truncated when the 64 KiB mmap-touch cell reports its round 2 (on the
        // runner's thread, between rounds): its round 3 is the one that must fail.
        struct TruncatingSink : RunSink {
            std::string path;
            int truncations = 0;
            std::vector<RunWarning> said;
            void onWarning(const RunWarning& w) override { said.push_back(w); }
            void onProgress(const Progress& p) override {
                if (p.strategy == "mmap-touch" && p.rangeBytes == (64 << 10) &&
                    p.at.phase == RunPhase::Round && p.at.round == 2 && truncations++ == 0)
                    QCOMPARE(::truncate(path.c_str(), 8192), 0);
            }
        } sink;
        sink.path = file.path();
        auto doc = runPlan(plan, sink);
        QCOMPARE(sink.truncations, 1);
        QVERIFY(doc.ok());
        QVERIFY(doc->complete);
        const Cell* mapped = doc->find("mmap-touch", 64 << 10);
        QVERIFY(mapped);
        QCOMPARE(testing::name(mapped->status), testing::name(CellStatus::Failed));
        QVERIFY2(mapped->message.find("SIGBUS") != std::string::npos, mapped->message.c_str());
        // The file changed under the run: later cells say so.
        const Cell* later = doc->find("pread-uninit", 1 << 20);
        QVERIFY(later);
        QVERIFY2(findCondition<FileChanged>(later->conditions), cellNotes(*later).c_str());
        // Each failure said as a value: which cell, and its error's words.
        const auto failed =
            std::find_if(sink.said.begin(), sink.said.end(), [](const RunWarning& w) {
                const auto* f = w.as<CellFailed>();
                return f && f->strategy == "mmap-touch" && f->point.rangeBytes == (64 << 10);
            });
        QVERIFY(failed != sink.said.end());
        QCOMPARE(failed->as<CellFailed>()->message, mapped->message);
        QCOMPARE(warningText(*failed), "mmap-touch at 64 KiB failed: " + mapped->message);
    }

    void residencyIsMeasuredWhereTheRoundReads() {
        // Half the file cached, half evicted: the residency of a round is that of the pages
        // it is about to read, not the file's average.
        TestFile file(8 << 20);
        auto probe = file.probe();
        if (!probe.residencyVerifiable)
            QSKIP("residency cannot be verified here");
        const int fd = ::open(file.path().c_str(), O_RDONLY);
        QVERIFY(fd >= 0);
        QVERIFY(warmFile(fd, file.size(), file.path()).ok());
        QCOMPARE(::posix_fadvise(fd, 0, 4 << 20, POSIX_FADV_DONTNEED), 0);
        std::vector<Range> coldHalf, warmHalf;
        for (std::uint64_t off = 0; off < (4u << 20); off += 4096) {
            coldHalf.push_back({off, 4096});
            warmHalf.push_back({off + (4u << 20), 4096});
        }
        const auto cold = measureRangeResidency(fd, file.size(), coldHalf, true, "");
        const auto warm = measureRangeResidency(fd, file.size(), warmHalf, true, "");
        const auto whole = measureResidency(fd, file.size(), true, "");
        // Ranges over 2..6 MiB that overlap, touch and repeat: merged into one run, every
        // page counted once (4 MiB is a boundary no large folio straddles).
        const std::vector<Range> across{
            {4 << 20, 2 << 20}, {2 << 20, 1 << 20}, {3 << 20, 1 << 20}, {2 << 20, 4096}};
        const auto half = measureRangeResidency(fd, file.size(), across, true, "");
        // Pages 0 and 2 evicted, the two at 6 MiB cached: 2 of 4, in 3 runs.
        const std::vector<Range> apart{{0, 4096}, {8192, 4096}, {6 << 20, 8192}};
        const auto mixed = measureRangeResidency(fd, file.size(), apart, true, "");
        // The way any reader may ask agrees, and says that it disturbed the cache.
        const auto warmNowait = sampleResidencyNowait(fd, file.size(), warmHalf);
        const auto coldNowait = sampleResidencyNowait(fd, file.size(), coldHalf);
        // Its misses read pages in; once those reads finish, the eviction the runner does
        // next leaves the round's pages cold again.
        finishNowaitProbes(fd, file.size(), coldHalf);
        QVERIFY(evictFile(fd, file.path()).ok());
        const auto afterProbe = measureRangeResidency(fd, file.size(), coldHalf, true, "");
        ::close(fd);
        QVERIFY2(afterProbe.fraction && *afterProbe.fraction <= 0.01, afterProbe.method.c_str());
        // Each miss of the nowait sample starts read-ahead, and on a slow run (the ASan suites)
        // that read-ahead can land before the sample's later pages: it saw 5% and more there
        // twice. Mostly cold is what it must say; the warm half stays above 95%.
        QVERIFY2(coldNowait.fraction && *coldNowait.fraction < 0.5,
                 qPrintable(QString("%1 cached: %2")
                                .arg(coldNowait.fraction ? *coldNowait.fraction : -1)
                                .arg(coldNowait.method.c_str())));
        QVERIFY2(warmNowait.fraction && *warmNowait.fraction > 0.95, warmNowait.method.c_str());
        QVERIFY(coldNowait.disturbsCache && !warmNowait.disturbsCache);
        QVERIFY(coldNowait.method.rfind("nowait-sample: 1024 pages", 0) == 0);
        QVERIFY2(cold.fraction && *cold.fraction < 0.05, cold.method.c_str());
        QVERIFY2(warm.fraction && *warm.fraction > 0.95, warm.method.c_str());
        QVERIFY(whole.fraction && *whole.fraction > 0.3 && *whole.fraction < 0.7);
        // 1024 pages per half: every one of them counted, and said so; with cachestat, the
        // half's consecutive pages in one call.
        const std::string counted = cold.method.rfind("cachestat", 0) == 0
                                        ? "all 1024 pages of the round's ranges, in 1 call"
                                        : "1024 sampled pages of the round's ranges";
        QVERIFY2(cold.method.find(counted) != std::string::npos, cold.method.c_str());
        if (half.method.rfind("cachestat", 0) != 0)
            return; // no cachestat here: residency is sampled, as checked above
        QVERIFY2(half.fraction && std::abs(*half.fraction - 0.5) < 0.01, half.method.c_str());
        QVERIFY2(half.method.find("all 1024 pages of the round's ranges, in 1 call") !=
                     std::string::npos,
                 half.method.c_str());
        QVERIFY2(mixed.fraction && std::abs(*mixed.fraction - 0.5) < 1e-9, mixed.method.c_str());
        QVERIFY2(mixed.method.find("all 4 pages of the round's ranges, in 3 calls") !=
                     std::string::npos,
                 mixed.method.c_str());
    }

    void nowaitSampleTellsItsOwnReadsFromCachedPages() {
        // A RWF_NOWAIT read of a page that is not cached starts a read of it, and on a fast
        // device that read can be done before the call looks again: it returns the byte. It
        // found 14-30% of an evicted file "cached" here that way. Evicted, and then with every
        // third page cached, the sample must say what cachestat/mincore (the truth, for the
        // file's owner) say.
        TestFile file(8 << 20);
        if (!file.probe().residencyVerifiable)
            QSKIP("residency cannot be verified here, so there is no truth to compare with");
        const int fd = ::open(file.path().c_str(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        std::vector<Range> pages;
        for (std::uint64_t off = 0; off < file.size(); off += 4096)
            pages.push_back({off, 4096});
        const std::unique_ptr<const int, void (*)(const int*)> closing(
            &fd, [](const int* f) { ::close(*f); });
        // How far the sample is from the truth; none when either cannot be had.
        auto error = [&](const char* state) -> std::optional<double> {
            const auto truth = measureRangeResidency(fd, file.size(), pages, true, "");
            const auto sample = sampleResidencyNowait(fd, file.size(), pages);
            if (!truth.fraction || !sample.fraction)
                return std::nullopt;
            qInfo("%s: %.1f%% cached, the nowait sample says %.1f%% (%s)", state,
                  *truth.fraction * 100, *sample.fraction * 100, sample.method.c_str());
            return std::abs(*sample.fraction - *truth.fraction);
        };
        QVERIFY(evictFile(fd, file.path()).ok());
        const auto evicted = error("evicted");
        if (!evicted)
            QSKIP("no RWF_NOWAIT sample here to compare");
        QVERIFY2(*evicted <= 0.002, qPrintable(QString::number(*evicted))); // 4 of its 2048 pages
        // The sample's misses started reads: they end before the eviction, which skips pages
        // still under I/O.
        finishNowaitProbes(fd, file.size(), pages);
        QVERIFY(evictFile(fd, file.path()).ok());
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); // each read brings its page alone
        char byte = 0;
        for (std::uint64_t off = 0; off < file.size(); off += 3 * 4096)
            QCOMPARE(::pread(fd, &byte, 1, off), ssize_t(1));
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
        const auto third = error("every third page cached");
        QVERIFY(third);
        QVERIFY2(*third <= 0.01, qPrintable(QString::number(*third)));
    }

    void aFileWrittenMomentsAgoEvicts() {
        // A person writes a file and benchmarks it cold at once: its pages are dirty, and
        // DONTNEED skips dirty pages and pages under writeback. On a slow disk the first cold
        // rounds then started with the whole file cached.
        QTemporaryDir dir;
        const std::uint64_t size = 16 << 20;
        const std::string path = (dir.path() + "/fresh.bin").toStdString();
        std::uint64_t cachedAfter = 1;
        {
            const SlowWritesHere slow(dir.path());
            if (!slow.slow())
                qInfo("writes at the disk's own speed: %s", qPrintable(slow.why()));
            const int w = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            QVERIFY(w >= 0);
            std::vector<char> block(1 << 20);
            for (std::size_t i = 0; i < block.size(); ++i)
                block[i] = char(i * 7 + 1);
            for (std::uint64_t done = 0; done < size; done += block.size())
                QCOMPARE(::write(w, block.data(), block.size()), ssize_t(block.size()));
            ::close(w);
            const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            QVERIFY(fd >= 0);
            QVERIFY(evictFile(fd, path).ok());
            const std::vector<Range> all{{0, size}};
            const auto r = measureRangeResidency(fd, size, all, true, "");
            ::close(fd);
            if (!r.fraction)
                QSKIP(qPrintable("residency cannot be measured here: " +
                                 QString::fromStdString(r.method)));
            qInfo("resident after one eviction: %.1f%% (%s)", *r.fraction * 100,
                  slow.slow() ? "writes at 20 MB/s" : "writes at the disk's speed");
            cachedAfter = std::uint64_t(*r.fraction * 1000);
        }
        QCOMPARE(cachedAfter, std::uint64_t(0)); // under 0.1%
    }

    void coldThatDidNotGoColdIsFlagged() {
        // Pages mapped (and touched) by a process cannot be evicted: the cold rounds of this
        // file start warm, and the cell must say so instead of passing as cold.
        TestFile file(4 << 20);
        const int fd = ::open(file.path().c_str(), O_RDONLY);
        QVERIFY(fd >= 0);
        void* map = ::mmap(nullptr, file.size(), PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
        QVERIFY(map != MAP_FAILED);
        Plan plan;
        plan.file = file.path();
        plan.strategies = {"pread-uninit"};
        plan.sizes = {64 << 10};
        plan.cache = CacheMode::Cold;
        plan.rounds = 3;
        plan.warmup = 0;
        struct WarningSink : RunSink {
            std::vector<std::string> warnings;
            void onWarning(const RunWarning& w) override { warnings.push_back(warningText(w)); }
        } sink;
        auto doc = runPlan(plan, sink);
        ::munmap(map, file.size());
        ::close(fd);
        QVERIFY(doc.ok());
        const Cell& cell = doc->cells.at(0);
        QVERIFY(cell.residentBefore && *cell.residentBefore > 0.9);
        QCOMPARE(testing::name(cell.status), testing::name(CellStatus::NotCold));
        QVERIFY(cell.measured()); // its figures are kept, labelled for what they are
        const auto* notCold = findCondition<NotCold>(cell.conditions);
        QVERIFY2(notCold && notCold->rounds == 3 && notCold->of == 3, cellNotes(cell).c_str());
        bool logged = false;
        for (const auto& w : sink.warnings)
            logged |= w.find("did not go cold") != std::string::npos;
        QVERIFY(logged);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
