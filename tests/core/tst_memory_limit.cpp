// Runs under a memory limit (Plan::memoryLimit): the file's page cache counts against it, so
// rounds that read a file larger than the limit find only part of it cached; the document
// says how the limit was applied; the process is back in its own cgroup afterwards and the
// cgroup made for the run is gone. A cgroup the process was started in, already limited, is
// used as it is. Needs permission to make memory cgroups (root here); skipped, with the
// reason, where there is none.
#include "cgroups.h"
#include "readscope/condition_words.h"
#include "readscope/document_words.h"
#include "readscope/runner.h"
#include "test_file.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class NullSink : public RunSink {};

// Whole-file rounds (the budget is the file, no round-time cut), warm.
Plan wholeFileRounds(const TestFile& file, std::uint64_t limit) {
    Plan plan;
    plan.file = file.path();
    plan.strategies = {"pread-uninit"};
    plan.sizes = {1 << 20};
    plan.cache = CacheMode::Warm;
    plan.budget = file.size();
    plan.roundTimeSeconds = 0;
    plan.rounds = 3;
    plan.warmup = 0;
    plan.memoryLimit = limit;
    return plan;
}

} // namespace

class TestMemoryLimit : public QObject {
    Q_OBJECT
private slots:
    void roundsFindOnlyWhatTheLimitKeeps() {
        TestFile file(96 << 20);
        if (!file.probe().residencyVerifiable)
            QSKIP("this file's page-cache state cannot be read here");
        const QString before = testing::memoryCgroupOf("self");
        NullSink sink;
        auto doc = runPlan(wholeFileRounds(file, 32 << 20), sink);
        if (!doc && doc.error().message.find("cannot run under a memory limit") == 0)
            QSKIP(doc.error().message.c_str());
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(doc->memoryLimit);
        QCOMPARE(doc->memoryLimit->bytes, std::uint64_t(32 << 20));
        QVERIFY2(doc->memoryLimit->how.find("cgroup") != std::string::npos,
                 doc->memoryLimit->how.c_str());
        const Cell& cell = doc->cells.at(0);
        for (const Sample& s : cell.samples) {
            QVERIFY(s.residentBefore);
            // 32 MiB of a 96 MiB file is a third; the process's own memory counts too.
            QVERIFY2(*s.residentBefore < 0.4,
                     qPrintable(QString("a round began with %1 % cached under a 32 MiB limit")
                                    .arg(*s.residentBefore * 100)));
        }
        // Its rounds finding the file partly evicted is what the limit is for, not a warm run
        // gone wrong: no "cache not warm" on the cell; the footnote says why instead.
        QVERIFY2(!findCondition<NotWarm>(cell.conditions), cellNotes(cell).c_str());
        QVERIFY2(memoryLimitSentence(*doc).find("cannot keep it cached") != std::string::npos,
                 memoryLimitSentence(*doc).c_str());
        QCOMPARE(testing::memoryCgroupOf("self"), before);
        const QString made =
            QString::fromStdString(doc->memoryLimit->how).section(", ", 1, 1).section(' ', 0, 0);
        QVERIFY2(!made.isEmpty() && !QDir(made).exists(), qPrintable(made));
        // Without the limit the same rounds find the file cached.
        auto free = runPlan(wholeFileRounds(file, 0), sink);
        QVERIFY(free.ok() && !free->memoryLimit);
        QVERIFY(*free->cells.at(0).residentBefore > 0.99);
    }

    // A run killed under its limit leaves its cgroup behind (nothing runs to remove it): the
    // next limited run removes such cgroups whose process is gone, and no live run's.
    void cgroupsOfKilledRunsAreRemoved() {
        const QString line = testing::memoryCgroupOf("self");
        const bool v1 = !line.startsWith("0::");
        const QString own =
            (v1 ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup") + line.section(':', 2);
        // A pid no process has now: a child's, waited for.
        const pid_t gone = ::fork();
        if (gone == 0)
            ::_exit(0);
        ::waitpid(gone, nullptr, 0);
        const pid_t alive = ::fork(); // a process that is alive while the run starts
        if (alive == 0) {
            ::pause();
            ::_exit(0);
        }
        const QString left = own + QString("/readscope-%1").arg(gone);
        const QString live = own + QString("/readscope-%1").arg(alive);
        const bool made = QDir().mkdir(left) && QDir().mkdir(live);
        TestFile file(8 << 20);
        NullSink sink;
        auto doc = made ? runPlan(wholeFileRounds(file, 64 << 20), sink)
                        : Result<ResultDocument>(Error{"not made"});
        const bool leftStayed = QDir(left).exists(), liveStayed = QDir(live).exists();
        ::kill(alive, SIGKILL);
        ::waitpid(alive, nullptr, 0);
        QDir().rmdir(left);
        QDir().rmdir(live);
        if (!made)
            QSKIP("cannot make a memory cgroup here: run as root, or in a delegated cgroup v2 "
                  "subtree "
                  "(systemd-run --user --scope -p Delegate=yes)");
        if (!doc && doc.error().message.find("cannot run under a memory limit") == 0)
            QSKIP(doc.error().message.c_str());
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        if (doc->memoryLimit && doc->memoryLimit->how.find("started in") != std::string::npos)
            QSKIP("started in a limited cgroup: the run makes none of its own, so removes none");
        QVERIFY2(!leftStayed, qPrintable(left));
        QVERIFY2(liveStayed, qPrintable(live));
    }

    // Started inside a cgroup limited to at most what is asked (as systemd-run --scope -p
    // MemoryMax makes one): that cgroup's limit is the run's, and readscope makes none.
    void aLimitedCgroupItRunsInIsUsed() {
        // 48 MiB in force where 64 MiB was asked: the run's plan says 48 MiB.
        QString line = testing::memoryCgroupOf("self");
        const bool v1 = !line.startsWith("0::");
        const QString root = v1 ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup";
        const QString own = root + line.section(':', 2);
        const QString mine = own + QString("/tst-limited-%1").arg(::getpid());
        if (!QDir().mkdir(mine))
            QSKIP("cannot make a memory cgroup here to start in: run as root, or in a delegated "
                  "cgroup v2 subtree");
        auto write = [](const QString& path, const QByteArray& text) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush();
        };
        const QByteArray pid = QByteArray::number(::getpid());
        const bool in = write(mine + (v1 ? "/memory.limit_in_bytes" : "/memory.max"), "50331648") &&
                        write(mine + "/cgroup.procs", pid);
        if (!in) { // cgroup v2 below the root: no memory controller for a child here
            write(own + "/cgroup.procs", pid);
            QDir().rmdir(mine);
            QSKIP("cannot limit and enter a cgroup here to start in: cgroup v2 gives a child the "
                  "memory controller only from a cgroup that holds no processes");
        }
        TestFile file(8 << 20);
        NullSink sink;
        auto doc = runPlan(wholeFileRounds(file, 64 << 20), sink);
        write(own + "/cgroup.procs", pid);
        QDir().rmdir(mine);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(doc->memoryLimit);
        QCOMPARE(doc->memoryLimit->bytes, std::uint64_t(48 << 20));
        QCOMPARE(doc->plan.memoryLimit, std::uint64_t(48 << 20));
        QVERIFY2(doc->memoryLimit->how.find("started in") != std::string::npos,
                 doc->memoryLimit->how.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMemoryLimit)
#include "tst_memory_limit.moc"
