// Plans and files are checked up front; every bad one is named with what to do about it.
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/ranges.h"
#include "test_file.h"

#include "readscope/residency.h"

#include <QFile>
#include <QTest>

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
        if (::geteuid() == 0)
            QSKIP("root reads files without read permission; tst_cli checks this as 'nobody'");
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
                                                        << "give one offset, or none";
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
        const auto msg = messageOf(validatePlan(plan, file_->probe()));
        QVERIFY2(msg.contains(mentions), qPrintable(msg));
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
