// The whole pattern across file sizes: each size read whole from a copy of the target's first
// bytes (open, read to the end, close, all timed), verified, and no copy left behind after
// the run, a stop, or a crash that a resume clears up.
#include "readscope/recovery.h"
#include "readscope/run_notes.h"
#include "readscope/runner.h"
#include "test_file.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <mutex>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class Sink : public RunSink {
public:
    void onProgress(const Progress& p) override {
        if (onRound && p.at.phase == RunPhase::Round)
            onRound(p);
    }
    void onWarning(const RunWarning& w) override {
        std::lock_guard lock(mutex);
        warnings.push_back(warningText(w));
    }
    std::mutex mutex;
    std::vector<std::string> warnings;
    std::function<void(const Progress&)> onRound;
};

// What is in the target's folder besides the target itself.
QStringList leftovers(const TestFile& f) {
    QStringList names = QDir(f.dir()).entryList(QDir::AllEntries | QDir::Hidden |
                                                QDir::NoDotAndDotDot | QDir::System);
    names.removeAll("data.bin");
    return names;
}

Plan sweep(const TestFile& f) {
    Plan p;
    p.file = f.path();
    p.pattern = Pattern::Whole;
    p.fileSizes = {128, 8 << 10, 256 << 10, 1 << 20};
    p.strategies = {"read-grow", "read-prealloc", "mmap-copy", "uring-batch", "mmap-copy-kept"};
    p.rounds = 2;
    p.warmup = 0;
    return p;
}

} // namespace

class TestWholeFiles : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void init() { file_ = std::make_unique<TestFile>(1 << 20); }

    void eachSizeIsReadWholeFromItsCopy() {
        const auto before = testing::fileFingerprint(file_->path());
        Sink sink;
        auto doc = runPlan(sweep(*file_), sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(20));
        for (std::uint64_t size : {128ull, 8ull << 10, 256ull << 10, 1ull << 20}) {
            for (const char* id : {"read-grow", "read-prealloc", "mmap-copy"}) {
                const Cell* c = doc->find(id, size);
                QVERIFY(c);
                QVERIFY2(c->measured(), c->message.c_str());
                QCOMPARE(c->checksum, Checksum::Verified);
                QCOMPARE(c->samples.size(), std::size_t(2));
                for (const auto& s : c->samples) {
                    // Every read is the whole file of this size, and pays open and close: at
                    // least three system calls (open, a read, close) per read.
                    QCOMPARE(s.bytes, c->rangesPerRound * size);
                    QVERIFY2(s.syscalls >= 3 * c->rangesPerRound,
                             qPrintable(QString("%1 at %2: %3 calls for %4 reads")
                                            .arg(id)
                                            .arg(size)
                                            .arg(s.syscalls)
                                            .arg(c->rangesPerRound)));
                }
            }
            for (const char* id : {"uring-batch", "mmap-copy-kept"}) {
                const Cell* c = doc->find(id, size);
                QVERIFY(c);
                QCOMPARE(testing::name(c->status), QString("unavailable"));
                QVERIFY2(c->message.find("whole-file sweep") != std::string::npos,
                         c->message.c_str());
            }
        }
        // A read that sizes its buffer asks the file for its size, inside the timed read: at
        // 128 B, open, fstat, one read, the read that sees the end, close.
        const Cell* prealloc = doc->find("read-prealloc", 128);
        for (const auto& s : prealloc->samples)
            QCOMPARE(s.syscalls, 5 * prealloc->rangesPerRound);
        QVERIFY(!doc->copiesFolder.empty());
        QVERIFY(!QFile::exists(QString::fromStdString(doc->copiesFolder)));
        QVERIFY2(leftovers(*file_).isEmpty(), qPrintable(leftovers(*file_).join(", ")));
        QCOMPARE(testing::fileFingerprint(file_->path()), before);
    }

    // A copy as large as the target is read as many times a round as the budget holds: the
    // reads are not bounded by the target's size. Rounds that read the whole budget (round
    // time 0), so the count does not depend on how fast this machine reads (the time-sized
    // form once asserted 'more than one read' of 1 MiB in 15 ms, which a loaded ASan build
    // missed).
    void aCopyAsLargeAsTheTargetIsReadManyTimesARound() {
        Sink sink;
        Plan plan = sweep(*file_);
        plan.fileSizes = {1 << 20};
        plan.strategies = {"read-prealloc"};
        plan.rounds = 1;
        plan.roundTimeSeconds = 0;
        plan.budget = 3 << 20;
        auto doc = runPlan(plan, sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        const Cell* c = doc->find("read-prealloc", std::uint64_t(1) << 20);
        QVERIFY(c);
        QCOMPARE(c->checksum, Checksum::Verified);
        QCOMPARE(c->rangesPerRound, std::uint64_t(3));
        QCOMPARE(c->samples.front().bytes, std::uint64_t(3) << 20);
    }

    void theCopyHoldsTheTargetsFirstBytes() {
        // Verification compares every read with the copy's own bytes; this checks that the
        // copy is the target's beginning, read back while the run is under way.
        Plan plan = sweep(*file_);
        plan.fileSizes = {4096 + 17};
        plan.strategies = {"pread-uninit"};
        Sink sink;
        QByteArray seen;
        sink.onRound = [&](const Progress&) {
            if (!seen.isEmpty())
                return;
            const auto folders =
                QDir(file_->dir()).entryList({".readscope-copies-*"}, QDir::Dirs | QDir::Hidden);
            if (folders.size() != 1)
                return;
            QFile copy(file_->dir() + "/" + folders.front() + "/4113.bin");
            if (copy.open(QIODevice::ReadOnly))
                seen = copy.readAll();
        };
        QVERIFY(runPlan(plan, sink).ok());
        QFile target(QString::fromStdString(file_->path()));
        QVERIFY(target.open(QIODevice::ReadOnly));
        QCOMPARE(seen.size(), 4113);
        QCOMPARE(seen, target.read(4113));
    }

    void sizesLargerThanTheTargetAreSkippedAndSaid() {
        Plan plan = sweep(*file_);
        plan.fileSizes = {64 << 10, 4 << 20, 16 << 20};
        plan.strategies = {"read-prealloc"};
        Sink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(1));
        QCOMPARE(doc->cells[0].rangeBytes, std::uint64_t(64 << 10));
        const bool said = std::any_of(sink.warnings.begin(), sink.warnings.end(), [](auto& w) {
            return w.find("4 MiB, 16 MiB are larger than") != std::string::npos &&
                   w.find("skipped") != std::string::npos;
        });
        QVERIFY(said);
        // Kept as a value: the sizes skipped, the file and its size.
        const FileSizesSkipped* kept = nullptr;
        for (const auto& note : doc->notes)
            kept = kept ? kept : note.as<FileSizesSkipped>();
        QVERIFY(kept);
        QCOMPARE(kept->sizes, (std::vector<std::uint64_t>{4 << 20, 16 << 20}));
        QCOMPARE(kept->fileBytes, file_->probe().size);
        QCOMPARE(kept->path, file_->path());
        QVERIFY2(documentNote(*doc).find("are larger than") != std::string::npos,
                 documentNote(*doc).c_str());
        // None left: refused before anything runs.
        plan.fileSizes = {4 << 20};
        auto none = runPlan(plan, sink);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message.find("every file size is larger") != std::string::npos,
                 none.error().message.c_str());
        QVERIFY(leftovers(*file_).isEmpty());
    }

    void withoutSizesTheTargetItselfIsRead() {
        Plan plan = sweep(*file_);
        plan.fileSizes.clear();
        plan.strategies = {"read-prealloc"};
        Sink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(1));
        QCOMPARE(doc->cells[0].rangeBytes, file_->size());
        QVERIFY(doc->copiesFolder.empty());
    }

    void coldEvictsEachCopyBeforeItsRound() {
        Plan plan = sweep(*file_);
        plan.cache = CacheMode::Cold;
        plan.fileSizes = {64 << 10};
        plan.strategies = {"read-prealloc"};
        Sink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell& c = doc->cells.at(0);
        QCOMPARE(c.rangesPerRound, std::uint64_t(1)); // a second read would be warm
        if (c.residencyMethod.empty())
            QSKIP("residency cannot be measured on this filesystem");
        if (file_->probe().filesystem == "tmpfs")
            QSKIP("tmpfs pages cannot be evicted: the copies there stay warm");
        for (const auto& s : c.samples) {
            QVERIFY(s.residentBefore.has_value());
            QVERIFY2(*s.residentBefore <= 0.01, c.message.c_str()); // the copy was evicted
        }
    }

    void aStopMidSweepLeavesNoCopy() {
        Plan plan = sweep(*file_);
        plan.strategies = {"read-grow"};
        plan.rounds = 3;
        Sink sink;
        std::stop_source stop;
        sink.onRound = [&](const Progress& p) {
            if (p.rangeBytes == (8u << 10))
                stop.request_stop(); // mid-way through the second size
        };
        auto doc = runPlan(plan, sink, stop.get_token());
        QVERIFY(doc.ok());
        QVERIFY(!doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(1)); // 128 B finished; 8 KiB dropped
        QVERIFY2(leftovers(*file_).isEmpty(), qPrintable(leftovers(*file_).join(", ")));
    }

    void resumingRemovesWhatACrashLeft() {
        // What a kill -9 leaves: the folder the recovery file names, with a copy in it. Files
        // that are not readscope's copies are left alone.
        const QString folder = file_->dir() + "/.readscope-copies-0badf00d";
        QVERIFY(QDir().mkdir(folder));
        for (const char* name : {"/128.bin", "/8192.bin", "/notes.txt"}) {
            QFile f(folder + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x");
        }
        ResultDocument crashed;
        crashed.plan = sweep(*file_);
        crashed.plan.strategies = {"read-prealloc"};
        crashed.fileSize = file_->size();
        crashed.copiesFolder = folder.toStdString();
        crashed.complete = false;
        removeLeftoverCopies(crashed);
        QVERIFY(!QFile::exists(folder + "/128.bin"));
        QVERIFY(!QFile::exists(folder + "/8192.bin"));
        QVERIFY(QFile::exists(folder + "/notes.txt"));
        QVERIFY(QFile::remove(folder + "/notes.txt"));
        // Through a resume, which also measures what was missing and cleans up after itself.
        for (const char* name : {"/128.bin", "/262144.bin"}) {
            QVERIFY(QDir().mkpath(folder));
            QFile f(folder + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        Sink sink;
        auto resumed = resumeRun(crashed, sink);
        QVERIFY2(resumed.ok(), resumed.ok() ? "" : resumed.error().message.c_str());
        QCOMPARE(resumed->cells.size(), std::size_t(4)); // one strategy, four sizes
        QVERIFY2(leftovers(*file_).isEmpty(), qPrintable(leftovers(*file_).join(", ")));
    }

    // A new run that takes over a crashed run's recovery file first removes what that file
    // names: overwriting it would lose the copies' folder for good.
    void aRecoveryFileOverwrittenLetsGoOfItsCopies() {
        const QString folder = file_->dir() + "/.readscope-copies-c0ffee00";
        QVERIFY(QDir().mkdir(folder));
        QFile copy(folder + "/8192.bin");
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.close();
        const std::string path = (file_->dir() + "/recovery.jsonl").toStdString();
        Sink quiet;
        ResultDocument crashed;
        crashed.plan = sweep(*file_);
        crashed.copiesFolder = folder.toStdString();
        {
            RecoverySink sink(quiet, path);
            sink.onStarted(crashed);
        } // as after kill -9
        QVERIFY(QFile::exists(folder));
        RecoverySink next(quiet, path);
        next.onStarted(ResultDocument{});
        QVERIFY(!QFile::exists(folder));
        next.discard();
    }

    void aFolderThatIsNotOursIsLeftAlone() {
        const QString folder = file_->dir() + "/mine";
        QVERIFY(QDir().mkdir(folder));
        QFile f(folder + "/128.bin");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        ResultDocument doc;
        doc.plan = sweep(*file_);
        doc.copiesFolder = folder.toStdString();
        removeLeftoverCopies(doc);
        QVERIFY(QFile::exists(folder + "/128.bin"));
    }
};

QTEST_GUILESS_MAIN(TestWholeFiles)
#include "tst_whole_files.moc"
