// Each runtime strategy makes the system calls its runtime makes: the runtime's own call runs
// under strace on files of a few sizes, its calls on the file are taken from the trace (from
// the open to the close, in strace's words), and compared with the calls the strategy records
// reading the same file, and with the calls it plans for that size (its text and cost model).
// A runtime that is not installed here is skipped with a message.
#include "test_file.h"

#include "readscope/strategy.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <string>
#include <vector>

using namespace readscope;

namespace {

const QString kSources = READSCOPE_RUNTIME_SOURCES;

// Sizes around the runtimes' edges: under 512 (Go's minimum), a page, libstdc++'s 8191-byte
// chunk and one past it, powers of two for Rust's doubling, and an odd size.
const std::vector<std::uint64_t> kSizes = {100, 4096, 8191, 8192, 65536, 200000};

// "read(3, ""..., 129) = 128" and the like, for the calls on fd, in the runtime's words.
QString normalized(const QString& line, const QString& fd) {
    static const QRegularExpression call(R"(^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(.*)$)");
    const auto m = call.match(line);
    if (!m.hasMatch())
        return {};
    const QString name = m.captured(1), args = m.captured(2), result = m.captured(3);
    QStringList parts = args.split(", ");
    for (QString& part : parts)
        part = part.trimmed(); // "close(6 )": a call joined across an interruption
    if (name == "epoll_ctl")   // the descriptor is the third argument
        return parts.value(2) == fd ? "epoll_ctl " + parts.value(1).mid(10) : QString();
    if (name == "mmap") // the fifth
        return parts.value(4) == fd ? "mmap" : QString();
    if (parts.value(0) != fd)
        return {};
    if (name == "read")
        return QString("read %1 = %2").arg(parts.value(2), result);
    if (name == "lseek")
        return QString("lseek %1 %2").arg(parts.value(1), parts.value(2));
    if (name == "ioctl")
        return "ioctl " + parts.value(1);
    return name; // close, fstat, newfstatat, statx, and anything the strategy does not make
}

// Each call of an strace -f log once whole: a call another thread interrupted ("read(5,
// <unfinished ...>") joined with its rest ("<... read resumed>""..., 8191) = 8191") exactly
// as strace would have printed it uninterrupted, the space after the comma kept. A call is
// placed where it started, except one that makes a descriptor (open, dup), placed where it
// returned: the number is only its from then on, and another thread's close of the same
// number may start, and end, while the open waits ("openat(... <unfinished ...>",
// "close(4) = 0", "<... openat resumed>) = 4"), whereas a close gives its number up when it
// starts.
QStringList joinedCalls(const QString& log) {
    static const QRegularExpression pidPrefix(R"(^(\d+)\s+)");
    static const QRegularExpression resumed(R"(^<\.\.\. \w+ resumed>(.*)$)");
    static const QString unfinished = "<unfinished ...>";
    auto makesDescriptor = [](const QString& call) {
        return call.startsWith("open") || call.startsWith("dup");
    };
    QStringList calls;
    QMap<QString, int> pending;       // pid -> index of its unfinished call
    QMap<QString, QString> returning; // pid -> its unfinished open, placed when it returns
    for (const QString& raw : log.split('\n')) {
        const auto m = pidPrefix.match(raw);
        const QString pid = m.hasMatch() ? m.captured(1) : QString();
        const QString line = raw.mid(m.hasMatch() ? m.capturedLength(0) : 0).trimmed();
        const auto r = resumed.match(line);
        if (line.endsWith(unfinished)) {
            const QString start = line.chopped(int(unfinished.size()));
            if (makesDescriptor(start)) {
                returning[pid] = start;
            } else {
                pending[pid] = int(calls.size());
                calls << start;
            }
        } else if (r.hasMatch() && returning.contains(pid)) {
            calls << returning.take(pid) + r.captured(1);
        } else if (r.hasMatch() && pending.contains(pid)) {
            calls[pending.take(pid)] += r.captured(1);
        } else if (!line.isEmpty()) {
            calls << line;
        }
    }
    return calls;
}

// The calls each file got in a run of `program` under strace -f, in the order they started:
// one log for all threads (a goroutine may move to another thread between its open and its
// read), a call another thread interrupted ("<unfinished ...>") joined with its "resumed"
// rest. A call on the file's descriptor that is not in the runtime's words still shows, by
// its name, so a call the strategy does not make fails the comparison.
struct Traced {
    QString error;
    QMap<QString, QStringList> calls; // per file path
};

Traced straced(const QString& program, const QStringList& args, const QStringList& files) {
    Traced out;
    QTemporaryDir logs;
    QProcess p;
    QStringList all = {"-f",
                       "-qq",
                       "-s",
                       "0",
                       "-o",
                       logs.filePath("t"),
                       "-e",
                       "trace=openat,open,read,pread64,readv,preadv,preadv2,statx,fstat,"
                       "newfstatat,lseek,ioctl,close,epoll_ctl,fcntl,fadvise64,mmap,dup,dup2,"
                       "dup3,sendfile,copy_file_range,splice",
                       program};
    all += args;
    p.setProcessChannelMode(QProcess::MergedChannels);
    // The C++ helper is built with the sanitizers of an ASan build; LeakSanitizer cannot run
    // under ptrace, and its exit-time check makes no call on the file.
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("ASAN_OPTIONS", "detect_leaks=0");
    p.setProcessEnvironment(env);
    p.start("strace", all);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        out.error = QString("%1 under strace failed: %2").arg(program, QString(p.readAll()));
        return out;
    }
    QFile f(logs.filePath("t"));
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = "no strace log";
        return out;
    }
    const QStringList calls = joinedCalls(QString(f.readAll()));
    QMap<QString, QString> fdOf; // path -> its descriptor while open
    for (const QString& line : calls) {
        if (line.startsWith("openat(") || line.startsWith("open(")) {
            for (const QString& path : files)
                if (line.contains('"' + path + '"')) {
                    fdOf[path] = line.section("= ", -1).section(' ', 0, 0);
                    out.calls[path] << (line.contains("O_CLOEXEC") ? "openat O_CLOEXEC" : "openat");
                }
            continue;
        }
        for (auto it = fdOf.begin(); it != fdOf.end(); ++it) {
            const QString call = normalized(line, it.value());
            if (call.isEmpty())
                continue;
            out.calls[it.key()] << call;
            if (call == "close") {
                fdOf.erase(it);
                break;
            }
        }
    }
    return out;
}

QStringList recorded(const StrategyInfo& s, const std::string& path) {
    auto trace = traceRuntimeRead(s, path);
    if (!trace)
        qFatal("%s", trace.error().message.c_str());
    QStringList out;
    for (const auto& call : *trace)
        out << QString::fromStdString(call);
    return out;
}

QStringList planned(const StrategyInfo& s, std::uint64_t size) {
    QStringList out;
    for (const auto& call : runtimeCalls(s, size))
        out << QString::fromStdString(call);
    return out;
}

} // namespace

class TestRuntimeTraces : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QStringList files_;
    std::vector<std::unique_ptr<testing::TestFile>> keep_;

    // Compares, file by file, strategy `id`'s calls with the runtime's, as `program args`
    // made them on every test file.
    void compare(const char* id, const QString& program, const QStringList& args) {
        const StrategyInfo* s = findStrategy(id);
        QVERIFY(s);
        const Traced real = straced(program, args + files_, files_);
        QVERIFY2(real.error.isEmpty(), qPrintable(real.error));
        for (std::size_t i = 0; i < kSizes.size(); ++i) {
            const QString& file = files_[int(i)];
            const QStringList theirs = real.calls.value(file);
            const QStringList ours = recorded(*s, file.toStdString());
            QVERIFY2(!theirs.isEmpty(), qPrintable("no calls on " + file + " in the trace"));
            QVERIFY2(ours == theirs, qPrintable(QString("%1 at %2 bytes:\n  runtime:  %3\n  "
                                                        "strategy: %4")
                                                    .arg(id)
                                                    .arg(kSizes[i])
                                                    .arg(theirs.join(", "), ours.join(", "))));
            QCOMPARE(planned(*s, kSizes[i]), ours);
        }
    }

    // Runs a runtime's compiler: empty when it built, else what it said.
    static QString built(const QString& compiler, const QStringList& args,
                         const QProcessEnvironment& env) {
        QProcess build;
        build.setProcessEnvironment(env);
        build.setProcessChannelMode(QProcess::MergedChannels);
        build.start(compiler, args);
        if (build.waitForFinished(180000) && build.exitCode() == 0)
            return {};
        return compiler + " failed: " + QString(build.readAll());
    }

    static QString found(const char* program) { return QStandardPaths::findExecutable(program); }

private slots:
    void initTestCase() {
        if (found("strace").isEmpty())
            QSKIP("strace is not installed: the runtimes' calls cannot be traced (scripts/deps.sh "
                  "--test installs it)");
        for (auto size : kSizes) {
            keep_.push_back(std::make_unique<testing::TestFile>(
                size, QString("f%1.bin").arg(size).toUtf8().constData()));
            files_ << QString::fromStdString(keep_.back()->path());
        }
    }

    // The log's parser itself: an interrupted read is joined into the same call an
    // uninterrupted one is, so its size and result are read (a CI run once lost a Java read
    // of 8191 bytes this way, when a JVM thread interrupted it).
    void interruptedCallsAreJoinedAsWhole() {
        const QStringList calls =
            joinedCalls("12 read(5, <unfinished ...>\n"
                        "13 close(7)                  = 0\n"
                        "12 <... read resumed>\"\"..., 8191) = 8191\n"
                        "12 openat(AT_FDCWD, \"/f\", O_RDONLY <unfinished ...>\n"
                        "14 close(6 <unfinished ...>\n"
                        "14 <... close resumed>)      = 0\n"
                        "12 <... openat resumed>)     = 6\n");
        // Seen under load (a JVM's thread closing the number the open then got): the close
        // belongs before the open, else the file's calls end at another file's close.
        QCOMPARE(calls, QStringList({"read(5, \"\"..., 8191) = 8191",
                                     "close(7)                  = 0", "close(6 )      = 0",
                                     "openat(AT_FDCWD, \"/f\", O_RDONLY )     = 6"}));
        QCOMPARE(normalized(calls[0], "5"), QString("read 8191 = 8191"));
        QCOMPARE(normalized(calls[2], "6"), QString("close"));
    }

    void rustFsRead() { rust("rust-fs-read", "fs-read"); }
    void rustReadToEnd() { rust("rust-read-to-end", "read-to-end"); }

    void pythonRead() {
        const QString python = found("python3");
        if (python.isEmpty())
            QSKIP("python3 is not installed (Debian: python3; scripts/deps.sh --test installs it)");
        compare("python-read", python,
                {"-c", "import sys\nfor p in sys.argv[1:]: open(p, 'rb').read()"});
    }

    void nodeReadFileSync() {
        const QString node = found("node");
        if (node.isEmpty())
            QSKIP("node is not installed (Debian: nodejs; scripts/deps.sh --test installs it)");
        compare("node-readfilesync", node,
                {"-e", "for (const p of process.argv.slice(1)) require('fs').readFileSync(p)"});
    }

    void javaReadAllBytes() {
        const QString java = found("java");
        if (java.isEmpty())
            QSKIP("java is not installed (Debian: default-jdk-headless; scripts/deps.sh --test "
                  "installs it)");
        compare("java-readallbytes", java, {kSources + "/ReadAll.java"});
    }

    void goReadFile() {
        const QString go = found("go");
        if (go.isEmpty())
            QSKIP("go is not installed (Debian: golang-go; scripts/deps.sh --test installs it)");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("GOCACHE", READSCOPE_GO_CACHE);
        env.insert("HOME", dir_.path());
        const QString failed =
            built(go, {"build", "-o", dir_.filePath("go_read"), kSources + "/go_read.go"}, env);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        compare("go-readfile", dir_.filePath("go_read"), {});
    }

    // Node's pool and Java's direct buffer are kept per thread and replaced, not piled up: 200
    // thousand reads of a 100-byte file leave the process's peak memory where it was (a new
    // 8 KiB pool per 64 slices, never freed, would add 25 MiB).
    void keptBuffersAreReplacedNotLeaked() {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("not in this build: AddressSanitizer keeps freed memory in quarantine, so the peak "
              "grows anyway; "
              "LeakSanitizer reports a pool that is lost instead");
#endif
        const std::string small = files_.front().toStdString();
        auto peakKiB = [] {
            rusage u{};
            getrusage(RUSAGE_SELF, &u);
            return u.ru_maxrss;
        };
        for (const char* id : {"node-readfilesync", "java-readallbytes"}) {
            const StrategyInfo* s = findStrategy(id);
            (void)traceRuntimeRead(*s, small);
            const long before = peakKiB();
            for (int i = 0; i < 200000; ++i)
                if (!traceRuntimeRead(*s, small))
                    QFAIL("a read failed");
            QVERIFY2(
                peakKiB() - before < 8 << 10,
                qPrintable(
                    QString("%1: peak memory grew by %2 KiB").arg(id).arg(peakKiB() - before)));
        }
    }

    void cppIfstream() { compare("cpp-ifstream", READSCOPE_CPP_READ, {"iterator"}); }
    void cppIfstreamSeek() { compare("cpp-ifstream-seek", READSCOPE_CPP_READ, {"seek"}); }

private:
    void rust(const char* id, const char* mode) {
        const QString rustc = found("rustc");
        if (rustc.isEmpty())
            QSKIP("rustc is not installed: Rust 1.95 or later (rustup) runs this check");
        // The strategies reproduce Rust 1.95's calls; older std differs (Debian 12's 1.63
        // asks lseek(fd, 0, SEEK_CUR) in fs::read), so an older rustc cannot check them.
        QProcess version;
        version.start(rustc, {"--version"});
        version.waitForFinished();
        const QString said = QString(version.readAll()).trimmed(); // "rustc 1.95.0 (...)"
        const QStringList number = said.section(' ', 1, 1).split('.');
        if (number.size() < 2 || number[0].toInt() * 1000 + number[1].toInt() < 1095)
            QSKIP(qPrintable(said + " is older than Rust 1.95, whose calls " + id +
                             " reproduces: Rust 1.95 or later (rustup) runs this check"));
        const QString exe = dir_.filePath("rust_read");
        if (!QFile::exists(exe)) {
            const QString failed = built(rustc, {"-O", "-o", exe, kSources + "/rust_read.rs"},
                                         QProcessEnvironment::systemEnvironment());
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
        }
        compare(id, exe, {mode, "1"});
    }
};

QTEST_GUILESS_MAIN(TestRuntimeTraces)
#include "tst_runtime_traces.moc"
