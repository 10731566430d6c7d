// The measurement in its own process (worker_run.h): readscope-cli worker runs the plan and
// streams what the engine reports; the sink here gets the same events an in-process run
// gives, Stop reaches the child, a killed child is an error that names how it ended and keeps
// what it sent, and a memory-limited run moves only the child into its cgroup.
#include "cgroups.h"
#include "readscope/condition_words.h"
#include "readscope/worker_run.h"
#include "test_file.h"

#include <QFile>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

// What arrived, in order, by kind.
class Recorder : public RunSink {
public:
    void onStarted(const ResultDocument&) override { events.push_back('S'); }
    void onProgress(const Progress&) override { ++progress; }
    void onRoundMeasured(const Cell& c) override {
        events.push_back('R');
        rounds.push_back(c);
        if (onRound)
            onRound(c);
    }
    void onCellFinished(const Cell&) override { events.push_back('C'); }
    std::string events;
    int progress = 0;
    std::vector<Cell> rounds;
    std::function<void(const Cell&)> onRound;
};

Plan smallPlan(const TestFile& file) {
    Plan plan;
    plan.file = file.path();
    plan.strategies = {"pread-uninit", "mmap-copy"};
    plan.sizes = {64 << 10, 1 << 20};
    plan.rounds = 4;
    plan.warmup = 1;
    return plan;
}

Worker cli() { return Worker{READSCOPE_CLI, {}}; }

} // namespace

class TestWorkerRun : public QObject {
    Q_OBJECT
private slots:
    void theChildsRunArrivesAsAnInProcessOneWould() {
        TestFile file(8 << 20);
        Recorder sink;
        int childPid = 0;
        Worker worker = cli();
        worker.onStarted = [&](int pid) { childPid = pid; };
        auto doc = runPlanInWorker(worker, smallPlan(file), sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(childPid > 0 && childPid != ::getpid());
        QVERIFY(doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(4));
        for (const Cell& c : doc->cells) {
            QCOMPARE(c.samples.size(), std::size_t(4));
            QVERIFY2(c.status == CellStatus::Ok || c.status == CellStatus::Noisy ||
                         c.status == CellStatus::TooFewRounds,
                     cellNotes(c).c_str());
            QCOMPARE(c.checksum, Checksum::Verified);
        }
        // Started first, a round per cell per round (4 x 4), each cell finished once.
        QCOMPARE(sink.events.front(), 'S');
        QCOMPARE(std::count(sink.events.begin(), sink.events.end(), 'R'), 16);
        QCOMPARE(std::count(sink.events.begin(), sink.events.end(), 'C'), 4);
        QVERIFY(sink.progress > 0);
        // The last round each cell sent holds the figures the document ends with.
        const Cell& last = sink.rounds.back();
        const Cell* same = doc->find(last.strategy, last.point());
        QVERIFY(same);
        QCOMPARE(last.samples.back().seconds, same->samples.at(last.samples.size() - 1).seconds);
    }

    void stopReachesTheChild() {
        TestFile file(8 << 20);
        Plan plan = smallPlan(file);
        plan.rounds = 200;
        std::stop_source stop;
        Recorder sink;
        sink.onRound = [&](const Cell&) { stop.request_stop(); };
        auto doc = runPlanInWorker(cli(), plan, sink, stop.get_token());
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(!doc->complete);
        std::size_t rounds = 0;
        for (const Cell& c : doc->cells)
            rounds += c.samples.size();
        QVERIFY2(rounds > 0 && rounds < 40, qPrintable(QString::number(rounds)));
    }

    void aKilledChildIsAnErrorThatKeepsWhatItSent() {
        TestFile file(8 << 20);
        Plan plan = smallPlan(file);
        plan.rounds = 200;
        int childPid = 0;
        Worker worker = cli();
        worker.onStarted = [&](int pid) { childPid = pid; };
        Recorder sink;
        sink.onRound = [&](const Cell&) {
            if (sink.rounds.size() == 3)
                ::kill(childPid, SIGKILL);
        };
        auto doc = runPlanInWorker(worker, plan, sink);
        QVERIFY(!doc.ok());
        const std::string& why = doc.error().message;
        QVERIFY2(why.find("killed by signal 9") != std::string::npos, why.c_str());
        QVERIFY2(why.find("is kept") != std::string::npos, why.c_str());
        QVERIFY(sink.rounds.size() >= 3);
    }

    void aMissingWorkerIsSaid() {
        TestFile file(1 << 20);
        Recorder sink;
        auto doc = runPlanInWorker(Worker{"/nonexistent/readscope-cli", {}}, smallPlan(file), sink);
        QVERIFY(!doc.ok());
        QVERIFY2(doc.error().message.find("could not be started") != std::string::npos,
                 doc.error().message.c_str());
        QVERIFY(sink.events.empty());
    }

    void aMemoryLimitMovesOnlyTheChild() {
        TestFile file(64 << 20);
        Plan plan = smallPlan(file);
        plan.memoryLimit = 48 << 20;
        const QString self = QString::number(::getpid());
        const QString before = testing::memoryCgroupOf(self);
        QString during, child;
        int childPid = 0;
        Worker worker = cli();
        worker.onStarted = [&](int pid) { childPid = pid; };
        Recorder sink;
        sink.onRound = [&](const Cell&) {
            if (!child.isEmpty())
                return;
            during = testing::memoryCgroupOf(self);
            child = testing::memoryCgroupOf(QString::number(childPid));
        };
        auto doc = runPlanInWorker(worker, plan, sink);
        if (!doc && doc.error().message.find("cannot run under a memory limit") == 0)
            QSKIP(doc.error().message.c_str());
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QVERIFY(doc->memoryLimit);
        QCOMPARE(doc->memoryLimit->bytes, std::uint64_t(48 << 20));
        QVERIFY(!before.isEmpty());
        QCOMPARE(during, before);
        QCOMPARE(testing::memoryCgroupOf(self), before);
        // The child ran in the cgroup the limit made for it (readscope-<its pid>), or in the
        // limited one it was started in: either way not where this process is.
        QVERIFY2(child != before, qPrintable(child));
        QVERIFY2(child.contains(QString("readscope-%1").arg(childPid)) ||
                     QString::fromStdString(doc->memoryLimit->how).contains("scope"),
                 qPrintable(child + " / " + QString::fromStdString(doc->memoryLimit->how)));
    }
};

QTEST_GUILESS_MAIN(TestWorkerRun)
#include "tst_worker_run.moc"
