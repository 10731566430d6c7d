// readscope-cli record, trace and run --trace end to end: a Python reader's ranges recorded
// exactly, replayed as the same preads, fio's I/O log imported as fio's ranges, and bad traces
// refused with exit 2 while the target file stays as it was.
#include "readscope/trace_formats.h"
#include "test_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <map>
#include <set>

using namespace readscope;
using readscope::testing::fileFingerprint;
using readscope::testing::TestFile;

namespace {

struct Outcome {
    int code = -1;
    QString out, err;
};

Outcome run(const QString& program, const QStringList& args,
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    // LeakSanitizer cannot run under ptrace: an ASan build's readscope-cli run under strace
    // would fail at its exit.
    if (program.endsWith("strace"))
        env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + ":detect_leaks=0");
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

Outcome cli(const QStringList& args) { return run(QStringLiteral(READSCOPE_CLI), args); }

// A reader as Parquet readers go: the footer's length, the footer, then 200 - 2 chunks of 3 KiB
// to 2 MiB at uneven offsets, some by os.pread and some by seek + read (unbuffered, so each is
// one read call). It writes the (offset, length) pairs it read to argv[2], one per line.
constexpr const char* kReader = R"(import os, random, sys
path, out = sys.argv[1], sys.argv[2]
size = os.path.getsize(path)
rng = random.Random(46)
done = []
fd = os.open(path, os.O_RDONLY)
f = open(path, 'rb', buffering=0)
def pread(off, n):
    assert len(os.pread(fd, n, off)) == n
    done.append((off, n))
def seekread(off, n):
    f.seek(off)
    assert len(f.read(n)) == n
    done.append((off, n))
pread(size - 8, 8)
pread(size - 8 - 40000, 40000)
while len(done) < 200:
    n = rng.randint(3 * 1024, 2 * 1024 * 1024)
    off = rng.randrange(0, size - n)
    (seekread if rng.random() < 0.3 else pread)(off, n)
with open(out, 'w') as o:
    for off, n in done:
        o.write(f'{off},{n}\n')
)";

std::vector<TraceRead> pairsIn(const QString& path) {
    std::vector<TraceRead> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const auto& line : f.readAll().split('\n')) {
        const auto cells = line.split(',');
        if (cells.size() == 2)
            out.push_back({cells[0].toULongLong(), cells[1].toULongLong(), 0});
    }
    return out;
}

// How many times `needle` occurs in `hay` as a contiguous run of (offset, length).
int occurrences(const std::vector<TraceRead>& hay, const std::vector<TraceRead>& needle) {
    int found = 0;
    for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        bool same = true;
        for (std::size_t j = 0; j < needle.size() && same; ++j)
            same = hay[i + j].offset == needle[j].offset && hay[i + j].length == needle[j].length;
        found += same ? 1 : 0;
    }
    return found;
}

bool sameRanges(const std::vector<TraceRead>& a, const std::vector<TraceRead>& b) {
    return a.size() == b.size() && occurrences(a, b) == 1;
}

QByteArray lines(const Outcome& o) { return (o.out + o.err).toUtf8(); }

} // namespace

class TestCliTrace : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;
    QString path_, dir_, python_, strace_;

private slots:
    void initTestCase() {
        file_ = std::make_unique<TestFile>(24 << 20);
        path_ = QString::fromStdString(file_->path());
        dir_ = file_->dir();
        // Debian's python3 (not a version manager's shim, which is a script of its own).
        python_ = QFile::exists("/usr/bin/python3")
                      ? QStringLiteral("/usr/bin/python3")
                      : QStandardPaths::findExecutable(QStringLiteral("python3"));
        strace_ = QStandardPaths::findExecutable(QStringLiteral("strace"));
        if (strace_.isEmpty())
            QSKIP("strace is not installed (scripts/deps.sh --test installs it)");
        if (python_.isEmpty())
            QSKIP("python3 is not installed");
    }

    void recordsThePythonReadersRangesInOrder() {
        QFile script(dir_ + "/reader.py");
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kReader);
        script.close();
        const QString trace = dir_ + "/reader.trace", done = dir_ + "/done.csv";
        const auto before = fileFingerprint(file_->path());
        const auto o = cli({"record", "--file", path_, "-o", trace, "--", python_,
                            script.fileName(), path_, done});
        QVERIFY2(o.code == 0, lines(o));
        QVERIFY2(o.out.contains("200 reads"), lines(o));
        const auto expected = pairsIn(done);
        QCOMPARE(expected.size(), std::size_t(200));
        auto recorded = loadTrace(trace.toStdString());
        QVERIFY2(recorded, recorded ? "" : recorded.error().message.c_str());
        QCOMPARE(recorded->reads.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(recorded->reads[i].offset == expected[i].offset &&
                         recorded->reads[i].length == expected[i].length,
                     qPrintable(QString("read %1: recorded %2,%3, read %4,%5")
                                    .arg(i + 1)
                                    .arg(recorded->reads[i].offset)
                                    .arg(recorded->reads[i].length)
                                    .arg(expected[i].offset)
                                    .arg(expected[i].length)));
        }
        QVERIFY(recorded->source.find("strace: ") == 0);
        QCOMPARE(recorded->fileBytes.value_or(0), file_->size());
        QCOMPARE(fileFingerprint(file_->path()), before);
    }

    void replayMakesTheSamePreadsInOrder() {
        const QString trace = dir_ + "/replay.csv", log = dir_ + "/replay.strace";
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("offset,length\n");
        const std::vector<TraceRead> reads{{20 << 20, 8, 0},    {(20 << 20) - 40000, 40000, 0},
                                           {12345, 3 << 10, 0}, {4 << 20, 2 << 20, 0},
                                           {99999, 70000, 0},   {1 << 20, 5000, 0}};
        for (const auto& r : reads)
            f.write(QByteArray::number(qulonglong(r.offset)) + "," +
                    QByteArray::number(qulonglong(r.length)) + "\n");
        f.close();
        const QString json = dir_ + "/replay.json";
        const auto o =
            run(strace_, {"-f",           "-qq",           "-s",      "0",        "-y",
                          "-e",           "trace=pread64", "-o",      log,        READSCOPE_CLI,
                          "run",          path_,           "--trace", trace,      "--strategies",
                          "pread-uninit", "--rounds",      "3",       "--warmup", "0",
                          "--quiet",      "--json",        json});
        QVERIFY2(o.code == 0, lines(o));
        // Its row is the trace (not its largest read), and the footer names it.
        QVERIFY2(o.out.contains("\ntrace     pread-uninit") &&
                     o.out.contains("a trace's 6 reads of"),
                 lines(o));
        auto seen = loadTrace(log.toStdString(), file_->path());
        QVERIFY2(seen, seen ? "" : seen.error().message.c_str());
        // Every measured round replays the whole trace, in its order.
        QVERIFY2(occurrences(seen->reads, reads) >= 3,
                 qPrintable(QString("the trace's preads were made in order %1 times")
                                .arg(occurrences(seen->reads, reads))));
        // The result names the trace, and its rerun command carries it.
        QFile result(json);
        QVERIFY(result.open(QIODevice::ReadOnly));
        const auto doc = QJsonDocument::fromJson(result.readAll()).object();
        const auto named = doc["plan"].toObject()["trace"].toObject();
        QCOMPARE(named["path"].toString(), trace);
        QCOMPARE(named["reads"].toArray().size(), qsizetype(reads.size()));
        QCOMPARE(named["digest"].toString(), QString::fromStdString(traceDigest(reads)));
        // Warm, a round replays the trace whole as often as the round time asks: whole
        // replays, more than one for a trace this short.
        for (const auto& cell : doc["cells"].toArray()) {
            const auto perRound = cell.toObject()["ranges_per_round"].toInteger();
            QVERIFY2(perRound % qint64(reads.size()) == 0 && perRound > qint64(reads.size()),
                     qPrintable(QString::number(perRound)));
        }
        // Cold, once: a second replay would find the first one's pages in the cache.
        const QString coldJson = dir_ + "/replay-cold.json";
        const auto cold =
            cli({"run", path_, "--trace", trace, "--strategies", "pread-uninit", "--cache", "cold",
                 "--rounds", "3", "--warmup", "0", "--quiet", "--json", coldJson});
        QVERIFY2(cold.code == 0, lines(cold));
        QFile coldResult(coldJson);
        QVERIFY(coldResult.open(QIODevice::ReadOnly));
        for (const auto& cell : QJsonDocument::fromJson(coldResult.readAll())["cells"].toArray())
            QCOMPARE(cell.toObject()["ranges_per_round"].toInteger(), qint64(reads.size()));
        const auto table = cli({"compare", json, json});
        QVERIFY2(table.code == 0, lines(table));
    }

    void recordedThreadsAreReplayedAsThreads() {
        // Two recorded threads, interleaved; replayed with two threads, each worker reads its
        // thread's reads in their order (the strace log's pids show which thread read what).
        const QString trace = dir_ + "/threads.csv", log = dir_ + "/threads.strace";
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("offset,length,thread\n");
        std::vector<TraceRead> reads[2];
        for (int i = 0; i < 12; ++i) {
            const TraceRead r{std::uint64_t(i) * 1234567 % (20 << 20),
                              4096 + std::uint64_t(i) * 999, std::uint32_t(i % 3 == 0 ? 1 : 0)};
            reads[r.thread].push_back(r);
            f.write(QByteArray::number(qulonglong(r.offset)) + "," +
                    QByteArray::number(qulonglong(r.length)) + "," + QByteArray::number(r.thread) +
                    "\n");
        }
        f.close();
        const auto o = run(strace_, {"-f",
                                     "-qq",
                                     "-s",
                                     "0",
                                     "-y",
                                     "-e",
                                     "trace=pread64",
                                     "-o",
                                     log,
                                     READSCOPE_CLI,
                                     "run",
                                     path_,
                                     "--trace",
                                     trace,
                                     "--strategies",
                                     "pread-uninit",
                                     "--threads",
                                     "2",
                                     "--rounds",
                                     "3",
                                     "--warmup",
                                     "0",
                                     "--quiet"});
        QVERIFY2(o.code == 0, lines(o));
        auto seen = loadTrace(log.toStdString(), file_->path());
        QVERIFY2(seen, seen ? "" : seen.error().message.c_str());
        std::map<std::uint32_t, std::vector<TraceRead>> byPid;
        for (const auto& r : seen->reads)
            byPid[r.thread].push_back(r);
        std::set<std::uint32_t> readers[2];
        for (const auto& [pid, pidReads] : byPid)
            for (int t = 0; t < 2; ++t)
                if (occurrences(pidReads, reads[t]) >= 3)
                    readers[t].insert(pid);
        QVERIFY2(!readers[0].empty() && !readers[1].empty(),
                 "each recorded thread's reads were not made in order by a thread of their own");
        QVERIFY(readers[0] != readers[1]);
    }

    void fioLogImportsFiosRanges() {
        const QString fio = QStandardPaths::findExecutable(QStringLiteral("fio"));
        if (fio.isEmpty())
            QSKIP("fio is not installed (scripts/deps.sh --test installs it)");
        const QString log = dir_ + "/fio.log", out = dir_ + "/fio.trace";
        const auto ran =
            run(fio, {"--name=j", "--filename=" + path_, "--rw=randread", "--bs=4k", "--size=16M",
                      "--io_size=256k", "--ioengine=psync", "--write_iolog=" + log});
        QVERIFY2(ran.code == 0, lines(ran));
        // fio's own reads, from its log's read lines.
        std::vector<TraceRead> fios;
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const auto& line : f.readAll().split('\n')) {
            const auto w = line.simplified().split(' ');
            if (w.size() >= 4 && w[w.size() - 3] == "read")
                fios.push_back({w[w.size() - 2].toULongLong(), w.back().toULongLong(), 0});
        }
        QCOMPARE(fios.size(), std::size_t(64));
        const auto o = cli({"trace", log, "-o", out});
        QVERIFY2(o.code == 0, lines(o));
        QVERIFY2(o.out.contains("64 reads"), lines(o));
        auto imported = loadTrace(out.toStdString());
        QVERIFY(imported);
        QVERIFY(sameRanges(imported->reads, fios));
        QVERIFY(imported->source.find("fio iolog v") == 0);
    }

    void badTracesExitTwoAndLeaveTheFile() {
        const auto before = fileFingerprint(file_->path());
        auto write = [this](const QString& name, const QByteArray& content) {
            QFile f(dir_ + "/" + name);
            if (f.open(QIODevice::WriteOnly))
                f.write(content);
            return f.fileName();
        };
        const struct {
            QString trace;
            const char* said;
        } cases[] = {
            {write("past.csv", "0,4096\n25165000,4096\n"), "reads past the end"},
            {write("empty.trace", ""), "is empty"},
            {write("unknown.txt", "hello, world\n"), "unknown trace format"},
            {dir_ + "/missing.trace", "cannot read the trace"},
            {dir_, "is a folder"},
            {"/dev/zero", "not a regular file"},
            {write("binary.trace", QByteArray("\x7f"
                                              "ELF\x02\x01\x01\0\0\0",
                                              10)),
             "first line is '?ELF"},
        };
        for (const auto& c : cases) {
            const auto o = cli({"run", path_, "--trace", c.trace, "--strategies", "pread-uninit",
                                "--rounds", "2", "--warmup", "0", "--quiet"});
            QVERIFY2(o.code == 2, lines(o));
            QVERIFY2(o.err.contains(c.said), lines(o));
            QVERIFY2(o.err.contains(c.trace), lines(o));
        }
        const auto sized = cli({"run", path_, "--trace", dir_ + "/past.csv", "--sizes", "4K"});
        QCOMPARE(sized.code, 2);
        for (const char* pattern : {"random", "whole"}) // before --trace and after it
            for (bool first : {true, false}) {
                QStringList args{"run", path_, "--trace", dir_ + "/past.csv"};
                args.insert(first ? 2 : 4, "--pattern");
                args.insert(first ? 3 : 5, pattern);
                const auto o = cli(args);
                QVERIFY2(o.code == 2 && o.err.contains("does not apply to a trace"), lines(o));
            }
        QCOMPARE(fileFingerprint(file_->path()), before);
    }

    void theShippedTraceIsWhatItsProgramReads() {
        // The lesson's trace against the ranges its program says it reads, on a file as large
        // as the one it was recorded from.
        const QString dir = QStringLiteral(READSCOPE_RESOURCES) + "/traces";
        auto shipped = loadTrace((dir + "/columnar-reader.trace").toStdString());
        QVERIFY2(shipped, shipped ? "" : shipped.error().message.c_str());
        TestFile file(shipped->fileBytes.value_or(0));
        const auto o = run(
            python_, {dir + "/columnar_reader.py", QString::fromStdString(file.path()), "--print"});
        QVERIFY2(o.code == 0, lines(o));
        const QString printed = dir_ + "/printed.csv";
        QFile out(printed);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(o.out.toUtf8());
        out.close();
        QVERIFY(sameRanges(shipped->reads, pairsIn(printed)));
    }

    void recordKeepsTheFileTheCommandNamed() {
        // A reader that reads less of its data than Python reads of its own files: the file
        // on the command line is kept, not the interpreter's.
        const QString trace = dir_ + "/small.trace";
        const auto o = cli({"record", "-o", trace, "--", python_, "-c",
                            "import os,sys\nfd=os.open(sys.argv[1],os.O_RDONLY)\n"
                            "[os.pread(fd,100,i*9000) for i in range(3)]",
                            path_});
        QVERIFY2(o.code == 0, lines(o));
        QVERIFY2(o.out.contains("Kept the reads of " + path_), lines(o));
        auto kept = loadTrace(trace.toStdString());
        QVERIFY(kept);
        QVERIFY(kept->reads ==
                (std::vector<TraceRead>{{0, 100, 0}, {9000, 100, 0}, {18000, 100, 0}}));
        // Its options without -- are taken for record's own: said, with the way out.
        const auto bare = cli({"record", "-o", trace, python_, "-c", "pass"});
        QCOMPARE(bare.code, 2);
        QVERIFY2(bare.err.contains("put -- before the command"), lines(bare));
        const auto missing = cli({"record", "-o", trace, "--", dir_ + "/no-such-program"});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("cannot find the command"), lines(missing));
        // The trace never goes over the file it was read from.
        const auto before = fileFingerprint(file_->path());
        const auto over =
            cli({"record", "-o", path_, "--", python_, "-c",
                 "import os,sys\nos.pread(os.open(sys.argv[1],os.O_RDONLY),100,0)", path_});
        QVERIFY2(over.code == 2 && over.err.contains("never writes to it"), lines(over));
        QCOMPARE(fileFingerprint(file_->path()), before);
        const auto noOutput = cli({"record", "--", python_, "-c", "pass"});
        QCOMPARE(noOutput.code, 2);
        QVERIFY2(noOutput.err.contains("give -o TRACE"), lines(noOutput));
    }

    void recordSaysWhenStraceIsMissing() {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", dir_ + "/no-such-folder");
        const auto o = run(READSCOPE_CLI,
                           {"record", "-o", dir_ + "/x.trace", "--", python_, "-c", "pass"}, env);
        QCOMPARE(o.code, 1);
        QVERIFY2(o.err.contains("strace") && o.err.contains("not on PATH"), lines(o));
        QVERIFY(!QFile::exists(dir_ + "/x.trace"));
    }
};

QTEST_GUILESS_MAIN(TestCliTrace)
#include "tst_cli_trace.moc"
