// What each strategy should cost, and the disagreements the teaching panel states.
#include "readscope/strategy.h"
#include "readscope/teaching_words.h"

#include <QTest>

using namespace readscope;

namespace {
Cell measuredCell(const char* id, std::uint64_t range, std::uint64_t ranges, std::uint64_t syscalls,
                  std::uint64_t minorFaults) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = range;
    c.rangesPerRound = ranges;
    for (int r = 1; r <= 3; ++r) {
        Sample s;
        s.round = r;
        s.bytes = range * ranges;
        s.seconds = 0.01;
        s.syscalls = syscalls;
        s.minorFaults = minorFaults;
        s.userSeconds = 0.001;
        s.systemSeconds = 0.004;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}
bool mentions(const std::vector<std::string>& lines, const char* word) {
    for (const auto& l : lines)
        if (l.find(word) != std::string::npos)
            return true;
    return false;
}
std::vector<Disagreement::Kind> kinds(const std::vector<Disagreement>& found) {
    std::vector<Disagreement::Kind> out;
    for (const auto& d : found)
        out.push_back(d.kind);
    return out;
}
} // namespace

class TestTeaching : public QObject {
    Q_OBJECT
private slots:
    void expectedCostsFollowTheDefinitions() {
        const auto seek = expectedCost(*findStrategy("seek-read"), 65536);
        QCOMPARE(seek.calls.perRangeMin, 2.0);
        QVERIFY(seek.words.syscalls.find("lseek") != std::string::npos);
        const auto zero = expectedCost(*findStrategy("pread-zerofill"), 65536);
        QVERIFY(zero.words.passes.find("memset") != std::string::npos);
        const auto grow = expectedCost(*findStrategy("read-grow"), 1 << 20);
        QVERIFY(grow.calls.perRangeMin >= 8); // 8K, 16K ... 1M
    }

    void windowsStrategiesAreExplainedInWin32Terms() {
        const auto offset = expectedCost(*findStrategy("readfile-offset"), 64 << 10);
        QVERIFY2(offset.words.syscalls.find("ReadFile") != std::string::npos,
                 offset.words.syscalls.c_str());
        QVERIFY(offset.words.passes.find("cache manager") != std::string::npos);
        const auto seek = expectedCost(*findStrategy("setpointer-readfile"), 64 << 10);
        QVERIFY2(seek.words.syscalls.find("SetFilePointerEx") != std::string::npos,
                 seek.words.syscalls.c_str());
        QCOMPARE(seek.calls.perRangeMin, 2.0);
        const auto prefetch = expectedCost(*findStrategy("mapview-prefetch"), 64 << 10);
        QVERIFY2(prefetch.words.syscalls.find("PrefetchVirtualMemory") != std::string::npos,
                 prefetch.words.syscalls.c_str());
        QVERIFY(
            expectedCost(*findStrategy("pread-uninit"), 64 << 10).words.syscalls.find("pread") !=
            std::string::npos);
    }

    void agreementIsSilent() {
        const auto* s = findStrategy("seek-read");
        QVERIFY(disagreements(*s, measuredCell("seek-read", 65536, 100, 200, 0)).empty());
        const auto* reuse = findStrategy("pread-reuse");
        QVERIFY(disagreements(*reuse, measuredCell("pread-reuse", 1 << 20, 10, 10, 0)).empty());
    }

    // Each disagreement is a value; its words name what was expected and what was measured.
    void disagreementsAreFoundAndSaid() {
        const auto* seek = findStrategy("seek-read");
        auto found = disagreements(*seek, measuredCell("seek-read", 65536, 100, 100, 0));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].kind, Disagreement::Syscalls);
        QCOMPARE(found[0].measured, 1.0);
        QVERIFY(mentions(disagreementLines(*seek, found), "lseek"));
        const auto* reuse = findStrategy("pread-reuse");
        found = disagreements(*reuse, measuredCell("pread-reuse", 1 << 20, 10, 10, 2560));
        QCOMPARE(kinds(found), std::vector{Disagreement::FaultsWhereNone});
        QCOMPARE(found[0].measured, 256.0);
        QVERIFY(mentions(disagreementLines(*reuse, found), "expected none"));
        const auto* uninit = findStrategy("pread-uninit");
        found = disagreements(*uninit, measuredCell("pread-uninit", 1 << 20, 10, 10, 0));
        QCOMPARE(kinds(found), std::vector{Disagreement::FreshBuffersWarm});
        QCOMPARE(found[0].expected, 256.0); // 4 KiB pages per MiB
        QVERIFY(mentions(disagreementLines(*uninit, found), "malloc"));
        const auto* touch = findStrategy("mmap-touch");
        found = disagreements(*touch, measuredCell("mmap-touch", 1 << 20, 10, 2, 0));
        QCOMPARE(kinds(found), std::vector{Disagreement::NoMappingFaults});
        QVERIFY(mentions(disagreementLines(*touch, found), "fault on first touch"));
    }

    // A mapping's calls come once per round: over 5 ranges of 8 MiB, mmap, munmap and the
    // signal mask are 0.6 calls per range, which is what the explanation says, not against
    // it; 13 calls a round are. Two workers make theirs each.
    void perRoundCallsOverFewRangesAgree() {
        const auto* s = findStrategy("mmap-copy");
        const auto quiet = [](const std::vector<Disagreement>& found) {
            return std::none_of(found.begin(), found.end(), [](const Disagreement& d) {
                return d.kind == Disagreement::Syscalls;
            });
        };
        QVERIFY(quiet(disagreements(*s, measuredCell("mmap-copy", 8 << 20, 5, 3, 0))));
        QVERIFY(!quiet(disagreements(*s, measuredCell("mmap-copy", 8 << 20, 5, 13, 0))));
        QVERIFY(!quiet(disagreements(*s, measuredCell("mmap-copy", 8 << 20, 5, 10, 0))));
        QVERIFY(
            quiet(disagreements(*s, measuredCell("mmap-copy", 8 << 20, 5, 10, 0), 4096, true, 2)));
    }

    void uncountedFaultsAreNotCompared() {
        // 1 MiB fresh buffers with no faults measured: a disagreement when faults are counted,
        // nothing when the system keeps no count (Wine), whose zeros mean "not counted".
        const auto cell = measuredCell("pread-uninit", 1 << 20, 10, 10, 0);
        const auto* s = findStrategy("pread-uninit");
        const auto counted = disagreements(*s, cell, 4096, true);
        QCOMPARE(kinds(counted), std::vector{Disagreement::FreshBuffersWarm});
        QVERIFY(disagreements(*s, cell, 4096, false).empty());
    }

    void measuredCostPerMiB() {
        const auto m = measuredCost(measuredCell("pread-uninit", 1 << 20, 10, 10, 2560));
        QCOMPARE(m.syscallsPerRange, 1.0);
        QCOMPARE(m.minorFaultsPerMiB, 256.0);
        QVERIFY(qAbs(m.systemMsPerGB - 4.0 / (10.0 * (1 << 20) / 1e9)) < 1e-9);
        QVERIFY(!m.tlbShootdownsPerMiB); // not counted: no figure, never a 0
        // 10 MiB a round; 20, 50 and 30 shootdowns: the median round's 30 per 10 MiB.
        Cell counted = measuredCell("mmap-random", 1 << 20, 10, 10, 2560);
        counted.samples[0].tlbShootdowns = 20;
        counted.samples[1].tlbShootdowns = 50;
        counted.samples[2].tlbShootdowns = 30;
        QCOMPARE(measuredCost(counted).tlbShootdownsPerMiB.value_or(-1), 3.0);
    }

    // The kernel splits run time into user and system by where its ticks landed: a round of a
    // few ms holds one or two, so the per-round split is 0% or 100%. The share comes from all
    // rounds together, and says when they ran too little CPU for it to mean much.
    void cpuSplitIsTheShareOverAllRounds() {
        Cell c = measuredCell("mmap-touch", 1 << 20, 10, 0, 2560);
        c.samples[0].userSeconds = c.samples[1].userSeconds = 0.005;
        c.samples[0].systemSeconds = c.samples[1].systemSeconds = 0;
        c.samples[2].userSeconds = 0;
        c.samples[2].systemSeconds = 0.005; // the one round whose tick fell in a fault
        const auto cpu = cpuMsPerGB(c);
        QVERIFY(cpu);
        const double gb = 10.0 * (1 << 20) / 1e9;
        QVERIFY(qAbs(cpu->totalMs() - 5.0 / gb) < 1e-9);
        QVERIFY2(qAbs(cpu->systemMs - 5.0 / 3 / gb) < 1e-9, // the median said 0
                 qPrintable(QString::number(cpu->systemMs)));
        QVERIFY(!cpu->splitResolved); // 15 ms of CPU: a tick or two
        for (auto& s : c.samples)
            s.userSeconds += 0.1;
        QVERIFY(cpuMsPerGB(c)->splitResolved);
    }
};

QTEST_GUILESS_MAIN(TestTeaching)
#include "tst_teaching.moc"
