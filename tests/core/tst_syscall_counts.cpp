// The system calls the engine counts are the ones the kernel sees: each strategy's read runs
// under strace (tests/tools/count_calls.cpp, between two getppid() markers), and the calls
// its thread made between the markers are set against the count the read reported. Ranges
// for every strategy that reads ranges, whole files for every one that has a whole-file form.
// Skipped with a message where strace is not installed.
#include "test_file.h"

#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/strategy.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace readscope;
using namespace readscope::testing;

namespace {

struct Traced {
    long long counted = -1;  // what the engine said; -1: the helper failed
    long long seen = -1;     // the strategy's calls strace saw between the markers
    long long allocator = 0; // and the memory allocator's, which the engine does not count
    QStringList calls;       // the strategy's, for the failure message
    QString error;
};

// The memory allocator growing or trimming its heaps: brk, mprotect and mremap, an anonymous
// mmap, and the munmap or madvise of one (a sanitizer's allocator and shadow memory too). No
// strategy makes these on its own behalf; the engine cannot count them, and its help says so
// (syscallsCountedNote).
bool allocatorCall(const QString& name, const QString& text, QSet<QString>& anonymous) {
    static const QRegularExpression address(R"(^\d+\s+\w+\((0x[0-9a-f]+),)");
    static const QRegularExpression result(R"(=\s+(0x[0-9a-f]+)$)");
    if (name == "brk" || name == "mprotect" || name == "mremap")
        return true;
    if (name == "mmap" && text.contains("MAP_ANONYMOUS")) {
        anonymous.insert(result.match(text).captured(1));
        return true;
    }
    return (name == "munmap" || name == "madvise") &&
           anonymous.contains(address.match(text).captured(1));
}

// The helper's calls between its two getppid() markers, on its own (first) thread.
Traced trace(const QString& strace, const QString& id, const QString& file, quint64 size, int count,
             bool whole) {
    Traced out;
    QTemporaryDir dir;
    const QString log = dir.filePath("trace.log");
    QStringList args{"-f",
                     "-qq",
                     "-o",
                     log,
                     READSCOPE_COUNT_CALLS,
                     id,
                     file,
                     QString::number(size),
                     QString::number(count)};
    if (whole)
        args << "whole";
    QProcess p;
    // LeakSanitizer cannot run under ptrace: an ASan build's helper would die at its exit.
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + ":detect_leaks=0");
    p.setProcessEnvironment(env);
    p.start(strace, args);
    p.waitForFinished(120000);
    if (p.exitCode() != 0) {
        out.error = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
        return out;
    }
    out.counted = QString::fromLatin1(p.readAllStandardOutput()).trimmed().toLongLong();
    QFile f(log);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    static const QRegularExpression line(R"(^(\d+)\s+(?:<\.\.\. )?(\w+)(\(| resumed>))");
    QString main;
    QSet<QString> anonymous;
    int markers = 0;
    out.seen = 0;
    for (const QString& text : QString::fromLatin1(f.readAll()).split('\n')) {
        const auto m = line.match(text);
        if (!m.hasMatch())
            continue; // exits, signals
        if (main.isEmpty())
            main = m.captured(1);
        if (m.captured(1) != main || m.captured(3) != "(")
            continue; // another thread, or the rest of an interrupted call
        if (m.captured(2) == "getppid") {
            ++markers;
            continue;
        }
        const bool allocator = allocatorCall(m.captured(2), text, anonymous);
        if (markers == 1 && allocator)
            ++out.allocator;
        else if (markers == 1) {
            ++out.seen;
            out.calls << m.captured(2);
        }
    }
    if (markers != 2)
        out.seen = -1;
    return out;
}

} // namespace

class TestSyscallCounts : public QObject {
    Q_OBJECT
private slots:
    void everyStrategysCountIsWhatTheKernelSaw() {
        const QString strace = QStandardPaths::findExecutable("strace");
        if (strace.isEmpty())
            QSKIP("strace is not installed: the engine's system-call counts are not checked "
                  "(scripts/deps.sh --test installs it)");
        TestFile file(4 << 20);
        TestFile small(100000);
        const auto probe = probeFile(file.path());
        QVERIFY(probe.ok());
        int checked = 0;
        QStringList wrong, notRun, allocating;
        for (const auto& s : allStrategies()) {
            const QString id = QString::fromUtf8(s.id.data(), qsizetype(s.id.size()));
            if (!availability(s, *probe).available) {
                notRun << id;
                continue;
            }
            struct Case {
                bool whole;
                QString file;
            };
            std::vector<Case> cases;
            if (s.access != Access::AsRuntime)
                cases.push_back({false, QString::fromStdString(file.path())});
            if (wholeFileReadExclusion(s).empty())
                cases.push_back({true, QString::fromStdString(small.path())});
            for (const auto& c : cases) {
                const Traced t = trace(strace, id, c.file, 64 << 10, 16, c.whole);
                const QString what = QString("%1 (%2)").arg(id, c.whole ? "whole file" : "ranges");
                if (t.counted < 0 || t.seen < 0) {
                    wrong << what + ": could not trace: " + t.error;
                    continue;
                }
                ++checked;
                if (t.allocator)
                    allocating << QString("%1 %2").arg(what).arg(t.allocator);
                if (t.counted != t.seen)
                    wrong << QString("%1: the engine counted %2, strace saw %3 (%4)")
                                 .arg(what)
                                 .arg(t.counted)
                                 .arg(t.seen)
                                 .arg(t.calls.join(" "));
            }
        }
        qInfo("%d reads checked; not available here: %s", checked, qPrintable(notRun.join(", ")));
        QVERIFY2(wrong.isEmpty(), qPrintable("\n" + wrong.join("\n")));
        QVERIFY(checked >= 20);
    }
};

QTEST_GUILESS_MAIN(TestSyscallCounts)
#include "tst_syscall_counts.moc"
