// Every strategy must obtain exactly the file's bytes, whatever the range looks like.
#include "range_shapes.h"
#include "readscope/generator.h"
#include "readscope/reader.h"
#include "readscope/residency.h"
#include "readscope/strategy.h"
#include "test_file.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace readscope;
using readscope::testing::TestFile;
using Ranges = std::vector<Range>;
Q_DECLARE_METATYPE(Ranges)

namespace {
constexpr std::uint64_t kFileSize = (3ull << 20) + 123; // odd: not page or block aligned
}

class TestStrategies : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;
    FileProbe probe_;

private slots:
    void initTestCase() {
        file_ = std::make_unique<TestFile>(kFileSize);
        probe_ = file_->probe();
    }

    void exactBytes_data() {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<Ranges>("ranges");
        const auto shapes = testing::rangeShapes(kFileSize);
        for (const auto& s : strategies())
            for (const auto& [shape, ranges] : shapes)
                QTest::newRow(qPrintable(QString("%1 %2").arg(s.id.data()).arg(shape)))
                    << QString::fromLatin1(s.id.data(), qsizetype(s.id.size())) << ranges;
    }
    void exactBytes() {
        QFETCH(QString, strategy);
        QFETCH(Ranges, ranges);
        const StrategyInfo* info = findStrategy(strategy.toStdString());
        QVERIFY(info);
        if (auto a = availability(*info, probe_); !a.available)
            QSKIP(qPrintable("unavailable here: " + QString::fromStdString(a.reason)));
        std::uint64_t maxRange = 0, expectedBytes = 0;
        for (const auto& r : ranges) {
            maxRange = std::max(maxRange, r.length);
            expectedBytes += r.offset >= kFileSize ? 0 : std::min(r.length, kFileSize - r.offset);
        }
        auto reader = openReader(*info, probe_, maxRange);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().message.c_str());
        for (auto mode : {ConsumeMode::Verify, ConsumeMode::Touch, ConsumeMode::All}) {
            auto out = (*reader)->read(ranges, mode, true, {});
            QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
            QCOMPARE(out->bytes, expectedBytes);
            // Every range timed, but where ranges merge into one read (pread-coalesce), which
            // has no time per range of its own.
            QCOMPARE(out->latencies.size(), info->access == Access::Coalesce ? 0 : ranges.size());
            QVERIFY(!out->stopped);
            if (mode == ConsumeMode::Verify)
                QCOMPARE(out->value, file_->expectedChecksum(ranges));
        }
    }

    void keptBuffersFollowTheRangeSize_data() {
        QTest::addColumn<QString>("strategy");
        for (const char* id : {"uring-batch", "pread-reuse", "direct-pread"})
            QTest::newRow(id) << id;
    }
    void keptBuffersFollowTheRangeSize() {
        // Opened for small ranges, then prepared for larger ones (as a sweep whose largest
        // size is over the keep limit does): the kept buffers must grow, never be written past.
        QFETCH(QString, strategy);
        const StrategyInfo* info = findStrategy(strategy.toStdString());
        if (auto a = availability(*info, probe_); !a.available)
            QSKIP(qPrintable("unavailable here: " + QString::fromStdString(a.reason)));
        auto reader = openReader(*info, probe_, 64 << 10);
        QVERIFY(reader.ok());
        for (std::uint64_t size : {64ull << 10, 1ull << 20, 16ull << 10, 2ull << 20}) {
            QVERIFY((*reader)->prepare(size).ok());
            Ranges ranges;
            for (std::uint64_t off = 0; off + size <= kFileSize; off += size)
                ranges.push_back({off, size});
            auto out = (*reader)->read(ranges, ConsumeMode::Verify, false, {});
            QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
            QCOMPARE(out->value, file_->expectedChecksum(ranges));
            // The most reads in flight at once: the cell's own size's depth, unless there were
            // fewer ranges than that.
            if (info->access == Access::UringBatch)
                QCOMPARE(out->queueDepth, std::min(uringQueueDepth(size), unsigned(ranges.size())));
            (*reader)->release();
        }
        QCOMPARE(uringQueueDepth(16 << 10), 32u);
        QCOMPARE(uringQueueDepth(8 << 20), 16u);
        QCOMPARE(uringQueueDepth(256 << 20), 1u);
    }

    // --consume all's fold reads every byte: change any one, at any length (vector body or
    // tail), and the fold changes.
    void foldReadsEveryByte() {
        for (std::size_t n : {1u, 7u, 31u, 32u, 33u, 64u, 100u, 4096u + 5u}) {
            std::vector<std::byte> bytes(n);
            for (std::size_t i = 0; i < n; ++i)
                bytes[i] = std::byte(i * 37 + 11);
            const auto before = foldBytes(bytes);
            for (std::size_t i = 0; i < n; ++i) {
                bytes[i] ^= std::byte{0x40};
                QVERIFY2(foldBytes(bytes) != before,
                         qPrintable(QString("n %1, byte %2").arg(n).arg(i)));
                bytes[i] ^= std::byte{0x40};
            }
        }
    }

    void referenceMatchesGenerator() {
        const Ranges ranges{{3, 5000}, {kFileSize - 7, 100}};
        auto ref = referenceChecksum(probe_, ranges);
        QVERIFY(ref.ok());
        QCOMPARE(*ref, file_->expectedChecksum(ranges));
    }

    void wrongOffsetChangesChecksum() {
        // The verification pass is only as good as this: one byte off must not match.
        QVERIFY(file_->expectedChecksum(Ranges{{0, 4096}}) !=
                file_->expectedChecksum(Ranges{{1, 4096}}));
        QVERIFY(file_->expectedChecksum(Ranges{{0, 10}, {10, 10}}) !=
                file_->expectedChecksum(Ranges{{10, 10}, {0, 10}}));
    }

    void syscallCounts() {
        const Ranges ranges{{0, 4096}, {8192, 4096}, {65536, 4096}, {1 << 20, 4096}};
        auto count = [&](const char* id) {
            auto reader = openReader(*findStrategy(id), probe_, 4096);
            if (!reader)
                return std::uint64_t{0}; // no count: the comparison below fails and names it
            auto out = (*reader)->read(ranges, ConsumeMode::Touch, false, {});
            return out.ok() ? out->syscalls : 0;
        };
        QCOMPARE(count("pread-uninit"), std::uint64_t(4));
        QCOMPARE(count("seek-read"), std::uint64_t(8)); // one lseek + one read per range
        // A mapped read saves the signal mask once (its SIGBUS guard): rt_sigprocmask.
        QCOMPARE(count("mmap-touch"), std::uint64_t(3));    // mmap + the mask + munmap
        QCOMPARE(count("mmap-willneed"), std::uint64_t(7)); // + one madvise per range
        QCOMPARE(count("mmap-copy"), std::uint64_t(3));
        QCOMPARE(count("mmap-copy-kept"), std::uint64_t(1)); // mapped when opened, untimed
        QCOMPARE(count("pread-calloc"), std::uint64_t(4));
    }

    // A kept mapping holds the file's pages in the cache against POSIX_FADV_DONTNEED; let go
    // of, it does not, and taken back, it reads the right bytes again.
    void keptMappingLetsGoForEviction() {
        const auto* info = findStrategy("mmap-copy-kept");
        auto reader = openReader(*info, probe_, 64 << 10);
        QVERIFY(reader.ok());
        Ranges ranges;
        for (std::uint64_t off = 0; off + (64 << 10) <= kFileSize; off += 64 << 10)
            ranges.push_back({off, 64 << 10});
        const int fd = ::open(file_->path().c_str(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        auto resident = [&] {
            const auto r = measureRangeResidency(fd, kFileSize, ranges, true, "");
            return r.fraction.value_or(-1);
        };
        QVERIFY((*reader)->read(ranges, ConsumeMode::Touch, false, {}).ok());
        QVERIFY(evictFile(fd, file_->path()).ok());
        const double whileMapped = resident();
        (*reader)->letGoOfFile();
        QVERIFY(evictFile(fd, file_->path()).ok());
        const double afterLettingGo = resident();
        qInfo("resident after eviction: %.1f%% while mapped, %.1f%% after letting go",
              whileMapped * 100, afterLettingGo * 100);
        QVERIFY(whileMapped > 0.5);      // why the runner must ask readers to let go
        QVERIFY(afterLettingGo <= 0.01); // and that letting go is enough
        QVERIFY((*reader)->takeBackFile().ok());
        auto out = (*reader)->read(ranges, ConsumeMode::Verify, false, {});
        QVERIFY(out.ok());
        QCOMPARE(out->value, file_->expectedChecksum(ranges));
        QCOMPARE(out->syscalls, std::uint64_t(1)); // the signal mask saved, nothing mapped
        ::close(fd);
    }

    void readToEndOnWholeFile() {
        const Ranges whole{{0, kFileSize}};
        auto count = [&](const char* id) {
            auto reader = openReader(*findStrategy(id), probe_, kFileSize);
            if (!reader)
                return std::uint64_t{0}; // no count: the comparison below fails and names it
            auto out = (*reader)->read(whole, ConsumeMode::Verify, false, {});
            return out.ok() && out->bytes == kFileSize ? out->syscalls : 0;
        };
        const auto prealloc = count("read-prealloc");
        const auto grow = count("read-grow");
        QVERIFY(prealloc >= 2); // the data, then the read that returns 0
        QVERIFY2(grow > prealloc,
                 qPrintable(QString("grow %1 prealloc %2").arg(grow).arg(prealloc)));
    }

    void stopTokenEndsRead() {
        std::stop_source stop;
        stop.request_stop();
        for (const auto& s : strategies()) {
            if (!availability(s, probe_).available)
                continue;
            auto reader = openReader(s, probe_, 4096);
            QVERIFY2(reader.ok(), s.id.data());
            auto out = (*reader)->read(Ranges{{0, 4096}, {4096, 4096}}, ConsumeMode::Touch, false,
                                       stop.get_token());
            QVERIFY2(out.ok(), s.id.data());
            QVERIFY2(out->stopped, s.id.data());
            QCOMPARE(out->bytes, std::uint64_t(0));
        }
    }

    // At most 128 ranges a read are timed, evenly spaced from the first: 1000 ranges time
    // every 8th (125), 129 every 2nd (65), 3 all of them.
    void everyStrideThRangeIsTimed() {
        auto reader = openReader(*findStrategy("pread-uninit"), probe_, 1024);
        QVERIFY(reader.ok());
        for (const auto& [count, timed] :
             {std::pair<std::size_t, std::size_t>{1000, 125}, {129, 65}, {3, 3}}) {
            Ranges ranges;
            for (std::size_t i = 0; i < count; ++i)
                ranges.push_back({i * 1024, 1024});
            auto out = (*reader)->read(ranges, ConsumeMode::Touch, true, {});
            QVERIFY(out.ok());
            QCOMPARE(out->latencies.size(), timed);
            QCOMPARE((*reader)->read(ranges, ConsumeMode::Touch, false, {})->latencies.size(),
                     std::size_t(0));
        }
    }

    // A range that fails ends the read with the words of what failed (the loop itself carries
    // only the failure): a whole-file sweep opens the file per range, and it has gone.
    void aFailedRangeSaysWhatFailed() {
        TestFile gone(1 << 16, "gone.bin");
        for (const char* id : {"pread-uninit", "seek-read", "mmap-copy"}) {
            auto reader = openReader(*findStrategy(id), gone.probe(), 1 << 16);
            QVERIFY(reader.ok());
            (*reader)->openEachRead(true);
            QVERIFY((*reader)->read(Ranges{{0, 1 << 16}}, ConsumeMode::Touch, false, {}).ok());
            QVERIFY(QFile::rename(QString::fromStdString(gone.path()),
                                  QString::fromStdString(gone.path() + ".away")));
            auto out = (*reader)->read(Ranges{{0, 1 << 16}}, ConsumeMode::Touch, false, {});
            QVERIFY2(!out.ok(), id);
            QVERIFY2(out.error().message.starts_with("open on '" + gone.path() + "'"),
                     out.error().message.c_str());
            QVERIFY(QFile::rename(QString::fromStdString(gone.path() + ".away"),
                                  QString::fromStdString(gone.path())));
        }
    }

    void unavailableCarriesReason() {
        // Which filesystems refuse O_DIRECT depends on the kernel (tmpfs accepts it since
        // Linux 6.6); tst_cli checks a real refusal on ramfs. Here: the reason travels.
        FileProbe p = probe_;
        p.directSupported = false;
        p.directReason = "the filesystem of 'x' (ramfs) refuses O_DIRECT: Invalid argument";
        p.uringSupported = false;
        p.uringReason = "io_uring is not available here";
        const auto a = availability(*findStrategy("direct-pread"), p);
        QVERIFY(!a.available);
        QCOMPARE(a.reason, p.directReason);
        QVERIFY(!availability(*findStrategy("uring-batch"), p).available);
        QVERIFY(availability(*findStrategy("pread-uninit"), p).available);
        auto reader = openReader(*findStrategy("direct-pread"), p, 4096);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, p.directReason);
    }

    // pread-coalesce merges a batch's ranges whose gap is at most 1 MiB into one pread, reads
    // each merged span whole (gaps too: bytesRead), and slices out the very bytes range-by-range
    // reads give; ranges further apart, or past a batch, are read apart.
    void coalescingMergesNearbyRanges_data() {
        QTest::addColumn<Ranges>("ranges");
        QTest::addColumn<std::uint64_t>("preads");
        QTest::addColumn<std::uint64_t>("bytesRead");
        // Out of order on purpose: each batch is sorted by offset before merging.
        QTest::newRow("4 KiB gap")
            << Ranges{{8192, 4096}, {0, 4096}} << std::uint64_t(1) << std::uint64_t(12288);
        QTest::newRow("exactly 1 MiB gap") << Ranges{{0, 4096}, {4096 + (1 << 20), 4096}}
                                           << std::uint64_t(1) << std::uint64_t(8192 + (1 << 20));
        QTest::newRow("over 1 MiB apart") << Ranges{{0, 4096}, {4097 + (1 << 20), 4096}}
                                          << std::uint64_t(2) << std::uint64_t(8192);
        QTest::newRow("the same range twice, read once")
            << Ranges{{4096, 4096}, {4096, 4096}} << std::uint64_t(1) << std::uint64_t(4096);
        QTest::newRow("overlapping")
            << Ranges{{0, 8192}, {4096, 8192}} << std::uint64_t(1) << std::uint64_t(12288);
        QTest::newRow("past the end") << Ranges{{kFileSize - 100, 4096}, {kFileSize + 10, 10}}
                                      << std::uint64_t(1) << std::uint64_t(100);
        Ranges batches; // 1025 adjacent bytes: a batch of 1024, then one of 1
        for (std::uint64_t i = 0; i < kCoalesceBatch + 1; ++i)
            batches.push_back({i, 1});
        QTest::newRow("two batches")
            << batches << std::uint64_t(2) << std::uint64_t(kCoalesceBatch + 1);
    }
    void coalescingMergesNearbyRanges() {
        QFETCH(Ranges, ranges);
        QFETCH(std::uint64_t, preads);
        QFETCH(std::uint64_t, bytesRead);
        auto reader = openReader(*findStrategy("pread-coalesce"), probe_, 1 << 20);
        QVERIFY(reader.ok());
        auto out = (*reader)->read(ranges, ConsumeMode::Verify, true, {});
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        QCOMPARE(out->value, file_->expectedChecksum(ranges));
        QCOMPARE(out->syscalls, preads);
        QCOMPARE(out->bytesRead, bytesRead);
    }

    void aMergedSpanStopsAt16MiB() {
        // One batch (32 ranges of 512 KiB fit its 16 MiB) of 24 ranges 256 KiB apart: 21 of
        // them span 15.5 MiB, a 22nd would pass 16 MiB and starts the next span. A sparse
        // file: the 3 MiB one is too small.
        QTemporaryDir dir;
        const FileProbe probe = testing::sparseFileProbe(dir, 20 << 20);
        Ranges ranges;
        for (std::uint64_t i = 0; i < 24; ++i)
            ranges.push_back({i * (768 << 10), 512 << 10});
        QCOMPARE(coalesceBatchRanges(512 << 10), std::size_t(32));
        auto reader = openReader(*findStrategy("pread-coalesce"), probe, 512 << 10);
        QVERIFY(reader.ok());
        auto out = (*reader)->read(ranges, ConsumeMode::Touch, false, {});
        QVERIFY(out.ok());
        QCOMPARE(kCoalesceMaxSpan, std::uint64_t(16) << 20);
        QCOMPARE(out->syscalls, std::uint64_t(2));
        QCOMPARE(out->bytes, std::uint64_t(24) * (512 << 10));
        QCOMPARE(out->bytesRead, std::uint64_t(21 * 768 - 256 + 3 * 768 - 256) << 10);
    }

    void aBatchHoldsUpTo16MiBOfRanges() {
        QCOMPARE(coalesceBatchRanges(8 << 10), std::size_t(1024));
        QCOMPARE(coalesceBatchRanges(64 << 10), std::size_t(256));
        QCOMPARE(coalesceBatchRanges(8 << 20), std::size_t(2));
        QCOMPARE(coalesceBatchRanges(32 << 20), std::size_t(1));
        // Four 8 MiB ranges, adjacent: two batches of two, so two preads, not one.
        QTemporaryDir dir;
        const FileProbe probe = testing::sparseFileProbe(dir, 32 << 20);
        Ranges ranges;
        for (std::uint64_t i = 0; i < 4; ++i)
            ranges.push_back({i << 23, 8 << 20});
        auto reader = openReader(*findStrategy("pread-coalesce"), probe, 8 << 20);
        QVERIFY(reader.ok());
        auto out = (*reader)->read(ranges, ConsumeMode::Touch, false, {});
        QVERIFY(out.ok());
        QCOMPARE(out->syscalls, std::uint64_t(2));
    }

    void registryIsComplete() {
        const char* ids[] = {"pread-zerofill", "pread-uninit",    "seek-read",
                             "read-grow",      "read-prealloc",   "pread-reuse",
                             "mmap-copy",      "mmap-touch",      "mmap-willneed",
                             "mmap-populate",  "mmap-prefetch",   "direct-pread",
                             "uring-batch",    "pread-calloc",    "mmap-copy-kept",
                             "pread-coalesce", "pread-dontcache", "pread-sequential",
                             "pread-random",   "mmap-sequential", "mmap-random"};
        QCOMPARE(strategies().size(), std::size(ids));
        for (const char* id : ids) {
            const auto* s = findStrategy(id);
            QVERIFY2(s, id);
            QVERIFY2(!s->summary.empty() && !s->family.empty() && !s->name.empty(), id);
            QVERIFY2(strategyExplanation(id).size() > 100, id);
        }
        QVERIFY(!findStrategy("no-such"));
    }
};

QTEST_GUILESS_MAIN(TestStrategies)
#include "tst_strategies.moc"
