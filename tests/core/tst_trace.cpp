// Traces: each format readscope reads (its own, CSV, fio I/O logs v2 and v3, strace logs) gives
// the reads the source holds, in order; what cannot be replayed is said; bad traces are refused
// with a message naming the problem; a plan refuses a trace that reads past its file's end.
#include "readscope/cost_model.h"
#include "readscope/documents.h"
#include "readscope/finding_text.h"
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/run_findings.h"
#include "readscope/trace_formats.h"

#include "round_cells.h"

#include <QTest>

using namespace readscope;

namespace {

std::vector<TraceRead> pairs(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> l) {
    std::vector<TraceRead> out;
    for (auto [o, n] : l)
        out.push_back({o, n, 0});
    return out;
}

QByteArray said(const Error& e) { return QByteArray::fromStdString(e.message); }

} // namespace

class TestTrace : public QObject {
    Q_OBJECT
private slots:
    void ownFormatRoundTrips() {
        Trace t;
        t.source = "strace: python3 -c import os\nprint(1)";
        t.file = "/data/f.bin";
        t.fileBytes = 1 << 20;
        t.reads = {{1000, 24, 0}, {0, 4096, 1}, {8192, 65536, 0}};
        t.notReplayed = {"the program mapped the file once"};
        const std::string text = traceText(t);
        QVERIFY(text.starts_with("# readscope trace 1\n"));
        auto back = parseTrace(text, "t.trace");
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->reads.size(), t.reads.size());
        QVERIFY(back->reads == t.reads);
        QCOMPARE(back->source, std::string("strace: python3 -c import os print(1)")); // one line
        QCOMPARE(back->file, t.file);
        QCOMPARE(back->fileBytes.value_or(0), std::uint64_t(1 << 20));
        QVERIFY(back->notReplayed == t.notReplayed);
    }

    void anEditedTraceIsRefused() {
        Trace t;
        t.source = "csv: x";
        t.reads = pairs({{0, 4096}, {4096, 4096}});
        std::string text = traceText(t);
        // One length changed: the header's bytes and digest no longer match.
        const auto at = text.rfind("4096,4096");
        text.replace(at, 9, "4096,4095");
        auto back = parseTrace(text, "t.trace");
        QVERIFY(!back);
        QVERIFY2(said(back.error()).contains("do not match its header"), said(back.error()));
    }

    void reorderedReadsFailTheDigestAlone() {
        Trace t;
        t.source = "csv: x";
        t.reads = pairs({{0, 4096}, {8192, 100}});
        std::string text = traceText(t);
        // The same reads and bytes in another order: only the digest tells.
        const auto first = text.find("0,4096,0\n"), second = text.find("8192,100,0\n");
        text = text.substr(0, first) + "8192,100,0\n0,4096,0\n" + text.substr(second + 11);
        auto back = parseTrace(text, "t.trace");
        QVERIFY(!back);
        QVERIFY2(said(back.error()).contains("do not match its header"), said(back.error()));
    }

    void threadsAreNumberedDenselyAndEndsStayInRange() {
        auto sparse = parseTrace("0,10,0\n10,10,7\n20,10,7\n", "t.csv");
        QVERIFY(sparse);
        QVERIFY(sparse->reads == (std::vector<TraceRead>{{0, 10, 0}, {10, 10, 1}, {20, 10, 1}}));
        QCOMPARE(sparse->threadCount(), std::uint32_t(2));
        QVERIFY(!sparse->threadsFor(2).empty());
        auto huge = parseTrace("18446744073709551000,4096\n", "h.csv");
        QVERIFY(!huge);
        QVERIFY2(said(huge.error()).contains("past 2^64"), said(huge.error()));
    }

    void csvWithAndWithoutHeader() {
        auto plain = parseTrace("0,4096\n8192,100,1\n", "a.csv");
        QVERIFY(plain);
        QVERIFY(plain->reads == (std::vector<TraceRead>{{0, 4096, 0}, {8192, 100, 1}}));
        auto headed = parseTrace("offset,length,thread\n5,6,0\n", "b.csv");
        QVERIFY(headed);
        QVERIFY(headed->reads == pairs({{5, 6}}));
        auto bad = parseTrace("offset,length\n5,6\n7,x\n", "c.csv");
        QVERIFY(!bad);
        QVERIFY2(said(bad.error()).contains("c.csv line 3"), said(bad.error()));
        auto zero = parseTrace("0,0\n", "d.csv");
        QVERIFY(!zero);
        QVERIFY2(said(zero.error()).contains("0 bytes"), said(zero.error()));
    }

    void emptyAndUnknownAreRefused() {
        auto empty = parseTrace("\n\n", "e.trace");
        QVERIFY(!empty);
        QVERIFY2(said(empty.error()).contains("empty"), said(empty.error()));
        auto unknown = parseTrace("hello world\n", "u.txt");
        QVERIFY(!unknown);
        QVERIFY2(said(unknown.error()).contains("unknown trace format"), said(unknown.error()));
        auto headerOnly = parseTrace("offset,length\n", "h.csv");
        QVERIFY(!headerOnly);
        QVERIFY2(said(headerOnly.error()).contains("no reads"), said(headerOnly.error()));
        auto missing = loadTrace("/nonexistent/readscope.trace");
        QVERIFY(!missing);
        QVERIFY2(said(missing.error()).contains("cannot read the trace"), said(missing.error()));
    }

    void fioLogsBothVersions() {
        const char* v2 = "fio version 2 iolog\n"
                         "/tmp/my file.bin add\n"
                         "/tmp/other.bin add\n"
                         "/tmp/my file.bin open\n"
                         "/tmp/my file.bin read 61440 4096\n"
                         "/tmp/my file.bin write 0 4096\n"
                         "/tmp/other.bin read 0 512\n"
                         "/tmp/my file.bin read 774144 8192\n"
                         "/tmp/my file.bin close\n";
        auto t2 = parseTrace(v2, "job.log");
        QVERIFY2(t2, t2 ? "" : t2.error().message.c_str());
        QCOMPARE(t2->file, std::string("/tmp/my file.bin")); // the file most bytes were read from
        QVERIFY(t2->reads == pairs({{61440, 4096}, {774144, 8192}}));
        QCOMPARE(t2->notReplayed.size(), std::size_t(2)); // the other file; the write
        auto other = parseTrace(v2, "job.log", "/tmp/other.bin");
        QVERIFY(other);
        QVERIFY(other->reads == pairs({{0, 512}}));
        const char* v3 = "fio version 3 iolog\n"
                         "15 /tmp/d.bin add\n"
                         "127 /tmp/d.bin open\n"
                         "130 /tmp/d.bin read 61440 4096\n"
                         "393 /tmp/d.bin read 880640 4096\n"
                         "400 /tmp/d.bin close\n";
        auto t3 = parseTrace(v3, "job3.log");
        QVERIFY(t3);
        QVERIFY(t3->reads == pairs({{61440, 4096}, {880640, 4096}}));
        QVERIFY(t3->source.starts_with("fio iolog v3"));
    }

    void straceWithoutDashOMarksThreadsInBrackets() {
        const char* log = "openat(AT_FDCWD, \"/d/f.bin\", O_RDONLY) = 3</d/f.bin>\n"
                          "pread64(3</d/f.bin>, \"\"..., 100, 5) = 100\n"
                          "[pid  4242] pread64(3</d/f.bin>, \"\"..., 200, 900) = 200\n";
        auto t = parseTrace(log, "s.log");
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QVERIFY(t->reads == (std::vector<TraceRead>{{5, 100, 0}, {900, 200, 1}}));
    }

    void straceLogPositionsAndThreads() {
        // Two threads: pread64 at offsets, lseek + read at the position, preadv2 at -1 (the
        // position), a split unfinished/resumed read, a mapping, another file, a failed read.
        const char* log =
            "100 openat(AT_FDCWD</w>, \"/d/f.bin\", O_RDONLY) = 3</d/f.bin>\n"
            "100 openat(AT_FDCWD</w>, \"/d/g.bin\", O_RDONLY) = 4</d/g.bin>\n"
            "100 pread64(3</d/f.bin>, \"\"..., 4096, 1048576) = 4096\n"
            "100 lseek(3</d/f.bin>, 8192, SEEK_SET) = 8192\n"
            "100 read(3</d/f.bin>, \"\"..., 3000) = 3000\n"
            "100 read(3</d/f.bin>, \"\"..., 1000) = 1000\n"
            "100 preadv2(3</d/f.bin>, [{iov_base=\"\"..., iov_len=500}], 1, -1, 0) = 500\n"
            "101 pread64(3</d/f.bin>, <unfinished ...>\n"
            "100 read(4</d/g.bin>, \"\"..., 100) = 100\n"
            "101 <... pread64 resumed>\"\"..., 2048, 65536) = 2048\n"
            "100 pread64(3</d/f.bin>, 0x7f, 4096, 999999999) = -1 EINVAL (Invalid argument)\n"
            "100 mmap(NULL, 65536, PROT_READ, MAP_SHARED, 3</d/f.bin>, 0) = 0x7f0000000000\n"
            "100 read(3</d/f.bin>, \"\"..., 4096) = 0\n";
        auto t = parseTrace(log, "s.log");
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->file, std::string("/d/f.bin"));
        const std::vector<TraceRead> expected{{1048576, 4096, 0},
                                              {8192, 3000, 0},
                                              {11192, 1000, 0},
                                              {12192, 500, 0},
                                              {65536, 2048, 1}};
        QVERIFY(t->reads == expected);
        QCOMPARE(summarize(*t, std::nullopt).threads, std::uint32_t(2));
        bool mapped = false, others = false;
        for (const auto& note : t->notReplayed) {
            mapped = mapped || note.find("mapped the file") != std::string::npos;
            others = others || note.find("other file") != std::string::npos;
        }
        QVERIFY(mapped);
        QVERIFY(others);
    }

    void aLongTracesWindowIsItsFirstReadsWithinTheBudget() {
        Trace t;
        t.reads = pairs({{0, 100}, {100, 200}, {300, 300}, {600, 400}});
        QCOMPARE(t.windowReads(0), std::size_t(4));   // no budget: all of it
        QCOMPARE(t.windowReads(300), std::size_t(2)); // 100 + 200
        QCOMPARE(t.windowReads(599), std::size_t(2));
        QCOMPARE(t.windowReads(50), std::size_t(1)); // at least one read
        QCOMPARE(t.windowBytes(300), std::uint64_t(300));
        QCOMPARE(t.windowBytes(0), std::uint64_t(1000));
        Plan plan;
        plan.pattern = Pattern::Trace;
        plan.trace = std::make_shared<Trace>(t);
        plan.budget = 300;
        QVERIFY(
            patternWords(plan).starts_with("the first 2 reads (--budget 300 B) of a trace's 4"));
    }

    void aTracesPricesAreTakenAtItsBytesNotItsLargestRead() {
        Trace t;
        // Half of the 2108 bytes are read 1000 at a time; the 8-byte reads are many but few
        // bytes. The first three reads cover 0-1000 once; the fourth re-reads 0-1000.
        t.reads = pairs({{0, 8}, {8, 100}, {0, 1000}, {0, 1000}});
        QCOMPARE(t.byteMedianRead(0), std::uint64_t(1000));
        QCOMPARE(t.windowFootprint(0), std::uint64_t(1000));
        QCOMPARE(t.byteMedianRead(108), std::uint64_t(100)); // the window: 8 + 100
        QCOMPARE(t.windowFootprint(108), std::uint64_t(108));
        t.reads = pairs({{0, 10}, {10, 10}, {20, 10}, {4096, 25}});
        QCOMPARE(t.byteMedianRead(0), std::uint64_t(10)); // 30 of 55 bytes in 10-byte reads
        QCOMPARE(t.windowFootprint(0), std::uint64_t(55));
    }

    void aRuntimesOwnFilesAreNotTheTrace() {
        // The interpreter reads more of its libraries than the program reads of its data.
        const char* log =
            "openat(AT_FDCWD, \"/usr/lib/libc.so.6\", O_RDONLY) = 3</usr/lib/libc.so.6>\n"
            "read(3</usr/lib/libc.so.6>, \"\"..., 832) = 832\n"
            "openat(AT_FDCWD, \"/h/.pyenv/x/enc.pyc\", O_RDONLY) = 4</h/.pyenv/x/enc.pyc>\n"
            "read(4</h/.pyenv/x/enc.pyc>, \"\"..., 12000) = 12000\n"
            "openat(AT_FDCWD, \"/d/notes.txt\", O_RDONLY) = 6</d/notes.txt>\n"
            "read(6</d/notes.txt>, \"\"..., 500) = 500\n"
            "openat(AT_FDCWD, \"/d/f.bin\", O_RDONLY) = 5</d/f.bin>\n"
            "pread64(5</d/f.bin>, \"\"..., 100, 0) = 100\n";
        auto t = parseTrace(log, "s.log");
        QVERIFY(t);
        QCOMPARE(t->file, std::string("/d/notes.txt")); // the most read that is not the runtime's
        const std::vector<std::string> named{"/d/f.bin"};
        auto fromNamed = parseStraceLog(log, "s.log", {}, named); // a file the command named
        QVERIFY(fromNamed);
        QCOMPARE(fromNamed->file, std::string("/d/f.bin"));
        QVERIFY(fromNamed->reads == pairs({{0, 100}}));
        const std::string onlyRuntime(log, std::string_view(log).find("openat(AT_FDCWD, \"/d/"));
        auto none = parseTrace(onlyRuntime, "r.log");
        QVERIFY(!none);
        QVERIFY2(said(none.error()).contains("--file"), said(none.error()));
    }

    void summaryCountsSharesAndSizes() {
        Trace t;
        t.reads = pairs({{0, 4096}, {0, 4096}, {8192, 100}, {65536, 65536}});
        const auto s = summarize(t, std::uint64_t(1 << 20));
        QCOMPARE(s.reads, std::uint64_t(4));
        QCOMPARE(s.bytes, std::uint64_t(4096 * 2 + 100 + 65536));
        QCOMPARE(s.uniqueBytes, std::uint64_t(4096 + 100 + 65536));
        QVERIFY(s.fileTouched);
        QCOMPARE(*s.fileTouched, double(4096 + 100 + 65536) / double(1 << 20));
        QCOMPARE(s.reRead, 4096.0 / double(s.bytes));
        std::uint64_t counted = 0;
        for (auto [upTo, count] : s.histogram)
            counted += count;
        QCOMPARE(counted, std::uint64_t(4));
    }

    void documentsCarryTheTrace() {
        auto trace = std::make_shared<Trace>();
        trace->source = "fio iolog v3: job.log";
        trace->file = "/d/f.bin";
        trace->reads = {{4096, 512, 0}, {0, 100, 1}};
        ResultDocument doc;
        doc.plan.pattern = Pattern::Trace;
        doc.plan.trace = trace;
        doc.plan.tracePath = "/t/job.trace";
        doc.plan.strategies = {"pread-uninit"};
        Cell cell;
        cell.strategy = "pread-uninit";
        cell.rangeBytes = 512;
        doc.cells.push_back(cell);
        // JSON holds the reads themselves: a resumed run or the worker replays the same ones.
        auto back = fromJson(toJson(doc));
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QVERIFY(back->plan.pattern == Pattern::Trace);
        QVERIFY(back->plan.trace);
        QVERIFY(back->plan.trace->reads == trace->reads);
        QCOMPARE(back->plan.trace->source, trace->source);
        QCOMPARE(back->plan.tracePath, doc.plan.tracePath);
        QCOMPARE(patternWords(back->plan), patternWords(doc.plan));
        // CSV names the trace by path and digest; read back, the rerun has its path.
        const std::string csv = toSummaryCsv(doc);
        QVERIFY(csv.find("/t/job.trace," + traceDigest(trace->reads)) != std::string::npos);
        auto fromCsv = fromSummaryCsv(csv);
        QVERIFY(fromCsv);
        QVERIFY(fromCsv->plan.pattern == Pattern::Trace);
        QCOMPARE(fromCsv->plan.tracePath, doc.plan.tracePath);
    }

    void aTraceCellsTimeIsPerItsOwnReads() {
        // A trace of a 2 MiB read and a 4 KiB one: a read takes its share of the round's
        // bytes, not the largest read's.
        Cell cell;
        cell.status = CellStatus::Ok;
        cell.rangeBytes = 2 << 20;
        cell.rangesPerRound = 2;
        Sample sample;
        sample.bytes = (2 << 20) + 4096;
        cell.samples = {sample, sample, sample};
        cell.summary.median = 2.0; // GB/s
        const auto t = secondsPerRange(cell, 1);
        QVERIFY(t);
        QCOMPARE(*t, double((2 << 20) + 4096) / 2 / 2e9);
        // ... and reads per second are the trace's reads, not as many of its largest.
        QCOMPARE(medianIops(cell).value_or(0), 2e9 / (double((2 << 20) + 4096) / 2));
    }

    void aTraceRunIsRankedRoundForRound() {
        ResultDocument doc;
        doc.complete = true;
        doc.plan.pattern = Pattern::Trace;
        auto trace = std::make_shared<Trace>();
        trace->reads = pairs({{0, 500'000}, {1'000'000, 500'000}});
        doc.plan.trace = trace;
        const std::vector<double> tight{10.0, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.0, 10.03};
        std::vector<double> slower, noisy;
        for (std::size_t i = 0; i < tight.size(); ++i) {
            slower.push_back(tight[i] * 0.7);
            noisy.push_back(tight[i] * (i % 2 ? 1.3 : 0.72)); // a median near, rounds apart
        }
        doc.cells = {readscope::testing::cellWithRounds("mmap-copy", 500'000, slower),
                     readscope::testing::cellWithRounds("pread-uninit", 500'000, tight),
                     readscope::testing::cellWithRounds("pread-coalesce", 500'000, noisy)};
        const auto found = traceRanking(doc);
        QVERIFY(found);
        QCOMPARE(doc.cells[found->top].strategy, std::string("pread-uninit"));
        QCOMPARE(found->others.size(), std::size_t(2));
        for (const auto& cc : found->others) {
            if (cc.strategy == "mmap-copy") {
                QCOMPARE(int(cc.verdict.outcome), int(Outcome::Slower));
                QVERIFY(qAbs(*cc.verdict.change + 0.3) < 1e-9);
            } else {
                QCOMPARE(int(cc.verdict.outcome), int(Outcome::CannotTell)); // not "slower"
            }
        }
        const auto text = traceRankingText(*found, doc);
        QVERIFY2(text.find("pread-uninit has the highest median") != std::string::npos &&
                     text.find("0.10 ms a replay") != std::string::npos &&
                     text.find("mmap-copy 7.00 GB/s, -30% (slower)") != std::string::npos &&
                     text.find("cannot tell") != std::string::npos,
                 text.c_str());
        // In the run's findings, once; not for a fixed-size run.
        const auto all = runFindings(doc);
        QCOMPARE(std::count_if(all.begin(), all.end(),
                               [](const RunFinding& f) {
                                   return f.kind() == FindingKind::TraceRanking && !f.serious();
                               }),
                 std::ptrdiff_t(1));
        doc.plan.pattern = Pattern::Random;
        QVERIFY(!traceRanking(doc));
    }

    void aPlanRefusesReadsPastTheEnd() {
        auto trace = std::make_shared<Trace>();
        trace->source = "csv: t";
        trace->reads = pairs({{0, 4096}, {1 << 20, 4096}});
        Plan plan;
        plan.pattern = Pattern::Trace;
        plan.trace = trace;
        plan.tracePath = "/t/trace.csv";
        plan.strategies = {"pread-uninit"};
        plan.sizes.clear();
        FileProbe file;
        file.path = "/t/data.bin";
        file.size = 1 << 20;
        const auto st = validatePlan(plan, file);
        QVERIFY(!st);
        QVERIFY2(said(st.error()).contains("reads past the end") &&
                     said(st.error()).contains("read 2"),
                 said(st.error()));
        file.size = (1 << 20) + 4096;
        const auto fits = validatePlan(plan, file);
        QVERIFY2(fits, fits ? "" : fits.error().message.c_str());
        QVERIFY(effectiveSizes(plan, file.size) == std::vector<std::uint64_t>{4096});
        Plan none = plan;
        none.trace = nullptr;
        QVERIFY(!validatePlan(none, file));
        // One point only, and in rounds: no sweep over a trace, no duration.
        Plan swept = plan;
        swept.threadCounts = {1, 2};
        QVERIFY2(!validatePlan(swept, file) &&
                     said(validatePlan(swept, file).error()).contains("at one point"),
                 "a threads sweep over a trace");
        Plan timed = plan;
        timed.durationSeconds = 10;
        QVERIFY(!validatePlan(timed, file));
    }
};

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
